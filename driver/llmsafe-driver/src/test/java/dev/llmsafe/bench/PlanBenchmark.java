package dev.llmsafe.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Prints the median time of a dry run against PostgreSQL and MariaDB/MySQL, for a 1-row and a 100-row
 * UPDATE, next to the same statement run raw (BEGIN, UPDATE, ROLLBACK) in the same run, and their ratio.
 * Run with
 * {@code mvn -B -ntp -pl driver/llmsafe-driver -am verify -Dtest=PlanBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * and LLMSAFE_TEST_POSTGRES_URL and LLMSAFE_TEST_MYSQL_URL set.
 */
class PlanBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private interface Call {
        void run() throws Exception;
    }

    /** The table both plan benchmarks write: {@code bench}, 1,000 rows, analysed. */
    static void benchTable(ScratchDatabase db, Engine engine) throws java.sql.SQLException {
        db.execute("CREATE TABLE bench (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                engine == Engine.POSTGRES ? "INSERT INTO bench SELECT g, 'packed', g FROM generate_series(1, 1000) g"
                        : "INSERT INTO bench WITH RECURSIVE g (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g"
                                + " WHERE n < 1000) SELECT n, 'packed', n FROM g",
                engine == Engine.POSTGRES ? "ANALYZE bench" : "ANALYZE TABLE bench");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void printPlanTimes(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        benchTable(db, engine);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config); Connection raw = db.connect()) {
            Dialect dialect;
            LexSettings lex;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, Identifier.of(db.name()));
                lex = dialect.lexSettings(c);
            }
            Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")).maxUpdateRows(100));
            Planner planner = new Planner(pool, dialect, policy, Bounds.DEFAULT, null, Clock.systemUTC());
            StatementAnalyzer analyzer = new StatementAnalyzer(10_000);
            Statement s = raw.createStatement();
            raw.setAutoCommit(false);
            for (String where : new String[] {"id = 500", "id BETWEEN 401 AND 500"}) {
                String sql = "UPDATE bench SET status = 'shipped', qty = qty + 1 WHERE " + where;
                Proposal proposal = new Proposal(analyzer.analyze(sql, lex), List.of());
                double planned = median(() -> planner.plan(List.of(proposal), "bench"), 50, 300);
                double rawRun = median(() -> {
                    s.executeUpdate(sql);
                    raw.rollback();
                }, 50, 300);
                System.out.printf(engine.key() + ": dry run %8.2f ms   raw BEGIN/UPDATE/ROLLBACK %6.3f ms   ratio %5.1f   %s%n",
                        planned, rawRun, planned / rawRun, where);
            }
        }
    }

    private static double median(Call call, int warmup, int runs) throws Exception {
        for (int i = 0; i < warmup; i++) {
            call.run();
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            call.run();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[runs / 2] / 1_000_000.0;
    }
}
