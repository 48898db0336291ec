package dev.llmsafe.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Finds the database servers tests run against, once per JVM: a JDBC URL from
 * {@code LLMSAFE_TEST_POSTGRES_URL} / {@code LLMSAFE_TEST_MYSQL_URL} (user and password may be URL
 * parameters), else a Testcontainers container when Docker answers ({@code postgres:16},
 * {@code mysql:8.4}), else none: the test is skipped with a printed notice, or fails when
 * {@code LLMSAFE_TEST_REQUIRE} names the engine.
 */
public final class TestServers {

    /** How to reach one server as an administrator. */
    public record Server(Engine engine, String url, String user, String password, String origin) {

        /** A new administrator connection to the server's default database. */
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    private static final Map<Engine, Object> FOUND = new EnumMap<>(Engine.class);
    private static final Object NONE = new Object();

    private TestServers() {
    }

    /** The engines that LLMSAFE_TEST_REQUIRE says must not be skipped. */
    public static Set<Engine> required() {
        String req = System.getenv("LLMSAFE_TEST_REQUIRE");
        if (req == null || req.isBlank()) {
            return Set.of();
        }
        return Arrays.stream(req.split(","))
                .map(s -> Engine.valueOf(s.trim().toUpperCase(Locale.ROOT)))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The server for an engine, or the test is aborted (skipped) with a notice, or failed when the
     * engine is required. SQLite has no server and is not asked for here.
     */
    public static synchronized Server require(Engine engine) {
        if (engine == Engine.SQLITE) {
            throw new IllegalArgumentException("SQLite has no server");
        }
        Object found = FOUND.computeIfAbsent(engine, TestServers::find);
        if (found == NONE) {
            String why = "no " + engine.key() + " server for tests: set LLMSAFE_TEST_" + engine.name()
                    + "_URL to a JDBC URL, or start Docker so that Testcontainers can run one";
            if (required().contains(engine)) {
                throw new AssertionError(why + " (LLMSAFE_TEST_REQUIRE names " + engine.key() + ")");
            }
            System.err.println("NOTICE: skipping " + engine.key() + " tests: " + why);
            Assumptions.abort(why);
        }
        return (Server) found;
    }

    private static Object find(Engine engine) {
        String url = System.getenv("LLMSAFE_TEST_" + engine.name() + "_URL");
        if (url != null && !url.isBlank()) {
            Server s = fromUrl(engine, url.trim());
            try (Connection c = s.connect()) {
                c.isValid(5);
            } catch (SQLException e) {
                throw new AssertionError("LLMSAFE_TEST_" + engine.name() + "_URL is set but the server does not"
                        + " answer: " + e.getMessage(), e);
            }
            Leftovers.sweep(s);
            return s;
        }
        if (!dockerAvailable()) {
            return NONE;
        }
        Server s = engine == Engine.POSTGRES ? startPostgres() : startMysql();
        Leftovers.sweep(s);
        return s;
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @SuppressWarnings("resource") // Testcontainers' Ryuk stops the container when the JVM exits.
    private static Server startPostgres() {
        PostgreSQLContainer c = new PostgreSQLContainer("postgres:16");
        c.start();
        return new Server(Engine.POSTGRES, c.getJdbcUrl(), c.getUsername(), c.getPassword(), "testcontainers postgres:16");
    }

    @SuppressWarnings("resource")
    private static Server startMysql() {
        MySQLContainer c = new MySQLContainer("mysql:8.4").withUsername("root").withPassword("llmsafe");
        c.start();
        return new Server(Engine.MYSQL, c.getJdbcUrl(), "root", "llmsafe", "testcontainers mysql:8.4");
    }

    /** Splits user and password out of a URL's parameters, so that tests can connect as other users. */
    static Server fromUrl(Engine engine, String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return new Server(engine, url, null, null, "environment");
        }
        String user = null;
        String password = null;
        StringBuilder rest = new StringBuilder();
        for (String param : url.substring(q + 1).split("&")) {
            if (param.startsWith("user=")) {
                user = decode(param.substring(5));
            } else if (param.startsWith("password=")) {
                password = decode(param.substring(9));
            } else if (!param.isEmpty()) {
                rest.append(rest.length() == 0 ? "?" : "&").append(param);
            }
        }
        return new Server(engine, url.substring(0, q) + rest, user, password, "environment");
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
