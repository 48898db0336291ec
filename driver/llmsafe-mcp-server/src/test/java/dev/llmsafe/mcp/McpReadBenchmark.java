package dev.llmsafe.mcp;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.bench.BenchDeployment;
import dev.llmsafe.bench.CountingProxy;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.tools.DatabaseTools;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21's MCP figure: {@code sql_read} through a running {@link McpServer} (JSON-RPC over in-memory
 * pipes, the operator's deployment behind it) beside the same 1-row read on a guarded connection the
 * caller holds (the driver's) and raw, each through {@link CountingProxy}: the median time, the ratio to
 * the guarded read, and the round trips per call. Not a test: it prints. Run with
 * {@code mvn -B -ntp -o -pl driver/llmsafe-mcp-server verify -Dtest=McpReadBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class McpReadBenchmark {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String READ = "SELECT id, status FROM orders WHERE id = 3";

    private interface Step {
        void run() throws Exception;
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void printSqlReadBesideAGuardedRead(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed'), (3, 'shipped')");
        try (CountingProxy proxy = CountingProxy.forUrl(db.url())) {
            String url = proxy.url(db.url());
            Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Moves money.")));
            LlmSafeConfig config = BenchDeployment.of(db, url, policy, b -> {
                b.connection(ConnectionSettings.of(url, db.user(), db.password()));
                return engine == Engine.POSTGRES ? b.schema(db.name()) : b;
            }).config();
            try (HikariDataSource pool = new HikariDataSource();
                    Deployment d = new Deployment(config, Clock.systemUTC());
                    DatabaseTools tools = DatabaseTools.over(d)) {
                pool.setJdbcUrl(url);
                pool.setUsername(db.user());
                pool.setPassword(db.password());
                PipedOutputStream toServer = new PipedOutputStream();
                PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
                PipedOutputStream serverOut = new PipedOutputStream();
                BufferedReader fromServer = new BufferedReader(new InputStreamReader(
                        new PipedInputStream(serverOut, 1 << 16), StandardCharsets.UTF_8));
                Thread server = new Thread(() -> {
                    try {
                        new McpServer(tools, "bench").serve(serverIn, serverOut);
                        serverOut.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, "mcp-bench");
                server.setDaemon(true);
                server.start();
                send(toServer, Wire.initialize("2025-11-25"));
                fromServer.readLine();
                send(toServer, Wire.INITIALIZED);
                String call = Wire.call(1, "sql_read", "{\"sql\": \"" + READ + "\"}");
                Step sqlRead = () -> {
                    send(toServer, call);
                    String answer = fromServer.readLine();
                    if (answer == null || !answer.contains("shipped") || answer.contains("\"isError\":true")) {
                        throw new AssertionError("not the row: " + answer);
                    }
                };
                try (LlmSafeDataSource guarded = new LlmSafeDataSource(pool, config);
                        Connection g = guarded.getConnection(); Statement gs = g.createStatement();
                        Connection raw = pool.getConnection(); Statement rs = raw.createStatement()) {
                    Step guardedRead = () -> readOne(gs);
                    Step rawRead = () -> readOne(rs);
                    Step perCall = () -> { // what sql_read did before it kept its connection
                        try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                            readOne(s);
                        }
                    };
                    for (int i = 0; i < 300; i++) { // warm: JIT, caches, the kept connection
                        sqlRead.run();
                        guardedRead.run();
                        rawRead.run();
                        perCall.run();
                    }
                    double toolTrips = trips(proxy, sqlRead, 100);
                    double guardedTrips = trips(proxy, guardedRead, 100);
                    double rawTrips = trips(proxy, rawRead, 100);
                    double perCallTrips = trips(proxy, perCall, 100);
                    double toolMs = median(sqlRead, 1000);
                    double guardedMs = median(guardedRead, 1000);
                    double rawMs = median(rawRead, 1000);
                    double perCallMs = median(perCall, 1000);
                    System.out.printf("%s: sql_read over MCP %.3f ms, %.2f round trips; guarded read (held connection)"
                            + " %.3f ms, %.2f round trips; raw %.3f ms, %.2f round trips; sql_read / guarded %.2f,"
                            + " guarded / raw %.2f%n", engine.key(), toolMs, toolTrips, guardedMs, guardedTrips, rawMs,
                            rawTrips, toolMs / guardedMs, guardedMs / rawMs);
                    System.out.printf("%s: a guarded connection opened per read (sql_read before) %.3f ms, %.2f round"
                            + " trips%n", engine.key(), perCallMs, perCallTrips);
                }
                toServer.close();
                server.join(5000);
            }
        }
    }

    private static void send(OutputStream out, String line) throws Exception {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void readOne(Statement s) throws Exception {
        try (ResultSet r = s.executeQuery(READ)) {
            if (!r.next()) {
                throw new AssertionError("no row");
            }
        }
    }

    private static double trips(CountingProxy proxy, Step step, int n) throws Exception {
        long before = proxy.roundTrips();
        for (int i = 0; i < n; i++) {
            step.run();
        }
        return (proxy.roundTrips() - before) / (double) n;
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
