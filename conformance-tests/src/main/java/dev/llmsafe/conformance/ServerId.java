package dev.llmsafe.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server a fact was measured on: its flavor and exact version, as SPEC.md names it in the header
 * of its column ("PostgreSQL 15.20", "MariaDB 10.11.19", "SQLite 3.54.1").
 *
 * @param flavor which server, telling MariaDB and MySQL apart (they are one engine to the helper)
 * @param version the version numbers only, without distribution suffixes
 */
record ServerId(Flavor flavor, String version) {

    /** The servers whose answers differ; MariaDB and MySQL share a driver and an engine, not their answers. */
    enum Flavor {
        POSTGRES("PostgreSQL"), MARIADB("MariaDB"), MYSQL("MySQL"), SQLITE("SQLite");

        final String product;

        Flavor(String product) {
            this.product = product;
        }
    }

    private static final Pattern MARIADB = Pattern.compile("(\\d+\\.\\d+\\.\\d+)-MariaDB");
    private static final Pattern NUMBERS = Pattern.compile("^(\\d+(?:\\.\\d+)*)");

    static ServerId of(Scratch db) throws SQLException {
        return of(db.admin());
    }

    /** The server a connection talks to. */
    static ServerId of(Connection c) throws SQLException {
        String name = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        String product = c.getMetaData().getDatabaseProductVersion();
        if (name.contains("mysql") || name.contains("mariadb")) {
            // Connector/J reports MariaDB as "5.5.5-10.11.19-MariaDB-...": the real version follows the prefix.
            Matcher m = MARIADB.matcher(product);
            if (m.find()) {
                return new ServerId(Flavor.MARIADB, m.group(1));
            }
            return new ServerId(Flavor.MYSQL, numbers(product));
        }
        if (name.contains("postgresql")) {
            return new ServerId(Flavor.POSTGRES, numbers(product));
        }
        if (name.contains("sqlite")) {
            return new ServerId(Flavor.SQLITE, numbers(product));
        }
        throw new SQLException("the conformance suite measures PostgreSQL, MySQL, MariaDB and SQLite; this is "
                + c.getMetaData().getDatabaseProductName());
    }

    private static String numbers(String product) {
        Matcher m = NUMBERS.matcher(product.trim());
        if (!m.find()) {
            throw new IllegalStateException("cannot read a version number out of \"" + product + "\"");
        }
        return m.group(1);
    }

    /**
     * Whether Connector/J takes this server for MySQL 5.5: MariaDB before 11 announces itself as
     * "5.5.5-10.x-MariaDB", and Connector/J then sends no setReadOnly to the server and drops fractional
     * seconds from parameters. MariaDB 11 announces its own version, and Connector/J treats it as a MySQL
     * 5.6.5 or later (measured on 11.8.9).
     */
    boolean announcedAsMysql55() {
        return flavor == Flavor.MARIADB && Integer.parseInt(version.split("\\.")[0]) < 11;
    }

    /** The column header in SPEC.md. */
    String label() {
        return flavor.product + " " + version;
    }

    /**
     * The release series whose answers are expected to agree: the major version of PostgreSQL (whose
     * minor releases are bug fixes only), major.minor of the others.
     */
    String series() {
        String[] parts = version.split("\\.");
        return flavor.product + " " + (flavor == Flavor.POSTGRES || parts.length < 2 ? parts[0] : parts[0] + "." + parts[1]);
    }

    @Override
    public String toString() {
        return label();
    }
}
