package dev.llmsafe.dryrun;

import static dev.llmsafe.dryrun.PlannerTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The dry run next to other sessions: its own transaction, bounded waits, a rollback proven. */
class PlannerConcurrencyTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Planning> PLANNING = new EnumMap<>(Engine.class);
    /** digits is read, never written: the slow expression's rows on MariaDB (W4: what a write reads is allowlisted). */
    private static final Policy POLICY = Policy.define(p -> p.table("cc", t -> t.impact("x")).table("digits"));

    static Planning planning(Engine engine) throws SQLException {
        Planning p = PLANNING.get(engine);
        if (p == null) {
            p = new Planning(dbs.get(engine));
            PLANNING.put(engine, p);
            p.db.execute("CREATE TABLE cc (id INT PRIMARY KEY, v INT NOT NULL)",
                    "INSERT INTO cc VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)",
                    "CREATE TABLE digits (d INT PRIMARY KEY)",
                    "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
        }
        return p;
    }

    @AfterAll
    static void closePools() {
        PLANNING.values().forEach(Planning::close);
        PLANNING.clear();
    }

    private static void lockRow(Connection other, Engine engine, int id) throws SQLException {
        other.setAutoCommit(false);
        try (Statement s = other.createStatement()) {
            if (engine == Engine.SQLITE) {
                s.executeUpdate("UPDATE cc SET v = v WHERE id = " + id);
            } else {
                s.executeUpdate("UPDATE cc SET v = v + 100 WHERE id = " + id);
            }
        }
    }

    /**
     * D14 on MariaDB reads the session's own counters, so neither another session reading
     * information_schema.INNODB_TRX in a loop (which kept the measure before stale, SPEC.md F27) nor
     * planners side by side in this JVM make a plan wait or refuse it: 4 threads, 10 plans each, all
     * planned, and the rows as they were.
     */
    @org.junit.jupiter.api.Test
    void D14_plansOnMariadbSideBySideWhileAnotherSessionReadsInnodbTrx() throws Exception {
        Planning p = planning(Engine.MYSQL);
        List<String> before = p.snapshot("cc");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try (Connection reader = p.db.connect()) {
            Future<Long> reads = pool.submit(() -> {
                long n = 0;
                try (Statement s = reader.createStatement()) {
                    while (!stop.get()) {
                        s.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX").close();
                        n++;
                    }
                }
                return n;
            });
            Planner planner = p.planner(POLICY);
            List<Future<Long>> planners = new ArrayList<>();
            for (int id = 1; id <= 4; id++) {
                String sql = "UPDATE cc SET v = v + 1 WHERE id = " + id;
                planners.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    for (int i = 0; i < 10; i++) {
                        assertThat(p.plan(planner, sql).rowCount()).isEqualTo(1);
                    }
                    return (System.nanoTime() - start) / 10_000_000;
                }));
            }
            List<Long> perPlanMs = new ArrayList<>();
            for (Future<Long> f : planners) {
                perPlanMs.add(f.get());
            }
            stop.set(true);
            System.out.println("MariaDB: 4 planners, 10 plans each, mean ms per plan " + perPlanMs
                    + ", beside " + reads.get() + " reads of INNODB_TRX");
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(p.snapshot("cc")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_aRowLockedByAnotherSessionEndsInAClearRefusalWithinTheBound(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("cc");
        try (Connection other = p.db.connect()) {
            lockRow(other, engine, 1);
            long start = System.nanoTime();
            assertRefused(() -> p.plan(p.planner(POLICY, new Bounds(700, 10_000)), "UPDATE cc SET v = 10 WHERE id = 1"),
                    Refusal.LOCK_TIMEOUT, "is locked by another session for longer than 700 ms");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(ms).as("refused within the bound, not a hang").isLessThan(5_000);
            other.rollback();
        }
        assertThat(p.snapshot("cc")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void D4_theDryRunNeverJoinsTheCallersTransaction(Engine engine) throws SQLException {
        Planning p = planning(engine);
        try (Connection caller = p.db.connect()) {
            lockRow(caller, engine, 2);
            // The caller's uncommitted change to row 2 is invisible to the dry run of row 3, and untouched by it.
            Plan plan = p.plan(POLICY, "UPDATE cc SET v = 30 WHERE id = 3");
            assertThat(plan.card()).contains("v: 3 -> 30");
            caller.commit();
        }
        assertThat(p.snapshot("cc")).contains("[2, 102]", "[3, 3]");
        p.db.execute("UPDATE cc SET v = 2 WHERE id = 2");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_aStatementRunningPastTheBoundIsStopped(Engine engine) throws SQLException {
        Planning p = planning(engine);
        String slow = slowExpression(engine);
        long start = System.nanoTime();
        assertRefused(() -> p.plan(p.planner(POLICY, new Bounds(1_000, 700)), "UPDATE cc SET v = 9 WHERE id = " + slow),
                Refusal.STATEMENT_TIMEOUT, "ran longer than 700 ms and was stopped");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(8_000);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_aDryRunNeverBlocksAConcurrentWriterForLongerThanTheBound(Engine engine) throws Exception {
        Planning p = planning(engine);
        List<String> before = p.snapshot("cc");
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try (Connection writer = p.db.connect()) {
            // The dry run locks row 6, then spends its time computing the new value: the row stays locked
            // until the statement bound stops it.
            Future<?> dryRun = runner.submit(() -> {
                assertRefused(() -> p.plan(p.planner(POLICY, new Bounds(5_000, 800)),
                        "UPDATE cc SET v = " + slowExpression(engine) + " WHERE id = 6"), Refusal.STATEMENT_TIMEOUT, "");
                return null;
            });
            Thread.sleep(300);
            try (Statement s = writer.createStatement()) {
                if (engine == Engine.SQLITE) {
                    s.execute("PRAGMA busy_timeout = 20000");
                } else if (engine == Engine.MYSQL) {
                    s.execute("SET SESSION innodb_lock_wait_timeout = 20");
                }
                long start = System.nanoTime();
                s.executeUpdate("UPDATE cc SET v = 6 WHERE id = 6");
                long waited = (System.nanoTime() - start) / 1_000_000;
                assertThat(waited).as("the writer waited for the dry run at most about its bound").isLessThan(3_000);
            }
            dryRun.get();
        } finally {
            runner.shutdownNow();
        }
        assertThat(p.snapshot("cc")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E3_theStatementBoundIsTheServersOwnSetting(Engine engine) throws SQLException {
        Planning p = planning(engine);
        String slow = slowExpression(engine);
        assertThatThrownBy(() -> p.plan(p.planner(POLICY, new Bounds(1_000, 700)), "UPDATE cc SET v = 9 WHERE id = " + slow))
                .isInstanceOf(RefusedException.class)
                .satisfies(e -> {
                    // The server stopped it (statement_timeout, max_statement_time), not the client's watchdog.
                    // On MySQL it is the dry run's count of the matching rows, a SELECT, that
                    // max_execution_time stops (3024).
                    SQLException cause = (SQLException) e.getCause();
                    if (engine == Engine.POSTGRES) {
                        assertThat(cause.getMessage()).contains("statement timeout");
                    } else {
                        assertThat(cause.getErrorCode()).isEqualTo(p.db.isMysql() ? 3024 : 1969);
                    }
                });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D7_aRollbackThatDidNotHappenIsCaughtByReadingTheRowsAgain(Engine engine) throws Exception {
        Planning p = planning(engine);
        // A connection whose rollback() commits: the rows are read again and the change is found.
        DataSource sabotaged = sabotaged(p);
        assertRefused(() -> p.plan(p.planner(sabotaged, POLICY, Bounds.DEFAULT), "UPDATE cc SET v = 50 WHERE id = 5"),
                Refusal.ROLLBACK_FAILED, "still hold what the dry run wrote");
        assertThat(p.snapshot("cc")).contains("[5, 50]");
        p.db.execute("UPDATE cc SET v = 5 WHERE id = 5");
        // A rollback that did happen is proven all the same, and says nothing.
        Plan plan = p.plan(POLICY, "UPDATE cc SET v = 50 WHERE id = 5");
        assertThat(plan.rowCount()).isEqualTo(1);
        assertThat(p.snapshot("cc")).contains("[5, 5]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E4_plansRunningAtTheSameTimeDoNotDisturbEachOther(Engine engine) throws Exception {
        Planning p = planning(engine);
        List<String> before = p.snapshot("cc");
        Planner planner = p.planner(POLICY);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Plan>> plans = new ArrayList<>();
            for (int id = 1; id <= 8; id++) {
                int row = id;
                plans.add(pool.submit(() -> p.plan(planner, "UPDATE cc SET v = v + 1000 WHERE id = ?", row)));
            }
            for (int id = 1; id <= 8; id++) {
                Plan plan = plans.get(id - 1).get();
                assertThat(plan.card()).contains("v: " + id + " -> " + (id + 1000));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(p.snapshot("cc")).isEqualTo(before);
    }

    /** An expression that takes far longer than a second to compute, and is then 1. */
    private static String slowExpression(Engine engine) {
        return switch (engine) {
            case POSTGRES -> "(SELECT count(*) FROM generate_series(1, 300000000)) - 299999999";
            // 10^9 rows of an allowlisted table; MariaDB's recursive CTEs stop at max_recursive_iterations, and
            // its sequence tables (seq_1_to_n) are not in the catalog, so no policy can allow them.
            case MYSQL -> "(SELECT count(*) FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits d"
                    + " CROSS JOIN digits e CROSS JOIN digits f CROSS JOIN digits g CROSS JOIN digits h CROSS JOIN digits i"
                    + " WHERE a.d + i.d = 99) + 6";
            case SQLITE -> "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 300000000)"
                    + " SELECT count(*) - 299999999 FROM r)";
        };
    }

    private static Statement sabotaged(Statement real) {
        return (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[] {Statement.class},
                (proxy, m, args) -> {
                    Object[] a = args;
                    if (m.getName().equals("execute") && a != null && a.length == 1
                            && "ROLLBACK".equalsIgnoreCase(String.valueOf(a[0]).trim())) {
                        a = new Object[] {"COMMIT"};
                    }
                    try {
                        return m.invoke(real, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static DataSource sabotaged(Planning p) {
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                Connection real = p.db.connect();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, m, args) -> {
                            String name = m.getName().equals("rollback") && (args == null || args.length == 0)
                                    ? "commit" : m.getName();
                            Object[] a = args;
                            if (name.equals("prepareStatement") && a != null && a[0] instanceof String sql
                                    && sql.regionMatches(true, 0, "ROLLBACK;", 0, 9)) {
                                // A dialect that sends its ROLLBACK ahead of the proof read (PostgreSQL) too.
                                a = a.clone();
                                a[0] = "COMMIT;" + sql.substring(9);
                            }
                            Object out;
                            try {
                                out = Connection.class.getMethod(name, m.getParameterTypes()).invoke(real, a);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                            // A dialect that ends its dry run with ROLLBACK in SQL (MySQL) meets the same sabotage.
                            return out instanceof Statement st && name.equals("createStatement") ? sabotaged(st) : out;
                        });
            }

            @Override
            public Connection getConnection(String u, String pw) throws SQLException {
                return getConnection();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(PrintWriter out) {
            }

            @Override
            public void setLoginTimeout(int seconds) {
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> iface) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(Class<?> iface) {
                return false;
            }
        };
    }
}
