package dev.llmsafe.plan;

/**
 * The JDBC setter a parameter was bound with, one constant per method signature of
 * {@link java.sql.PreparedStatement} whose value can be kept exactly (D16). The dry run and the apply
 * call the same method of the vendor driver with the same arguments, because the database evaluates
 * what the driver sends, and each setter sends something else: {@code setInt} an int4 where
 * {@code setLong} sends an int8 (PostgreSQL then refuses {@code round(numeric, bigint)}, or computes
 * {@code i4 * ?} in 64 bits where the application's statement overflows), {@code setFloat(0.1f)} the
 * float 0.1 where {@code setDouble} sends 0.10000000149011612.
 *
 * <p>Streams, LOBs, arrays, Ref, RowId and SQLXML are not here: their content is read by the vendor
 * driver when the statement runs, so it cannot be kept and sent again; a plan refuses them
 * ({@code PARAMETER_NOT_REPLAYABLE}).
 */
public enum Setter {
    /** {@code setNull(int, int)}. */
    SET_NULL("setNull(int, int)"),
    /** {@code setNull(int, int, String)}. */
    SET_NULL_TYPE_NAME("setNull(int, int, String)"),
    /** {@code setBoolean(int, boolean)}. */
    SET_BOOLEAN("setBoolean(int, boolean)"),
    /** {@code setByte(int, byte)}. */
    SET_BYTE("setByte(int, byte)"),
    /** {@code setShort(int, short)}. */
    SET_SHORT("setShort(int, short)"),
    /** {@code setInt(int, int)}. */
    SET_INT("setInt(int, int)"),
    /** {@code setLong(int, long)}. */
    SET_LONG("setLong(int, long)"),
    /** {@code setFloat(int, float)}. */
    SET_FLOAT("setFloat(int, float)"),
    /** {@code setDouble(int, double)}. */
    SET_DOUBLE("setDouble(int, double)"),
    /** {@code setBigDecimal(int, BigDecimal)}. */
    SET_BIG_DECIMAL("setBigDecimal(int, BigDecimal)"),
    /** {@code setString(int, String)}. */
    SET_STRING("setString(int, String)"),
    /** {@code setNString(int, String)}. */
    SET_NSTRING("setNString(int, String)"),
    /** {@code setBytes(int, byte[])}. */
    SET_BYTES("setBytes(int, byte[])"),
    /** {@code setDate(int, java.sql.Date)}: the driver converts it in the JVM's default time zone. */
    SET_DATE("setDate(int, Date)"),
    /** {@code setDate(int, java.sql.Date, Calendar)}: converted in the calendar's time zone. */
    SET_DATE_CALENDAR("setDate(int, Date, Calendar)"),
    /** {@code setTime(int, java.sql.Time)}. */
    SET_TIME("setTime(int, Time)"),
    /** {@code setTime(int, java.sql.Time, Calendar)}. */
    SET_TIME_CALENDAR("setTime(int, Time, Calendar)"),
    /** {@code setTimestamp(int, java.sql.Timestamp)}. */
    SET_TIMESTAMP("setTimestamp(int, Timestamp)"),
    /** {@code setTimestamp(int, java.sql.Timestamp, Calendar)}. */
    SET_TIMESTAMP_CALENDAR("setTimestamp(int, Timestamp, Calendar)"),
    /** {@code setURL(int, URL)}. */
    SET_URL("setURL(int, URL)"),
    /** {@code setObject(int, Object)}. */
    SET_OBJECT("setObject(int, Object)"),
    /** {@code setObject(int, Object, int)}. */
    SET_OBJECT_TYPE("setObject(int, Object, int)"),
    /** {@code setObject(int, Object, int, int)}. */
    SET_OBJECT_TYPE_SCALE("setObject(int, Object, int, int)"),
    /** {@code setObject(int, Object, SQLType)}, where the vendor driver implements it. */
    SET_OBJECT_SQL_TYPE("setObject(int, Object, SQLType)"),
    /** {@code setObject(int, Object, SQLType, int)}, where the vendor driver implements it. */
    SET_OBJECT_SQL_TYPE_SCALE("setObject(int, Object, SQLType, int)"),
    /**
     * A parameter of a plan stored in format {@code llmsafe-plan/1}, which kept only a kind of value and
     * bound it with llmsafe's own setters: which setter the application used is not known, so such a
     * plan is shown but never applied.
     */
    NOT_RECORDED("not recorded (llmsafe-plan/1)");

    private final String signature;

    Setter(String signature) {
        this.signature = signature;
    }

    /** The method as JDBC declares it, for cards and messages. */
    public String signature() {
        return signature;
    }

    /** The method's name: {@code setInt}. */
    public String method() {
        int paren = signature.indexOf('(');
        return paren < 0 ? signature : signature.substring(0, paren);
    }

    /** Whether the setter takes an int SQL type ({@code setNull}, {@code setObject(.., int)}). */
    boolean takesSqlType() {
        return this == SET_NULL || this == SET_NULL_TYPE_NAME || this == SET_OBJECT_TYPE || this == SET_OBJECT_TYPE_SCALE;
    }

    /** Whether the setter takes an {@link java.sql.SQLType}. */
    boolean takesSqlTypeObject() {
        return this == SET_OBJECT_SQL_TYPE || this == SET_OBJECT_SQL_TYPE_SCALE;
    }

    /** Whether the setter takes a scale or length. */
    boolean takesScale() {
        return this == SET_OBJECT_TYPE_SCALE || this == SET_OBJECT_SQL_TYPE_SCALE;
    }

    /** Whether the setter takes a Calendar, kept as its time zone. */
    boolean takesCalendar() {
        return this == SET_DATE_CALENDAR || this == SET_TIME_CALENDAR || this == SET_TIMESTAMP_CALENDAR;
    }

    /** Whether the setter binds no value at all. */
    boolean isNull() {
        return this == SET_NULL || this == SET_NULL_TYPE_NAME;
    }
}
