package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.bench.BenchDeployment;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The driver's own dry-run pool does not serialise planners: eight connections' plans, each on its own
 * row, all wait inside their dry run at once for rows another session holds (a pool of two had let two
 * in and queued six), and each becomes a plan once the rows are free.
 */
class ConcurrentPlannersTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final int PLANNERS = 8;

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void eightPlannersOnTheirOwnRowsAreInTheirDryRunsAtOnce(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE c_rows (id INT PRIMARY KEY, qty INT NOT NULL)",
                "INSERT INTO c_rows VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0)");
        Policy policy = Policy.define(p -> p.table("c_rows", t -> t.impact("x")));
        BenchDeployment deployment = BenchDeployment.of(db, db.url(), policy, b -> b.lockTimeoutMs(20_000));
        String url = deployment.guardedUrl();
        Properties credentials = deployment.credentials();
        ConcurrentLinkedQueue<Throwable> outcomes = new ConcurrentLinkedQueue<>();
        List<Thread> planners = new ArrayList<>();
        int most = 0;
        try (Connection holder = db.connect(); Statement hold = holder.createStatement()) {
            holder.setAutoCommit(false);
            try (ResultSet rs = hold.executeQuery("SELECT id FROM c_rows FOR UPDATE")) {
                while (rs.next()) {
                    // every row locked until the rollback below
                }
            }
            for (int i = 1; i <= PLANNERS; i++) {
                int id = i;
                Thread t = new Thread(() -> {
                    try (Connection c = DriverManager.getConnection(url, credentials); Statement s = c.createStatement()) {
                        s.executeUpdate("UPDATE c_rows SET qty = qty + 1 WHERE id = " + id);
                        outcomes.add(new AssertionError("the UPDATE ran without a plan"));
                    } catch (Throwable e) {
                        outcomes.add(e);
                    }
                }, "planner-" + i);
                planners.add(t);
                t.start();
            }
            long until = System.nanoTime() + 15_000_000_000L;
            while (most < PLANNERS && System.nanoTime() < until) {
                most = Math.max(most, waitingDryRuns(db, engine));
                Thread.sleep(50);
            }
            holder.rollback();
        }
        for (Thread t : planners) {
            t.join(30_000);
        }
        assertThat(most).as("dry runs waiting for their rows at the same time").isEqualTo(PLANNERS);
        assertThat(outcomes).hasSize(PLANNERS).allSatisfy(e -> assertThat(e).isInstanceOf(PlanPendingException.class));
    }

    /** How many sessions wait for a row lock of c_rows (the dry run's locking read), as the server sees them. */
    private static int waitingDryRuns(ScratchDatabase db, Engine engine) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%c_rows%'"
                : "SELECT count(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%c\\_rows%FOR UPDATE%'"
                        + " AND ID <> CONNECTION_ID()";
        try (Statement s = db.admin().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
