package dev.llmsafe.jdbc;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model's connection. Everything it runs is read through a {@link Guard} on the read connection,
 * which is in a read-only session that the server enforces from the moment it is opened; UPDATE and
 * DELETE become plans on the engine's own connections. Statements are created forward-only and
 * read-only whatever the caller asks (R4, J3; a {@link SQLWarning} says so), procedure calls are
 * refused (J4), and no setter can leave the read-only session or move name resolution elsewhere (J6).
 * Transaction methods pass through: on a connection that only reads, in a read-only session, a COMMIT
 * commits nothing.
 */
final class GuardedConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(GuardedConnection.class);

    private final Engine engine;
    private final Connection raw;
    private final Connection exec;
    private final boolean ownsRaw;
    private final Guard guard;
    private final Runnable onClose;
    private final Set<GuardedStatement<?>> statements = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private GuardedMetaData metaData;
    private SQLWarning warnings;

    private GuardedConnection(Engine engine, Connection raw, Connection exec, boolean ownsRaw, Guard guard,
            Runnable onClose) {
        this.engine = engine;
        this.raw = raw;
        this.exec = exec;
        this.ownsRaw = ownsRaw;
        this.guard = guard;
        this.onClose = onClose;
    }

    /**
     * Guards a connection the caller opened: opens the read connection when one is configured, and puts
     * both in their read-only session before anything else can run on them.
     *
     * @param raw the vendor connection
     * @param ownsRaw whether llmsafe opened it (the driver) or it belongs to an application's pool (the data
     *     source, whose connection gets its session back on close)
     * @param onClose called once when the connection closes, to release the engine
     */
    static GuardedConnection open(Engine engine, Connection raw, boolean ownsRaw, String proposer, Runnable onClose)
            throws SQLException {
        Connection exec = raw;
        try {
            int timeoutMs = engine.policy().read().timeoutMs();
            if (ownsRaw && engine.pinsSchema()) {
                engine.dialect().pinSchema(raw);
            }
            engine.dialect().beginReadSession(raw, timeoutMs);
            if (engine.separateReads()) {
                exec = engine.openReadConnection();
                engine.dialect().beginReadSession(exec, timeoutMs);
            }
            return new GuardedConnection(engine, raw, exec, ownsRaw, new Guard(engine, exec, proposer), onClose);
        } catch (SQLException | RuntimeException e) {
            if (exec != raw) {
                closeQuietly(exec);
            }
            if (!ownsRaw) {
                try {
                    engine.dialect().endReadSession(raw);
                } catch (SQLException x) {
                    e.addSuppressed(x);
                }
            }
            onClose.run();
            throw e;
        }
    }

    private Connection d() throws SQLException {
        if (closed) {
            throw Wrappers.closed("connection");
        }
        return exec;
    }

    Guard guard() {
        return guard;
    }

    Engine engine() {
        return engine;
    }

    /** The connection reads run on, for tests in this package that prove the server's own guard. */
    Connection readConnectionForTests() {
        return exec;
    }

    void forget(GuardedStatement<?> s) {
        statements.remove(s);
    }

    private void warn(String message) {
        SQLWarning w = new SQLWarning(message, "01L02");
        if (warnings == null) {
            warnings = w;
        } else {
            warnings.setNextWarning(w);
        }
    }

    // ---- statements: forward-only and read-only (R4, J3); no calls (J4) ----

    private <S extends Statement> S track(S s) {
        statements.add((GuardedStatement<?>) s);
        return s;
    }

    private int holdabilityOr(int holdability) throws SQLException {
        return holdability == 0 ? d().getHoldability() : holdability;
    }

    private void checkShape(int type, int concurrency) {
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            warn("llmsafe: result sets are forward-only, so that the row cap holds (R4); the requested type was"
                    + " downgraded");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            warn("llmsafe: result sets are read-only (J3); CONCUR_UPDATABLE was downgraded to CONCUR_READ_ONLY");
        }
    }

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, 0);
    }

    @Override
    public Statement createStatement(int type, int concurrency) throws SQLException {
        return createStatement(type, concurrency, 0);
    }

    @Override
    public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
        checkShape(type, concurrency);
        Statement s = d().createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                holdabilityOr(holdability));
        return track(new GuardedStatement<>(this, guard, s));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, 0);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
        return prepareStatement(sql, type, concurrency, 0);
    }

    /**
     * The statement is judged now, so a refused one fails here; a read is prepared on the read
     * connection as the comment-free text that was judged, a write as well (its parameters are set
     * there, and it never runs: it becomes a plan when executed).
     */
    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        checkShape(type, concurrency);
        d();
        var a = guard.analyze(sql);
        if (!a.isWrite()) {
            guard.checkRead(a);
        }
        PreparedStatement ps = d().prepareStatement(a.text(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                holdabilityOr(holdability));
        return track(new GuardedPreparedStatement(this, guard, ps, a));
    }

    /** Generated keys: a read has none, and a write becomes a plan, so the request changes nothing. */
    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw callRefused();
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException {
        throw callRefused();
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability) throws SQLException {
        throw callRefused();
    }

    private SQLException callRefused() throws SQLException {
        d();
        return Guard.forbidden("prepareCall", "a stored procedure can write anything, and a call cannot be shown as"
                + " rows before it runs (J4). Send the SELECT, UPDATE or DELETE it would run.");
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

    /** Passes through: no isolation level makes a read-only session writable (asserted per database). */
    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        d().setTransactionIsolation(level);
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        return d().getTransactionIsolation();
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        d().setAutoCommit(autoCommit);
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        return d().getAutoCommit();
    }

    @Override
    public void commit() throws SQLException {
        d().commit();
    }

    @Override
    public void rollback() throws SQLException {
        d().rollback();
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

    // ---- objects the connection makes ----

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        Connection c = d();
        synchronized (this) {
            if (metaData == null) {
                metaData = new GuardedMetaData(this, c.getMetaData());
            }
            return metaData;
        }
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

    // ---- pass-through: harmless on a connection that only reads ----

    @Override
    public String nativeSQL(String sql) throws SQLException {
        return d().nativeSQL(sql);
    }

    @Override
    public String getCatalog() throws SQLException {
        return d().getCatalog();
    }

    @Override
    public String getSchema() throws SQLException {
        return d().getSchema();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        return d().getTypeMap();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        d().setTypeMap(map);
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        d().setHoldability(holdability);
    }

    @Override
    public int getHoldability() throws SQLException {
        return d().getHoldability();
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        return !closed && exec.isValid(timeout) && (raw == exec || raw.isValid(timeout));
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        checkClientInfo();
        exec.setClientInfo(name, value);
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        checkClientInfo();
        exec.setClientInfo(properties);
    }

    private void checkClientInfo() throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("this connection is closed", "08003", 0, Map.of());
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        return d().getClientInfo(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        return d().getClientInfo();
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        d().setNetworkTimeout(executor, milliseconds);
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        return d().getNetworkTimeout();
    }

    @Override
    public void beginRequest() throws SQLException {
        d().beginRequest();
    }

    @Override
    public void endRequest() throws SQLException {
        d().endRequest();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        SQLWarning vendor = d().getWarnings();
        if (warnings == null) {
            return vendor;
        }
        SQLWarning head = new SQLWarning(warnings.getMessage(), warnings.getSQLState());
        for (SQLWarning w = warnings.getNextWarning(); w != null; w = w.getNextWarning()) {
            head.setNextWarning(new SQLWarning(w.getMessage(), w.getSQLState()));
        }
        if (vendor != null) {
            head.setNextWarning(vendor);
        }
        return head;
    }

    @Override
    public void clearWarnings() throws SQLException {
        d().clearWarnings();
        warnings = null;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        d();
        return Wrappers.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        d();
        return Wrappers.isWrapperFor(this, iface);
    }

    // ---- closing ----

    @Override
    public boolean isClosed() throws SQLException {
        return closed || exec.isClosed();
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (GuardedStatement<?> s : statements) {
                s.closeQuietly();
            }
            statements.clear();
            if (exec != raw) {
                closeQuietly(exec);
            }
            if (!ownsRaw) {
                returnSession();
            }
            raw.close();
        } finally {
            onClose.run();
        }
    }

    /** A pooled connection of the application's gets its read-write session back; if it cannot, it is dropped. */
    private void returnSession() {
        try {
            if (!raw.isClosed()) {
                if (!raw.getAutoCommit()) {
                    raw.rollback();
                }
                engine.dialect().endReadSession(raw);
            }
        } catch (SQLException e) {
            LOG.warn("could not end the read-only session of a pooled connection; it stays read-only", e);
        }
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (exec != raw) {
                exec.abort(executor);
            }
            raw.abort(executor);
        } finally {
            onClose.run();
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            LOG.debug("closing the read connection failed", e);
        }
    }
}
