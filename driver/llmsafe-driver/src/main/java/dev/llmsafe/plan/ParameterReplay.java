package dev.llmsafe.plan;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.TimeZone;

/**
 * Binds kept parameters to a statement through the setter the application used, with the same
 * arguments (D16). The dry run binds the statement and its own queries (the count, the before-image
 * under the statement's WHERE) this way, the apply binds them this way, and a test can bind the same
 * list to a raw vendor statement to run exactly what the application ran.
 *
 * <p>A java.sql date is turned into text by the driver in the JVM's default time zone (and
 * Connector/J takes the JVM's zone for the connection's unless configured): such a parameter is bound
 * only in a JVM whose default zone has the rules of the one it was bound in, or refused.
 */
public final class ParameterReplay {

    private ParameterReplay() {
    }

    /**
     * Binds {@code params} at 1, 2, ... of {@code ps}.
     *
     * @throws RefusedException (PARAMETER_NOT_REPLAYABLE) for a parameter that cannot be bound as it was
     */
    public static void bindAll(PreparedStatement ps, List<Parameter> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            bind(ps, i + 1, params.get(i));
        }
    }

    /** Refuses, before anything runs, a list that {@link #bindAll} could not bind exactly here. */
    public static void check(List<Parameter> params) throws RefusedException {
        for (int i = 0; i < params.size(); i++) {
            check(i + 1, params.get(i));
        }
    }

    /** Binds one parameter at {@code index} (1-based) with its own setter. */
    public static void bind(PreparedStatement ps, int index, Parameter p) throws SQLException {
        check(index, p);
        Object v = p.javaValue();
        Integer t = p.sqlType();
        switch (p.setter()) {
            case SET_NULL -> ps.setNull(index, t);
            case SET_NULL_TYPE_NAME -> ps.setNull(index, t, p.typeName());
            case SET_BOOLEAN -> ps.setBoolean(index, (Boolean) v);
            case SET_BYTE -> ps.setByte(index, (Byte) v);
            case SET_SHORT -> ps.setShort(index, (Short) v);
            case SET_INT -> ps.setInt(index, (Integer) v);
            case SET_LONG -> ps.setLong(index, (Long) v);
            case SET_FLOAT -> ps.setFloat(index, (Float) v);
            case SET_DOUBLE -> ps.setDouble(index, (Double) v);
            case SET_BIG_DECIMAL -> ps.setBigDecimal(index, (BigDecimal) v);
            case SET_STRING -> ps.setString(index, (String) v);
            case SET_NSTRING -> ps.setNString(index, (String) v);
            case SET_BYTES -> ps.setBytes(index, (byte[]) v);
            case SET_DATE -> ps.setDate(index, (java.sql.Date) v);
            case SET_DATE_CALENDAR -> ps.setDate(index, (java.sql.Date) v, calendar(p.zone()));
            case SET_TIME -> ps.setTime(index, (java.sql.Time) v);
            case SET_TIME_CALENDAR -> ps.setTime(index, (java.sql.Time) v, calendar(p.zone()));
            case SET_TIMESTAMP -> ps.setTimestamp(index, (java.sql.Timestamp) v);
            case SET_TIMESTAMP_CALENDAR -> ps.setTimestamp(index, (java.sql.Timestamp) v, calendar(p.zone()));
            case SET_URL -> ps.setURL(index, (URL) v);
            case SET_OBJECT -> ps.setObject(index, v);
            case SET_OBJECT_TYPE -> ps.setObject(index, v, t);
            case SET_OBJECT_TYPE_SCALE -> ps.setObject(index, v, t, p.scaleOrLength());
            case SET_OBJECT_SQL_TYPE -> ps.setObject(index, v, sqlType(index, p, ps));
            case SET_OBJECT_SQL_TYPE_SCALE -> ps.setObject(index, v, sqlType(index, p, ps), p.scaleOrLength());
            case NOT_RECORDED -> throw notRecorded(index);
        }
    }

    private static void check(int index, Parameter p) throws RefusedException {
        if (p.setter() == Setter.NOT_RECORDED) {
            throw notRecorded(index);
        }
        if (p.zone() == null) {
            return;
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(p.zone());
        } catch (DateTimeException e) {
            throw new RefusedException(Refusal.PARAMETER_NOT_REPLAYABLE, "parameter " + index + " was converted in the"
                    + " time zone " + p.zone() + ", which this JVM does not know, so it cannot be sent again as it was."
                    + " Nothing was changed; apply it from a JVM whose time zone database has " + p.zone() + ".", e);
        }
        if (!p.setter().takesCalendar() && !TimeZone.getDefault().hasSameRules(TimeZone.getTimeZone(zone))) {
            throw new RefusedException(Refusal.PARAMETER_NOT_REPLAYABLE, "parameter " + index + " ("
                    + p.setter().method() + " of a " + p.javaClass() + ") was bound in a JVM whose default time zone is "
                    + p.zone() + ", and the driver turns it into text in the JVM's zone; this JVM's is "
                    + TimeZone.getDefault().getID() + ", so the database would receive another value. Nothing was"
                    + " changed; run this with -Duser.timezone=" + p.zone() + ".");
        }
    }

    private static Calendar calendar(String zone) {
        return new GregorianCalendar(TimeZone.getTimeZone(zone));
    }

    private static SQLType sqlType(int index, Parameter p, PreparedStatement ps) throws RefusedException {
        for (ClassLoader loader : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                ps.getClass().getClassLoader(), ParameterReplay.class.getClassLoader()}) {
            try {
                Class<?> c = Class.forName(p.typeClass(), false, loader);
                if (c.isEnum() && SQLType.class.isAssignableFrom(c)) {
                    for (Object constant : c.getEnumConstants()) {
                        if (((Enum<?>) constant).name().equals(p.typeName())) {
                            SQLType t = (SQLType) constant;
                            if (p.sqlType().equals(t.getVendorTypeNumber())) {
                                return t;
                            }
                        }
                    }
                }
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                // Try the next loader; none is a refusal below.
            }
        }
        throw new RefusedException(Refusal.PARAMETER_NOT_REPLAYABLE, "parameter " + index + " was bound with the SQLType "
                + p.typeClass() + "." + p.typeName() + " (vendor type " + p.sqlType() + "), which cannot be found here."
                + " Nothing was changed; apply it where the same driver is on the class path.");
    }

    private static RefusedException notRecorded(int index) {
        return new RefusedException(Refusal.PARAMETER_NOT_REPLAYABLE, "parameter " + index + " belongs to a plan stored in"
                + " format llmsafe-plan/1, which kept only a kind of value and not the setter the application bound it"
                + " with, so the database could receive another value than the application sent. Nothing was changed;"
                + " propose the change again.");
    }
}
