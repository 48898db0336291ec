package dev.llmsafe.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.assembly.BorrowedConnections;
import dev.llmsafe.assembly.Pools;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dialect.SessionSettings;
import dev.llmsafe.dialect.Watchdog;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.StatementAnalyzer;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every guarded connection to one database shares: the policy, the dialect, the analysis with its
 * verdict cache, the dry-run pool and its planner, the plan sink, and how to open a configured read
 * connection. The dry-run pool and the sink are opened on the first proposal and closed with the
 * engine, which {@link Engines} does when its last connection closes.
 */
final class Engine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    /** The engine's own connections for the dry run: a small pool, or the application's data source. */
    interface PlanPool extends AutoCloseable {
        DataSource dataSource() throws SQLException;

        /** Where the store writes when it has no connection of its own: the same connections, unless said. */
        default DataSource storeSource() throws SQLException {
            return dataSource();
        }

        @Override
        void close();
    }

    private final Optional<LlmSafeConfig> config;
    private final Policy policy;
    private final Dialect dialect;
    private final StatementAnalyzer analyzer;
    private final PlanPool planPool;
    private final PlanSinkFactory sinks;
    private final Watchdog watchdog;
    private final HoldTimer holdTimer = new HoldTimer();
    private volatile GuardListener listener = GuardListener.NONE;
    private Planner planner;
    private PlanSink sink;
    private boolean closed;

    Engine(Optional<LlmSafeConfig> config, Policy policy, Dialect dialect, PlanPool planPool, PlanSinkFactory sinks) {
        this.config = config;
        this.policy = policy;
        this.dialect = dialect;
        this.analyzer = new StatementAnalyzer(policy.maxStatementLength());
        this.planPool = planPool;
        this.sinks = sinks;
        this.watchdog = dialect.boundsReadTime() ? null : new Watchdog(policy.read().timeoutMs());
    }

    /** Who is told of reads, plans and refusals (LlmSafeDataSource#setListener). */
    void listener(GuardListener listener) {
        this.listener = listener == null ? GuardListener.NONE : listener;
    }

    /** Whether a listener is set: a caller that would measure something only to tell it asks first. */
    boolean hasListener() {
        return listener != GuardListener.NONE;
    }

    /** Tells the listener; a listener's failure is logged, never the caller's. */
    void tell(Consumer<GuardListener> event) {
        GuardListener l = listener;
        if (l == GuardListener.NONE) {
            return;
        }
        try {
            event.accept(l);
        } catch (RuntimeException e) {
            LOG.warn("the GuardListener {} failed; the statement's outcome is unchanged", l.getClass().getName(), e);
        }
    }

    /**
     * The dry-run pool of the driver: the database and credential the application opened, through the
     * same vendor driver and stripped URL, small (the dry run is short and rare) and empty when idle; the
     * configured schema pinned on each of its connections from the start ({@link Dialects#schemaPin}), so
     * that the store, which writes through it, is where {@code migrate} put it, whatever ran there before.
     */
    static PlanPool pool(Driver driver, String url, Properties properties, Optional<LlmSafeConfig> config) {
        Optional<String> pin = Dialects.schemaPin(url, config.flatMap(LlmSafeConfig::schema).orElse(null));
        return new PlanPool() {
            private HikariDataSource pool;

            @Override
            public synchronized DataSource dataSource() throws SQLException {
                if (pool == null) {
                    pool = Pools.open("plan", RealDrivers.dataSource(driver, url, properties),
                            Pools.sqliteReadOnly(url, properties), Pools.engineSize(url), Pools.Start.ON_FIRST_USE, pin);
                }
                return pool;
            }

            @Override
            public synchronized void close() {
                if (pool != null) {
                    pool.close();
                    pool = null;
                }
            }
        };
    }

    /**
     * A pool of the engine's own over configured settings (the configuration's {@code connection}), the
     * configured schema pinned on each of its connections as in {@link #pool(Driver, String, Properties, Optional)}.
     */
    static PlanPool pool(ConnectionSettings settings, Optional<LlmSafeConfig> config) {
        Optional<String> pin = Dialects.schemaPin(settings.url(), config.flatMap(LlmSafeConfig::schema).orElse(null));
        return new PlanPool() {
            private HikariDataSource pool;

            @Override
            public synchronized DataSource dataSource() throws SQLException {
                if (pool == null) {
                    pool = Pools.open("plan", settings, Pools.engineSize(settings.url()), Pools.Start.ON_FIRST_USE, pin);
                }
                return pool;
            }

            @Override
            public synchronized void close() {
                if (pool != null) {
                    pool.close();
                    pool = null;
                }
            }
        };
    }

    /**
     * The application's own data source as the dry-run pool (an {@link LlmSafeDataSource}, an
     * {@link LlmSafeGuard} without a planning connection), not closed here: its connections go back with
     * the session settings they were lent with ({@link BorrowedConnections}).
     */
    static PlanPool borrowed(DataSource target, Dialect dialect, Optional<LlmSafeConfig> config) {
        DataSource lending = new BorrowedConnections(target, dialect.sessionReset(), null);
        // The store's statements name its tables without a schema: with a schema configured, each of its
        // connections is pinned there as the command line's are (migrate), and put back when it goes back.
        DataSource storing = config.flatMap(LlmSafeConfig::schema).isEmpty() ? lending
                : new BorrowedConnections(target, dialect.sessionReset(), dialect::pinSchema);
        return new PlanPool() {
            @Override
            public DataSource dataSource() {
                return lending;
            }

            @Override
            public DataSource storeSource() {
                return storing;
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * The database's dialect, from the first connection. The schema pinned on the engine's own
     * connections is the configured one, else the one the caller's connection is in (its URL's
     * currentSchema, its role's search_path), so that the dry run resolves names as the caller's reads do.
     */
    static Dialect dialect(Connection first, Optional<LlmSafeConfig> config) throws SQLException {
        return Dialects.of(first, config.flatMap(LlmSafeConfig::schema).orElse(null));
    }

    Policy policy() {
        return policy;
    }

    Dialect dialect() {
        return dialect;
    }

    StatementAnalyzer analyzer() {
        return analyzer;
    }

    /** Cancels reads from the client where the server cannot bound them; null elsewhere. */
    Watchdog watchdog() {
        return watchdog;
    }

    /** Ends the holds of the model's connections at policy.read.holdMs where the server does not (R11). */
    HoldTimer holdTimer() {
        return holdTimer;
    }

    /** Whether reads run on a connection of their own (readConnection), not on the caller's. */
    boolean separateReads() {
        return config.flatMap(LlmSafeConfig::readConnection).isPresent();
    }

    /** Opens the configured read connection, stripped like the driver's own URL and pinned to the schema. */
    Connection openReadConnection() throws SQLException {
        ConnectionSettings s = config.flatMap(LlmSafeConfig::readConnection).orElseThrow();
        Properties props = new Properties();
        s.user().ifPresent(u -> props.setProperty("user", u));
        s.password().ifPresent(p -> props.setProperty("password", p.reveal()));
        DriverUrl.Parsed p = DriverUrl.real(s.url(), props);
        Connection c = RealDrivers.connect(RealDrivers.find(p.realUrl()), p.realUrl(),
                DriverUrl.forReads(p, () -> policy.read().maxBytes()));
        try {
            dialect.pinSchema(c);
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Whether the configured schema is pinned on the caller's connection too (the driver's, and one lent by a data source). */
    boolean pinsSchema() {
        return config.flatMap(LlmSafeConfig::schema).isPresent();
    }

    /**
     * Runs the dry run in the application's session settings (D17), keeps the plan, and returns the
     * exception that tells the caller so (J7). A
     * refusal of the dry run or of the sink is thrown instead; then nothing was proposed.
     */
    PlanPendingException propose(List<Proposal> proposals, String proposer, SessionSettings session)
            throws SQLException {
        Plan plan = planner().plan(proposals, proposer, session);
        sink().save(plan);
        LOG.info("plan {} proposed by {}: statements {}, rows {}", plan.id(), proposer, plan.statements().size(),
                plan.rowCount());
        return new PlanPendingException(plan);
    }

    private synchronized Planner planner() throws SQLException {
        checkOpen();
        if (planner == null) {
            planner = Assembly.planner(planPool.dataSource(), dialect, policy, config, Clock.systemUTC());
        }
        return planner;
    }

    private synchronized PlanSink sink() throws SQLException {
        checkOpen();
        if (sink == null) {
            sink = sinks.open(config, planPool.storeSource(), dialect);
        }
        return sink;
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("llmsafe's engine for this database is closed", "08003");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (sink instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing the plan sink failed", e);
            }
        }
        sink = null;
        planner = null;
        planPool.close();
        if (watchdog != null) {
            watchdog.close();
        }
        holdTimer.close();
    }
}
