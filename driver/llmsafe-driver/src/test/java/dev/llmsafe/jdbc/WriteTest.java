package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** UPDATE and DELETE through every execute method become one stored plan and PlanPendingException (J2, J5, J7). */
class WriteTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact(IMPACT)).maxDeleteRows(2));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)");
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    private interface Attempt {
        void run(Connection c) throws SQLException;
    }

    /** Every way JDBC offers to run an UPDATE, each with its own name. */
    static Map<String, Attempt> everyExecuteMethod() {
        String sql = "UPDATE orders SET status = 'shipped' WHERE id = 1";
        String ps = "UPDATE orders SET status = ? WHERE id = ?";
        Map<String, Attempt> m = new LinkedHashMap<>();
        m.put("Statement.executeQuery", c -> c.createStatement().executeQuery(sql));
        m.put("Statement.executeUpdate", c -> c.createStatement().executeUpdate(sql));
        m.put("Statement.executeUpdate(keys)", c -> c.createStatement().executeUpdate(sql, Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.executeUpdate(int[])", c -> c.createStatement().executeUpdate(sql, new int[] {1}));
        m.put("Statement.executeUpdate(String[])", c -> c.createStatement().executeUpdate(sql, new String[] {"id"}));
        m.put("Statement.executeLargeUpdate", c -> c.createStatement().executeLargeUpdate(sql));
        m.put("Statement.executeLargeUpdate(keys)", c -> c.createStatement().executeLargeUpdate(sql,
                Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.executeLargeUpdate(int[])", c -> c.createStatement().executeLargeUpdate(sql, new int[] {1}));
        m.put("Statement.executeLargeUpdate(String[])", c -> c.createStatement().executeLargeUpdate(sql,
                new String[] {"id"}));
        m.put("Statement.execute", c -> c.createStatement().execute(sql));
        m.put("Statement.execute(keys)", c -> c.createStatement().execute(sql, Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.execute(int[])", c -> c.createStatement().execute(sql, new int[] {1}));
        m.put("Statement.execute(String[])", c -> c.createStatement().execute(sql, new String[] {"id"}));
        m.put("Statement.executeBatch", c -> {
            Statement s = c.createStatement();
            s.addBatch(sql);
            s.executeBatch();
        });
        m.put("Statement.executeLargeBatch", c -> {
            Statement s = c.createStatement();
            s.addBatch(sql);
            s.executeLargeBatch();
        });
        m.put("PreparedStatement.executeQuery", c -> bound(c.prepareStatement(ps)).executeQuery());
        m.put("PreparedStatement.executeUpdate", c -> bound(c.prepareStatement(ps)).executeUpdate());
        m.put("PreparedStatement.executeLargeUpdate", c -> bound(c.prepareStatement(ps)).executeLargeUpdate());
        m.put("PreparedStatement.execute", c -> bound(c.prepareStatement(ps)).execute());
        m.put("prepareStatement(keys).executeUpdate", c -> bound(c.prepareStatement(ps,
                Statement.RETURN_GENERATED_KEYS)).executeUpdate());
        m.put("prepareStatement(int[]).executeUpdate", c -> bound(c.prepareStatement(ps, new int[] {1})).executeUpdate());
        m.put("prepareStatement(String[]).executeUpdate", c -> bound(c.prepareStatement(ps, new String[] {"id"}))
                .executeUpdate());
        m.put("prepareStatement(type, concurrency).executeUpdate", c -> bound(c.prepareStatement(ps,
                java.sql.ResultSet.TYPE_SCROLL_INSENSITIVE, java.sql.ResultSet.CONCUR_UPDATABLE)).executeUpdate());
        m.put("PreparedStatement.executeBatch", c -> {
            PreparedStatement p = bound(c.prepareStatement(ps));
            p.addBatch();
            p.executeBatch();
        });
        m.put("PreparedStatement.executeLargeBatch", c -> {
            PreparedStatement p = bound(c.prepareStatement(ps));
            p.addBatch();
            p.executeLargeBatch();
        });
        return m;
    }

    private static PreparedStatement bound(PreparedStatement p) throws SQLException {
        p.setString(1, "shipped");
        p.setInt(2, 1);
        return p;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J2_everyExecuteMethodOfAnUpdateIsAPlanAndChangesNothing(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            for (Map.Entry<String, Attempt> e : everyExecuteMethod().entrySet()) {
                PlanPendingException p = g.plannedUnchanged(() -> e.getValue().run(c));
                PlannedStatement s = p.plan().statements().get(0);
                assertThat(s.rows()).as(e.getKey()).hasSize(1);
                assertThat(s.changedColumns()).as(e.getKey()).containsExactly("status");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J2_executeQueryOfAWriteWithReturningIsAPlanNotARead(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        // MariaDB 10.11 has RETURNING on DELETE only.
        String sql = engine == Engine.MYSQL ? "DELETE FROM orders WHERE id = 3 RETURNING *"
                : "UPDATE orders SET qty = 30 WHERE id = 3 RETURNING *";
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            if (g.db.isMysql()) {
                // MySQL has no RETURNING: the dry run's statement is refused by the server, nothing runs.
                g.refusedUnchanged(Refusal.UNSUPPORTED_STATEMENT, () -> s.executeQuery(sql));
                return;
            }
            PlanPendingException p = g.plannedUnchanged(() -> s.executeQuery(sql));
            assertThat(p.plan().statements().get(0).sql()).isEqualTo(sql);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J2_everythingElseIsRefusedWhateverTheMethod(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            g.refusedUnchanged(Refusal.UNSUPPORTED_INSERT, () -> s.executeQuery("INSERT INTO orders VALUES (9, 'x', 9)"));
            g.refusedUnchanged(Refusal.UNSUPPORTED_INSERT, () -> c.prepareStatement("INSERT INTO orders VALUES (?, 'x', 1)"));
            g.refusedUnchanged(Refusal.DDL, () -> s.executeUpdate("DROP TABLE orders"));
            g.refusedUnchanged(Refusal.DDL, () -> s.execute("CREATE TABLE x (id INT)"));
            g.refusedUnchanged(Refusal.NO_WHERE, () -> s.executeLargeUpdate("DELETE FROM orders"));
            // A read through executeUpdate would run and lose its rows: refused, not run.
            g.refusedUnchanged(Refusal.UNSUPPORTED_STATEMENT, () -> s.executeUpdate("SELECT * FROM orders"));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_J2_preparedParametersArePartOfThePlanExactly(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); PreparedStatement ps = c.prepareStatement(
                "UPDATE orders SET status = ?, qty = ? WHERE id = ?")) {
            ps.setString(1, "it's shipped");
            ps.setLong(2, 42L);
            ps.setInt(3, 2);
            PlanPendingException p = g.plannedUnchanged(ps::executeUpdate);
            assertThat(p.plan().statements().get(0).parameters()).containsExactly(Parameter.of("it's shipped"),
                    Parameter.of(42L), Parameter.of(2));
            assertThat(p.getMessage()).contains("[1: 'it''s shipped' (setString), 2: 42 (setLong), 3: 2 (setInt)]");
            // A parameter that cannot be kept exactly is refused, not guessed.
            ps.setBinaryStream(1, new ByteArrayInputStream(new byte[] {1}));
            g.refusedUnchanged(Refusal.PARAMETER_NOT_REPLAYABLE, ps::executeUpdate);
            ps.clearParameters();
            ps.setString(1, "x");
            assertThatThrownBy(ps::executeUpdate).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("07001"));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J5_aBatchIsOnePlanOfAllItsStatements(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            Statement s = c.createStatement();
            s.addBatch("UPDATE orders SET qty = 10 WHERE id = 1");
            s.addBatch("DELETE FROM orders WHERE id = 2");
            Plan plan = g.plannedUnchanged(s::executeBatch).plan();
            assertThat(plan.statements()).extracting(PlannedStatement::kind)
                    .containsExactly(PlannedStatement.Kind.UPDATE, PlannedStatement.Kind.DELETE);
            // The batch was used up: executing again runs nothing.
            assertThat(s.executeBatch()).isEmpty();

            PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = ? WHERE id = ?");
            for (int id = 1; id <= 3; id++) {
                ps.setString(1, "batch-" + id);
                ps.setInt(2, id);
                ps.addBatch();
            }
            plan = g.plannedUnchanged(ps::executeBatch).plan();
            assertThat(plan.statements()).hasSize(3);
            assertThat(plan.statements().get(2).parameters()).containsExactly(Parameter.of("batch-3"), Parameter.of(3));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J5_aBatchWithOneRefusedStatementIsRefusedWholeAndNothingRuns(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        int plans = Guarded.SINK.plans.size();
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            s.addBatch("UPDATE orders SET qty = 11 WHERE id = 1");
            s.addBatch("INSERT INTO orders VALUES (7, 'new', 7)");
            g.refusedUnchanged(Refusal.UNSUPPORTED_INSERT, s::executeBatch);
            s.addBatch("UPDATE orders SET qty = 11 WHERE id = 1");
            s.addBatch("SELECT * FROM orders");
            assertThatThrownBy(s::executeBatch).hasMessageContaining("statement 2 of the batch is a read");
            // A statement the dry run refuses (too many rows for a DELETE) refuses the batch too.
            s.addBatch("UPDATE orders SET qty = 12 WHERE id = 1");
            s.addBatch("DELETE FROM orders WHERE id > 0");
            g.refusedUnchanged(Refusal.TOO_MANY_ROWS, s::executeLargeBatch);
        }
        assertThat(Guarded.SINK.plans).hasSize(plans);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D4_aDryRunIsNotHeldUpByAnOpenResultSetOnTheCallersConnection(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement reader = c.createStatement(); Statement s = c.createStatement()) {
            // SQLite: the open cursor holds a read lock, which ending an IMMEDIATE transaction would wait for.
            java.sql.ResultSet open = reader.executeQuery("SELECT id FROM orders ORDER BY id");
            assertThat(open.next()).isTrue();
            long start = System.nanoTime();
            g.plannedUnchanged(() -> s.executeUpdate("UPDATE orders SET qty = 7 WHERE id = 3"));
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(1_500);
            assertThat(open.next()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_theDriversDryRunsWaitForALockOnlyAsLongAsTheConfigurationSays(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        Guarded bounded = Guarded.of(g.db, POLICY, b -> b.lockTimeoutMs(300));
        try (Connection other = g.db.connect(); Connection c = bounded.connect(); Statement s = c.createStatement()) {
            other.setAutoCommit(false);
            try (Statement hold = other.createStatement()) {
                hold.executeUpdate("UPDATE orders SET qty = qty WHERE id = 3");
            }
            try {
                assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET qty = 9 WHERE id = 3"))
                        .isInstanceOf(RefusedException.class)
                        .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.LOCK_TIMEOUT))
                        .hasMessageContaining("for longer than 300 ms");
            } finally {
                other.rollback();
            }
        }
        assertThat(g.db.snapshot("orders")).contains("[3, shipped, 3]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_aPlanIsPlanPendingExceptionWhoseMessageIsTheCard(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            PlanPendingException p = g.plannedUnchanged(() -> s.executeUpdate(
                    "UPDATE orders SET status = 'shipped' WHERE id = 2"));
            assertThat(p.getMessage()).isEqualTo(p.plan().card())
                    .startsWith("Plan " + p.planId() + " is proposed, not applied. Nothing in the database has changed.")
                    .contains(IMPACT).contains("status: 'packed' -> 'shipped'");
            assertThat(p.getSQLState()).isEqualTo(PlanPendingException.SQLSTATE).isEqualTo("25L01");
            assertThat(p.getErrorCode()).isZero();
            assertThat((Throwable) p).isNotInstanceOf(SQLTimeoutException.class).isNotInstanceOf(SQLTransientConnectionException.class)
                    .isNotInstanceOf(RefusedException.class);
            assertThat(Plan.fromJson(p.planJson())).isEqualTo(p.plan());
            assertThat(p.plan().proposer()).isEqualTo("assistant");
            // Serialized (as frameworks may do with exceptions), it keeps the plan.
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(p);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                PlanPendingException back = (PlanPendingException) in.readObject();
                assertThat(back.plan()).isEqualTo(p.plan());
                assertThat(back.getMessage()).isEqualTo(p.getMessage());
            } catch (IOException | ClassNotFoundException e) {
                throw new AssertionError(e);
            }
        }
        // The proposer is the connection's, as given.
        try (Connection c = java.sql.DriverManager.getConnection(g.url("llmsafe.proposer=support-bot"),
                g.credentials()); Statement s = c.createStatement()) {
            PlanPendingException p = g.plannedUnchanged(() -> s.executeUpdate("UPDATE orders SET qty = 5 WHERE id = 1"));
            assertThat(p.plan().proposer()).isEqualTo("support-bot");
            assertThat(p.getMessage()).contains("the proposer (support-bot)");
        }
    }
}
