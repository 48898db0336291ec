package dev.llmsafe.plan;

import java.sql.JDBCType;
import java.sql.SQLType;
import java.sql.Types;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Objects;
import java.util.TimeZone;

/**
 * One JDBC parameter of a planned statement exactly as the application bound it (D16): the setter, its
 * SQL type, scale or length, the Java class of the value and the value as canonical text, and the time
 * zone the driver converts it in. The dry run and the apply replay it through the same setter of the
 * vendor driver ({@link ParameterReplay}), so the database evaluates the statement the application
 * sent, not one llmsafe re-typed.
 *
 * @param setter the JDBC method
 * @param sqlType the {@link java.sql.Types} code given to {@code setNull} or {@code setObject}, or the
 *     vendor type number of an {@link SQLType}; null for setters that take none
 * @param typeName {@code setNull}'s type name, or the {@link SQLType}'s name; null otherwise
 * @param typeVendor the {@link SQLType}'s vendor ({@code java.sql} for {@link JDBCType}); null otherwise
 * @param typeClass the class of the {@link SQLType} (an enum), to find it again; null otherwise
 * @param scaleOrLength {@code setObject}'s scale or length; null for setters that take none
 * @param javaClass the value's class ({@code [B} for bytes); null when the value is null
 * @param value the value as canonical text ({@link ParameterValues}); null for SQL NULL
 * @param zone the time zone the driver converts the value in: the Calendar's for the Calendar
 *     setters, the JVM's default at bind time for java.sql and java.util dates and the offset and
 *     zoned java.time types; null where no zone takes part
 */
public record Parameter(Setter setter, Integer sqlType, String typeName, String typeVendor, String typeClass,
        Integer scaleOrLength, String javaClass, String value, String zone) {

    /** Checks that the fields are those the setter takes. */
    public Parameter {
        Objects.requireNonNull(setter, "setter");
        boolean typed = setter.takesSqlType() || setter.takesSqlTypeObject();
        if (typed != (sqlType != null)) {
            throw new IllegalArgumentException(setter.signature() + (typed ? " needs" : " takes no") + " SQL type");
        }
        if (setter.takesSqlTypeObject() != (typeClass != null) || (setter.takesSqlTypeObject() && typeName == null)) {
            throw new IllegalArgumentException(setter.signature() + " needs the SQLType's class and name, and only it");
        }
        if (typeName != null && setter != Setter.SET_NULL_TYPE_NAME && !setter.takesSqlTypeObject()) {
            throw new IllegalArgumentException(setter.signature() + " takes no type name");
        }
        if (setter.takesScale() != (scaleOrLength != null)) {
            throw new IllegalArgumentException(setter.signature() + (setter.takesScale() ? " needs" : " takes no")
                    + " scale or length");
        }
        if ((javaClass == null) != (value == null)) {
            throw new IllegalArgumentException("a parameter value needs its class, and only a value has one");
        }
        if (setter.isNull() && value != null) {
            throw new IllegalArgumentException(setter.signature() + " binds no value");
        }
        if (setter != Setter.NOT_RECORDED) {
            if (javaClass != null && !ParameterValues.known(javaClass)) {
                throw new IllegalArgumentException("no parameter value of class " + javaClass);
            }
            boolean zoned = setter.takesCalendar() || ParameterValues.zoned(javaClass);
            if (zoned != (zone != null)) {
                throw new IllegalArgumentException("a " + (javaClass == null ? "NULL" : javaClass) + " parameter bound"
                        + " with " + setter.method() + (zoned ? " needs" : " takes no") + " time zone");
            }
        }
    }

    /**
     * The parameter an application binds with the setter JDBC has for the value's class: setString
     * for a String, setInt for an Integer, setLong for a Long, setTimestamp for a java.sql.Timestamp,
     * {@code setNull(index, Types.NULL)} for null, and setObject for the other classes.
     *
     * @throws IllegalArgumentException for a value that cannot be kept exactly
     */
    public static Parameter of(Object v) {
        if (v == null) {
            return ofNull(Types.NULL);
        }
        return of(natural(v), v);
    }

    private static Setter natural(Object v) {
        return switch (v.getClass().getName()) {
            case "java.lang.String" -> Setter.SET_STRING;
            case "java.lang.Boolean" -> Setter.SET_BOOLEAN;
            case "java.lang.Byte" -> Setter.SET_BYTE;
            case "java.lang.Short" -> Setter.SET_SHORT;
            case "java.lang.Integer" -> Setter.SET_INT;
            case "java.lang.Long" -> Setter.SET_LONG;
            case "java.lang.Float" -> Setter.SET_FLOAT;
            case "java.lang.Double" -> Setter.SET_DOUBLE;
            case "java.math.BigDecimal" -> Setter.SET_BIG_DECIMAL;
            case "[B" -> Setter.SET_BYTES;
            case "java.sql.Date" -> Setter.SET_DATE;
            case "java.sql.Time" -> Setter.SET_TIME;
            case "java.sql.Timestamp" -> Setter.SET_TIMESTAMP;
            case "java.net.URL" -> Setter.SET_URL;
            default -> Setter.SET_OBJECT;
        };
    }

    /**
     * A value bound with a setter that takes nothing but the value: {@code setInt}, {@code setString},
     * {@code setTimestamp}, {@code setObject(int, Object)}, ...
     *
     * @throws IllegalArgumentException for a setter that takes more, a value of another class than the
     *     setter's, or one that cannot be kept exactly
     */
    public static Parameter of(Setter setter, Object v) {
        if (setter.takesSqlType() || setter.takesSqlTypeObject() || setter.takesScale() || setter.takesCalendar()
                || setter == Setter.NOT_RECORDED) {
            throw new IllegalArgumentException(setter.signature() + " takes more than a value");
        }
        ParameterValues.Kept k = kept(setter, v);
        return new Parameter(setter, null, null, null, null, null, cls(k), text(k), jvmZone(k));
    }

    /** {@code setNull(index, sqlType)}. */
    public static Parameter ofNull(int sqlType) {
        return new Parameter(Setter.SET_NULL, sqlType, null, null, null, null, null, null, null);
    }

    /** {@code setNull(index, sqlType, typeName)}. */
    public static Parameter ofNull(int sqlType, String typeName) {
        return new Parameter(Setter.SET_NULL_TYPE_NAME, sqlType, typeName, null, null, null, null, null, null);
    }

    /** {@code setObject(index, v, sqlType)}. */
    public static Parameter ofObject(Object v, int sqlType) {
        ParameterValues.Kept k = ParameterValues.keep(v);
        return new Parameter(Setter.SET_OBJECT_TYPE, sqlType, null, null, null, null, cls(k), text(k), jvmZone(k));
    }

    /** {@code setObject(index, v, sqlType, scaleOrLength)}. */
    public static Parameter ofObject(Object v, int sqlType, int scaleOrLength) {
        ParameterValues.Kept k = ParameterValues.keep(v);
        return new Parameter(Setter.SET_OBJECT_TYPE_SCALE, sqlType, null, null, null, scaleOrLength, cls(k), text(k),
                jvmZone(k));
    }

    /**
     * {@code setObject(index, v, sqlType)} with an {@link SQLType}, kept by its class and name. Only an
     * enum can be found again by name at apply; another SQLType is refused.
     */
    public static Parameter ofObject(Object v, SQLType sqlType) {
        return ofObject(Setter.SET_OBJECT_SQL_TYPE, v, sqlType, null);
    }

    /** {@code setObject(index, v, sqlType, scaleOrLength)} with an {@link SQLType}. */
    public static Parameter ofObject(Object v, SQLType sqlType, int scaleOrLength) {
        return ofObject(Setter.SET_OBJECT_SQL_TYPE_SCALE, v, sqlType, scaleOrLength);
    }

    private static Parameter ofObject(Setter setter, Object v, SQLType t, Integer scale) {
        Objects.requireNonNull(t, "sqlType");
        if (!(t instanceof Enum<?> e) || t.getVendorTypeNumber() == null) {
            throw new IllegalArgumentException("the SQLType " + t.getName() + " (" + t.getClass().getName() + ") is not"
                    + " an enum constant with a vendor type number, so it cannot be found again at apply; pass"
                    + " java.sql.JDBCType or the int type");
        }
        ParameterValues.Kept k = ParameterValues.keep(v);
        return new Parameter(setter, t.getVendorTypeNumber(), e.name(), t.getVendor(), e.getDeclaringClass().getName(),
                scale, cls(k), text(k), jvmZone(k));
    }

    /**
     * {@code setDate}, {@code setTime} or {@code setTimestamp} with a Calendar, kept as the calendar's
     * time zone. Only a plain GregorianCalendar whose zone is a named zone of the JVM's database can be
     * made again; anything else (another calendar system, a custom zone) is refused.
     */
    public static Parameter withCalendar(Setter setter, java.util.Date v, Calendar cal) {
        if (!setter.takesCalendar()) {
            throw new IllegalArgumentException(setter.signature() + " takes no Calendar");
        }
        ParameterValues.Kept k = kept(setter, v);
        String zone = calendarZone(cal);
        return new Parameter(setter, null, null, null, null, null, cls(k), text(k), zone);
    }

    /** A Calendar that can be made again from its time zone's id alone, or a refusal. */
    static String calendarZone(Calendar cal) {
        if (cal == null) {
            throw new IllegalArgumentException("a null Calendar: bind without one");
        }
        TimeZone tz = cal.getTimeZone();
        Calendar again = new GregorianCalendar(TimeZone.getTimeZone(tz.getID()));
        if (cal.getClass() != GregorianCalendar.class || !TimeZone.getTimeZone(tz.getID()).hasSameRules(tz)
                || !tz.getID().equals(TimeZone.getTimeZone(tz.getID()).getID()) || cal.isLenient() != again.isLenient()
                || cal.getFirstDayOfWeek() != again.getFirstDayOfWeek()
                || cal.getMinimalDaysInFirstWeek() != again.getMinimalDaysInFirstWeek()
                || !((GregorianCalendar) cal).getGregorianChange().equals(((GregorianCalendar) again).getGregorianChange())) {
            throw new IllegalArgumentException("the Calendar (" + cal.getClass().getName() + " in " + tz.getID() + ") is"
                    + " not a plain GregorianCalendar of a named time zone, so it cannot be made again at apply; pass"
                    + " Calendar.getInstance(TimeZone.getTimeZone(\"<zone id>\"))");
        }
        return tz.getID();
    }

    private static ParameterValues.Kept kept(Setter setter, Object v) {
        Class<?> wanted = switch (setter) {
            case SET_BOOLEAN -> Boolean.class;
            case SET_BYTE -> Byte.class;
            case SET_SHORT -> Short.class;
            case SET_INT -> Integer.class;
            case SET_LONG -> Long.class;
            case SET_FLOAT -> Float.class;
            case SET_DOUBLE -> Double.class;
            case SET_BIG_DECIMAL -> java.math.BigDecimal.class;
            case SET_STRING, SET_NSTRING -> String.class;
            case SET_BYTES -> byte[].class;
            case SET_DATE, SET_DATE_CALENDAR -> java.sql.Date.class;
            case SET_TIME, SET_TIME_CALENDAR -> java.sql.Time.class;
            case SET_TIMESTAMP, SET_TIMESTAMP_CALENDAR -> java.sql.Timestamp.class;
            case SET_URL -> java.net.URL.class;
            default -> null;
        };
        if (setter.isNull()) {
            throw new IllegalArgumentException(setter.signature() + " binds no value");
        }
        if (v != null && wanted != null && v.getClass() != wanted) {
            throw new IllegalArgumentException(setter.method() + " takes a " + wanted.getSimpleName() + ", not a "
                    + v.getClass().getName());
        }
        if (v == null && (setter == Setter.SET_BOOLEAN || setter == Setter.SET_BYTE || setter == Setter.SET_SHORT
                || setter == Setter.SET_INT || setter == Setter.SET_LONG || setter == Setter.SET_FLOAT
                || setter == Setter.SET_DOUBLE)) {
            throw new IllegalArgumentException(setter.method() + " takes a primitive value, never null");
        }
        return ParameterValues.keep(v);
    }

    private static String cls(ParameterValues.Kept k) {
        return k == null ? null : k.javaClass();
    }

    private static String text(ParameterValues.Kept k) {
        return k == null ? null : k.text();
    }

    private static String jvmZone(ParameterValues.Kept k) {
        return k != null && ParameterValues.zoned(k.javaClass()) ? TimeZone.getDefault().getID() : null;
    }

    /** The value again, as the Java object the application bound (null for NULL). */
    public Object javaValue() {
        if (setter == Setter.NOT_RECORDED) {
            throw new IllegalStateException("a parameter of an llmsafe-plan/1 plan keeps no Java value");
        }
        return ParameterValues.restore(javaClass, value);
    }

    /**
     * How the card shows it: the value (text quoted, NULL as NULL, bytes by size, a java.sql date as the
     * wall clock the driver sends), then the setter with its SQL type and zone, in parentheses.
     */
    public String render() {
        return ParameterText.render(this);
    }
}
