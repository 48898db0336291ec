package dev.llmsafe.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.assembly.BorrowedConnections;
import dev.llmsafe.assembly.Pools;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.jdbc.LlmSafeConnection;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.jdbc.ReadEstimate;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.value.Visible;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The model's four tools (read, plan, plan status, schema) over a database, with the engine's guards:
 * reads and plans go through an {@link LlmSafeDataSource} exactly as an application's {@code jdbc:llmsafe:}
 * connection does (the configuration's readConnection, schema and seal key apply); plan status comes from
 * the plan store the configuration names, the schema context from the catalog. Each tool first says
 * whether the statement is the kind it takes, so that a write sent to the read tool is refused there and
 * never becomes a plan. Two ways to build one:
 *
 * <ul>
 *   <li>{@link #over(DataSource, LlmSafeConfig)} for an application: its own pool (HikariCP, Spring's) and
 *       its configuration. Every call borrows a connection from that pool and gives it back, so a pool is
 *       what to pass: a plain {@code DriverManager}-style data source would open a physical connection per
 *       call. The plan store is {@code storeConnection} when the configuration names one (a small pool of
 *       its own, closed with this), else the application's database, as for the driver's own plans.</li>
 *   <li>{@link #over(Deployment)} for the operator's tools (the command line, the MCP server): the
 *       deployment's pools.</li>
 * </ul>
 *
 * <p>The data source given is the database the dry run borrows from and the catalog is read on; no
 * connection of it reaches the caller, and the model sees only what the four results carry. The guarded
 * data source is this object's own (an {@link LlmSafeDataSource} hands out nothing of what it wraps,
 * J1, and plan status and the catalog need the wrapped database): {@link #guarded()} gives it to an
 * application that also runs guarded JDBC of its own. Thread-safe: one instance serves every caller.
 */
public final class DatabaseTools implements SqlTools, AutoCloseable {

    /** The largest integer a JSON reader that uses doubles (JavaScript) reads exactly: 2^53. */
    private static final BigInteger EXACT_IN_DOUBLE = BigInteger.ONE.shiftLeft(53);

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Where the tools' connections and store come from: a deployment's pools or an application's. */
    private interface Source {
        /** The dry-run database, unguarded: the catalog and the lexer's settings are read on it. */
        DataSource database() throws SQLException;

        Dialect dialect() throws SQLException;

        PlanStore store() throws SQLException;

        /** Closes what the source opened itself (never the application's pool or the deployment). */
        void close();
    }

    private final Source source;
    private final LlmSafeConfig config;
    private final LlmSafeDataSource guarded;
    private final StatementAnalyzer analyzer;
    private final KeptReader reader;
    private volatile LexSettings lex;

    private DatabaseTools(Source source, LlmSafeConfig config, DataSource target, boolean keepsReadConnection) {
        this.source = source;
        this.config = config;
        this.guarded = new LlmSafeDataSource(target, config);
        this.analyzer = new StatementAnalyzer(config.policy().maxStatementLength());
        this.reader = new KeptReader(guarded, keepsReadConnection);
    }

    /**
     * The tools over an operator's deployment: its planning pool for reads and dry runs, its store.
     * A deployment whose configuration names no planning connection (one that reads, approves and
     * applies, as the console's) reads on its read connection and refuses to plan, naming the missing key.
     * Reads keep their guarded connection from one call to the next (a long-running server's reads send
     * what the driver's do, not a read-only session's set-up and tear-down each time); it is given back
     * when the tools close, when a read fails in the database, and after five minutes. Closing the tools
     * leaves the deployment's pools open.
     *
     * @param deployment the configuration's connections
     * @throws SQLException when the database cannot be reached
     * @throws dev.llmsafe.policy.ConfigException when the configuration names neither a planning nor a read
     *     connection, or no policy
     */
    public static DatabaseTools over(Deployment deployment) throws SQLException {
        Objects.requireNonNull(deployment, "deployment");
        Deployment.Role role = deployment.config().planningConnection().isPresent() ? Deployment.Role.PLAN
                : Deployment.Role.READ;
        Source s = new Source() {
            @Override
            public DataSource database() throws SQLException {
                return deployment.pool(role);
            }

            @Override
            public Dialect dialect() throws SQLException {
                return deployment.dialect(role);
            }

            @Override
            public PlanStore store() throws SQLException {
                return deployment.store();
            }

            @Override
            public void close() {
            }
        };
        return new DatabaseTools(s, deployment.config(), deployment.pool(role), true);
    }

    /**
     * The tools over an application's data source, guarded with its configuration. The data source is
     * the application's and stays open when these tools close.
     *
     * @param application the application's pool on the database the model works on (the dry run borrows
     *     from it with its credential; it must hand out auto-commit connections and have one to spare)
     * @param config the llmsafe configuration: its policy, readConnection, schema, seal key, store
     */
    public static DatabaseTools over(DataSource application, LlmSafeConfig config) {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(config, "config");
        return new DatabaseTools(new ApplicationSource(application, config), config, application, false);
    }

    /**
     * The guarded data source the tools use: the model's, for an application's own guarded JDBC beside the
     * tools (reads guarded, writes made plans). Closed with these tools.
     */
    public LlmSafeDataSource guarded() {
        config.connection(); // a configuration without the planning connection proposes nothing: it says so
        return guarded;
    }

    /** An application's data source, with the store the configuration names; opened on first use. */
    private static final class ApplicationSource implements Source {
        private final DataSource application;
        private final LlmSafeConfig config;
        private Dialect dialect;
        private PlanStore store;
        private HikariDataSource storePool;

        ApplicationSource(DataSource application, LlmSafeConfig config) {
            this.application = application;
            this.config = config;
        }

        @Override
        public DataSource database() {
            return application;
        }

        @Override
        public synchronized Dialect dialect() throws SQLException {
            if (dialect == null) {
                try (Connection c = application.getConnection()) {
                    dialect = Dialects.of(c, config.schema().orElse(null));
                }
            }
            return dialect;
        }

        @Override
        public synchronized PlanStore store() throws SQLException {
            if (store == null) {
                // Plans reach the store through the guarded data source's borrowed connections, pinned to the
                // configured schema; the status is read the same way (T1), the connection given back as lent.
                DataSource where = config.schema().isEmpty() ? application
                        : new BorrowedConnections(application, dialect().sessionReset(), dialect()::pinSchema);
                if (config.storeConnection().isPresent()) {
                    storePool = Pools.open("tools-store", config.storeConnection().get(), Pools.ENGINE_SIZE,
                            Pools.Start.ON_FIRST_USE);
                    where = storePool;
                }
                store = Assembly.store(where, Optional.of(config), Clock.systemUTC());
            }
            return store;
        }

        @Override
        public synchronized void close() {
            if (storePool != null) {
                storePool.close();
                storePool = null;
                store = null;
            }
        }
    }

    /** The analysis the guard will also make, to tell a read from a write before either runs. */
    private Analysis analyze(String sql) throws SQLException {
        if (lex == null) {
            // The dialect first: asking for it may borrow a connection, and holding one meanwhile would
            // let concurrent first calls take the whole pool and wait for each other.
            Dialect dialect = source.dialect();
            try (Connection c = source.database().getConnection()) {
                dialect.initConnection(c);
                lex = dialect.lexSettings(c);
            }
        }
        return analyzer.analyze(sql, lex);
    }

    /**
     * Proves, cheaply, that the tools can work now, for a health check: the plan store is reachable and
     * migrated, and a guarded read runs (the guard proves the read-only session before every read, R8).
     *
     * @throws SQLException the first problem found: STORE_MISSING saying what to run, or why the database
     *     cannot be reached or the read session not proven
     */
    public void checkReady() throws SQLException {
        source.store().checkReady();
        try (Connection c = guarded.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT 1")) {
            rs.next();
        }
    }

    @Override
    public ReadResult read(String sql) throws SQLException {
        if (analyze(sql).isWrite()) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "this is an UPDATE or a DELETE, and reading runs"
                    + " reads only. Propose the change as a plan instead (sql_plan, or `llmsafe plan`). Nothing ran.");
        }
        return reader.run(c -> readOn(c, sql));
    }

    private static ReadResult readOn(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            List<ReadResult.Column> columns = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                columns.add(new ReadResult.Column(md.getColumnLabel(i), String.valueOf(md.getColumnTypeName(i))));
            }
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(value(rs, i, md.getColumnType(i)));
                }
                rows.add(row);
            }
            return new ReadResult(columns, rows, truncated(rs.getWarnings()));
        }
    }

    /**
     * A value as JSON carries it: numbers and booleans as such, binary as its bytes (R13: Connector/J's
     * and sqlite-jdbc's text of bytes is lossy, SPEC.md F19), everything else as the driver's text. A
     * text column is asked for its object too, because SQLite keeps a blob in a column of any declared
     * type and says so only by the value.
     */
    private static Object value(ResultSet rs, int i, int type) throws SQLException {
        Object v = switch (type) {
            case Types.BOOLEAN, Types.BIT -> rs.getBoolean(i);
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> integer(rs.getString(i));
            case Types.DECIMAL, Types.NUMERIC -> rs.getBigDecimal(i);
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> {
                double d = rs.getDouble(i);
                yield Double.isFinite(d) ? (Object) d : rs.getString(i);
            }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
                byte[] b = rs.getBytes(i);
                yield b == null ? null : ReadResult.Bytes.of(b);
            }
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                 Types.CLOB, Types.NCLOB, Types.NULL, Types.OTHER -> {
                Object o = rs.getObject(i);
                yield o instanceof byte[] b ? ReadResult.Bytes.of(b) : o == null ? null : rs.getString(i);
            }
            default -> rs.getString(i);
        };
        return rs.wasNull() ? null : v;
    }

    /** An integer column's value: a number when a double holds it exactly, else its digits as text. */
    private static Object integer(String text) {
        if (text == null) {
            return null;
        }
        BigInteger b;
        try {
            b = new BigDecimal(text).toBigIntegerExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return text; // SQLite keeps what it was given, whatever the column says.
        }
        return b.abs().compareTo(EXACT_IN_DOUBLE) <= 0 ? (Object) b.longValue() : b.toString();
    }

    private static boolean truncated(SQLWarning w) {
        for (; w != null; w = w.getNextWarning()) {
            if ("01L01".equals(w.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ProposedPlan plan(String sql, String proposer) throws SQLException {
        if (!analyze(sql).isWrite()) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "a plan is for an UPDATE or a DELETE; this is a"
                    + " read. Run it as a read instead (sql_read, or `llmsafe read`). Nothing ran.");
        }
        try (Connection c = guarded().getConnectionFor(proposer); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        } catch (PlanPendingException pending) {
            return new ProposedPlan(pending.planId().toString(), pending.getMessage(), pending.planJson());
        }
        throw new IllegalStateException("the guard let a write run without a plan");
    }

    @Override
    public Optional<PlanStatus> planStatus(String planId) throws SQLException {
        UUID id;
        try {
            id = UUID.fromString(planId.trim());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        StoredPlan p;
        try {
            p = source.store().load(id);
        } catch (RefusedException e) {
            if (e.code() == Refusal.PLAN_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        List<String> history = new ArrayList<>();
        for (AuditEntry e : p.history()) {
            history.add(e.at() + " " + e.action().label() + " by " + e.actor() + ": " + e.outcome().label()
                    + (e.detail() == null || e.detail().isEmpty() ? "" : " (" + e.detail() + ")"));
        }
        PlanStatus.State state;
        String reason = p.outcome().orElse(null);
        switch (p.status()) {
            case APPLYING -> {
                // The model's states: an apply that is running is still an approved plan, not yet applied.
                state = PlanStatus.State.APPROVED;
                reason = "an applier is committing it now";
            }
            case PROPOSED -> state = PlanStatus.State.PROPOSED;
            case APPROVED -> state = PlanStatus.State.APPROVED;
            case APPLIED -> state = PlanStatus.State.APPLIED;
            case FAILED -> state = PlanStatus.State.FAILED;
            case REJECTED -> state = PlanStatus.State.REJECTED;
            case EXPIRED -> state = PlanStatus.State.EXPIRED;
            default -> throw new IllegalStateException("unknown plan status " + p.status());
        }
        return Optional.of(new PlanStatus(p.plan().id().toString(), state, reason, history));
    }

    @Override
    public SchemaContext schema() throws SQLException {
        Dialect dialect = source.dialect(); // before borrowing: see analyze
        try (Connection c = source.database().getConnection()) {
            dialect.initConnection(c);
            dev.llmsafe.check.SchemaContext s = dev.llmsafe.check.SchemaContext.read(c, dialect, config.policy());
            try {
                // C5: no raw invisible or bidi character in what the model reads; JSON escapes them exactly.
                return new SchemaContext(s.text(), Visible.escapeJson(JSON.writeValueAsString(s)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("the schema context is not JSON", e);
            }
        }
    }

    /**
     * The cost estimate of a read, checked as the read would be and not run (R5).
     *
     * @param sql the read
     * @return the estimate the cost gate compares with {@code policy.read.maxCost}
     * @throws dev.llmsafe.RefusedException when the read would be refused before it ran
     * @throws SQLException when the database fails
     */
    public ReadEstimate explain(String sql) throws SQLException {
        return reader.run(c -> c.unwrap(LlmSafeConnection.class).explain(sql));
    }

    /** Closes the guard's own resources and the store pool opened here; the caller's pools stay open. */
    @Override
    public void close() {
        reader.close();
        guarded.close();
        source.close();
    }
}
