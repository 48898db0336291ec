package dev.llmsafe.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21's approve-and-apply figure, in process: a 1-row plan approved ({@link Approver}) and applied
 * ({@link Applier}) with the store and the apply connection through {@link CountingProxy}: round trips and
 * median time of each, beside the same UPDATE committed raw (BEGIN, SELECT ... FOR UPDATE, UPDATE, COMMIT),
 * and what one approve and one apply send, burst by burst. Planning is not counted. Not a test: it prints.
 * Run with
 * {@code mvn -B -ntp -o -pl driver/llmsafe-driver verify -Dtest=ApplyBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ApplyBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void printRoundTripsOfApproveAndApply(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        PlanBenchmark.benchTable(db, engine);
        Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")));
        try (CountingProxy proxy = CountingProxy.forUrl(db.url());
                HikariDataSource direct = pool(db, db.url());
                HikariDataSource counted = pool(db, proxy.url(db.url()));
                Connection raw = db.connect()) {
            LlmSafeConfig config = BenchDeployment.of(db, policy).config();
            Dialect dialect;
            LexSettings lex;
            try (Connection c = direct.getConnection()) {
                dialect = Dialects.of(c, engine == Engine.POSTGRES ? Identifier.of(db.name()) : null);
                lex = dialect.lexSettings(c);
            }
            Planner planner = Assembly.planner(direct, dialect, policy, Optional.of(config), Clock.systemUTC());
            PlanStore plans = Assembly.store(direct, Optional.of(config), Clock.systemUTC());
            PlanStore store = Assembly.store(counted, Optional.of(config), Clock.systemUTC());
            Approver approver = new Approver(store, false);
            Applier applier = new Applier(store, counted, dialect, policy, Bounds.DEFAULT, false, null);
            StatementAnalyzer analyzer = new StatementAnalyzer(10_000);
            int[] row = {0};
            Step propose = () -> {
                row[0] = row[0] % 1000 + 1;
                Proposal p = new Proposal(analyzer.analyze("UPDATE bench SET qty = qty + 1 WHERE id = " + row[0], lex),
                        List.of());
                Plan plan = planner.plan(List.of(p), "bench");
                plans.save(plan);
                return plan;
            };
            for (int i = 0; i < 30; i++) { // warm: pools, caches, JIT
                Plan plan = propose.run();
                approver.approve(plan.id(), "alice");
                applier.apply(plan.id(), "deploy");
            }
            int n = 100;
            double[] approveMs = new double[n];
            double[] applyMs = new double[n];
            double[] bothMs = new double[n];
            long approveTrips = 0;
            long applyTrips = 0;
            for (int i = 0; i < n; i++) {
                Plan plan = propose.run();
                long t0 = System.nanoTime();
                long r0 = proxy.roundTrips();
                approver.approve(plan.id(), "alice");
                long t1 = System.nanoTime();
                long r1 = proxy.roundTrips();
                applier.apply(plan.id(), "deploy");
                long t2 = System.nanoTime();
                approveTrips += r1 - r0;
                applyTrips += proxy.roundTrips() - r1;
                approveMs[i] = (t1 - t0) / 1e6;
                applyMs[i] = (t2 - t1) / 1e6;
                bothMs[i] = (t2 - t0) / 1e6;
            }
            Statement s = raw.createStatement();
            raw.setAutoCommit(false);
            double[] rawMs = new double[n];
            for (int i = 0; i < n + 30; i++) {
                long t = System.nanoTime();
                s.executeQuery("SELECT id, qty FROM bench WHERE id = 7 FOR UPDATE").close();
                s.executeUpdate("UPDATE bench SET qty = qty + 1 WHERE id = 7");
                raw.commit();
                if (i >= 30) {
                    rawMs[i - 30] = (System.nanoTime() - t) / 1e6;
                }
            }
            System.out.printf("%s: approve %.2f round trips, %.3f ms; apply %.2f round trips, %.3f ms; approve + apply %.2f"
                    + " round trips, %.3f ms; raw SELECT FOR UPDATE/UPDATE/COMMIT %.3f ms%n", engine.key(),
                    approveTrips / (double) n, median(approveMs), applyTrips / (double) n, median(applyMs),
                    (approveTrips + applyTrips) / (double) n, median(bothMs), median(rawMs));
            Plan plan = propose.run();
            proxy.record(true);
            approver.approve(plan.id(), "alice");
            List<String> approveSent = proxy.sent();
            proxy.record(true);
            applier.apply(plan.id(), "deploy");
            List<String> applySent = proxy.sent();
            proxy.record(false);
            print(engine, "approve", approveSent);
            print(engine, "apply", applySent);
        }
    }

    private interface Step {
        Plan run() throws Exception;
    }

    private static HikariDataSource pool(ScratchDatabase db, String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setUsername(db.user());
        pool.setPassword(db.password());
        pool.setMaximumPoolSize(4);
        return pool;
    }

    private static void print(Engine engine, String what, List<String> sent) {
        System.out.printf("%s: one %s, %d bursts:%n", engine.key(), what, sent.size());
        for (int i = 0; i < sent.size(); i++) {
            System.out.printf("%s:   %2d %s%n", engine.key(), i + 1, sent.get(i));
        }
    }

    private static double median(double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
