package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Sql.Outcome;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Properties;

/**
 * R11 and R12: what a read costs the database and the application when nothing bounds it. Whether a
 * read's open transaction, at each isolation level, or its open result set makes another session wait
 * (observed from that session, under a short lock wait bound); what the client sees when the server
 * ends an idle transaction; how large a value the server hands out, and whether the driver or the
 * database stops one past a limit of its own.
 */
final class HoldFacts {

    private HoldFacts() {
    }

    /** A read in a read-only session at the server's default level, left open; then the other session. */
    static String openReadTransaction(Scratch db, ServerId server) throws SQLException {
        return heldBy(db, server, "f32", null);
    }

    /** The same with the transaction at SERIALIZABLE. */
    static String openSerializableReadTransaction(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "n/a (one isolation level: F32)";
        }
        return heldBy(db, server, "f33", Connection.TRANSACTION_SERIALIZABLE);
    }

    private static String heldBy(Scratch db, ServerId server, String t, Integer level) throws SQLException {
        Flavor f = server.flavor();
        db.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO " + t
                + " VALUES (1, 0), (2, 0)");
        Answer.Parts parts = new Answer.Parts();
        try (Connection a = db.connect()) {
            Sql.exec(a, readOnlySession(f));
            if (level != null) {
                a.setTransactionIsolation(level);
            }
            a.setAutoCommit(false);
            Sql.one(a, "SELECT v FROM " + t + " WHERE id = 1");
            // The write first and the DDL after: a statement that ran must not change what the next one meets.
            parts.put("UPDATE of the row read", other(db, f, "UPDATE " + t + " SET v = 1 WHERE id = 1"));
            parts.put("ALTER TABLE", other(db, f, "ALTER TABLE " + t + " ADD COLUMN probe INT"));
            parts.put(f == Flavor.SQLITE ? "DELETE" : "TRUNCATE", other(db, f, f == Flavor.SQLITE ? "DELETE FROM " + t
                    : "TRUNCATE TABLE " + t));
            a.rollback();
        }
        return parts.toString();
    }

    private static String readOnlySession(Flavor f) {
        return switch (f) {
            case POSTGRES -> "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY";
            case MARIADB, MYSQL -> "SET SESSION TRANSACTION READ ONLY";
            case SQLITE -> "PRAGMA query_only = 1";
        };
    }

    /**
     * Another session's statement under a short lock bound (PostgreSQL 300 ms, MariaDB none: its waits
     * are whole seconds, SQLite 300 ms), written in a transaction: rolled back where the server can,
     * committed on SQLite, where the commit is what waits for the reader.
     */
    private static String other(Scratch db, Flavor f, String sql) throws SQLException {
        try (Connection b = db.connect()) {
            Sql.exec(b, switch (f) {
                case POSTGRES -> "SET lock_timeout = '300ms'";
                case MARIADB, MYSQL -> "SET SESSION lock_wait_timeout = 0";
                case SQLITE -> "PRAGMA busy_timeout = 300";
            });
            if (f == Flavor.MARIADB || f == Flavor.MYSQL) {
                Sql.exec(b, "SET SESSION innodb_lock_wait_timeout = 0");
            }
            boolean ddl = sql.startsWith("ALTER") || sql.startsWith("TRUNCATE");
            boolean transactional = f == Flavor.POSTGRES || f == Flavor.SQLITE || !ddl;
            if (transactional) {
                b.setAutoCommit(false);
            }
            Outcome o = Sql.update(b, sql);
            if (!o.failed() && f == Flavor.SQLITE) {
                o = Sql.timed(() -> {
                    b.commit();
                    return "committed";
                });
            }
            if (transactional && !b.getAutoCommit()) {
                b.rollback();
            }
            return o.failed() ? "waited, " + o.describe() : "ran";
        }
    }

    /** A transaction that read a table, left idle past the server's own bound of 1 s, then two statements. */
    static String idleTransactionTimeout(Scratch db, ServerId server) throws SQLException {
        Flavor f = server.flavor();
        String set = switch (f) {
            case POSTGRES -> "SET idle_in_transaction_session_timeout = '1s'";
            case MARIADB, MYSQL -> "SET SESSION idle_transaction_timeout = 1";
            case SQLITE -> null;
        };
        if (set == null) {
            return "n/a (no server)";
        }
        try (Connection a = db.connect()) {
            Outcome s = Sql.timed(() -> {
                Sql.exec(a, set);
                return "set";
            });
            if (s.failed()) {
                return "no such setting";
            }
            // A read of a table: MariaDB counts a transaction as open only once it touched one.
            db.execute("CREATE TABLE f34 (id INT PRIMARY KEY)");
            a.setAutoCommit(false);
            Sql.one(a, "SELECT count(*) FROM f34");
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            Outcome first = Sql.query(a, "SELECT 1");
            Outcome then = Sql.query(a, "SELECT 1");
            return new Answer.Parts().put("next statement", first.failed() ? first.describe() : "ran")
                    .put("then", then.failed() ? then.describe() : "ran")
                    .put("connection", a.isValid(1) ? "open" : "closed").toString();
        }
    }

    /** A result set read to its first row and left open, in auto-commit mode; then another session writes. */
    static String openResultSet(Scratch db, ServerId server) throws SQLException {
        Flavor f = server.flavor();
        db.execute("CREATE TABLE f35 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f35 VALUES (1, 0), (2, 0),"
                + " (3, 0)");
        try (Connection a = db.connect(); Statement s = a.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT id FROM f35 ORDER BY id")) {
            rs.next();
            return "another session's UPDATE " + other(db, f, "UPDATE f35 SET v = 1 WHERE id = 3");
        }
    }

    /** A value of 20 000 000 characters computed by the server, read with the driver's defaults. */
    static String hugeValue(Scratch db, ServerId server) throws SQLException {
        String sql = server.flavor() == Flavor.SQLITE ? "SELECT printf('%.*c', 20000000, 'x')"
                : "SELECT repeat('x', 20000000)";
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            String v = rs.getString(1);
            SQLWarning w = rs.getWarnings() != null ? rs.getWarnings() : s.getWarnings();
            return v == null ? "NULL" + (w == null ? "" : ", warning " + w.getErrorCode())
                    : SideEffectFacts.plural(v.length(), "character");
        }
    }

    /**
     * The driver's or the database's own limit on what a result may hold, at 1 MiB (pgjdbc's
     * maxResultBuffer, SQLite's SQLITE_LIMIT_LENGTH), against a value of 2 000 000 characters.
     */
    static String ownLimit(Scratch db, ServerId server) throws SQLException {
        Flavor f = server.flavor();
        String sql = f == Flavor.SQLITE ? "SELECT printf('%.*c', 2000000, 'x')" : "SELECT repeat('x', 2000000)";
        Connection c;
        switch (f) {
            case POSTGRES -> {
                Properties p = new Properties();
                if (db.user() != null) {
                    p.setProperty("user", db.user());
                }
                if (db.password() != null) {
                    p.setProperty("password", db.password());
                }
                p.setProperty("maxResultBuffer", "1048576");
                c = DriverManager.getConnection(db.url(), p);
            }
            case SQLITE -> {
                c = db.connect();
                c.unwrap(org.sqlite.SQLiteConnection.class).setLimit(org.sqlite.SQLiteLimits.SQLITE_LIMIT_LENGTH, 1 << 20);
            }
            default -> {
                return "n/a (no such limit in Connector/J; the server's max_allowed_packet: F36)";
            }
        }
        try (c) {
            Outcome o = Sql.query(c, sql);
            return (o.failed() ? "stopped with " + o.describe() : "read") + ", connection "
                    + (c.isValid(1) ? "open" : "closed");
        }
    }
}
