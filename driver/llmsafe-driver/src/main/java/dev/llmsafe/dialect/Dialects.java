package dev.llmsafe.dialect;

import dev.llmsafe.policy.Identifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/** Finds the dialect of the database a connection talks to, from what the server answers. */
public final class Dialects {

    private Dialects() {
    }

    /**
     * The dialect of the connection's database.
     *
     * @param c a connection to it, as its pool or driver opened it (nothing pinned on it yet)
     * @param schema the configured schema, pinned on PostgreSQL connections; null for the one this connection
     *     is in (its URL's currentSchema, its role's search_path), else {@code public}
     * @throws SQLException when the database is none of PostgreSQL, MySQL, MariaDB and SQLite
     */
    public static Dialect of(Connection c, Identifier schema) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String product = md.getDatabaseProductName();
        String version = md.getDatabaseProductVersion();
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgresql")) {
            if (schema == null) {
                String current = c.getSchema();
                schema = current == null || current.isEmpty() ? Identifier.of("public") : new Identifier(current, true);
            }
            return new PostgresDialect("PostgreSQL " + version.split(" ")[0], schema);
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
     * What a pool runs on every connection it opens so that the configured schema is pinned there from the
     * start (PostgreSQL's search_path), before the store, a dry run, a read or an apply uses it: whatever ran
     * on a pooled connection before, names resolve in one place, and the plan store that shares the pool is
     * where {@code migrate} put it. Empty where nothing is pinned (no schema configured, another database).
     *
     * @param url the JDBC URL the pool connects to
     * @param schema the configured schema, or null
     */
    public static Optional<String> schemaPin(String url, Identifier schema) {
        return schema != null && url.regionMatches(true, 0, "jdbc:postgresql:", 0, 16)
                ? Optional.of(PostgresDialect.pinStatement(schema)) : Optional.empty();
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
