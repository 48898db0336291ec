package dev.llmsafe.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Prints, in one run against each database (PostgreSQL, MariaDB or MySQL, SQLite), the median time of a
 * 1-row primary-key SELECT through HikariCP over {@code jdbc:llmsafe:} and over the raw URL, and their
 * ratio (target: within 5%, cost gate off). Each sample borrows a connection, prepares, binds, executes,
 * reads the row and closes, as an application does; the two pools are measured call by call in turn, so
 * that drift hits both alike.
 * Run with {@code mvn -B -ntp -pl driver/llmsafe-driver -am verify -Dtest=DriverBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * and LLMSAFE_TEST_POSTGRES_URL and LLMSAFE_TEST_MYSQL_URL set; {@code -Dllmsafe.bench.engines=POSTGRES,SQLITE} picks some.
 */
class DriverBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private interface Call {
        void run() throws Exception;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void printPrimaryKeySelectTimes(Engine engine) throws Exception {
        String only = System.getProperty("llmsafe.bench.engines", "");
        org.junit.jupiter.api.Assumptions.assumeTrue(only.isEmpty() || only.toUpperCase(java.util.Locale.ROOT)
                .contains(engine.name()), "not among -Dllmsafe.bench.engines=" + only);
        ScratchDatabase db = dbs.get(engine);
        StringBuilder rows = new StringBuilder("INSERT INTO bench VALUES ");
        for (int i = 1; i <= 1000; i++) {
            rows.append(i == 1 ? "" : ", ").append('(').append(i).append(", 'packed', 'h").append(i).append("')");
        }
        db.execute("CREATE TABLE bench (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, password_hash VARCHAR(60))",
                rows.toString(), engine == Engine.SQLITE ? "ANALYZE" : engine == Engine.MYSQL ? "ANALYZE TABLE bench"
                        : "ANALYZE bench");
        Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")).secret("password_hash", "a credential"));
        Path config = Files.createTempFile("llmsafe-bench-", ".json");
        Files.writeString(config, LlmSafeConfig.builder().connection(ConnectionSettings.of(db.url())).policy(policy)
                .build().toJson());
        String guardedUrl = "jdbc:llmsafe:" + db.url().substring("jdbc:".length()) + (db.url().contains("?") ? "&" : "?")
                + "llmsafe.config=" + config;
        String pk = "SELECT id, status FROM bench WHERE id = ?";
        String literal = "SELECT id, status FROM bench WHERE id = 500";
        try {
            compare(engine + " PreparedStatement", db, guardedUrl, ds -> prepared(ds, pk));
            compare(engine + " Statement        ", db, guardedUrl, ds -> statement(ds, literal));
        } finally {
            Files.deleteIfExists(config);
        }
    }

    /**
     * The same on MariaDB (LLMSAFE_TEST_MYSQL_URL), fewer calls, and a third form whose text differs on every
     * call, so that the guard's per-text caches (the plan check's verdict among them) never answer: what R9's
     * EXPLAIN EXTENDED and SHOW WARNINGS cost a read the first time its text is seen.
     */
    @Test
    void printPrimaryKeySelectTimesOnMariadb() throws Exception {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE bench (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, password_hash VARCHAR(60))",
                "INSERT INTO bench WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000)"
                        + " SELECT n, 'packed', md5(n) FROM g", "ANALYZE TABLE bench");
        Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")).secret("password_hash", "a credential"));
        Path config = Files.createTempFile("llmsafe-bench-", ".json");
        Files.writeString(config, LlmSafeConfig.builder().connection(ConnectionSettings.of(db.url())).policy(policy)
                .build().toJson());
        String guardedUrl = "jdbc:llmsafe:" + db.url().substring("jdbc:".length())
                + (db.url().contains("?") ? "&" : "?") + "llmsafe.config=" + config;
        java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong();
        try {
            compare("PreparedStatement", db, guardedUrl, ds -> prepared(ds, "SELECT id, status FROM bench WHERE id = ?"), 3,
                    2_000);
            compare("Statement        ", db, guardedUrl, ds -> statement(ds, "SELECT id, status FROM bench WHERE id = 500"),
                    3, 2_000);
            compare("Statement, new text", db, guardedUrl, ds -> statement(ds, "SELECT id, status FROM bench WHERE id = 500"
                    + " + 0 * " + counter.incrementAndGet()), 3, 2_000);
        } finally {
            Files.deleteIfExists(config);
        }
    }

    private interface Use {
        void run(HikariDataSource ds) throws Exception;
    }

    /**
     * Several trials, each on a fresh pair of pools (fresh physical connections): on a shared two-core
     * machine one connection's round trip settles at about 30 us, another's at about 65 us, for either URL,
     * so one pair alone can mislead either way. Within a trial the two pools are measured call by call in
     * turn, so that whatever else the machine does hits both alike. Printed: the medians of all calls, the
     * median of the trials' ratios, and the least disturbed trial's medians.
     */
    private static void compare(String what, ScratchDatabase db, String guardedUrl, Use use) throws Exception {
        compare(what, db, guardedUrl, use, 6, 10_000);
    }

    private static void compare(String what, ScratchDatabase db, String guardedUrl, Use use, int trials, int n)
            throws Exception {
        long[] allRaw = new long[trials * n];
        long[] allGuarded = new long[trials * n];
        double[] ratios = new double[trials];
        double bestRaw = Double.MAX_VALUE;
        double bestGuarded = Double.MAX_VALUE;
        for (int t = 0; t < trials; t++) {
            try (HikariDataSource raw = pool(db, db.url()); HikariDataSource guarded = pool(db, guardedUrl)) {
                for (int i = 0; i < n; i++) {
                    use.run(raw);
                    use.run(guarded);
                }
                long[] r = new long[n];
                long[] g = new long[n];
                for (int i = 0; i < n; i++) {
                    r[i] = time(() -> use.run(raw));
                    g[i] = time(() -> use.run(guarded));
                }
                System.arraycopy(r, 0, allRaw, t * n, n);
                System.arraycopy(g, 0, allGuarded, t * n, n);
                ratios[t] = median(g) / median(r);
                bestRaw = Math.min(bestRaw, median(r));
                bestGuarded = Math.min(bestGuarded, median(g));
                System.out.printf("  %s trial %d:  raw %6.1f us   jdbc:llmsafe: %6.1f us   ratio %.3f%n", what.strip(), t + 1,
                        median(r), median(g), ratios[t]);
            }
        }
        Arrays.sort(ratios);
        System.out.printf("%s 1-row primary-key SELECT through HikariCP, %d x %d calls each:  median raw %6.1f us,"
                + " jdbc:llmsafe: %6.1f us (ratio %.3f); median of trial ratios %.3f; least disturbed trial medians"
                + " %.1f us / %.1f us (ratio %.3f)%n", what, trials, n, median(allRaw), median(allGuarded),
                median(allGuarded) / median(allRaw), (ratios[trials / 2 - 1] + ratios[trials / 2]) / 2, bestRaw,
                bestGuarded, bestGuarded / bestRaw);
    }

    private static HikariDataSource pool(ScratchDatabase db, String url) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(url);
        c.setUsername(db.user());
        c.setPassword(db.password());
        // One thread, one connection: each pool hands out the same physical connection every time.
        c.setMaximumPoolSize(1);
        return new HikariDataSource(c);
    }

    private static void prepared(HikariDataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, 1 + ThreadLocalRandom.current().nextInt(1000));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(2) == null) {
                    throw new AssertionError("no row");
                }
            }
        }
    }

    private static void statement(HikariDataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row");
            }
        }
    }

    private static long time(Call call) throws Exception {
        long start = System.nanoTime();
        call.run();
        return System.nanoTime() - start;
    }

    private static double median(long[] t) {
        long[] sorted = t.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1_000.0;
    }
}
