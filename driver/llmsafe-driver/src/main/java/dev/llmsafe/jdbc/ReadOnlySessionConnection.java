package dev.llmsafe.jdbc;

import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.NClob;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Struct;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * J6, the part of the model's connection that could widen it: the read-only flag, the catalog and
 * schema names resolve in, transactions, savepoints, sharding keys, and the objects the connection
 * makes. The read connection is in a read-only session that the server enforces (set in SQL when it
 * was opened), and every statement it runs has been judged a read; so the transaction methods pass
 * through (a COMMIT there commits nothing, and no isolation level lifts the session's read-only mode,
 * as each database's tests show), told to the connection's {@link Holds} so that no transaction is
 * held past its bound and no isolation level makes reads lock (R11), while whatever would move name
 * resolution, reach other data or write a large object is refused.
 */
abstract class ReadOnlySessionConnection extends DelegatingConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ReadOnlySessionConnection.class);

    /** The SQLState of the warning that an isolation level was lowered (R11). */
    static final String ISOLATION_LOWERED = "01L03";

    ReadOnlySessionConnection(Connection readConnection) {
        super(readConnection);
    }

    // ---- the read-only session cannot be left (J6) ----

    /** Accepted and ignored: the session stays read-only on the server whatever is asked (F31). */
    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        d();
        if (!readOnly) {
            LOG.debug("setReadOnly(false) ignored: the connection stays read-only");
        }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        d();
        return true;
    }

    /** Refused unless it names the current catalog: names would resolve elsewhere than they were checked. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        if (!Objects.equals(catalog, d().getCatalog())) {
            throw Guard.forbidden("setCatalog(" + catalog + ")", "the catalog decides which tables names resolve to,"
                    + " and stays as the connection was opened (J6). Open a connection to that database instead.");
        }
    }

    /** Refused unless it names the current schema, for the same reason. */
    @Override
    public void setSchema(String schema) throws SQLException {
        if (!Objects.equals(schema, d().getSchema())) {
            throw Guard.forbidden("setSchema(" + schema + ")", "the schema decides which tables names resolve to, and"
                    + " stays as configured (J6). Qualify the table names instead, or configure \"schema\".");
        }
    }

    /** R11: how long this connection holds transactions and result sets. */
    abstract Holds holds();

    /** Adds a warning to the connection's chain. */
    abstract void warn(String message, String sqlState);

    /**
     * No isolation level makes a read-only session writable (asserted per database); a level at which
     * reads lock rows others write is lowered to one that does not, with a {@link java.sql.SQLWarning}
     * with SQLState {@value #ISOLATION_LOWERED} on the connection (R11).
     */
    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        Connection d = d();
        int applied = holds().isolationFor(level);
        if (applied != level) {
            warn("llmsafe: reads at isolation level " + level + " take shared row locks on this database, which make"
                    + " other sessions' writes wait (R11); the connection runs at level " + applied + " instead, where"
                    + " a transaction that only reads sees one consistent snapshot", ISOLATION_LOWERED);
        }
        try {
            d.setTransactionIsolation(applied);
        } catch (SQLException e) {
            throw holds().translate(e);
        }
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        Connection d = d();
        try {
            d.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            throw holds().translate(e);
        }
        if (autoCommit) {
            holds().transactionEnded();
        }
    }

    @Override
    public void commit() throws SQLException {
        Connection d = d();
        Holds holds = holds();
        holds.beforeCommit();
        try {
            d.commit();
        } catch (SQLException e) {
            throw holds.translate(e);
        } finally {
            holds.transactionEnded();
        }
    }

    @Override
    public void rollback() throws SQLException {
        Connection d = d();
        Holds holds = holds();
        try {
            d.rollback();
        } catch (SQLException e) {
            throw holds.translate(e);
        } finally {
            holds.transactionEnded();
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return new GuardedSavepoint(d().setSavepoint());
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return new GuardedSavepoint(d().setSavepoint(name));
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        d().rollback(GuardedSavepoint.delegate(savepoint));
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        d().releaseSavepoint(GuardedSavepoint.delegate(savepoint));
    }

    @Override
    public boolean setShardingKeyIfValid(ShardingKey shardingKey, ShardingKey superShardingKey, int timeout)
            throws SQLException {
        throw shardingRefused();
    }

    @Override
    public boolean setShardingKeyIfValid(ShardingKey shardingKey, int timeout) throws SQLException {
        throw shardingRefused();
    }

    @Override
    public void setShardingKey(ShardingKey shardingKey, ShardingKey superShardingKey) throws SQLException {
        throw shardingRefused();
    }

    @Override
    public void setShardingKey(ShardingKey shardingKey) throws SQLException {
        throw shardingRefused();
    }

    private SQLException shardingRefused() throws SQLException {
        d();
        return Guard.forbidden("setShardingKey", "a sharding key moves the connection to other data than was checked"
                + " (J6).");
    }

    /** An array to bind as a read's parameter; unwrapped again when it is bound. */
    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        return new GuardedArray(d().createArrayOf(typeName, elements));
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw lobRefused("createBlob");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw lobRefused("createClob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw lobRefused("createNClob");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw lobRefused("createSQLXML");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw lobRefused("createStruct");
    }

    private SQLException lobRefused(String what) throws SQLException {
        d();
        return Guard.forbidden(what, "large objects live in the database on some drivers (pgjdbc), so making one"
                + " writes, and none can be kept in a plan. Bind a String or bytes.");
    }
}
