package dev.llmsafe.jdbc;

import java.sql.Connection;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The part of the model's connection that passes straight through to the read connection: getters,
 * type maps, network timeouts and request hints, none of which runs SQL that a caller wrote, hands out
 * a JDBC object, or changes what the session may do. Client info is answered by
 * {@link GuardedConnection} (J9). Everything else is in {@link GuardedConnection};
 * {@code WrapperTest} checks the split. Once closed, every method throws.
 */
abstract class DelegatingConnection extends JdbcWrapper<Connection> implements Connection {

    DelegatingConnection(Connection delegate) {
        super(delegate);
    }

    @Override
    final SQLException closedError() {
        return Wrappers.closed("connection");
    }

    /** The read connection for client info, whose setters may only throw SQLClientInfoException. */
    final Connection clientInfo() throws SQLClientInfoException {
        if (closed()) {
            throw new SQLClientInfoException("this connection is closed", "08003", 0, Map.of());
        }
        return delegateForClose();
    }

    // @formatter:off
    @Override public String nativeSQL(String sql) throws SQLException { return d().nativeSQL(sql); }
    @Override public boolean getAutoCommit() throws SQLException { return d().getAutoCommit(); }
    @Override public int getTransactionIsolation() throws SQLException { return d().getTransactionIsolation(); }
    @Override public String getCatalog() throws SQLException { return d().getCatalog(); }
    @Override public String getSchema() throws SQLException { return d().getSchema(); }
    @Override public Map<String, Class<?>> getTypeMap() throws SQLException { return d().getTypeMap(); }
    @Override public void setTypeMap(Map<String, Class<?>> map) throws SQLException { d().setTypeMap(map); }
    @Override public void setHoldability(int holdability) throws SQLException { d().setHoldability(holdability); }
    @Override public int getHoldability() throws SQLException { return d().getHoldability(); }
    @Override public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException { d().setNetworkTimeout(executor, milliseconds); }
    @Override public int getNetworkTimeout() throws SQLException { return d().getNetworkTimeout(); }
    @Override public void beginRequest() throws SQLException { d().beginRequest(); }
    @Override public void endRequest() throws SQLException { d().endRequest(); }
    // @formatter:on
}
