package dev.llmsafe.cli;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.jdbc.LlmSafeConnection;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.jdbc.ReadEstimate;
import dev.llmsafe.mcp.PlanStatus;
import dev.llmsafe.mcp.ProposedPlan;
import dev.llmsafe.mcp.ReadResult;
import dev.llmsafe.mcp.SchemaContext;
import dev.llmsafe.mcp.SqlTools;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.StoredPlan;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The model's tools over a configuration, for {@code llmsafe read}, {@code explain} and {@code mcp}:
 * reads and plans go through the guard exactly as an application's {@code jdbc:llmsafe:} connection
 * does (an {@link LlmSafeDataSource} over the planning connection, with the configuration's
 * readConnection, schema and seal key); plan status comes from the store, the schema context from the
 * catalog. Each tool first says whether the statement is the kind it takes, so that a write sent to
 * the read tool is refused there and never becomes a plan. Thread-safe.
 */
final class DatabaseTools implements SqlTools, AutoCloseable {

    /** The largest integer a JSON reader that uses doubles (JavaScript) reads exactly: 2^53. */
    private static final BigInteger EXACT_IN_DOUBLE = BigInteger.ONE.shiftLeft(53);

    private final Deployment deployment;
    private final LlmSafeDataSource guarded;
    private final StatementAnalyzer analyzer;
    private volatile LexSettings lex;

    DatabaseTools(Deployment deployment) throws SQLException {
        this.deployment = deployment;
        this.guarded = new LlmSafeDataSource(deployment.pool(Deployment.Role.PLAN), deployment.config());
        this.analyzer = new StatementAnalyzer(deployment.config().policy().maxStatementLength());
    }

    /** The analysis the guard will also make, to tell a read from a write before either runs. */
    private Analysis analyze(String sql) throws SQLException {
        if (lex == null) {
            try (Connection c = deployment.pool(Deployment.Role.PLAN).getConnection()) {
                deployment.dialect().initConnection(c);
                lex = deployment.dialect().lexSettings(c);
            }
        }
        return analyzer.analyze(sql, lex);
    }

    @Override
    public ReadResult read(String sql) throws SQLException {
        if (analyze(sql).isWrite()) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "this is an UPDATE or a DELETE, and reading runs"
                    + " reads only. Propose the change as a plan instead (sql_plan, or `llmsafe plan`). Nothing ran.");
        }
        try (Connection c = guarded.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
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
    static Object value(ResultSet rs, int i, int type) throws SQLException {
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
        try (Connection c = guarded.getConnectionFor(proposer); Statement s = c.createStatement()) {
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
            p = deployment.store().load(id);
        } catch (RefusedException e) {
            if (e.code() == Refusal.PLAN_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        List<String> history = new ArrayList<>();
        for (AuditEntry e : p.history()) {
            history.add(e.at() + " " + e.action() + " by " + e.actor() + ": " + e.outcome()
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
        try (Connection c = deployment.pool(Deployment.Role.PLAN).getConnection()) {
            deployment.dialect().initConnection(c);
            dev.llmsafe.check.SchemaContext s = dev.llmsafe.check.SchemaContext.read(c, deployment.dialect(),
                    deployment.config().policy());
            return new SchemaContext(s.text(), Json.write(s));
        }
    }

    /** The cost estimate of a read, checked as the read would be and not run (R5). */
    ReadEstimate explain(String sql) throws SQLException {
        try (Connection c = guarded.getConnection()) {
            return c.unwrap(LlmSafeConnection.class).explain(sql);
        }
    }

    /** Closes the guard's own resources; the deployment's pools are the caller's. */
    @Override
    public void close() {
        guarded.close();
    }
}
