package dev.llmsafe.assembly;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import com.zaxxer.hikari.util.DriverDataSource;
import dev.llmsafe.dialect.VendorUrls;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.Secret;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * The one recipe for the engine's own connection pools (the dry run's, the store's, and the four of a
 * {@link Deployment}): HikariCP, empty when idle, named {@code llmsafe-<purpose>-<n>} so that a pool in
 * a thread dump or a metrics registry says whose it is, and declared read-only over a SQLite file
 * opened read-only.
 */
public final class Pools {

    /**
     * Connections of the driver's own pools (the dry run's, the store's): as many dry runs run at once as
     * the pool has connections, so it is sized for concurrent planners (two had capped them at two). The
     * pools are empty when idle, so an application that plans rarely holds none.
     */
    public static final int ENGINE_SIZE = 8;

    /**
     * The size of one of the driver's own pools on a database: {@link #ENGINE_SIZE}, but one on SQLite,
     * which lets one writer in at a time. There, more connections only race for the file's lock, and
     * SQLite's busy handler lets a waiting dry run in out of turn or not before its lock bound (measured:
     * with eight planners on eight connections, plans were refused LOCK_TIMEOUT); with one, planners
     * queue in the pool, in turn.
     *
     * @param url the JDBC URL the pool connects to
     */
    public static int engineSize(String url) {
        return url.regionMatches(true, 0, "jdbc:sqlite:", 0, 12) ? 1 : ENGINE_SIZE;
    }

    /**
     * Connections of a deployment's pools: a command or a server of the operator's. A plan through the
     * operator's tools can hold three at once on one pool (the guarded connection, the dry run, the store's
     * write when the store shares the database), and the MCP server keeps one more for its reads.
     */
    public static final int DEPLOYMENT_SIZE = 4;

    private static final AtomicInteger NUMBER = new AtomicInteger();

    /** When a pool connects first, and how long a caller waits for a connection. */
    public enum Start {
        /** Connects at once and reports a database that cannot be reached with the driver's reason (a command). */
        AT_ONCE(1, 10_000),
        /** Connects on first use; a caller waits at most 10 s (the driver's pools, opened on the first plan). */
        ON_FIRST_USE(-1, 10_000),
        /**
         * Connects on first use and outlasts a database that is down: each use waits at most 5 s and fails
         * with the driver's reason until it is back (a long-running server such as {@code llmsafe mcp}).
         */
        OUTLASTING(-1, 5_000);

        private final long initializationFailTimeout;
        private final long connectionTimeout;

        Start(long initializationFailTimeout, long connectionTimeout) {
            this.initializationFailTimeout = initializationFailTimeout;
            this.connectionTimeout = connectionTimeout;
        }
    }

    private Pools() {
    }

    /**
     * A pool over configured connection settings.
     *
     * @param purpose what the pool is for, in its name ({@code plan}, {@code store}, {@code read}...)
     * @param settings the URL and credential
     * @param size the most connections it opens
     * @param start when it connects first
     * @throws SQLException when {@code start} is {@link Start#AT_ONCE} and the database cannot be reached
     */
    public static HikariDataSource open(String purpose, ConnectionSettings settings, int size, Start start)
            throws SQLException {
        return open(purpose, settings, size, start, Optional.empty());
    }

    /**
     * The same, with a statement every new connection runs before the pool lends it (HikariCP's
     * connectionInitSql), such as the configured schema pinned ({@code Dialects.schemaPin}).
     *
     * @param purpose what the pool is for, in its name
     * @param settings the URL and credential
     * @param size the most connections it opens
     * @param start when it connects first
     * @param init run once on each connection the pool opens
     * @throws SQLException when {@code start} is {@link Start#AT_ONCE} and the database cannot be reached
     */
    public static HikariDataSource open(String purpose, ConnectionSettings settings, int size, Start start,
            Optional<String> init) throws SQLException {
        HikariConfig c = config(purpose, size, start);
        init.ifPresent(c::setConnectionInitSql);
        c.setDataSource(new OwnConnections(new DriverDataSource(VendorUrls.pinnedForEngine(settings.url()), null,
                new Properties(), settings.user().orElse(null), settings.password().map(Secret::reveal).orElse(null))));
        c.setReadOnly(sqliteReadOnly(settings.url(), null));
        return open(c);
    }

    /**
     * A pool over a data source that opens the real connections (the vendor driver with the URL the
     * application gave, stripped of llmsafe's own parameters).
     *
     * @param purpose what the pool is for, in its name
     * @param source opens each connection
     * @param readOnly whether the connections are read-only from the start (see {@link #sqliteReadOnly})
     * @param size the most connections it opens
     * @param start when it connects first
     * @throws SQLException when {@code start} is {@link Start#AT_ONCE} and the database cannot be reached
     */
    public static HikariDataSource open(String purpose, DataSource source, boolean readOnly, int size, Start start)
            throws SQLException {
        return open(purpose, source, readOnly, size, start, Optional.empty());
    }

    /**
     * The same, with a statement every new connection runs before the pool lends it.
     *
     * @param purpose what the pool is for, in its name
     * @param source opens each connection
     * @param readOnly whether the connections are read-only from the start (see {@link #sqliteReadOnly})
     * @param size the most connections it opens
     * @param start when it connects first
     * @param init run once on each connection the pool opens
     * @throws SQLException when {@code start} is {@link Start#AT_ONCE} and the database cannot be reached
     */
    public static HikariDataSource open(String purpose, DataSource source, boolean readOnly, int size, Start start,
            Optional<String> init) throws SQLException {
        HikariConfig c = config(purpose, size, start);
        init.ifPresent(c::setConnectionInitSql);
        c.setDataSource(source);
        c.setReadOnly(readOnly);
        return open(c);
    }

    /**
     * HikariCP's own driver data source (what {@code jdbcUrl} would have made), opened through a method of
     * llmsafe's: every connection llmsafe opens, in whatever thread a pool opens it, has a frame of
     * llmsafe's own on its stack, by which the javaagent (llmsafe-agent) knows never to guard it. The
     * dry run's and the driver's pools connect through {@code jdbc.RealDrivers}, for the same reason.
     */
    private static final class OwnConnections extends DelegatingDataSource {
        private final DataSource driver;

        OwnConnections(DataSource driver) {
            super(driver);
            this.driver = driver;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return driver.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return driver.getConnection(user, password);
        }
    }

    private static HikariConfig config(String purpose, int size, Start start) {
        HikariConfig c = new HikariConfig();
        c.setPoolName("llmsafe-" + purpose.toLowerCase(Locale.ROOT) + "-" + NUMBER.incrementAndGet());
        c.setMaximumPoolSize(size);
        c.setMinimumIdle(0);
        c.setIdleTimeout(60_000);
        c.setConnectionTimeout(start.connectionTimeout);
        c.setInitializationFailTimeout(start.initializationFailTimeout);
        return c;
    }

    private static HikariDataSource open(HikariConfig c) throws SQLException {
        try {
            return new HikariDataSource(c);
        } catch (HikariPool.PoolInitializationException e) {
            throw e.getCause() instanceof SQLException sql ? sql : new SQLException(e.getMessage(), e);
        }
    }

    /**
     * Whether a pool over a SQLite URL must be declared read-only: sqlite-jdbc's {@code open_mode} (in the
     * URL or the properties) with SQLITE_OPEN_READONLY (1) set. sqlite-jdbc refuses {@code setReadOnly} on
     * such a connection once it is open (SPEC.md F31), and HikariCP calls it when the pool's flag differs
     * from the connection's, so the pool must agree with the connection or it opens none. A URI filename's
     * {@code mode=ro} is read-only in SQLite but not in sqlite-jdbc's {@code isReadOnly()}, so its pool is
     * not declared read-only (declaring it opens no connection: measured with sqlite-jdbc 3.54, J8). Either
     * way the dry run reaches SQLite, which refuses the write itself (D4, J8).
     *
     * @param url the vendor URL
     * @param properties the connection properties, or null
     */
    public static boolean sqliteReadOnly(String url, Properties properties) {
        if (!url.regionMatches(true, 0, "jdbc:sqlite:", 0, 12)) {
            return false;
        }
        String mode = properties == null ? null : properties.getProperty("open_mode");
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                if (pair.startsWith("open_mode=")) {
                    mode = pair.substring("open_mode=".length());
                }
            }
        }
        try {
            return mode != null && (Integer.parseInt(mode.strip()) & 1) != 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
