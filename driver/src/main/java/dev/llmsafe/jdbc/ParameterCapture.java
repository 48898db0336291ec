package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Calendar;

/**
 * The parameter setters of a prepared statement. Each passes the value to the vendor statement (which
 * checks the index and the type, and runs it if the statement is a read) and keeps it: for a write, the
 * Java value, which becomes the plan's exact parameter (D16); for a read under a cost gate, how to bind
 * it again for EXPLAIN (R5). Values that cannot be kept exactly (streams, LOBs, arrays, a Calendar) are
 * kept as what they are, and a plan refuses them. llmsafe's own wrappers (an array from
 * {@code createArrayOf}) are unwrapped before the vendor driver sees them.
 */
// JDBC's deprecated methods are still methods of the interface, and must be wrapped like the rest.
@SuppressWarnings("deprecation")
abstract class ParameterCapture extends GuardedStatement<PreparedStatement> implements PreparedStatement {

    /** What a plan keeps, one per {@code ?}; null when the statement is a read. */
    final Object[] values;
    /** How to bind each parameter again for EXPLAIN; null unless a read under a cost gate. */
    final Dialect.Binder[] binders;

    ParameterCapture(GuardedConnection connection, Guard guard, PreparedStatement delegate, int parameters,
            boolean write, boolean costGate) throws SQLException {
        super(connection, guard, delegate);
        this.values = write ? new Object[parameters] : null;
        this.binders = !write && costGate ? new Dialect.Binder[parameters] : null;
    }

    private void keep(int index, Object value, Dialect.Binder binder) {
        // The vendor statement has accepted the index, so it is within the statement's parameters.
        if (values != null && index >= 1 && index <= values.length) {
            values[index - 1] = value == null ? Guard.NULL : value;
        }
        if (binders != null && index >= 1 && index <= binders.length) {
            binders[index - 1] = binder;
        }
    }

    private static Guard.Uncaptured uncaptured(String setter) {
        return new Guard.Uncaptured(setter);
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
        keep(parameterIndex, Guard.NULL, ps -> ps.setNull(parameterIndex, sqlType));
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        d().setBoolean(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setBoolean(parameterIndex, x));
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        d().setByte(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setByte(parameterIndex, x));
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        d().setShort(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setShort(parameterIndex, x));
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        d().setInt(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setInt(parameterIndex, x));
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        d().setLong(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setLong(parameterIndex, x));
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        d().setFloat(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setFloat(parameterIndex, x));
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        d().setDouble(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setDouble(parameterIndex, x));
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        d().setBigDecimal(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setBigDecimal(parameterIndex, x));
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        d().setString(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setString(parameterIndex, x));
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        d().setBytes(parameterIndex, x);
        keep(parameterIndex, x == null ? null : x.clone(), ps -> ps.setBytes(parameterIndex, x));
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        d().setDate(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setDate(parameterIndex, x));
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        d().setTime(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setTime(parameterIndex, x));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        d().setTimestamp(parameterIndex, x);
        keep(parameterIndex, x, ps -> ps.setTimestamp(parameterIndex, x));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setAsciiStream(parameterIndex, x, length);
        keep(parameterIndex, uncaptured("setAsciiStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setUnicodeStream(parameterIndex, x, length);
        keep(parameterIndex, uncaptured("setUnicodeStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        d().setBinaryStream(parameterIndex, x, length);
        keep(parameterIndex, uncaptured("setBinaryStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType);
        keep(parameterIndex, x, ps -> ps.setObject(parameterIndex, v, targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v);
        keep(parameterIndex, x, ps -> ps.setObject(parameterIndex, v));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        d().setCharacterStream(parameterIndex, reader, length);
        keep(parameterIndex, uncaptured("setCharacterStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        d().setRef(parameterIndex, x);
        keep(parameterIndex, uncaptured("setRef"), ps -> ps.setRef(parameterIndex, x));
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        Blob v = Values.parameter(x);
        d().setBlob(parameterIndex, v);
        keep(parameterIndex, uncaptured("setBlob"), ps -> ps.setBlob(parameterIndex, v));
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        Clob v = Values.parameter(x);
        d().setClob(parameterIndex, v);
        keep(parameterIndex, uncaptured("setClob"), ps -> ps.setClob(parameterIndex, v));
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        Array v = Values.parameter(x);
        d().setArray(parameterIndex, v);
        keep(parameterIndex, uncaptured("setArray"), ps -> ps.setArray(parameterIndex, v));
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        d().setDate(parameterIndex, x, cal);
        keep(parameterIndex, uncaptured("setDate"), ps -> ps.setDate(parameterIndex, x, cal));
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        d().setTime(parameterIndex, x, cal);
        keep(parameterIndex, uncaptured("setTime"), ps -> ps.setTime(parameterIndex, x, cal));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        d().setTimestamp(parameterIndex, x, cal);
        keep(parameterIndex, uncaptured("setTimestamp"), ps -> ps.setTimestamp(parameterIndex, x, cal));
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        d().setNull(parameterIndex, sqlType, typeName);
        keep(parameterIndex, Guard.NULL, ps -> ps.setNull(parameterIndex, sqlType, typeName));
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        d().setURL(parameterIndex, x);
        keep(parameterIndex, uncaptured("setURL"), ps -> ps.setURL(parameterIndex, x));
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        d().setRowId(parameterIndex, x);
        keep(parameterIndex, uncaptured("setRowId"), ps -> ps.setRowId(parameterIndex, x));
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        d().setNString(parameterIndex, value);
        keep(parameterIndex, value, ps -> ps.setNString(parameterIndex, value));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        d().setNCharacterStream(parameterIndex, value, length);
        keep(parameterIndex, uncaptured("setNCharacterStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        NClob v = Values.parameter(value);
        d().setNClob(parameterIndex, v);
        keep(parameterIndex, uncaptured("setNClob"), ps -> ps.setNClob(parameterIndex, v));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setClob(parameterIndex, reader, length);
        keep(parameterIndex, uncaptured("setClob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        d().setBlob(parameterIndex, inputStream, length);
        keep(parameterIndex, uncaptured("setBlob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setNClob(parameterIndex, reader, length);
        keep(parameterIndex, uncaptured("setNClob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        d().setSQLXML(parameterIndex, xmlObject);
        keep(parameterIndex, uncaptured("setSQLXML"), ps -> ps.setSQLXML(parameterIndex, xmlObject));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType, scaleOrLength);
        keep(parameterIndex, x, ps -> ps.setObject(parameterIndex, v, targetSqlType, scaleOrLength));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        d().setAsciiStream(parameterIndex, x, length);
        keep(parameterIndex, uncaptured("setAsciiStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        d().setBinaryStream(parameterIndex, x, length);
        keep(parameterIndex, uncaptured("setBinaryStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        d().setCharacterStream(parameterIndex, reader, length);
        keep(parameterIndex, uncaptured("setCharacterStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        d().setAsciiStream(parameterIndex, x);
        keep(parameterIndex, uncaptured("setAsciiStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        d().setBinaryStream(parameterIndex, x);
        keep(parameterIndex, uncaptured("setBinaryStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        d().setCharacterStream(parameterIndex, reader);
        keep(parameterIndex, uncaptured("setCharacterStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        d().setNCharacterStream(parameterIndex, value);
        keep(parameterIndex, uncaptured("setNCharacterStream"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        d().setClob(parameterIndex, reader);
        keep(parameterIndex, uncaptured("setClob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        d().setBlob(parameterIndex, inputStream);
        keep(parameterIndex, uncaptured("setBlob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        d().setNClob(parameterIndex, reader);
        keep(parameterIndex, uncaptured("setNClob"), ps -> ps.setNull(parameterIndex, Types.NULL));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType, scaleOrLength);
        keep(parameterIndex, x, ps -> ps.setObject(parameterIndex, v, targetSqlType, scaleOrLength));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        Object v = Values.parameter(x);
        d().setObject(parameterIndex, v, targetSqlType);
        keep(parameterIndex, x, ps -> ps.setObject(parameterIndex, v, targetSqlType));
    }
}
