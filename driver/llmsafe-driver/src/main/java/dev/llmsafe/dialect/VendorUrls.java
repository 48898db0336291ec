package dev.llmsafe.dialect;

import dev.llmsafe.policy.JdbcUrls;
import dev.llmsafe.sql.SqlDialect;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What each vendor's JDBC URL may carry (J8, R12): which database a URL names, the driver options that
 * would defeat the guard and are removed, the ones pinned, and what the model's connection is opened with.
 * These are asked before any connection exists, so they are answered by the {@link SqlDialect} a URL
 * names, not by a {@link Dialect}. The reasons for each option are in README, "Using the driver", and in
 * {@code jdbc.DriverUrl}, which takes a URL apart and asks here.
 */
public final class VendorUrls {

    private static final Set<String> MYSQL_REMOVED = Set.of("allowmultiqueries", "allowloadlocalinfile",
            "allowloadlocalinfileinpath", "allowlocalinfile", "allowurlinlocalinfile", "rewritebatchedstatements",
            "queryinterceptors", "statementinterceptors", "autodeserialize", "useaffectedrows");
    private static final Set<String> POSTGRES_REMOVED = Set.of("rewritebatchedinserts");
    private static final Set<String> POSTGRES_SIMPLE_MODES = Set.of("simple", "extendedforprepared");
    private static final Set<String> SQLITE_REMOVED = Set.of("enable_load_extension");
    private static final Pattern SQLITE_MEMORY = Pattern.compile("(^|[?&])mode=memory(&|$)");

    /** The byte bound of the reads a connection will serve, asked for only where a property carries it. */
    @FunctionalInterface
    public interface MaxBytes {
        /** The bound, in bytes. */
        long get() throws SQLException;
    }

    private VendorUrls() {
    }

    /**
     * The database a vendor URL names.
     *
     * @throws SQLException (08001) for a URL of a driver llmsafe does not guard, or MariaDB Connector/J's
     */
    public static SqlDialect dialectOf(String url) throws SQLException {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) {
            return SqlDialect.POSTGRESQL;
        }
        if (u.startsWith("jdbc:mysql:")) {
            return SqlDialect.MYSQL;
        }
        if (u.startsWith("jdbc:mariadb:")) {
            // MariaDB Connector/J has options of its own that would defeat the guard (and answers of its own
            // that the dialect reads), none of them measured: it is refused by name, not left to fail later
            // with "no driver accepts".
            throw new SQLException("llmsafe talks to MariaDB through MySQL Connector/J (com.mysql:mysql-connector-j),"
                    + " not MariaDB Connector/J, whose options it has not measured: write " + JdbcUrls.redact("jdbc:mysql:"
                    + url.substring("jdbc:mariadb:".length())) + " instead of " + JdbcUrls.redact(url), "08001");
        }
        if (u.startsWith("jdbc:sqlite:")) {
            return SqlDialect.SQLITE;
        }
        throw new SQLException("llmsafe guards PostgreSQL (jdbc:postgresql:), MySQL and MariaDB (jdbc:mysql:) and"
                + " SQLite (jdbc:sqlite:); this URL names none of them: " + JdbcUrls.redact(url), "08001");
    }

    /** Whether an option (as decoded from the URL or given as a property) is one that is removed. */
    public static boolean removes(SqlDialect dialect, String key, String value) {
        String k = key.toLowerCase(Locale.ROOT);
        return switch (dialect) {
            case MYSQL -> MYSQL_REMOVED.contains(k);
            case POSTGRESQL -> POSTGRES_REMOVED.contains(k)
                    || (k.equals("preferquerymode") && POSTGRES_SIMPLE_MODES.contains(value.toLowerCase(Locale.ROOT)));
            case SQLITE -> SQLITE_REMOVED.contains(k);
        };
    }

    /** The option appended to every URL of the dialect: Connector/J's useAffectedRows=false (F09, F10). */
    public static Optional<String> pinned(SqlDialect dialect) {
        return dialect == SqlDialect.MYSQL ? Optional.of("useAffectedRows=false") : Optional.empty();
    }

    /**
     * The URL of one of the engine's own connections (the dry run's, the apply's, the store's): a
     * {@code useAffectedRows} it sets is replaced by the pinned one, so that "rows affected" means rows
     * matched there too, which the dry run and the apply compare (D9, A5): an operator's option cannot make
     * every table's dry run count short. Other URLs are returned as they are.
     */
    public static String pinnedForEngine(String url) {
        if (!url.regionMatches(true, 0, "jdbc:mysql:", 0, "jdbc:mysql:".length())) {
            return url;
        }
        int q = url.indexOf('?');
        StringBuilder query = new StringBuilder();
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                String key = URLDecoder.decode(pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair,
                        StandardCharsets.UTF_8);
                if (!pair.isEmpty() && !key.equalsIgnoreCase("useAffectedRows")) {
                    query.append(query.length() == 0 ? "" : "&").append(pair);
                }
            }
        }
        pinned(SqlDialect.MYSQL).ifPresent(pin -> query.append(query.length() == 0 ? "" : "&").append(pin));
        return (q < 0 ? url : url.substring(0, q)) + "?" + query;
    }

    /**
     * Connector/J also reads options inside the host part ({@code //(host=h,allowMultiQueries=true)/db},
     * {@code address=(...)}): a URL that names a removed option there is refused rather than parsed a
     * second way. An in-memory SQLite database is private to the connection that opened it, so the dry
     * run, on a connection of its own, would see another, empty database.
     *
     * @param base the URL before its {@code ?}, URL-decoded
     * @param query the parameters after it
     */
    public static void checkBase(SqlDialect dialect, String base, String query) throws SQLException {
        String b = base.toLowerCase(Locale.ROOT);
        if (dialect == SqlDialect.MYSQL) {
            for (String option : MYSQL_REMOVED) {
                if (b.contains(option)) {
                    throw new SQLException("the URL sets " + option + " in its host part, an option that would defeat"
                            + " the guard; remove it", "08001");
                }
            }
        }
        if (dialect == SqlDialect.SQLITE) {
            String file = b.substring("jdbc:sqlite:".length());
            if (file.isEmpty() || file.contains(":memory:") || SQLITE_MEMORY.matcher(query.toLowerCase(Locale.ROOT)).find()) {
                throw new SQLException("an in-memory SQLite database belongs to one connection, and the dry run runs on"
                        + " a connection of its own; use a database file", "08001");
            }
        }
    }

    /**
     * R12: the properties the model's connection is opened with. pgjdbc reads a whole result before it
     * hands out a row; its {@code maxResultBuffer} makes it stop, and close the connection, once a result
     * passes the bound (measured on 42.7.14), instead of filling the heap. It is set to twice
     * {@code policy.read.maxBytes} (its count includes the protocol's own bytes, and a result a little
     * over the bound is then cut by the guard with a warning instead), unless the URL or the properties
     * set it themselves; and its {@code adaptiveFetch}, so that the batches it fetches in a transaction
     * fit it.
     */
    public static Properties forReads(SqlDialect dialect, String realUrl, Properties properties, MaxBytes maxBytes)
            throws SQLException {
        if (dialect != SqlDialect.POSTGRESQL || realUrl.toLowerCase(Locale.ROOT).contains("maxresultbuffer=")
                || properties.stringPropertyNames().stream().anyMatch(k -> k.equalsIgnoreCase("maxResultBuffer"))) {
            return properties;
        }
        Properties out = new Properties();
        out.putAll(properties);
        out.setProperty("maxResultBuffer", Long.toString(2 * maxBytes.get()));
        // In a transaction, where pgjdbc fetches in batches, it sizes them to fit that buffer.
        if (out.stringPropertyNames().stream().noneMatch(k -> k.equalsIgnoreCase("adaptiveFetch"))
                && !realUrl.toLowerCase(Locale.ROOT).contains("adaptivefetch=")) {
            out.setProperty("adaptiveFetch", "true");
        }
        return out;
    }
}
