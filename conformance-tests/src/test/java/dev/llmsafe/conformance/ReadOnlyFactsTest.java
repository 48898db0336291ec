package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Sql.Outcome;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R3: a read that writes is refused by the guard, and also stopped by the server, because reads run
 * in a read-only session or transaction. The write that a statement-level guard cannot see is one
 * inside a function the SELECT calls; each fact calls such a function under one read-only mechanism
 * and counts what it wrote.
 */
class ReadOnlyFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    // ---- probes -------------------------------------------------------------------------------

    static String sessionReadOnly(ScratchDatabase db, ServerId server) throws SQLException {
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

    static String transactionReadOnly(ScratchDatabase db, ServerId server) throws SQLException {
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
    static String jdbcSetReadOnly(ScratchDatabase db, ServerId server) throws SQLException {
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
    private static String writingFunction(ScratchDatabase db, ServerId server, String p) throws SQLException {
        Flavor f = server.flavor();
        db.execute("CREATE TABLE " + p + "_log (" + Ddl.autoId(f) + ", note VARCHAR(20))");
        switch (f) {
            case POSTGRES -> db.execute("CREATE FUNCTION " + p + "_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                    + " INSERT INTO " + p + "_log (note) VALUES ('written'); RETURN 1; END $$");
            case MARIADB, MYSQL -> db.execute("CREATE FUNCTION " + p + "_write() RETURNS INT NOT DETERMINISTIC"
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

    private static String written(ScratchDatabase db, String log, Outcome o) throws SQLException {
        long rows = Sql.count(db.admin(), "SELECT count(*) FROM " + log);
        return (o.failed() ? "stopped with " + o.describe() : "not stopped") + ", "
                + SideEffectFactsTest.plural(rows, "row") + " written";
    }

    // ---- facts --------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F29_aReadOnlySessionStopsAWritingFunctionCalledFromASelect(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F29, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 25006, 0 rows written";
            case MARIADB, MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            case SQLITE -> "stopped with SQLITE_READONLY, 0 rows written";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F30_aReadOnlyTransactionStopsAWritingFunctionCalledFromASelect(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F30, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 25006, 0 rows written";
            case MARIADB, MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            case SQLITE -> "n/a (no read-only transactions; query_only is per connection)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F31_jdbcSetReadOnlyIsNoServerSideGuard(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F31, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // pgjdbc's default readOnlyMode=transaction does nothing in auto-commit mode.
            case POSTGRES -> "not stopped, 1 row written";
            // Connector/J sends SET SESSION TRANSACTION READ ONLY only to servers it believes are MySQL
            // 5.6.5 or later, and MariaDB introduces itself as 5.5.5: nothing is sent.
            case MARIADB -> "not stopped, 1 row written";
            case MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            // sqlite-jdbc fixes read-only when the connection opens and refuses to change it later.
            case SQLITE -> "setReadOnly refused: SQLException";
        });
    }
}
