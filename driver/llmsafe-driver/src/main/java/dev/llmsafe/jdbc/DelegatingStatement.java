package dev.llmsafe.jdbc;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The part of a statement that passes straight through: settings, counters and pure functions, none of
 * which runs SQL, returns a JDBC object or widens what the statement may do. Everything else, the
 * guarded surface, is in {@link GuardedStatement}; {@code WrapperTest} checks the split method by method.
 * Once closed, every method throws instead of reaching the vendor statement.
 */
abstract class DelegatingStatement<S extends Statement> extends JdbcWrapper<S> implements Statement {

    DelegatingStatement(S delegate) {
        super(delegate);
    }

    @Override
    final SQLException closedError() {
        return Wrappers.closed("statement");
    }

    // @formatter:off
    @Override public int getMaxFieldSize() throws SQLException { return d().getMaxFieldSize(); }
    @Override public void setMaxFieldSize(int max) throws SQLException { d().setMaxFieldSize(max); }
    @Override public int getQueryTimeout() throws SQLException { return d().getQueryTimeout(); }
    @Override public void setQueryTimeout(int seconds) throws SQLException { d().setQueryTimeout(seconds); }
    @Override public void cancel() throws SQLException { d().cancel(); }
    @Override public SQLWarning getWarnings() throws SQLException { return d().getWarnings(); }
    @Override public void clearWarnings() throws SQLException { d().clearWarnings(); }
    @Override public void setCursorName(String name) throws SQLException { d().setCursorName(name); }
    @Override public int getUpdateCount() throws SQLException { return d().getUpdateCount(); }
    @Override public void setFetchDirection(int direction) throws SQLException { d().setFetchDirection(direction); }
    @Override public int getFetchDirection() throws SQLException { return d().getFetchDirection(); }
    @Override public void setFetchSize(int rows) throws SQLException { d().setFetchSize(rows); }
    @Override public int getFetchSize() throws SQLException { return d().getFetchSize(); }
    @Override public int getResultSetType() throws SQLException { return d().getResultSetType(); }
    @Override public int getResultSetHoldability() throws SQLException { return d().getResultSetHoldability(); }
    @Override public void setPoolable(boolean poolable) throws SQLException { d().setPoolable(poolable); }
    @Override public boolean isPoolable() throws SQLException { return d().isPoolable(); }
    @Override public void closeOnCompletion() throws SQLException { d().closeOnCompletion(); }
    @Override public boolean isCloseOnCompletion() throws SQLException { return d().isCloseOnCompletion(); }
    @Override public long getLargeUpdateCount() throws SQLException { return d().getLargeUpdateCount(); }
    @Override public String enquoteLiteral(String val) throws SQLException { return d().enquoteLiteral(val); }
    @Override public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException { return d().enquoteIdentifier(identifier, alwaysQuote); }
    @Override public boolean isSimpleIdentifier(String identifier) throws SQLException { return d().isSimpleIdentifier(identifier); }
    @Override public String enquoteNCharLiteral(String val) throws SQLException { return d().enquoteNCharLiteral(val); }
    // @formatter:on
}
