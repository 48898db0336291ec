package dev.llmsafe.dialect;

import dev.llmsafe.policy.Identifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/** Finds the dialect of the database a connection talks to, from what the server answers. */
public final class Dialects {

    private Dialects() {
    }

    /**
     * The dialect of the connection's database.
     *
     * @param c a connection to it
     * @param schema the configured schema, pinned on PostgreSQL connections; null for {@code public}
     * @throws SQLException when the database is none of PostgreSQL, MySQL, MariaDB and SQLite
     */
    public static Dialect of(Connection c, Identifier schema) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String product = md.getDatabaseProductName();
        String version = md.getDatabaseProductVersion();
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgresql")) {
            return new PostgresDialect("PostgreSQL " + version.split(" ")[0],
                    schema == null ? Identifier.of("public") : schema);
        }
        if (p.contains("mysql") || p.contains("mariadb")) {
            // Connector/J reports MariaDB as MySQL with a version such as 5.5.5-10.11.19-MariaDB-0+deb12u1.
            String v = Jdbc.string(c, "SELECT VERSION()");
            boolean mariadb = v.toLowerCase(Locale.ROOT).contains("mariadb");
            return new MysqlDialect((mariadb ? "MariaDB " : "MySQL ") + v.split("-")[0], mariadb);
        }
        if (p.contains("sqlite")) {
            return new SqliteDialect("SQLite " + version);
        }
        throw new SQLException("llmsafe supports PostgreSQL, MySQL, MariaDB and SQLite; this database is " + product);
    }

    /**
     * Whether the database refused a privilege to the credential, not a connection that failed, anywhere in
     * the chain of causes: PostgreSQL's 42501, MySQL's and MariaDB's 1142 (table), 1143 (column) and 1370
     * (routine); SQLite has no privileges. llmsafe's own refusals, which share 42501, are not the database's.
     * Asked without a dialect by a caller that may not have reached the database far enough to know which it
     * is (the command line's messages); {@link Dialect#isPrivilegeDenied} is the same answer.
     */
    public static boolean isPrivilegeDenied(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && !(t instanceof dev.llmsafe.RefusedException)
                    && ("42501".equals(s.getSQLState()) || s.getErrorCode() == 1142 || s.getErrorCode() == 1143
                    || s.getErrorCode() == 1370)) {
                return true;
            }
        }
        return false;
    }
}
