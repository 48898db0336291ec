package dev.llmsafe.bench;

import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21's figures, counted on the wire: a 1-row UPDATE through {@code jdbc:llmsafe:} (the dry run and the
 * store's write, as an application meets them) beside the same statement run raw (BEGIN, UPDATE, ROLLBACK),
 * both through {@link CountingProxy}: the round trips of each, the median time of each and their ratio,
 * and what one plan sends, burst by burst. Run with
 * {@code mvn -B -ntp -pl driver/llmsafe-driver -am verify -Dtest=RoundTripBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * and LLMSAFE_TEST_POSTGRES_URL and LLMSAFE_TEST_MYSQL_URL set.
 */
class RoundTripBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void printRoundTripsOfAPlan(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        PlanBenchmark.benchTable(db, engine);
        try (CountingProxy proxy = CountingProxy.forUrl(db.url())) {
            String real = proxy.url(db.url());
            Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")));
            BenchDeployment deployment = BenchDeployment.of(db, real, policy, b -> b);
            String guardedUrl = deployment.guardedUrl();
            Properties credentials = deployment.credentials();
            String sql = "UPDATE bench SET qty = qty + 1 WHERE id = 500";
            try (Connection guarded = DriverManager.getConnection(guardedUrl, credentials);
                    Connection raw = DriverManager.getConnection(real, credentials)) {
                Statement g = guarded.createStatement();
                Statement r = raw.createStatement();
                raw.setAutoCommit(false);
                Step plan = () -> {
                    try {
                        g.executeUpdate(sql);
                        throw new AssertionError("not a plan");
                    } catch (SQLException e) {
                        if (!"25L01".equals(e.getSQLState())) {
                            throw e;
                        }
                    }
                };
                Step rawRun = () -> {
                    r.executeUpdate(sql);
                    raw.rollback();
                };
                // The first plan sends every statement's text (later ones name prepared statements only).
                proxy.record(true);
                plan.run();
                List<String> first = proxy.sent();
                proxy.record(false);
                for (int i = 0; i < 30; i++) { // warm: pools open, caches full, JIT
                    plan.run();
                    rawRun.run();
                }
                long planTrips = trips(proxy, plan, 50);
                long rawTrips = trips(proxy, rawRun, 50);
                double planMs = median(plan, 200);
                double rawMs = median(rawRun, 200);
                System.out.printf("%s: 1-row plan + store %.2f round trips, %.3f ms; raw BEGIN/UPDATE/ROLLBACK %.2f round"
                        + " trips, %.3f ms; time ratio %.1f%n", engine.key(), planTrips / 50.0, planMs, rawTrips / 50.0,
                        rawMs, planMs / rawMs);
                proxy.record(true);
                plan.run();
                List<String> sent = proxy.sent();
                proxy.record(false);
                for (int i = 0; i < sent.size(); i++) {
                    System.out.printf("%s:   %2d %s%n", engine.key(), i + 1, sent.get(i));
                }
                System.out.printf("%s: the first plan, %d bursts:%n", engine.key(), first.size());
                for (int i = 0; i < first.size(); i++) {
                    System.out.printf("%s:   %2d %s%n", engine.key(), i + 1, first.get(i));
                }
            }
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static long trips(CountingProxy proxy, Step step, int n) throws Exception {
        long before = proxy.roundTrips();
        for (int i = 0; i < n; i++) {
            step.run();
        }
        return proxy.roundTrips() - before;
    }

    private static double median(Step step, int n) throws Exception {
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            step.run();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        return ms[n / 2];
    }
}
