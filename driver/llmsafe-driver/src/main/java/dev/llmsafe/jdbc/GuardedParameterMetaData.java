package dev.llmsafe.jdbc;

import java.sql.ParameterMetaData;
import java.sql.SQLException;

/** Parameter facts of a prepared statement (J1): plain values, passed through; unwrap hands out only this. */
final class GuardedParameterMetaData implements ParameterMetaData {

    private final ParameterMetaData d;

    GuardedParameterMetaData(ParameterMetaData delegate) {
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
    @Override public int getParameterCount() throws SQLException { return d.getParameterCount(); }
    @Override public int isNullable(int param) throws SQLException { return d.isNullable(param); }
    @Override public boolean isSigned(int param) throws SQLException { return d.isSigned(param); }
    @Override public int getPrecision(int param) throws SQLException { return d.getPrecision(param); }
    @Override public int getScale(int param) throws SQLException { return d.getScale(param); }
    @Override public int getParameterType(int param) throws SQLException { return d.getParameterType(param); }
    @Override public String getParameterTypeName(int param) throws SQLException { return d.getParameterTypeName(param); }
    @Override public String getParameterClassName(int param) throws SQLException { return d.getParameterClassName(param); }
    @Override public int getParameterMode(int param) throws SQLException { return d.getParameterMode(param); }
    // @formatter:on
}
