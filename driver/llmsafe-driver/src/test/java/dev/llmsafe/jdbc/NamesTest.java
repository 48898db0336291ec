package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * R9 and R10 through the driver, on every dialect and both deployments: the application's credential
 * that can do everything, and a least-privilege read role of samples/roles (SELECT on the allowlisted
 * tables only). A table of attacks per class: each is a SQLException with its refusal code, nothing the
 * policy hides is in its message, and nothing changed; the legitimate forms of each class still read.
 */
class NamesTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> ADMIN = new EnumMap<>(Engine.class);
    private static final Map<Engine, Guarded> LEAST = new EnumMap<>(Engine.class);
    private static final String LONG_SECRET = "secret_" + "x".repeat(56);
    private static final Set<String> HIDDEN = Set.of("service-role-key", "h-ann", "h-bob", "h-same");

    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact("Changing an order moves money."))
            .table("members", t -> t.impact("Members sign in with these rows."))
            .table("longcol")
            .table("hidden_view")
            .secret("password_hash", "a stored credential")
            .secret(LONG_SECRET, "a credential with a long name"));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    enum Deployment { ALL_PRIVILEGES, LEAST_PRIVILEGE }

    static Stream<Arguments> deployments() {
        List<Arguments> out = new ArrayList<>();
        for (Engine e : Engine.values()) {
            out.add(Arguments.of(e, Deployment.ALL_PRIVILEGES));
            if (e != Engine.SQLITE) {
                out.add(Arguments.of(e, Deployment.LEAST_PRIVILEGE));
            }
        }
        return out.stream();
    }

    static Guarded guarded(Engine engine, Deployment deployment) throws SQLException {
        Guarded admin = ADMIN.get(engine);
        if (admin == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                    "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20), password_hash VARCHAR(40),"
                            + " UNIQUE (name, password_hash))",
                    "INSERT INTO members VALUES (1, 'ann', 'h-same'), (2, 'bob', 'h-same')",
                    "CREATE TABLE hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO hidden VALUES (1, 'service-role-key')",
                    "CREATE TABLE longcol (id INT PRIMARY KEY, " + LONG_SECRET + " VARCHAR(20))",
                    "INSERT INTO longcol VALUES (1, 'h-bob')",
                    "CREATE VIEW hidden_view AS SELECT id FROM hidden");
            admin = Guarded.of(db, POLICY);
            ADMIN.put(engine, admin);
        }
        if (deployment == Deployment.ALL_PRIVILEGES) {
            return admin;
        }
        Guarded least = LEAST.get(engine);
        if (least == null) {
            ScratchDatabase db = dbs.get(engine);
            // samples/roles: the read role has SELECT on the allowlisted tables (and USAGE on the schema).
            TestRole reader = engine == Engine.POSTGRES
                    ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON {db}.orders TO {role}",
                            "GRANT SELECT ON {db}.members TO {role}", "GRANT SELECT ON {db}.longcol TO {role}",
                            "GRANT SELECT ON {db}.hidden_view TO {role}")
                    : db.createRole("GRANT SELECT ON {db}.orders TO {role}", "GRANT SELECT ON {db}.members TO {role}",
                            "GRANT SELECT ON {db}.longcol TO {role}", "GRANT SELECT ON {db}.hidden_view TO {role}");
            least = Guarded.of(db, POLICY, b -> b.readConnection(ConnectionSettings.of(db.url(), reader.name(),
                    reader.password())).schema(engine == Engine.POSTGRES ? db.name() : "x"));
            LEAST.put(engine, least);
        }
        return least;
    }

    private static final Map<Engine, String> OTHER = new EnumMap<>(Engine.class);

    /**
     * A schema (PostgreSQL) or database (MariaDB) holding another table named hidden, or main (SQLite): a
     * name a statement can qualify a table with (the scratch one begins with llmsafe_, an ENGINE_TABLE).
     */
    private static synchronized String container(Engine engine) throws SQLException {
        if (engine == Engine.SQLITE) {
            return "main";
        }
        String other = OTHER.get(engine);
        if (other == null) {
            other = "names_" + Long.toHexString(System.nanoTime());
            dbs.get(engine).execute(engine == Engine.POSTGRES ? "CREATE SCHEMA " + other : "CREATE DATABASE " + other,
                    "CREATE TABLE " + other + ".hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO " + other + ".hidden VALUES (1, 'service-role-key')");
            OTHER.put(engine, other);
        }
        return other;
    }

    @AfterAll
    static void dropOthers() throws SQLException {
        for (Map.Entry<Engine, String> o : OTHER.entrySet()) {
            dbs.get(o.getKey()).execute(o.getKey() == Engine.POSTGRES ? "DROP SCHEMA " + o.getValue() + " CASCADE"
                    : "DROP DATABASE " + o.getValue());
        }
        OTHER.clear();
    }

    private static void refused(Guarded g, Set<Refusal> codes, String sql) throws SQLException {
        Map<String, List<String>> before = g.checksum();
        try (Connection c = g.connect()) {
            assertThatThrownBy(() -> ReadTest.rows(c, sql)).as(sql).isInstanceOf(RefusedException.class)
                    .satisfies(e -> {
                        assertThat(((RefusedException) e).code()).as(sql + ": " + e.getMessage()).isIn(codes);
                        for (String h : HIDDEN) {
                            assertThat(e.getMessage()).as(sql).doesNotContain(h);
                        }
                    });
        }
        assertThat(g.checksum()).isEqualTo(before);
    }

    private static void refused(Guarded g, Refusal code, String sql) throws SQLException {
        refused(g, Set.of(code), sql);
    }

    // ---- R9: relations by scope ----

    @ParameterizedTest
    @MethodSource("deployments")
    void R9_aCteNameHidesATableOnlyInsideItsScope(Engine engine, Deployment deployment) throws SQLException {
        Guarded g = guarded(engine, deployment);
        String q = container(engine) + ".hidden";
        List<String> attacks = new ArrayList<>(List.of(
                // A CTE of a CTE is visible inside it only; outside, the name is the real table.
                "WITH x AS (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden) SELECT token FROM hidden",
                // A CTE of a subquery is visible in that subquery only.
                "SELECT (SELECT count(*) FROM (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden) s),"
                        + " (SELECT token FROM hidden WHERE id = 1)",
                "SELECT id FROM orders WHERE EXISTS (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden)"
                        + " AND id IN (SELECT id FROM hidden)",
                // A CTE defined later in the same WITH is not in scope of an earlier one.
                "WITH a AS (SELECT token FROM hidden), hidden AS (SELECT 'x' AS token) SELECT token FROM a",
                // A qualified name is never a CTE.
                "WITH hidden AS (SELECT 1 AS id, 'x' AS token) SELECT token FROM " + q,
                "WITH hidden AS (SELECT 1 AS id) SELECT o.id FROM orders o JOIN " + q + " h ON h.id = o.id"));
        for (String sql : attacks) {
            refused(g, Refusal.TABLE_NOT_ALLOWED, sql);
        }
        try (Connection c = g.connect()) {
            // The legitimate forms: CTEs that shadow nothing, and CTEs that shadow a name inside their scope.
            assertThat(ReadTest.rows(c, "WITH o AS (SELECT id, status FROM orders) SELECT status FROM o WHERE id = 3"))
                    .containsExactly("shipped");
            assertThat(ReadTest.rows(c, "WITH orders AS (SELECT 1 AS id, 'cte' AS status) SELECT status FROM orders"))
                    .containsExactly("cte");
            assertThat(ReadTest.rows(c, "WITH hidden AS (SELECT id, status FROM orders) SELECT status FROM hidden"
                    + " WHERE id = 1")).containsExactly("packed");
            assertThat(ReadTest.rows(c, "WITH a AS (SELECT id FROM orders), b AS (SELECT id FROM a WHERE id > 1)"
                    + " SELECT count(*) FROM b")).containsExactly("2");
            assertThat(ReadTest.rows(c, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)"
                    + " SELECT count(*) FROM n")).containsExactly("3");
            assertThat(ReadTest.rows(c, "SELECT o.status FROM orders o JOIN members m ON m.id = o.id WHERE m.name = 'bob'"))
                    .containsExactly("packed");
            assertThat(ReadTest.rows(c, "SELECT 1")).containsExactly("1");
        }
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void R9_everyExpressionFormIsVisited(Engine engine, Deployment deployment) throws SQLException {
        Guarded g = guarded(engine, deployment);
        String sub = "(SELECT token FROM hidden WHERE id = 1)";
        List<String> attacks = new ArrayList<>(List.of(
                "SELECT CASE WHEN " + sub + " LIKE 's%' THEN 1 ELSE 0 END FROM orders",
                "SELECT count(*) OVER (PARTITION BY " + sub + ") FROM orders",
                "SELECT row_number() OVER (ORDER BY " + sub + ") FROM orders",
                "SELECT id FROM orders WHERE status IN (SELECT token FROM hidden)",
                "SELECT id FROM orders ORDER BY " + sub,
                "SELECT max(id) FROM orders GROUP BY status HAVING max(status) < " + sub,
                "SELECT * FROM (SELECT token FROM hidden) AS h",
                "SELECT o.id FROM orders o JOIN (SELECT id FROM hidden) h ON h.id = o.id",
                "SELECT coalesce(NULL, " + sub + ")",
                "SELECT id FROM orders UNION SELECT id FROM hidden"));
        switch (engine) {
            case POSTGRES -> attacks.addAll(List.of(
                    "SELECT SUBSTRING('abc' FROM (SELECT count(*) FROM hidden)::int FOR 1)",
                    "SELECT POSITION('s' IN " + sub + ")",
                    "SELECT OVERLAY('abc' PLACING " + sub + " FROM 1)",
                    "SELECT string_agg(status, ',' ORDER BY " + sub + ") FROM orders",
                    "SELECT json_object_agg(id, " + sub + ") FROM orders",
                    "SELECT ARRAY(SELECT token FROM hidden)",
                    "SELECT l.token FROM orders o, LATERAL (SELECT token FROM hidden h WHERE h.id = o.id) l",
                    "SELECT * FROM (VALUES (" + sub + ")) AS v(x)",
                    "SELECT (SELECT token FROM hidden)::text"));
            case MYSQL -> attacks.addAll(List.of(
                    "SELECT SUBSTRING('abc' FROM (SELECT count(*) FROM hidden) FOR 1)",
                    "SELECT POSITION('s' IN " + sub + ")",
                    "SELECT GROUP_CONCAT(status ORDER BY " + sub + ") FROM orders",
                    "SELECT JSON_OBJECTAGG(id, " + sub + ") FROM orders",
                    "SELECT JSON_ARRAYAGG(" + sub + ") FROM orders",
                    "SELECT CAST(" + sub + " AS CHAR)"));
            case SQLITE -> attacks.addAll(List.of(
                    "SELECT substr('abc', (SELECT count(*) FROM hidden), 1)",
                    "SELECT instr(" + sub + ", 's')",
                    "SELECT group_concat(status) FILTER (WHERE " + sub + " IS NOT NULL) FROM orders",
                    "SELECT json_group_object(id, " + sub + ") FROM orders",
                    "SELECT * FROM (VALUES (" + sub + "))",
                    "SELECT CAST(" + sub + " AS TEXT)"));
        }
        for (String sql : attacks) {
            refused(g, Refusal.TABLE_NOT_ALLOWED, sql);
        }
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void R9_systemRelationsAreRefused(Engine engine, Deployment deployment) throws SQLException {
        Guarded g = guarded(engine, deployment);
        List<String> attacks = switch (engine) {
            case POSTGRES -> List.of("SELECT table_name FROM information_schema.tables",
                    "SELECT table_name FROM \"information_schema\".\"tables\"",
                    "SELECT relname FROM pg_catalog.pg_class", "SELECT relname FROM pg_class");
            case MYSQL -> List.of("SELECT table_name FROM INFORMATION_SCHEMA.TABLES",
                    "SELECT table_name FROM `information_schema`.`tables`", "SELECT user FROM mysql.user",
                    "SELECT * FROM performance_schema.threads", "SELECT * FROM sys.version");
            case SQLITE -> List.of("SELECT * FROM dbstat", "SELECT name FROM pragma_database_list",
                    "SELECT name FROM pragma_table_list", "SELECT * FROM main.dbstat", "SELECT sql FROM sqlite_master",
                    "SELECT sql FROM \"SQLITE_SCHEMA\"");
        };
        for (String sql : attacks) {
            refused(g, Set.of(Refusal.SYSTEM_CATALOG, Refusal.TABLE_NOT_ALLOWED), sql);
        }
    }

    /**
     * R9, the second check: the relations the database's own plan reads, named by its catalog, whatever
     * the statement calls them (SQLite's EXPLAIN QUERY PLAN shows only aliases; its program's root pages
     * do not lie). An allowlisted view reads its tables, and is read.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R9_thePlanNamesEveryRelationItReads(Engine engine) throws SQLException {
        Guarded g = guarded(engine, Deployment.ALL_PRIVILEGES);
        String schema = engine == Engine.SQLITE ? "main" : dbs.get(engine).name();
        try (Connection c = g.connect()) {
            dev.llmsafe.dialect.Dialect dialect = ((GuardedConnection) c).engine().dialect();
            Connection session = ((GuardedConnection) c).readConnectionForTests();
            assertThat(dialect.planRelations(session, "SELECT o.id FROM orders o WHERE o.id IN (SELECT h.id FROM hidden h)"
                    + " AND EXISTS (SELECT 1 FROM members AS m WHERE m.id = o.id)", Guard.NO_PARAMETERS).orElseThrow())
                    .contains(new dev.llmsafe.dialect.TableRef(schema, "orders"),
                            new dev.llmsafe.dialect.TableRef(schema, "hidden"));
            assertThat(dialect.planRelations(session, "WITH x AS (SELECT token FROM hidden) SELECT * FROM x",
                    Guard.NO_PARAMETERS).orElseThrow()).containsExactly(new dev.llmsafe.dialect.TableRef(schema, "hidden"));
            assertThat(ReadTest.rows(c, "SELECT count(*) FROM hidden_view")).containsExactly("1");
        }
    }

    /**
     * R9, the second check on its own: the reading of the statement is bypassed, and the relations the
     * database's plan names are checked against the allowlist as the guard checks them. Every hiding place
     * of a table the first check must find (subqueries in every position, derived tables, CTEs, unions,
     * another schema or database) is refused by the plan alone, with the same code and message on every
     * dialect; the legitimate reads, an allowlisted view over a hidden table included, pass.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R9_aRelationOnlyThePlanNamesIsRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine, Deployment.ALL_PRIVILEGES);
        String schema = engine == Engine.SQLITE ? "main" : dbs.get(engine).name();
        String q = container(engine) + ".hidden";
        String sub = "(SELECT token FROM hidden WHERE id = 1)";
        List<String> attacks = List.of(
                "SELECT id FROM orders WHERE status IN (SELECT token FROM hidden)",
                "SELECT CASE WHEN " + sub + " LIKE 's%' THEN 1 ELSE 0 END FROM orders",
                "SELECT count(*) OVER (PARTITION BY " + sub + ") FROM orders",
                "SELECT id FROM orders ORDER BY " + sub,
                "SELECT coalesce(NULL, " + sub + ")",
                "SELECT id FROM orders WHERE id > (SELECT count(*) FROM hidden) + 0 AND status = " + sub,
                "SELECT * FROM (SELECT token FROM hidden) AS h",
                "SELECT o.id FROM orders o JOIN (SELECT id FROM hidden LIMIT 5) h ON h.id = o.id",
                "WITH x AS (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden) SELECT token FROM hidden",
                "WITH RECURSIVE n(i) AS (SELECT id FROM hidden UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT count(*) FROM n",
                "SELECT id FROM orders UNION SELECT id FROM hidden",
                "SELECT token FROM " + q);
        List<String> legitimate = List.of("SELECT 1", "SELECT status FROM orders WHERE id = 3",
                "SELECT o.status FROM orders o JOIN members m ON m.id = o.id WHERE m.name = 'bob'",
                "WITH hidden AS (SELECT id, status FROM orders) SELECT status FROM hidden WHERE id = 1",
                "SELECT id FROM orders WHERE qty > (SELECT min(qty) FROM orders)",
                "SELECT count(*) FROM hidden_view", "SELECT v.id FROM hidden_view v JOIN orders o ON o.id = v.id");
        try (Connection c = g.connect()) {
            GuardedConnection gc = (GuardedConnection) c;
            dev.llmsafe.dialect.Dialect dialect = gc.engine().dialect();
            Connection session = gc.readConnectionForTests();
            // hidden_view's table is read through it (the plan of SELECT * FROM hidden_view reads it), so the
            // attacks are checked under the policy without the view, where nothing reaches hidden.
            Allowlist allowlist = new Allowlist(dialect, Policy.define(p -> p.table("orders").table("members")), session);
            Allowlist withView = new Allowlist(dialect, POLICY, session);
            dev.llmsafe.sql.LexSettings lex = dialect.lexSettings(session);
            for (String sql : attacks) {
                dev.llmsafe.sql.Analysis a = gc.engine().analyzer().analyze(sql, lex);
                assertThatThrownBy(() -> allowlist.checkPlan(a, Set.of(),
                        dialect.planRelations(session, sql, Guard.NO_PARAMETERS).orElseThrow()))
                        .as(sql).isInstanceOf(RefusedException.class)
                        .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED))
                        .hasMessageStartingWith("Refused (TABLE_NOT_ALLOWED): the database's plan of this read reads ")
                        .hasMessageContaining(".hidden, which is not in the policy's allowlist")
                        .hasMessageNotContaining("service-role-key");
            }
            for (String sql : legitimate) {
                dev.llmsafe.sql.Analysis a = gc.engine().analyzer().analyze(sql, lex);
                withView.checkPlan(a, Set.of(), dialect.planRelations(session, sql, Guard.NO_PARAMETERS).orElseThrow());
                assertThat(ReadTest.rows(c, sql)).as(sql).isNotEmpty();
            }
            assertThat(dialect.planRelations(session, "SELECT count(*) FROM hidden_view", Guard.NO_PARAMETERS).orElseThrow())
                    .containsExactly(new dev.llmsafe.dialect.TableRef(schema, "hidden"));
        }
    }

    /**
     * R9: a cached resolution is keyed by what decides a name's meaning. The read session's search path
     * is changed under the guard (as a function could): the same text now names another schema's table.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "POSTGRES")
    void R9_cachedVerdictsFollowTheSearchPath(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        guarded(engine, Deployment.ALL_PRIVILEGES);
        Guarded g = Guarded.of(db, Policy.define(p -> p.table(db.name() + ".orders")));
        String other = db.name() + "_other";
        db.execute("CREATE SCHEMA " + other, "CREATE TABLE " + other + ".orders (id INT PRIMARY KEY, status TEXT)",
                "INSERT INTO " + other + ".orders VALUES (1, 'service-role-key')");
        try (Connection c = g.connect()) {
            assertThat(ReadTest.rows(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
            Connection session = ((GuardedConnection) c).readConnectionForTests();
            try (Statement s = session.createStatement()) {
                s.execute("SET search_path TO " + other + ", " + db.name());
            }
            assertThatThrownBy(() -> ReadTest.rows(c, "SELECT status FROM orders WHERE id = 1"))
                    .isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED))
                    .hasMessageNotContaining("service-role-key");
        } finally {
            db.execute("DROP SCHEMA " + other + " CASCADE");
        }
    }

    /**
     * R9: the name context is asked once per connection and kept while nothing can change it. Every way
     * the guarded connection offers to change it between two reads is refused, and the next read,
     * prepared before or not, resolves as the first did. A change made around the guard, on the vendor
     * connection (an application's setSchema or setCatalog on the connection it holds), is followed by
     * the very next read, a statement prepared before the change included: on MariaDB and MySQL through
     * the current database the R8 look reads with the read-only flag, on PostgreSQL 15 because a handed
     * out vendor connection makes the guard ask before every read.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R9_theNameContextIsKeptUntilItCanChangeAndFollowedWhenItDoes(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        guarded(engine, Deployment.ALL_PRIVILEGES);
        String home = engine == Engine.SQLITE ? "main" : db.name();
        Guarded g = Guarded.of(db, Policy.define(p -> p.table(home + ".orders")));
        String other = db.name() + "_ctx";
        if (engine != Engine.SQLITE) {
            db.execute(engine == Engine.POSTGRES ? "CREATE SCHEMA " + other : "CREATE DATABASE " + other,
                    "CREATE TABLE " + other + ".orders (id INT PRIMARY KEY, status VARCHAR(40))",
                    "INSERT INTO " + other + ".orders VALUES (1, 'service-role-key')");
        }
        String read = "SELECT status FROM orders WHERE id = 1";
        try (Connection c = g.connect(); PreparedStatement early = c.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
            early.setInt(1, 1);
            assertThat(ReadTest.rows(c, read)).containsExactly("packed");
            List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> changes = new ArrayList<>(List.of(
                    () -> c.setSchema(engine == Engine.SQLITE ? "temp" : other),
                    () -> c.setCatalog(engine == Engine.SQLITE ? "temp" : other)));
            List<String> statements = switch (engine) {
                case POSTGRES -> List.of("SET search_path TO " + other, "SELECT set_config('search_path', '" + other
                        + "', false)", "RESET search_path", "DISCARD ALL", "SET SESSION AUTHORIZATION DEFAULT");
                case MYSQL -> List.of("USE " + other, "USE `" + other + "`", "SELECT 1; USE " + other);
                case SQLITE -> List.of("ATTACH DATABASE ':memory:' AS x", "SELECT 1; ATTACH ':memory:' AS y",
                        "DETACH DATABASE main");
            };
            for (String sql : statements) {
                changes.add(() -> ReadTest.rows(c, sql));
            }
            for (var change : changes) {
                assertThatThrownBy(change).isInstanceOf(RefusedException.class)
                        .hasMessageNotContaining("service-role-key");
                assertThat(ReadTest.rows(c, read)).containsExactly("packed");
                assertThat(first(early)).isEqualTo("packed");
            }
            if (engine == Engine.SQLITE) {
                return;
            }
            // Around the guard: the application's own call on the vendor connection.
            Connection vendor = ((GuardedConnection) c).readConnectionForTests();
            if (engine == Engine.POSTGRES) {
                vendor.setSchema(other);
            } else {
                vendor.setCatalog(other);
            }
            for (var next : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(() -> first(early),
                    () -> ReadTest.rows(c, read))) {
                assertThatThrownBy(next).isInstanceOfSatisfying(RefusedException.class,
                        e -> assertThat(e.code()).isIn(Refusal.TABLE_NOT_ALLOWED, Refusal.NOT_GRANTED))
                        .hasMessageNotContaining("service-role-key");
            }
            if (engine == Engine.POSTGRES) {
                vendor.setSchema(home);
            } else {
                vendor.setCatalog(home);
            }
            assertThat(first(early)).isEqualTo("packed");
            assertThat(ReadTest.rows(c, read)).containsExactly("packed");
        } finally {
            if (engine != Engine.SQLITE) {
                db.execute(engine == Engine.POSTGRES ? "DROP SCHEMA " + other + " CASCADE" : "DROP DATABASE " + other);
            }
        }
    }

    private static String first(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    // ---- R10: secrets under other names ----

    @ParameterizedTest
    @MethodSource("deployments")
    void R10_aSecretIsRefusedByNameAliasPositionAndStar(Engine engine, Deployment deployment) throws SQLException {
        Guarded g = guarded(engine, deployment);
        List<String> attacks = new ArrayList<>(List.of(
                "WITH x(a, b, c) AS (SELECT * FROM members) SELECT c FROM x",
                "SELECT id, status, status FROM orders UNION SELECT * FROM members",
                "SELECT id FROM orders UNION ALL SELECT m.* FROM members m",
                "SELECT count(*) FROM orders WHERE (1, 'ann', 'h-same') IN (SELECT * FROM members)",
                "SELECT id FROM (SELECT * FROM members) s ORDER BY 1",
                "SELECT count(*) FROM members NATURAL JOIN members m2",
                "SELECT id FROM members WHERE password_hash LIKE 'h%'",
                "SELECT id FROM members ORDER BY password_hash",
                "SELECT count(*) FROM members GROUP BY password_hash",
                "SELECT max(id) FROM members HAVING max(password_hash) > 'a'",
                "SELECT row_number() OVER (ORDER BY password_hash) FROM members",
                "SELECT m.id FROM members m JOIN members m2 ON m2.password_hash = m.password_hash",
                "SELECT (SELECT max(password_hash) FROM members) AS p",
                "SELECT * FROM members",
                "SELECT m.* FROM orders o JOIN members m ON m.id = o.id"));
        switch (engine) {
            case POSTGRES -> attacks.addAll(List.of(
                    "SELECT c FROM members AS m(a, b, c)",
                    "SELECT c FROM (SELECT * FROM members) AS m(a, b, c)",
                    "SELECT l.x FROM members m, LATERAL (SELECT m.*) AS l(a, b, x)",
                    "SELECT count(*) FROM members AS m(a, b, c) WHERE c LIKE 'h%'",
                    // PostgreSQL truncates identifiers to 63 bytes: a longer spelling is the same column.
                    "SELECT " + LONG_SECRET + "_and_more FROM longcol",
                    "SELECT \"" + LONG_SECRET + "yy\" FROM longcol"));
            case MYSQL -> attacks.addAll(List.of("SELECT * FROM longcol"));
            case SQLITE -> attacks.addAll(List.of("SELECT * FROM longcol", "SELECT count(*) FROM members m"
                    + " WHERE EXISTS (SELECT * FROM (SELECT * FROM members) s)"));
        }
        for (String sql : attacks) {
            refused(g, Set.of(Refusal.DENIED_IDENTIFIER), sql);
        }
        try (Connection c = g.connect()) {
            // The legitimate forms: other columns of a table with a secret, stars over tables without one.
            assertThat(ReadTest.rows(c, "SELECT name FROM members WHERE id = 1")).containsExactly("ann");
            assertThat(ReadTest.rows(c, "SELECT * FROM orders WHERE id = 3")).containsExactly("3");
            assertThat(ReadTest.rows(c, "SELECT o.* FROM orders o JOIN members m ON m.id = o.id WHERE m.id = 2"))
                    .containsExactly("2");
            assertThat(ReadTest.rows(c, "SELECT * FROM (SELECT id, name FROM members) s WHERE id = 2"))
                    .containsExactly("2");
            assertThat(ReadTest.rows(c, "SELECT id FROM orders o WHERE EXISTS (SELECT * FROM members m WHERE m.id = o.id)"
                    + " ORDER BY id")).containsExactly("1", "2");
            assertThat(ReadTest.rows(c, "SELECT name FROM members ORDER BY 1")).containsExactly("ann", "bob");
            assertThat(ReadTest.rows(c, "SELECT count(*) FROM members")).containsExactly("2");
            assertThat(ReadTest.rows(c, "SELECT id FROM longcol")).containsExactly("1");
        }
    }

    /** R10: a write may not name a secret (its WHERE is an oracle through the plan or NO_ROWS), nor read one by star. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R10_aWriteReferencingASecretIsRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine, Deployment.ALL_PRIVILEGES);
        String[][] cases = {
                {"UPDATE orders SET status = 'x' WHERE id IN (SELECT id FROM members WHERE password_hash LIKE 'h%')",
                        "DENIED_IDENTIFIER"},
                {"UPDATE orders SET status = (SELECT max(password_hash) FROM members) WHERE id = 1", "DENIED_IDENTIFIER"},
                {"UPDATE members SET name = 'x' WHERE password_hash = 'h-same'", "DENIED_IDENTIFIER"},
                {"DELETE FROM orders WHERE id IN (SELECT id FROM (SELECT * FROM members) s)", "DENIED_IDENTIFIER"},
                {"DELETE FROM orders WHERE id IN (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden)"
                        + " AND id IN (SELECT id FROM hidden)", "TABLE_NOT_ALLOWED"},
                {"UPDATE orders SET status = 'x' WHERE EXISTS (SELECT 1 FROM (WITH hidden AS (SELECT 2 AS id)"
                        + " SELECT id FROM hidden) s) AND id = (SELECT max(id) FROM hidden)", "TABLE_NOT_ALLOWED"},
        };
        for (String[] c : cases) {
            try (Connection conn = g.connect(); Statement s = conn.createStatement()) {
                Map<String, List<String>> before = g.checksum();
                assertThatThrownBy(() -> s.executeUpdate(c[0])).as(c[0]).isInstanceOf(RefusedException.class)
                        .satisfies(e -> assertThat(((RefusedException) e).code().name()).as(e.getMessage()).isEqualTo(c[1]));
                assertThat(g.checksum()).isEqualTo(before);
            }
        }
    }

    /**
     * R10: a database error that can carry a value (a failed conversion, a unique key's DETAIL) reaches the
     * caller as its SQLState and vendor code only.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R10_valueCarryingErrorsAreWithheld(Engine engine) throws SQLException {
        Guarded g = guarded(engine, Deployment.ALL_PRIVILEGES);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            // The dry run collides with the unique key (name, password_hash): PostgreSQL's DETAIL and MariaDB's
            // "Duplicate entry" print the secret.
            Map<String, List<String>> before = g.checksum();
            assertThatThrownBy(() -> s.executeUpdate("UPDATE members SET name = 'bob' WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageNotContaining("h-same");
            assertThat(g.checksum()).isEqualTo(before);
            if (engine == Engine.POSTGRES) {
                assertThatThrownBy(() -> ReadTest.rows(c, "SELECT CAST(status AS int) FROM orders WHERE id = 1"))
                        .isInstanceOf(SQLException.class).hasMessageNotContaining("packed")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22P02"));
            }
            if (engine == Engine.SQLITE) {
                assertThatThrownBy(() -> ReadTest.rows(c, "SELECT json_extract('{}', status) FROM orders WHERE id = 1"))
                        .isInstanceOf(SQLException.class).hasMessageNotContaining("packed");
            }
            // Errors about the statement's own text still say what is wrong.
            assertThatThrownBy(() -> ReadTest.rows(c, "SELECT nosuchcolumn FROM orders"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("nosuchcolumn");
        }
    }
}
