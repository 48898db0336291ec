package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Sql.Outcome;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * R3: a read that writes is refused by the guard, and also stopped by the server, because reads run
 * in a read-only session or transaction. The write that a statement-level guard cannot see is one
 * inside a function the SELECT calls; each fact calls such a function under one read-only mechanism
 * and counts what it wrote.
 */
final class ReadOnlyFacts {

    private ReadOnlyFacts() {
    }

    static String sessionReadOnly(Scratch db, ServerId server) throws SQLException {
        String log = writingFunction(db, server, "f29");
        try (Connection c = db.connect()) {
            Sql.exec(c, switch (server.flavor()) {
                case POSTGRES -> "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY";
                case MARIADB, MYSQL -> "SET SESSION TRANSACTION READ ONLY";
                case SQLITE -> "PRAGMA query_only = 1";
            });
            return written(db, log, Sql.query(c, writingRead(server, "f29")));
        }
    }

    static String transactionReadOnly(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "n/a (no read-only transactions; query_only is per connection)";
        }
        String log = writingFunction(db, server, "f30");
        try (Connection c = db.connect()) {
            Sql.exec(c, server.flavor() == Flavor.POSTGRES ? "BEGIN READ ONLY" : "START TRANSACTION READ ONLY");
            Outcome o = Sql.query(c, writingRead(server, "f30"));
            Sql.exec(c, "COMMIT"); // what was written stays, so that it can be counted
            return written(db, log, o);
        }
    }

    /** Connection.setReadOnly(true) on a connection in auto-commit mode, as a pool hands one out. */
    static String jdbcSetReadOnly(Scratch db, ServerId server) throws SQLException {
        String log = writingFunction(db, server, "f31");
        try (Connection c = db.connect()) {
            try {
                c.setReadOnly(true);
            } catch (SQLException e) {
                return "setReadOnly refused: " + Sql.error(e);
            }
            return written(db, log, Sql.query(c, writingRead(server, "f31")));
        }
    }

    /**
     * A table {@code <p>_log} and, where the server has stored functions, {@code <p>_write()} which
     * inserts a row into it and returns 1. SQLite has none: there, the "read that writes" is an
     * INSERT, the only way its SQL writes.
     */
    private static String writingFunction(Scratch db, ServerId server, String p) throws SQLException {
        Flavor f = server.flavor();
        db.execute("CREATE TABLE " + p + "_log (" + Ddl.autoId(f) + ", note VARCHAR(20))");
        switch (f) {
            case POSTGRES -> db.execute("CREATE FUNCTION " + p + "_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                    + " INSERT INTO " + p + "_log (note) VALUES ('written'); RETURN 1; END $$");
            case MARIADB, MYSQL -> db.execute("CREATE FUNCTION " + p + "_write() RETURNS INT DETERMINISTIC"
                    + " MODIFIES SQL DATA BEGIN INSERT INTO " + p + "_log (note) VALUES ('written'); RETURN 1; END");
            case SQLITE -> {
            }
        }
        return p + "_log";
    }

    private static String writingRead(ServerId server, String p) {
        return server.flavor() == Flavor.SQLITE
                ? "INSERT INTO " + p + "_log (note) VALUES ('written') RETURNING 1"
                : "SELECT " + p + "_write()";
    }

    private static String written(Scratch db, String log, Outcome o) throws SQLException {
        long rows = Sql.count(db.admin(), "SELECT count(*) FROM " + log);
        return (o.failed() ? "stopped with " + o.describe() : "not stopped") + ", "
                + SideEffectFacts.plural(rows, "row") + " written";
    }

}
