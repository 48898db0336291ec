package dev.llmsafe.jdbc;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import dev.llmsafe.dialect.SessionReset;
import java.util.List;
import java.util.Map;
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
 * read-only whatever the caller asks (R4, J3; a {@link SQLWarning} says so) and procedure calls are
 * refused (J4); the setters that could widen the session are in {@link ReadOnlySessionConnection}
 * (J6), the plain pass-through in {@link DelegatingConnection}.
 */
final class GuardedConnection extends ReadOnlySessionConnection implements LlmSafeConnection {

    private static final Logger LOG = LoggerFactory.getLogger(GuardedConnection.class);

    private final Engine engine;
    private final Connection raw;
    private final Connection exec;
    private final boolean ownsRaw;
    private final Guard guard;
    private final Holds holds;
    private final Runnable onClose;
    private final Set<GuardedStatement<?>> statements = ConcurrentHashMap.newKeySet();
    private final Map<String, String> clientInfo = new ConcurrentHashMap<>();
    private GuardedMetaData metaData;
    private SQLWarning warnings;

    private final SessionReset.Snapshot applicationSession;

    private GuardedConnection(Engine engine, Connection raw, Connection exec, boolean ownsRaw, Guard guard,
            Holds holds, Runnable onClose, SessionReset.Snapshot applicationSession) {
        super(exec);
        this.applicationSession = applicationSession;
        this.engine = engine;
        this.raw = raw;
        this.exec = exec;
        this.ownsRaw = ownsRaw;
        this.guard = guard;
        this.holds = holds;
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
            // R8: the application's session as the pool gave it, put back when the connection goes back.
            SessionReset.Snapshot applicationSession = ownsRaw ? null : engine.dialect().sessionReset().take(raw);
            if (engine.pinsSchema()) {
                // The configured schema, on the application's lent connection too (put back with the rest): the
                // model's reads resolve names where the dry run does, not in the pool's default schema.
                engine.dialect().pinSchema(raw);
            }
            engine.dialect().beginReadSession(raw, timeoutMs);
            if (engine.separateReads()) {
                exec = engine.openReadConnection();
                engine.dialect().beginReadSession(exec, timeoutMs);
            }
            Holds holds = Holds.begin(engine, exec);
            engine.dialect().boundValueSize(exec, engine.policy().read().maxBytes());
            return new GuardedConnection(engine, raw, exec, ownsRaw, new Guard(engine, exec, raw, proposer, holds), holds,
                    onClose, applicationSession);
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

    Guard guard() {
        return guard;
    }

    @Override
    public ReadEstimate explain(String sql) throws SQLException {
        d();
        return guard.estimate(sql);
    }

    Engine engine() {
        return engine;
    }

    /**
     * The connection reads run on, for tests in this package that prove the server's own guard. Handed
     * out, it can change the session around the guard, so the name context is asked before every read
     * from then on (R9).
     */
    Connection readConnectionForTests() {
        guard.vendorConnectionHandedOut();
        return exec;
    }

    /** J6 refuses another catalog; whatever the call did, the name context is asked again (R9). */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        try {
            super.setCatalog(catalog);
        } finally {
            guard.nameContextMayHaveChanged();
        }
    }

    /** J6 refuses another schema; whatever the call did, the name context is asked again (R9). */
    @Override
    public void setSchema(String schema) throws SQLException {
        try {
            super.setSchema(schema);
        } finally {
            guard.nameContextMayHaveChanged();
        }
    }

    void forget(GuardedStatement<?> s) {
        statements.remove(s);
    }

    @Override
    Holds holds() {
        return holds;
    }

    @Override
    void warn(String message, String sqlState) {
        SQLWarning w = new SQLWarning(message, sqlState);
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
                    + " downgraded", "01L02");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            warn("llmsafe: result sets are read-only (J3); CONCUR_UPDATABLE was downgraded to CONCUR_READ_ONLY", "01L02");
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

    // ---- client info: what was set through this connection, never the vendor's own (J9) ----

    /**
     * Passes to the vendor (pgjdbc sets application_name, only a label) and is remembered here: the model
     * reads back what its caller set, never what the URL, the pool or another user of the vendor
     * connection gave the vendor (pgjdbc answers ApplicationName from the URL).
     */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        clientInfo().setClientInfo(name, value);
        if (name != null) {
            if (value == null) {
                clientInfo.remove(name);
            } else {
                clientInfo.put(name, value);
            }
        }
    }

    /** JDBC: the properties given replace every client info property. */
    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfo().setClientInfo(properties);
        clientInfo.clear();
        if (properties != null) {
            properties.stringPropertyNames().forEach(n -> clientInfo.put(n, properties.getProperty(n)));
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        d();
        return name == null ? null : clientInfo.get(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        d();
        Properties p = new Properties();
        p.putAll(clientInfo);
        return p;
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        return !closed() && exec.isValid(timeout) && (raw == exec || raw.isValid(timeout));
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

    // ---- closing ----

    @Override
    public boolean isClosed() throws SQLException {
        return closed() || exec.isClosed();
    }

    @Override
    public void close() throws SQLException {
        if (!markClosed()) {
            return;
        }
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
                if (raw == exec) {
                    holds.release();
                    engine.dialect().unboundValueSize(raw);
                }
                engine.dialect().endReadSession(raw);
                List<String> restored = engine.dialect().sessionReset().restore(raw, applicationSession);
                if (!raw.getAutoCommit()) {
                    // What was put back in a transaction (PostgreSQL's set_config) would be undone by the pool's
                    // rollback on return: the pinned schema stayed on the application's connection after a plan.
                    raw.commit();
                }
                if (!restored.isEmpty()) {
                    LOG.warn("the model's connection went back to the pool with session settings changed; put back: {}",
                            restored);
                }
            }
        } catch (SQLException e) {
            // R8: a session that cannot be put back must not serve the application's next use.
            LOG.warn("could not put back the session of a pooled connection; it is closed instead", e);
            try {
                raw.abort(Runnable::run);
            } catch (SQLException | RuntimeException x) {
                LOG.debug("aborting the pooled connection failed", x);
            }
        }
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (!markClosed()) {
            return;
        }
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
