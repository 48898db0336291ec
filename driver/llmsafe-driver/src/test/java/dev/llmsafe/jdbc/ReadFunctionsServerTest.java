package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * R7 through the driver, on each database and both deployments (a least-privilege read role as in
 * samples/roles, and the credential that can do everything): every function, cast and operator off the
 * allowlist is refused with its code, and nothing changed (the large object's content, the sequence's
 * value, no file written, the read session's settings); the ordinary forms still return their values.
 */
class ReadFunctionsServerTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.")));

    enum Deployment { PRIVILEGED, LEAST_PRIVILEGE }

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    static Stream<Arguments> deployments() {
        List<Arguments> out = new ArrayList<>();
        for (Engine e : Engine.values()) {
            out.add(Arguments.of(e, Deployment.PRIVILEGED));
            if (e != Engine.SQLITE) {
                out.add(Arguments.of(e, Deployment.LEAST_PRIVILEGE));
            }
        }
        return out.stream();
    }

    private static Guarded deploy(ScratchDatabase db, Deployment d) throws SQLException {
        if (d == Deployment.PRIVILEGED) {
            return Guarded.of(db, POLICY);
        }
        TestRole reader = db.engine() == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON {db}.orders TO {role}")
                : db.createRole("GRANT SELECT ON {db}.orders TO {role}");
        return Guarded.of(db, POLICY, b -> b.readConnection(ConnectionSettings.of(db.url(), reader.name(),
                reader.password())).schema(db.engine() == Engine.POSTGRES ? db.name() : "x"));
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** What the attacks would change, read around the guard. */
    private static List<String> state(ScratchDatabase db, Connection model, long lo, Path file) throws SQLException {
        Connection read = ((GuardedConnection) model).readConnectionForTests();
        List<String> out = new ArrayList<>();
        out.add("file written: " + Files.exists(file));
        switch (db.engine()) {
            case POSTGRES -> {
                out.add(one(db.admin(), "SELECT convert_from(lo_get(" + lo + "), 'UTF8')"));
                out.add(one(db.admin(), "SELECT last_value || ' ' || is_called FROM fns_seq"));
                out.add(one(read, "SELECT current_setting('default_transaction_read_only') || ' '"
                        + " || current_setting('statement_timeout') || ' ' || current_setting('search_path') || ' '"
                        + " || current_setting('session_replication_role')"));
            }
            case MYSQL -> {
                if (db.isMariadb()) {
                    out.add(one(db.admin(), "SELECT next_not_cached_value FROM fns_seq"));
                    out.add(one(read, "SELECT CONCAT(@@SESSION.tx_read_only, ' ', @@SESSION.sql_mode, ' ',"
                            + " @@SESSION.time_zone, ' ', @@SESSION.max_statement_time)"));
                } else {
                    out.add(one(read, "SELECT CONCAT(@@SESSION.transaction_read_only, ' ', @@SESSION.sql_mode, ' ',"
                            + " @@SESSION.time_zone, ' ', @@SESSION.max_execution_time)"));
                }
            }
            case SQLITE -> out.add(one(read, "PRAGMA query_only"));
        }
        return out;
    }

    private static Map<String, Refusal> attacks(Engine engine, boolean mariadb, long lo, Path file) {
        Map<String, Refusal> a = new LinkedHashMap<>();
        switch (engine) {
            case POSTGRES -> {
                a.put("SELECT lowrite(lo_open(" + lo + ", 131072), 'x')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT lo_truncate64(lo_open(" + lo + ", 131072), 0)", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT loread(lo_open(" + lo + ", 262144), 100)", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT lo_export(" + lo + ", '" + file + "')", Refusal.MIXED);
                a.put("SELECT lo_put(" + lo + ", 0, 'x')", Refusal.MIXED);
                a.put("SELECT * FROM ts_stat('SELECT set_config(''default_transaction_read_only'', ''off'', false)"
                        + "::tsvector')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT ts_rewrite('a'::tsquery, 'SELECT set_config(''search_path'', ''x'', false)::tsquery')",
                        Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT query_to_xml('SELECT setval(''fns_seq'', 100)', true, true, '')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT set_config('statement_timeout', '0', false)", Refusal.MIXED);
                a.put("SELECT setval('fns_seq', 100)", Refusal.MIXED);
                a.put("SELECT nextval('fns_seq')", Refusal.MIXED);
                a.put("SELECT current_setting('data_directory')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT pg_read_file('/etc/passwd')", Refusal.SYSTEM_CATALOG);
                a.put("SELECT pg_advisory_lock(1)", Refusal.SYSTEM_CATALOG);
                a.put("SELECT setting FROM pg_settings WHERE name = 'search_path'", Refusal.SYSTEM_CATALOG);
                a.put("SELECT json_populate_record(NULL::payroll, '{}')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT 'payroll'::regclass", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT to_regclass('payroll')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT obj_description(" + lo + ")", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT version()", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT 1 OPERATOR(pg_catalog.+) 1", Refusal.SYSTEM_CATALOG);
                a.put("SELECT o.row_to_json FROM orders o", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT o.json_agg FROM orders o", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT o.leak FROM orders o", Refusal.FORBIDDEN_FUNCTION);
            }
            case MYSQL -> {
                a.put("SELECT sleep(2)", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT benchmark(1000000000, md5('x'))", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT load_file('/etc/passwd')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT id FROM orders PROCEDURE ANALYSE()", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT @@version", Refusal.SYSTEM_CATALOG);
                a.put("SELECT @@GLOBAL.secure_file_priv", Refusal.SYSTEM_CATALOG);
                if (mariadb) {
                    // Sequences are MariaDB's; MySQL has none.
                    a.put("SELECT nextval(fns_seq)", Refusal.MIXED);
                    a.put("SELECT setval(fns_seq, 100)", Refusal.MIXED);
                }
                a.put("SELECT get_lock('fns', 1)", Refusal.MIXED);
                a.put("SELECT is_free_lock('fns')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT database()", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT version()", Refusal.FORBIDDEN_FUNCTION);
            }
            case SQLITE -> {
                a.put("SELECT load_extension('/tmp/evil')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT writefile('" + file + "', 'x')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT readfile('/etc/passwd')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT name FROM pragma_table_info('payroll')", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT name FROM pragma_table_list()", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT file FROM pragma_database_list()", Refusal.FORBIDDEN_FUNCTION);
                a.put("SELECT sqlite_version()", Refusal.SYSTEM_CATALOG);
            }
        }
        a.put("SELECT my_secret_fn(qty) FROM orders", Refusal.FORBIDDEN_FUNCTION);
        return a;
    }

    private static Map<String, String> legitimate(Engine engine) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put("SELECT 1", "1");
        l.put("SELECT lower(note) FROM orders WHERE id = 1", "packed");
        l.put("SELECT coalesce(NULL, upper(note)) FROM orders WHERE id = 1", "PACKED");
        l.put("SELECT count(*) FROM orders", "2");
        l.put("SELECT sum(qty) + max(qty) FROM orders", "7");
        l.put("SELECT CASE WHEN qty > 1 THEN 'many' ELSE 'one' END FROM orders WHERE id = 2", "many");
        l.put("SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY id DESC) AS r FROM orders) AS x", "2");
        switch (engine) {
            case POSTGRES -> {
                l.put("SELECT qty::text || '-' || CAST(qty AS numeric(5, 1)) FROM orders WHERE id = 1", "1-1.0");
                l.put("SELECT count(*) FROM generate_series(1, 3) AS g(n)", "3");
                l.put("SELECT value FROM json_each_text('{\"a\": \"b\"}')", "b");
                l.put("SELECT jsonb_build_object('q', qty) ->> 'q' FROM orders WHERE id = 2", "3");
                l.put("SELECT to_char(DATE '2024-01-15', 'YYYY-MM')", "2024-01");
                l.put("SELECT string_agg(note, ',' ORDER BY id) FROM orders", "packed,shipped");
            }
            case MYSQL -> {
                l.put("SELECT concat(note, '-', CAST(qty AS CHAR)) FROM orders WHERE id = 1", "packed-1");
                l.put("SELECT hex(repeat('a', 2))", "6161");
                l.put("SELECT if(qty > 1, 'y', 'n') FROM orders WHERE id = 2", "y");
                l.put("SELECT date_format('2024-01-15', '%Y-%m')", "2024-01");
                l.put("SELECT json_unquote(json_extract('{\"a\": \"b\"}', '$.a'))", "b");
                l.put("SELECT group_concat(note ORDER BY id SEPARATOR ',') FROM orders", "packed,shipped");
            }
            case SQLITE -> {
                l.put("SELECT hex(zeroblob(2))", "0000");
                l.put("SELECT printf('%s-%d', note, qty) FROM orders WHERE id = 1", "packed-1");
                l.put("SELECT value FROM json_each('[7]')", "7");
                l.put("SELECT strftime('%Y', '2024-01-15')", "2024");
                l.put("SELECT group_concat(note, ',') FROM (SELECT note FROM orders ORDER BY id)", "packed,shipped");
            }
        }
        return l;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("deployments")
    void R7_functionsOffTheAllowlistAreRefusedAndChangeNothing(Engine engine, Deployment deployment) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20), qty INT)",
                "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'shipped', 3)",
                "CREATE TABLE payroll (id INT PRIMARY KEY, salary INT)");
        long lo = 0;
        switch (engine) {
            case POSTGRES -> {
                db.execute("CREATE SEQUENCE fns_seq", "CREATE FUNCTION leak(o orders) RETURNS text LANGUAGE sql"
                        + " AS 'SELECT salary::text FROM payroll LIMIT 1'");
                lo = Long.parseLong(one(db.admin(), "SELECT lo_from_bytea(0, convert_to('original', 'UTF8'))"));
            }
            case MYSQL -> {
                if (db.isMariadb()) {
                    db.execute("CREATE SEQUENCE fns_seq");
                }
            }
            case SQLITE -> { }
        }
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "llmsafe-fns-" + UUID.randomUUID());
        Guarded g = deploy(db, deployment);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            List<String> before = state(db, c, lo, file);
            for (Map.Entry<String, Refusal> a : attacks(engine, db.isMariadb(), lo, file).entrySet()) {
                assertThatThrownBy(() -> s.executeQuery(a.getKey()).close()).as(a.getKey())
                        .isInstanceOfSatisfying(RefusedException.class, e -> assertThat(e.code())
                                .as(a.getKey() + ": " + e.getMessage()).isEqualTo(a.getValue()));
            }
            assertThat(state(db, c, lo, file)).isEqualTo(before);
            assertThat(before.get(0)).isEqualTo("file written: false");
            for (Map.Entry<String, String> l : legitimate(engine).entrySet()) {
                assertThat(one(c, l.getKey())).as(l.getKey()).isEqualTo(l.getValue());
            }
        } finally {
            if (engine == Engine.POSTGRES) {
                db.execute("SELECT lo_unlink(" + lo + ")");
            }
            Files.deleteIfExists(file);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("deployments")
    void R7_thePolicyAllowsAnApplicationsFunctionByName(Engine engine, Deployment deployment) throws Exception {
        if (engine == Engine.SQLITE) {
            return; // SQLite has no stored functions; its application functions are Java, registered per connection
        }
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20), qty INT)",
                "INSERT INTO orders VALUES (1, 'packed', 1)",
                engine == Engine.POSTGRES
                        ? "CREATE FUNCTION twice(a int, b int) RETURNS int LANGUAGE internal IMMUTABLE AS 'int4pl'"
                        : "CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC NO SQL RETURN x * 2");
        if (deployment == Deployment.LEAST_PRIVILEGE && engine == Engine.MYSQL) {
            return; // a MariaDB role needs EXECUTE granted for it; the refusal without the policy is the same
        }
        Policy without = POLICY;
        Policy with = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money."))
                .read(r -> r.allowFunctions("twice")));
        String sql = engine == Engine.POSTGRES ? "SELECT twice(qty, qty) FROM orders" : "SELECT twice(qty) FROM orders";
        try (Connection c = Guarded.of(db, without).connect(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery(sql)).isInstanceOfSatisfying(RefusedException.class, e -> {
                assertThat(e.code()).isEqualTo(Refusal.FORBIDDEN_FUNCTION);
                assertThat(e.getMessage()).contains("policy.read.allowFunctions").contains("\"twice\"");
            });
        }
        try (Connection c = Guarded.of(db, with).connect()) {
            assertThat(one(c, sql)).isEqualTo("2");
        }
    }
}
