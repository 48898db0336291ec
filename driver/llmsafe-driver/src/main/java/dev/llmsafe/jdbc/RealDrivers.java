package dev.llmsafe.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Finds the vendor driver behind a real URL, never llmsafe's own (that would recurse), and connects
 * through it directly. DriverManager lists only the drivers the caller's class loader can see, which
 * in application servers and some pools is not llmsafe's: the known vendor drivers are then loaded
 * from the context class loader and llmsafe's own.
 */
final class RealDrivers {

    private static final List<String> KNOWN = List.of("org.postgresql.Driver", "com.mysql.cj.jdbc.Driver",
            "org.mariadb.jdbc.Driver", "org.sqlite.JDBC");

    private RealDrivers() {
    }

    static Driver find(String realUrl) throws SQLException {
        List<String> seen = new ArrayList<>();
        for (Driver d : Collections.list(DriverManager.getDrivers())) {
            if (d instanceof LlmSafeDriver) {
                continue;
            }
            seen.add(d.getClass().getName());
            if (accepts(d, realUrl)) {
                return d;
            }
        }
        for (ClassLoader loader : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                RealDrivers.class.getClassLoader()}) {
            for (String name : KNOWN) {
                try {
                    Driver d = (Driver) Class.forName(name, true, loader).getDeclaredConstructor().newInstance();
                    if (accepts(d, realUrl)) {
                        return d;
                    }
                } catch (ReflectiveOperationException | LinkageError | ClassCastException | NullPointerException e) {
                    // not on this class path
                }
            }
        }
        throw new SQLException("no JDBC driver accepts " + DriverUrl.redacted(realUrl) + " (registered: " + seen
                + "). Put the database's driver on the class path: org.postgresql:postgresql,"
                + " com.mysql:mysql-connector-j or org.xerial:sqlite-jdbc.", "08001");
    }

    private static boolean accepts(Driver d, String url) {
        try {
            return d.acceptsURL(url);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Opens a connection through the driver; a driver that declines the URL is an error here. */
    static Connection connect(Driver driver, String url, Properties properties) throws SQLException {
        Connection c = driver.connect(url, properties);
        if (c == null) {
            throw new SQLException(driver.getClass().getName() + " declined " + DriverUrl.redacted(url), "08001");
        }
        return c;
    }

    /** A data source over one driver and URL: what the engine's own pools connect through. */
    static DataSource dataSource(Driver driver, String url, Properties properties) {
        return new DataSource() {
            // Kept as set: HikariCP sets it and also waits this long for its connection adder to stop on
            // close, and a 0 made that wait time out with a warning.
            private volatile int loginTimeout = 5;

            @Override
            public Connection getConnection() throws SQLException {
                return connect(driver, url, properties);
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                Properties p = new Properties();
                p.putAll(properties);
                p.setProperty("user", user);
                p.setProperty("password", password);
                return connect(driver, url, p);
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
                loginTimeout = seconds;
            }

            @Override
            public int getLoginTimeout() {
                return loginTimeout;
            }

            @Override
            public Logger getParentLogger() throws SQLFeatureNotSupportedException {
                throw new SQLFeatureNotSupportedException("llmsafe logs through SLF4J");
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
