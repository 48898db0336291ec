package dev.llmsafe.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/** Column facts of a result (J1): plain values, passed through; unwrap hands out only this. */
final class GuardedResultSetMetaData implements ResultSetMetaData {

    private final ResultSetMetaData d;

    GuardedResultSetMetaData(ResultSetMetaData delegate) {
        this.d = delegate;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(this, iface);
    }

    // @formatter:off
    @Override public int getColumnCount() throws SQLException { return d.getColumnCount(); }
    @Override public boolean isAutoIncrement(int column) throws SQLException { return d.isAutoIncrement(column); }
    @Override public boolean isCaseSensitive(int column) throws SQLException { return d.isCaseSensitive(column); }
    @Override public boolean isSearchable(int column) throws SQLException { return d.isSearchable(column); }
    @Override public boolean isCurrency(int column) throws SQLException { return d.isCurrency(column); }
    @Override public int isNullable(int column) throws SQLException { return d.isNullable(column); }
    @Override public boolean isSigned(int column) throws SQLException { return d.isSigned(column); }
    @Override public int getColumnDisplaySize(int column) throws SQLException { return d.getColumnDisplaySize(column); }
    @Override public String getColumnLabel(int column) throws SQLException { return d.getColumnLabel(column); }
    @Override public String getColumnName(int column) throws SQLException { return d.getColumnName(column); }
    @Override public String getSchemaName(int column) throws SQLException { return d.getSchemaName(column); }
    @Override public int getPrecision(int column) throws SQLException { return d.getPrecision(column); }
    @Override public int getScale(int column) throws SQLException { return d.getScale(column); }
    @Override public String getTableName(int column) throws SQLException { return d.getTableName(column); }
    @Override public String getCatalogName(int column) throws SQLException { return d.getCatalogName(column); }
    @Override public int getColumnType(int column) throws SQLException { return d.getColumnType(column); }
    @Override public String getColumnTypeName(int column) throws SQLException { return d.getColumnTypeName(column); }
    @Override public boolean isReadOnly(int column) throws SQLException { return d.isReadOnly(column); }
    @Override public boolean isWritable(int column) throws SQLException { return d.isWritable(column); }
    @Override public boolean isDefinitelyWritable(int column) throws SQLException { return d.isDefinitelyWritable(column); }
    @Override public String getColumnClassName(int column) throws SQLException { return d.getColumnClassName(column); }
    // @formatter:on
}
