package dev.llmsafe.conformance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.sqlite.SQLiteException;

/** Small JDBC helpers for probes: run, read one value, and name an error the way SPEC.md shows it. */
final class Sql {

    private Sql() {
    }

    static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    /** The first column of the first row, or null when there is no row. */
    static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static long count(Connection c, String sql) throws SQLException {
        String v = one(c, sql);
        if (v == null) {
            throw new IllegalStateException("no row from " + sql);
        }
        return Long.parseLong(v);
    }

    /**
     * An error as the answer tables show it: the vendor code and SQLState on MySQL/MariaDB (the code
     * is the precise one there), the SQLState on PostgreSQL, the result code on SQLite, and the
     * exception class when the driver gives neither.
     */
    static String error(SQLException e) {
        if (e instanceof SQLiteException s) {
            return s.getResultCode().name();
        }
        if (e.getErrorCode() != 0) {
            return "error " + e.getErrorCode() + " (" + e.getSQLState() + ")";
        }
        if (e.getSQLState() != null) {
            return "error " + e.getSQLState();
        }
        return e.getClass().getSimpleName();
    }

    /** How a statement ended: its update count or first value, or its error, and how long it took. */
    record Outcome(String value, SQLException error, Duration elapsed) {
        boolean failed() {
            return error != null;
        }

        String describe() {
            return failed() ? Sql.error(error) : value;
        }
    }

    @FunctionalInterface
    interface Call {
        String run() throws SQLException;
    }

    static Outcome timed(Call call) {
        long start = System.nanoTime();
        try {
            String v = call.run();
            return new Outcome(v, null, Duration.ofNanos(System.nanoTime() - start));
        } catch (SQLException e) {
            return new Outcome(null, e, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** Runs an update on a new statement and returns its update count as text. */
    static Outcome update(Connection c, String sql) {
        return timed(() -> {
            try (Statement s = c.createStatement()) {
                return String.valueOf(s.executeUpdate(sql));
            }
        });
    }

    /** Runs a query on a new statement and returns the first value as text. */
    static Outcome query(Connection c, String sql) {
        return timed(() -> one(c, sql));
    }
}
