package dev.llmsafe.jdbc;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * An array value (J1): its elements pass as Java arrays, its result-set views are wrapped, and the
 * vendor's array object (pgjdbc's holds the connection) is never handed out. An array the caller
 * made with {@code createArrayOf} is unwrapped again when it is bound as a read's parameter.
 */
final class GuardedArray implements Array {

    private final Array d;

    GuardedArray(Array delegate) {
        this.d = delegate;
    }

    Array delegate() {
        return d;
    }

    private static ResultSet wrap(ResultSet rs) {
        return rs == null ? null : new GuardedResultSet(null, rs, 0);
    }

    // @formatter:off
    @Override public String getBaseTypeName() throws SQLException { return d.getBaseTypeName(); }
    @Override public int getBaseType() throws SQLException { return d.getBaseType(); }
    @Override public Object getArray() throws SQLException { return d.getArray(); }
    @Override public Object getArray(Map<String, Class<?>> map) throws SQLException { return d.getArray(map); }
    @Override public Object getArray(long index, int count) throws SQLException { return d.getArray(index, count); }
    @Override public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException { return d.getArray(index, count, map); }
    @Override public ResultSet getResultSet() throws SQLException { return wrap(d.getResultSet()); }
    @Override public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException { return wrap(d.getResultSet(map)); }
    @Override public ResultSet getResultSet(long index, int count) throws SQLException { return wrap(d.getResultSet(index, count)); }
    @Override public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException { return wrap(d.getResultSet(index, count, map)); }
    @Override public void free() throws SQLException { d.free(); }
    // @formatter:on

    @Override
    public String toString() {
        return d.toString();
    }
}
