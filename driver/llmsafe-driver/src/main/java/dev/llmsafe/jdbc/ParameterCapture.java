package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Setter;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Calendar;

/**
 * The parameter setters of a prepared statement. Each passes the value to the vendor statement (which
 * checks the index and the type, and runs it if the statement is a read) and keeps it: for a write, the
 * {@link Parameter} exactly as bound (the setter, its SQL type, scale, the value's class and value, the
 * time zone it is converted in), which the dry run and the apply replay through the same setter (D16);
 * for a read under a cost gate, how to bind it again for EXPLAIN (R5). A binding that cannot be kept
 * exactly (a stream or a LOB, whose content the driver reads when the statement runs; an array, a Ref,
 * a RowId, an SQLXML; a value of a class without an exact text) is kept as what it is, and a plan
 * refuses it (PARAMETER_NOT_REPLAYABLE). llmsafe's own wrappers (an array from {@code createArrayOf})
 * are unwrapped before the vendor driver sees them.
 *
 * <p>{@code setObject(int, Object, SQLType)} is not implemented by pgjdbc 42.7 and sqlite-jdbc 3.54
 * (they throw SQLFeatureNotSupportedException, measured): for a {@link JDBCType} it is bound, and kept,
 * as {@code setObject(int, Object, int)} with the type's number, which is what JDBC defines it as.
 */
// JDBC's deprecated methods are still methods of the interface, and must be wrapped like the rest.
@SuppressWarnings("deprecation")
abstract class ParameterCapture extends GuardedStatement<PreparedStatement> implements PreparedStatement {

    /** What a plan keeps, one per {@code ?}: a Parameter or a Guard.Uncaptured; null when the statement is a read. */
    final Object[] values;
    /** How to bind each parameter again for EXPLAIN; null unless a read under a cost gate. */
    final Dialect.Binder[] binders;

    /** Makes the kept parameter; an IllegalArgumentException says why it cannot be kept. */
    @FunctionalInterface
    private interface Capture {
        Parameter get();
    }

    ParameterCapture(GuardedConnection connection, Guard guard, PreparedStatement delegate, int parameters,
            boolean write, boolean costGate) throws SQLException {
        super(connection, guard, delegate);
        this.values = write ? new Object[parameters] : null;
        this.binders = !write && costGate ? new Dialect.Binder[parameters] : null;
    }

    private void keep(int index, String setter, Capture capture, Dialect.Binder binder) {
        // The vendor statement has accepted the index, so it is within the statement's parameters.
        if (values != null && index >= 1 && index <= values.length) {
            Object kept;
            try {
                kept = capture.get();
            } catch (IllegalArgumentException e) {
                kept = new Guard.Uncaptured(setter, e.getMessage());
            }
            values[index - 1] = kept;
        }
        if (binders != null && index >= 1 && index <= binders.length) {
            binders[index - 1] = binder;
        }
    }

    private void uncaptured(int index, String setter, Dialect.Binder binder) {
        keep(index, setter, () -> {
            throw new IllegalArgumentException("its content is read by the vendor driver only when the statement runs,"
                    + " so it cannot be kept and sent again exactly; bind the content itself (setBytes, setString)");
        }, binder);
    }

    private void unkeepable(int index, String setter, String what, Dialect.Binder binder) {
        keep(index, setter, () -> {
            throw new IllegalArgumentException(what + " is an object of the vendor driver or the database, not a value"
                    + " whose text says all it sends, so it cannot be kept and sent again exactly; bind its value");
        }, binder);
    }

    /** Binds every kept parameter again, for EXPLAIN. */
    final Dialect.Binder binder() {
        if (binders == null) {
            return Guard.NO_PARAMETERS;
        }
        Dialect.Binder[] copy = binders.clone();
        return ps -> {
            for (Dialect.Binder b : copy) {
                if (b != null) {
                    b.bind(ps);
                }
            }
        };
    }

    @Override
    public void clearParameters() throws SQLException {
        d().clearParameters();
        if (values != null) {
            java.util.Arrays.fill(values, null);
        }
        if (binders != null) {
            java.util.Arrays.fill(binders, null);
        }
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        d().setNull(parameterIndex, sqlType);
        keep(parameterIndex, "setNull", () -> Parameter.ofNull(sqlType), ps -> ps.setNull(parameterIndex, sqlType));
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        d().setBoolean(parameterIndex, x);
        keep(parameterIndex, "setBoolean", () -> Parameter.of(Setter.SET_BOOLEAN, x), ps -> ps.setBoolean(parameterIndex, x));
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        d().setByte(parameterIndex, x);
        keep(parameterIndex, "setByte", () -> Parameter.of(Setter.SET_BYTE, x), ps -> ps.setByte(parameterIndex, x));
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        d().setShort(parameterIndex, x);
        keep(parameterIndex, "setShort", () -> Parameter.of(Setter.SET_SHORT, x), ps -> ps.setShort(parameterIndex, x));
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        d().setInt(parameterIndex, x);
        keep(parameterIndex, "setInt", () -> Parameter.of(Setter.SET_INT, x), ps -> ps.setInt(parameterIndex, x));
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        d().setLong(parameterIndex, x);
        keep(parameterIndex, "setLong", () -> Parameter.of(Setter.SET_LONG, x), ps -> ps.setLong(parameterIndex, x));
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        d().setFloat(parameterIndex, x);
        keep(parameterIndex, "setFloat", () -> Parameter.of(Setter.SET_FLOAT, x), ps -> ps.setFloat(parameterIndex, x));
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        d().setDouble(parameterIndex, x);
        keep(parameterIndex, "setDouble", () -> Parameter.of(Setter.SET_DOUBLE, x), ps -> ps.setDouble(parameterIndex, x));
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        d().setBigDecimal(parameterIndex, x);
        keep(parameterIndex, "setBigDecimal", () -> Parameter.of(Setter.SET_BIG_DECIMAL, x), ps -> ps.setBigDecimal(parameterIndex, x));
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        d().setString(parameterIndex, x);
        keep(parameterIndex, "setString", () -> Parameter.of(Setter.SET_STRING, x), ps -> ps.setString(parameterIndex, x));
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        d().setBytes(parameterIndex, x);
        byte[] kept = x == null ? null : x.clone();
        keep(parameterIndex, "setBytes", () -> Parameter.of(Setter.SET_BYTES, kept), ps -> ps.setBytes(parameterIndex, x));
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        d().setDate(parameterIndex, x);
        keep(parameterIndex, "setDate", () -> Parameter.of(Setter.SET_DATE, x), ps -> ps.setDate(parameterIndex, x));
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        d().setTime(parameterIndex, x);
        keep(parameterIndex, "setTime", () -> Parameter.of(Setter.SET_TIME, x), ps -> ps.setTime(parameterIndex, x));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        d().setTimestamp(parameterIndex, x);
        keep(parameterIndex, "setTimestamp", () -> Parameter.of(Setter.SET_TIMESTAMP, x), ps -> ps.setTimestamp(parameterIndex, x));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setAsciiStream(parameterIndex, x, length);
        uncaptured(parameterIndex, "setAsciiStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setUnicodeStream(parameterIndex, x, length);
        uncaptured(parameterIndex, "setUnicodeStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setBinaryStream(parameterIndex, x, length);
        uncaptured(parameterIndex, "setBinaryStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType);
        keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, targetSqlType),
                ps -> ps.setObject(parameterIndex, v, targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v);
        keep(parameterIndex, "setObject", () -> Parameter.of(Setter.SET_OBJECT, x), ps -> ps.setObject(parameterIndex, v));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        d().setCharacterStream(parameterIndex, reader, length);
        uncaptured(parameterIndex, "setCharacterStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        d().setRef(parameterIndex, x);
        unkeepable(parameterIndex, "setRef", "Ref", ps -> ps.setRef(parameterIndex, x));
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        Blob v = Values.parameter(x);
        d().setBlob(parameterIndex, v);
        unkeepable(parameterIndex, "setBlob", "Blob", ps -> ps.setBlob(parameterIndex, v));
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        Clob v = Values.parameter(x);
        d().setClob(parameterIndex, v);
        unkeepable(parameterIndex, "setClob", "Clob", ps -> ps.setClob(parameterIndex, v));
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        Array v = Values.parameter(x);
        d().setArray(parameterIndex, v);
        unkeepable(parameterIndex, "setArray", "Array", ps -> ps.setArray(parameterIndex, v));
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        d().setDate(parameterIndex, x, cal);
        keep(parameterIndex, "setDate", () -> Parameter.withCalendar(Setter.SET_DATE_CALENDAR, x, cal),
                ps -> ps.setDate(parameterIndex, x, cal));
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        d().setTime(parameterIndex, x, cal);
        keep(parameterIndex, "setTime", () -> Parameter.withCalendar(Setter.SET_TIME_CALENDAR, x, cal),
                ps -> ps.setTime(parameterIndex, x, cal));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        d().setTimestamp(parameterIndex, x, cal);
        keep(parameterIndex, "setTimestamp", () -> Parameter.withCalendar(Setter.SET_TIMESTAMP_CALENDAR, x, cal),
                ps -> ps.setTimestamp(parameterIndex, x, cal));
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        d().setNull(parameterIndex, sqlType, typeName);
        keep(parameterIndex, "setNull", () -> Parameter.ofNull(sqlType, typeName),
                ps -> ps.setNull(parameterIndex, sqlType, typeName));
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        d().setURL(parameterIndex, x);
        keep(parameterIndex, "setURL", () -> Parameter.of(Setter.SET_URL, x), ps -> ps.setURL(parameterIndex, x));
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        d().setRowId(parameterIndex, x);
        unkeepable(parameterIndex, "setRowId", "RowId", ps -> ps.setRowId(parameterIndex, x));
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        d().setNString(parameterIndex, value);
        keep(parameterIndex, "setNString", () -> Parameter.of(Setter.SET_NSTRING, value), ps -> ps.setNString(parameterIndex, value));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        d().setNCharacterStream(parameterIndex, value, length);
        uncaptured(parameterIndex, "setNCharacterStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        NClob v = Values.parameter(value);
        d().setNClob(parameterIndex, v);
        unkeepable(parameterIndex, "setNClob", "NClob", ps -> ps.setNClob(parameterIndex, v));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setClob(parameterIndex, reader, length);
        uncaptured(parameterIndex, "setClob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        d().setBlob(parameterIndex, inputStream, length);
        uncaptured(parameterIndex, "setBlob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setNClob(parameterIndex, reader, length);
        uncaptured(parameterIndex, "setNClob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        d().setSQLXML(parameterIndex, xmlObject);
        unkeepable(parameterIndex, "setSQLXML", "SQLXML", ps -> ps.setSQLXML(parameterIndex, xmlObject));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType, scaleOrLength);
        keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, targetSqlType, scaleOrLength),
                ps -> ps.setObject(parameterIndex, v, targetSqlType, scaleOrLength));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        d().setAsciiStream(parameterIndex, x, length);
        uncaptured(parameterIndex, "setAsciiStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        d().setBinaryStream(parameterIndex, x, length);
        uncaptured(parameterIndex, "setBinaryStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setCharacterStream(parameterIndex, reader, length);
        uncaptured(parameterIndex, "setCharacterStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        d().setAsciiStream(parameterIndex, x);
        uncaptured(parameterIndex, "setAsciiStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        d().setBinaryStream(parameterIndex, x);
        uncaptured(parameterIndex, "setBinaryStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        d().setCharacterStream(parameterIndex, reader);
        uncaptured(parameterIndex, "setCharacterStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        d().setNCharacterStream(parameterIndex, value);
        uncaptured(parameterIndex, "setNCharacterStream", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        d().setClob(parameterIndex, reader);
        uncaptured(parameterIndex, "setClob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        d().setBlob(parameterIndex, inputStream);
        uncaptured(parameterIndex, "setBlob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        d().setNClob(parameterIndex, reader);
        uncaptured(parameterIndex, "setNClob", ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        Object v = Values.parameter(x);
        try {
            d().setObject(parameterIndex, v, targetSqlType, scaleOrLength);
        } catch (SQLFeatureNotSupportedException e) {
            int type = jdbcType(targetSqlType, e);
            d().setObject(parameterIndex, v, type, scaleOrLength);
            keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, type, scaleOrLength),
                    ps -> ps.setObject(parameterIndex, v, type, scaleOrLength));
            return;
        }
        keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, targetSqlType, scaleOrLength),
                ps -> ps.setObject(parameterIndex, v, targetSqlType, scaleOrLength));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        Object v = Values.parameter(x);
        try {
            d().setObject(parameterIndex, v, targetSqlType);
        } catch (SQLFeatureNotSupportedException e) {
            int type = jdbcType(targetSqlType, e);
            d().setObject(parameterIndex, v, type);
            keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, type), ps -> ps.setObject(parameterIndex, v, type));
            return;
        }
        keep(parameterIndex, "setObject", () -> Parameter.ofObject(x, targetSqlType),
                ps -> ps.setObject(parameterIndex, v, targetSqlType));
    }

    /**
     * The int form of a {@link JDBCType}, which JDBC defines the SQLType form by, for a vendor driver
     * that implements only the int form; a vendor's own SQLType has no such meaning elsewhere.
     */
    private static int jdbcType(SQLType t, SQLFeatureNotSupportedException e) throws SQLException {
        if (t instanceof JDBCType j && j.getVendorTypeNumber() != null) {
            return j.getVendorTypeNumber();
        }
        throw e;
    }
}
