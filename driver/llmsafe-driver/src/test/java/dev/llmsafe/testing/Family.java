package dev.llmsafe.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Which server a test measures. MariaDB and MySQL are one {@link Engine} (one URL variable, one JDBC
 * driver, one dialect), but their answers differ: a test that depends on the difference asks its
 * scratch database's {@link ScratchDatabase#family()}, which is read from the server's own version
 * string, never from the URL.
 */
public enum Family {
    /** PostgreSQL. */
    POSTGRES,
    /** MariaDB: its version string says "MariaDB" (10.x behind Connector/J's "5.5.5-" prefix, 11.x without). */
    MARIADB,
    /** MySQL proper (Oracle's server, 8.0 and later). */
    MYSQL,
    /** SQLite. */
    SQLITE;

    /** The family of the server a connection talks to. */
    public static Family of(Connection c) throws SQLException {
        var md = c.getMetaData();
        String product = md.getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgresql")) {
            return POSTGRES;
        }
        if (product.contains("sqlite")) {
            return SQLITE;
        }
        if (product.contains("mariadb") || md.getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb")) {
            return MARIADB;
        }
        if (product.contains("mysql")) {
            return MYSQL;
        }
        throw new SQLException("not a server the tests know: " + md.getDatabaseProductName());
    }
}
