package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bypass classes seen in the wild (shared/research/agent-db-anchors.md, section 4), each technique
 * sent through the driver on every database where it applies. Nothing in the database changes, and each
 * attempt ends in its documented refusal (or, for a real UPDATE or DELETE hidden behind comments, in a
 * plan that changed nothing).
 */
class BypassTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact("Changing an order moves money."))
            .table("members")
            .table("writing_view")
            .secret("password_hash", "a stored credential")
            .maxUpdateRows(2)
            .maxDeleteRows(1));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                    "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20), password_hash VARCHAR(40))",
                    "INSERT INTO members VALUES (1, 'ann', 'h-ann')",
                    "CREATE TABLE tokens (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO tokens VALUES (1, 'service-role-key')",
                    "CREATE TABLE write_log (note VARCHAR(20))");
            switch (engine) {
                case POSTGRES -> db.execute("CREATE SEQUENCE s",
                        "CREATE FUNCTION log_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                                + " INSERT INTO write_log VALUES ('written'); RETURN 1; END $$",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case MYSQL -> db.execute("CREATE FUNCTION log_write() RETURNS INT DETERMINISTIC MODIFIES SQL DATA"
                                + " BEGIN INSERT INTO write_log VALUES ('written'); RETURN 1; END",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case SQLITE -> db.execute("CREATE VIEW writing_view AS SELECT id, 1 AS w FROM orders");
            }
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    /** Sends each statement through Statement.execute; null as the code means "became a plan". */
    private static void attempt(Guarded g, Map<String, Refusal> attempts) throws SQLException {
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            for (Map.Entry<String, Refusal> a : attempts.entrySet()) {
                if (a.getValue() == null) {
                    g.plannedUnchanged(() -> s.execute(a.getKey()));
                } else {
                    var before = g.checksum();
                    assertThatThrownBy(() -> s.execute(a.getKey())).as(a.getKey())
                            .isInstanceOf(dev.llmsafe.RefusedException.class)
                            .satisfies(e -> assertThat(((dev.llmsafe.RefusedException) e).code()).as(a.getKey() + ": "
                                    + e.getMessage()).isEqualTo(a.getValue()));
                    assertThat(g.checksum()).as(a.getKey()).isEqualTo(before);
                }
            }
        }
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S3_S7_classA_aTransactionEscapeByStackingIsRefused(Engine engine) throws SQLException {
        Map<String, Refusal> a = new LinkedHashMap<>();
        a.put("COMMIT; DELETE FROM orders WHERE id = 1", Refusal.MULTIPLE_STATEMENTS);
        a.put("SELECT 1; DELETE FROM orders WHERE id = 1", Refusal.MULTIPLE_STATEMENTS);
        a.put("ROLLBACK; UPDATE orders SET qty = 0 WHERE id = 1; SELECT 1", Refusal.MULTIPLE_STATEMENTS);
        a.put("SELECT * FROM orders; DROP TABLE orders", Refusal.MULTIPLE_STATEMENTS);
        a.put("COMMIT", Refusal.FORBIDDEN);
        a.put("ROLLBACK", Refusal.FORBIDDEN);
        a.put("BEGIN", Refusal.FORBIDDEN);
        if (engine == Engine.POSTGRES) {
            a.put("END; DROP SCHEMA public CASCADE", Refusal.MULTIPLE_STATEMENTS);
            a.put("SET TRANSACTION READ WRITE", Refusal.FORBIDDEN);
        }
        attempt(guarded(engine), a);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S2_S6_classB_lexicalConfusionIsReadAsTheServerReadsIt(Engine engine) throws SQLException {
        Map<String, Refusal> a = new LinkedHashMap<>();
        // A leading comment hides nothing: the DELETE is seen, and becomes a plan.
        a.put("/* harmless */ DELETE FROM orders WHERE id = 3", null);
        a.put("-- note\nDELETE FROM orders WHERE id = 3", null);
        a.put("-- note\nDROP TABLE orders", Refusal.DDL);
        a.put("DEL/**/ETE FROM orders WHERE id = 3", Refusal.UNSUPPORTED_STATEMENT);
        a.put("EXEC('DELETE FROM orders')", Refusal.FORBIDDEN);
        a.put("/* only a comment */", Refusal.EMPTY);
        switch (engine) {
            case MYSQL -> {
                a.put("SELECT 1 /*! ; DELETE FROM orders */", Refusal.FORBIDDEN_DIALECT);
                a.put("/*!50000 DELETE FROM orders */", Refusal.FORBIDDEN_DIALECT);
                a.put("SELECT 1 /*M! , sleep(5) */", Refusal.FORBIDDEN_DIALECT);
                // In MySQL the backslash escapes the quote: the WHERE is one string, matching no row, never
                // "OR 1=1" (which would match all three).
                a.put("UPDATE orders SET qty = 0 WHERE status = '\\' OR 1=1 -- '", Refusal.NO_ROWS);
            }
            case POSTGRES -> {
                // In E'' the backslash escapes the quote, as in MySQL: one string, matching no row. JSqlParser is
                // handed the same string spelled E''' OR 1=1 -- ' and reads it as one literal too.
                a.put("UPDATE orders SET qty = 0 WHERE status = E'\\' OR 1=1 -- '", Refusal.NO_ROWS);
                a.put("DELETE FROM orders WHERE status = $x$' OR 1=1 --$x$", Refusal.NO_ROWS);
            }
            // SQLite has no backslash escapes: the server reads OR 1=1, and so does the guard, which then sees
            // three rows, above the ceiling.
            case SQLITE -> a.put("UPDATE orders SET qty = 0 WHERE status = '\\' OR 1=1 -- '", Refusal.TOO_MANY_ROWS);
        }
        attempt(guarded(engine), a);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R3_classC_readShapedStatementsWithEffectsAreRefused(Engine engine) throws SQLException {
        Map<String, Refusal> a = new LinkedHashMap<>();
        a.put("SELECT * FROM orders FOR UPDATE", Refusal.MIXED);
        a.put("EXPLAIN ANALYZE DELETE FROM orders WHERE id = 1", Refusal.UNSUPPORTED_STATEMENT);
        a.put("PREPARE p AS DELETE FROM orders", Refusal.FORBIDDEN);
        a.put("EXECUTE p", Refusal.FORBIDDEN);
        switch (engine) {
            case POSTGRES -> {
                a.put("WITH d AS (DELETE FROM orders WHERE id = 1 RETURNING *) SELECT * FROM d", Refusal.MIXED);
                a.put("WITH u AS (UPDATE orders SET qty = 0 WHERE id = 1 RETURNING 1) SELECT 1", Refusal.MIXED);
                a.put("SELECT * INTO orders_copy FROM orders", Refusal.MIXED);
                a.put("SELECT nextval('s')", Refusal.MIXED);
                a.put("SELECT setval('s', 100)", Refusal.MIXED);
                a.put("SELECT pg_read_file('/etc/passwd')", Refusal.SYSTEM_CATALOG);
                a.put("SELECT * FROM pg_read_file('/etc/passwd')", Refusal.SYSTEM_CATALOG);
                a.put("SELECT pg_terminate_backend(1)", Refusal.SYSTEM_CATALOG);
                a.put("SELECT lo_import('/etc/passwd')", Refusal.MIXED);
                a.put("SELECT dblink_exec('dbname=x', 'DELETE FROM orders')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT (qty).pg_sleep FROM orders", Refusal.FORBIDDEN_FUNCTION);
                a.put("COPY orders TO PROGRAM 'id'", Refusal.FORBIDDEN);
                a.put("DO $$ BEGIN DELETE FROM orders; END $$", Refusal.FORBIDDEN);
                a.put("SELECT log_write()", Refusal.FORBIDDEN_FUNCTION);
            }
            case MYSQL -> {
                a.put("SELECT * FROM orders INTO OUTFILE '/tmp/llmsafe-bypass.txt'", Refusal.MIXED);
                a.put("SELECT LOAD_FILE('/etc/passwd')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT * FROM orders WHERE id = 1 AND sleep(5) = 0", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT * FROM orders LOCK IN SHARE MODE", Refusal.MIXED);
                a.put("HANDLER orders OPEN", Refusal.FORBIDDEN);
                a.put("SELECT log_write()", Refusal.FORBIDDEN_FUNCTION);
            }
            case SQLITE -> {
                a.put("SELECT load_extension('/tmp/evil')", Refusal.FORBIDDEN_FUNCTION);
                a.put("ATTACH DATABASE '/tmp/llmsafe-bypass.db' AS x", Refusal.FORBIDDEN);
                a.put("SELECT writefile('/tmp/llmsafe-bypass.txt', 'x')", Refusal.FORBIDDEN_FUNCTION);
                a.put("INSERT INTO orders VALUES (9, 'x', 9) RETURNING *", Refusal.UNSUPPORTED_INSERT);
            }
        }
        attempt(guarded(engine), a);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void R3_classD_aWriteTheGuardCannotSeeIsStoppedByTheServersReadOnlySession(Engine engine) throws SQLException {
        // An allowed view whose function writes: a plain read to the guard, a write to the server.
        Map<String, Refusal> a = new LinkedHashMap<>();
        a.put("SELECT * FROM writing_view", Refusal.MIXED);
        a.put("SELECT w FROM writing_view WHERE id = 1", Refusal.MIXED);
        attempt(guarded(engine), a);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_classE_aMistypedOrMissingSettingIsAnErrorNotAnOpenDefault(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        assertThatThrownBy(() -> DriverManager.getConnection(g.url("llmsafe.Config=/dev/null"), g.credentials()))
                .isInstanceOf(SQLException.class).hasMessageContaining("llmsafe.config");
        assertThatThrownBy(() -> DriverManager.getConnection(g.url("llmsafe.proposr=x"), g.credentials()))
                .isInstanceOf(SQLException.class).hasMessageContaining("unknown parameter llmsafe.proposr");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_R2_classF_theModelDoesNotBorrowTheApplicationsPrivileges(Engine engine) throws SQLException {
        Map<String, Refusal> a = new LinkedHashMap<>();
        a.put("SELECT token FROM tokens", Refusal.TABLE_NOT_ALLOWED);
        a.put("SELECT o.id, t.token FROM orders o JOIN tokens t ON t.id = o.id", Refusal.TABLE_NOT_ALLOWED);
        a.put("SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM tokens WHERE token LIKE 's%')", Refusal.TABLE_NOT_ALLOWED);
        a.put("SELECT * FROM members", Refusal.DENIED_IDENTIFIER);
        a.put("SELECT password_hash AS harmless FROM members", Refusal.DENIED_IDENTIFIER);
        a.put("UPDATE members SET name = password_hash WHERE id = 1", Refusal.DENIED_IDENTIFIER);
        a.put("UPDATE tokens SET token = 'x' WHERE id = 1", Refusal.TABLE_NOT_ALLOWED);
        if (engine == Engine.POSTGRES) {
            a.put("SELECT row_to_json(m) FROM members m", Refusal.DENIED_IDENTIFIER);
            a.put("SELECT string_agg(m::text, ',') FROM members m", Refusal.DENIED_IDENTIFIER);
        }
        // An UPDATE the model may propose: it still only becomes a plan.
        a.put("UPDATE orders SET qty = 5 WHERE id = 1", null);
        attempt(guarded(engine), a);
    }
}
