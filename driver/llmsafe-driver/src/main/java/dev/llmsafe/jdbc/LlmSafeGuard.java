package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.policy.LlmSafeConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Guards connections a data source has already lent: the way in of the javaagent (llmsafe-agent), which
 * sees a pool's connection only after the pool handed it out. Each guarded connection is the model's, as
 * one of {@link LlmSafeDataSource} is: reads guarded in a read-only session, UPDATE and DELETE turned into
 * plans and {@link PlanPendingException}, everything else refused. Closing it puts back every session
 * setting the model could have changed (R8) and closes the lent connection, which for a pool's proxy
 * gives the physical connection back to the pool, unwrapped.
 *
 * <pre>{@code
 * LlmSafeGuard guard = LlmSafeGuard.over(hikari, LlmSafeConfig.load(path));
 * Connection model = guard.guard(hikari.getConnection(), "assistant");
 * }</pre>
 *
 * <p>The dry run runs on the configuration's {@code connection} (a small pool of llmsafe's own) when it
 * names one; otherwise on connections borrowed from the lender, which must then have one to spare while
 * a plan is made (a pool of one connection cannot). One guard serves one database: its dialect is read
 * from the first connection it guards.
 */
public final class LlmSafeGuard implements AutoCloseable {

    private final DataSource lender;
    private final LlmSafeConfig config;
    private Engine engine;
    private boolean closed;

    private LlmSafeGuard(DataSource lender, LlmSafeConfig config) {
        this.lender = Objects.requireNonNull(lender, "lender");
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * A guard for the connections one data source lends.
     *
     * @param lender the data source the connections come from, and the dry run's when the configuration
     *     names no {@code connection}
     * @param config the policy, the plan store and the other connections
     */
    public static LlmSafeGuard over(DataSource lender, LlmSafeConfig config) {
        return new LlmSafeGuard(lender, config);
    }

    /**
     * The model's connection over one the lender lent. A connection that is already llmsafe's (from
     * {@code jdbc:llmsafe:}, an {@link LlmSafeDataSource} or a guard, also behind a pool's proxy) is
     * returned as it is: a connection is guarded once. When guarding fails, the lent connection is closed
     * and the error thrown: it is never handed back unguarded.
     *
     * @param lent a connection from the lender, not yet used by the model
     * @param proposer who proposes the connection's plans, as recorded (not an authorisation boundary, T3)
     */
    public Connection guard(Connection lent, String proposer) throws SQLException {
        Objects.requireNonNull(lent, "lent");
        LlmSafeDataSource.checkProposer(proposer);
        return LlmSafeDataSource.guardLent(lent, () -> isGuarded(lent) ? lent
                : GuardedConnection.open(engine(lent), lent, false, proposer, () -> { }));
    }

    /** Whether a connection is already llmsafe's, itself or behind wrappers that answer isWrapperFor (pools). */
    public static boolean isGuarded(Connection c) throws SQLException {
        return c instanceof LlmSafeConnection || c.isWrapperFor(LlmSafeConnection.class);
    }

    private synchronized Engine engine(Connection first) throws SQLException {
        if (closed) {
            throw new SQLException("this LlmSafeGuard is closed", "08003");
        }
        if (engine == null) {
            Optional<LlmSafeConfig> c = Optional.of(config);
            Dialect dialect = Engine.dialect(first, c);
            engine = new Engine(c, config.policy(), dialect, config.planningConnection()
                    .map(s -> Engine.pool(s, c)).orElseGet(() -> Engine.borrowed(lender, dialect, c)), PlanSinkFactory.DEFAULT);
        }
        return engine;
    }

    /** Closes llmsafe's own resources (the dry-run pool, the plan sink); the lender stays open. */
    @Override
    public synchronized void close() {
        closed = true;
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
