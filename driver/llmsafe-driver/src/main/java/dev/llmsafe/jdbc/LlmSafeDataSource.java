package dev.llmsafe.jdbc;

import dev.llmsafe.assembly.DelegatingDataSource;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Guards any {@link DataSource}, for applications that build theirs in code (a Spring bean, a pool made
 * by hand). Each connection is the model's, as through {@code jdbc:llmsafe:}: reads guarded in a
 * read-only session, UPDATE and DELETE turned into plans and {@link PlanPendingException}, everything
 * else refused.
 *
 * <pre>{@code
 * DataSource guarded = new LlmSafeDataSource(hikari, Policy.define(p -> p
 *         .table("orders", t -> t.impact("Changing an order moves money."))
 *         .secret("password_hash", "a stored credential")));
 * }</pre>
 *
 * <p>The dry run borrows its connections from the wrapped data source (it must hand out auto-commit
 * connections, as pools do by default, and have one to spare while a plan is made). A connection goes
 * back to the wrapped pool with its read-only session ended and every session setting the model could
 * have changed put back to what the application had (R8). {@link #close()} closes llmsafe's own
 * resources, not the wrapped data source. {@code unwrap} hands out nothing but this (J1): a framework
 * that unwraps to find the pool (Spring's pool metrics) does not find it.
 */
public final class LlmSafeDataSource extends DelegatingDataSource implements DataSource, AutoCloseable {

    private final DataSource target;
    private final Optional<LlmSafeConfig> config;
    private final Policy policy;
    private final PlanSinkFactory sinks;
    private Engine engine;
    private volatile GuardListener listener = GuardListener.NONE;
    private volatile String proposer = "assistant";
    private volatile boolean closed;

    /** Guards a data source with a configuration (its policy, readConnection, schema and sealKey apply). */
    public LlmSafeDataSource(DataSource target, LlmSafeConfig config) {
        this(target, Optional.of(config), config.policy(), PlanSinkFactory.DEFAULT);
    }

    /** Guards a data source with a policy alone. */
    public LlmSafeDataSource(DataSource target, Policy policy) {
        this(target, Optional.empty(), policy, PlanSinkFactory.DEFAULT);
    }

    LlmSafeDataSource(DataSource target, Optional<LlmSafeConfig> config, Policy policy, PlanSinkFactory sinks) {
        super(target);
        this.target = target;
        this.config = config;
        this.policy = Objects.requireNonNull(policy, "policy");
        this.sinks = sinks;
    }

    /**
     * A guarded connection, borrowed from the wrapped data source; its plans name the proposer set with
     * {@link #setProposer} ("assistant" unless set).
     */
    @Override
    public Connection getConnection() throws SQLException {
        return getConnectionFor(proposer);
    }

    /**
     * The proposer that the plans of {@link #getConnection()}'s connections name, as given (T3: not an
     * authorisation); "assistant" unless set. {@link #getConnectionFor} names its own.
     *
     * @param proposer who proposes, as the card will name them
     * @throws IllegalArgumentException when it is blank
     */
    public void setProposer(String proposer) {
        if (proposer == null || proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
        this.proposer = proposer;
    }

    /**
     * A guarded connection whose plans name {@code proposer} as their proposer, for an application that
     * serves several agents or users from one data source. The name is recorded as given and is not an
     * authorisation boundary (T3): who may approve and apply is decided by the store's own credential.
     *
     * @param proposer who proposes the connection's plans, as the card will name them
     */
    public Connection getConnectionFor(String proposer) throws SQLException {
        checkProposer(proposer);
        if (closed) {
            throw new SQLException("this LlmSafeDataSource is closed", "08003");
        }
        Connection raw = target.getConnection();
        return guardLent(raw, () -> GuardedConnection.open(engine(raw), raw, false, proposer, () -> { }));
    }

    static void checkProposer(String proposer) {
        if (proposer == null || proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
    }

    /** What guards a lent connection. */
    @FunctionalInterface
    interface Guarding {
        Connection open() throws SQLException;
    }

    /** Guards a connection a pool lent; when that fails, the connection is closed: never handed back raw. */
    static Connection guardLent(Connection lent, Guarding guarding) throws SQLException {
        try {
            return guarding.open();
        } catch (SQLException | RuntimeException e) {
            try {
                lent.close();
            } catch (SQLException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
    }

    private synchronized Engine engine(Connection first) throws SQLException {
        if (engine == null) {
            Dialect dialect = Engine.dialect(first, config);
            engine = new Engine(config, policy, dialect, Engine.borrowed(target, dialect, config), sinks);
            engine.listener(listener);
        }
        return engine;
    }

    /**
     * Who is told of each read, plan and refusal of this data source's connections, such as metrics
     * ({@link GuardListener}); replaces the one before. Takes effect for statements that start after it.
     *
     * @param listener the listener, or null for none
     */
    public synchronized void setListener(GuardListener listener) {
        this.listener = listener == null ? GuardListener.NONE : listener;
        if (engine != null) {
            engine.listener(this.listener);
        }
    }

    /** Refused: the dry run borrows with the wrapped data source's own credential, and reads must match it. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("configure the credential on the wrapped DataSource: the dry run"
                + " borrows connections from it with its own credential");
    }

    /** Closes llmsafe's own resources (the plan sink, the read watchdog); the wrapped data source stays open. */
    @Override
    public synchronized void close() {
        closed = true;
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
