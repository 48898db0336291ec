package dev.llmsafe.bench;

import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21's concurrency figure: plans per second (a 1-row UPDATE through {@code jdbc:llmsafe:}, dry run
 * and store) with 1, 2, 4 and 8 threads, each on its own guarded connection and its own rows, beside the
 * same UPDATE run raw (BEGIN, UPDATE, ROLLBACK) by as many threads, and the ratio to one thread. Not a
 * test: it prints. Run with
 * {@code mvn -B -ntp -o -pl driver/llmsafe-driver verify -Dtest=ConcurrencyBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dllmsafe.bench.seconds=N} per step, 3 by default; {@code -Dllmsafe.bench.engines=POSTGRES,SQLITE} picks some).
 */
class ConcurrencyBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final int[] THREADS = {1, 2, 4, 8};

    private interface Work {
        /** One statement on the thread's connection, on row {@code id}. */
        void run(Statement s, int id) throws SQLException;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void printPlansPerSecondByThreads(Engine engine) throws Exception {
        String only = System.getProperty("llmsafe.bench.engines");
        org.junit.jupiter.api.Assumptions.assumeTrue(only == null || only.toUpperCase(java.util.Locale.ROOT)
                .contains(engine.name()), "not among -Dllmsafe.bench.engines");
        ScratchDatabase db = dbs.get(engine);
        if (engine == Engine.SQLITE) {
            db.execute("CREATE TABLE bench (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                    "INSERT INTO bench WITH RECURSIVE g (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000)"
                            + " SELECT n, 'packed', n FROM g");
        } else {
            PlanBenchmark.benchTable(db, engine);
        }
        Policy policy = Policy.define(p -> p.table("bench", t -> t.impact("x")));
        BenchDeployment deployment = BenchDeployment.of(db, policy);
        String url = db.url();
        String guardedUrl = deployment.guardedUrl();
        Properties credentials = deployment.credentials();
        Properties rawCredentials = new Properties();
        rawCredentials.putAll(credentials);
        rawCredentials.setProperty("busy_timeout", "10000"); // SQLite: raw writers wait for the lock in turn
        Work plan = (s, id) -> {
            try {
                s.executeUpdate("UPDATE bench SET qty = qty + 1 WHERE id = " + id);
                throw new AssertionError("not a plan");
            } catch (SQLException e) {
                if (!"25L01".equals(e.getSQLState())) {
                    throw e;
                }
            }
        };
        Work raw = (s, id) -> {
            s.executeUpdate("UPDATE bench SET qty = qty + 1 WHERE id = " + id);
            s.getConnection().rollback();
        };
        long seconds = Long.getLong("llmsafe.bench.seconds", 3);
        double planOne = 0;
        double rawOne = 0;
        for (int threads : THREADS) {
            double plans = perSecond(threads, seconds, () -> DriverManager.getConnection(guardedUrl, credentials), false, plan);
            double raws = perSecond(threads, seconds, () -> DriverManager.getConnection(url, rawCredentials), true, raw);
            if (threads == 1) {
                planOne = plans;
                rawOne = raws;
            }
            System.out.printf("%s: %d thread(s): plans %7.1f/s (x%.2f of one thread)   raw BEGIN/UPDATE/ROLLBACK %8.1f/s"
                    + " (x%.2f)%n", engine.key(), threads, plans, plans / planOne, raws, raws / rawOne);
        }
    }

    private interface Opener {
        Connection open() throws SQLException;
    }

    /** Each thread on its own connection and its own 100 rows; the first second is warm-up, not counted. */
    private static double perSecond(int threads, long seconds, Opener opener, boolean inTransaction, Work work)
            throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        long start = System.nanoTime() + 1_000_000_000L;
        long end = start + seconds * 1_000_000_000L;
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = 1 + t * 100;
            Thread thread = new Thread(() -> {
                try (Connection c = opener.open(); Statement s = c.createStatement()) {
                    if (inTransaction) {
                        c.setAutoCommit(false);
                    }
                    ready.countDown();
                    for (int i = 0; ; i++) {
                        long now = System.nanoTime();
                        if (now >= end) {
                            break;
                        }
                        work.run(s, first + i % 100);
                        if (now >= start) {
                            done.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    ready.countDown();
                }
            }, "bench-" + t);
            all.add(thread);
            thread.start();
        }
        for (Thread thread : all) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a thread failed", failure.get());
        }
        return done.get() / (double) seconds;
    }
}
