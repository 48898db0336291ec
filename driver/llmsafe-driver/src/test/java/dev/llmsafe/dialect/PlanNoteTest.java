package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * R9 on MariaDB and MySQL, the server's own answer: the relations MariaDB's EXPLAIN rows and Note 1003,
 * and MySQL's optimizer trace ({@link MysqlPlan}), name for every form of read (measured on MariaDB 10.11.19,
 * MySQL 8.0.31 and 9.7.4: each form's answer per family), and the refusal of a plan that cannot be read
 * with certainty. The legitimate forms give their relations;
 * nothing that reads a table leaves it out.
 */
class PlanNoteTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Dialect.Binder NONE = ps -> { };
    /** What a form's plan gives on a family: its relations (space-separated, "" for none), or this refusal. */
    private static final String REFUSED = "REFUSED";
    private static String other;

    private static ScratchDatabase db() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        if (other == null) {
            other = "plan_" + Long.toHexString(System.nanoTime());
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20), qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                    "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20))",
                    "INSERT INTO members VALUES (1, 'ann'), (2, 'bob')",
                    "CREATE TABLE hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO hidden VALUES (1, 'service-role-key')",
                    "CREATE TABLE bin (id INT PRIMARY KEY, b VARBINARY(8))", "INSERT INTO bin VALUES (1, 0x00ff80275c)",
                    "CREATE ALGORITHM=MERGE VIEW v_merge AS SELECT id, token FROM hidden",
                    "CREATE ALGORITHM=TEMPTABLE VIEW v_temp AS SELECT id, token FROM hidden",
                    "CREATE VIEW v_agg AS SELECT count(*) AS n FROM hidden",
                    "CREATE ALGORITHM=TEMPTABLE VIEW v_sub AS SELECT id FROM orders WHERE id IN (SELECT id FROM hidden)",
                    "CREATE VIEW v_nested AS SELECT id FROM v_temp",
                    "CREATE DATABASE " + other,
                    "CREATE TABLE " + other + ".hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO " + other + ".hidden VALUES (1, 'other-key')");
        }
        return db;
    }

    @AfterAll
    static void drop() throws SQLException {
        if (other != null) {
            dbs.get(Engine.MYSQL).execute("DROP DATABASE " + other);
            other = null;
        }
    }

    private static Set<String> relations(Connection c, Dialect dialect, String sql) throws SQLException {
        return dialect.planRelations(c, sql, NONE).orElseThrow().stream()
                .map(t -> t.schema().equals(other) ? "other." + t.name() : t.name()).collect(Collectors.toSet());
    }

    private static void assertUnreadable(Connection c, Dialect dialect, String sql) {
        assertThatThrownBy(() -> dialect.planRelations(c, sql, NONE)).as(sql).isInstanceOf(RefusedException.class)
                .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED))
                .hasMessageContaining("cannot be read with certainty").hasMessageNotContaining("service-role-key");
    }

    /** The relations of each form, or its refusal, on the family the URL's server is. */
    private static void assertForms(ScratchDatabase db, Map<String, String[]> cases) throws SQLException {
        List<String> wrong = new ArrayList<>();
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            int family = db.isMariadb() ? 0 : 1;
            for (Map.Entry<String, String[]> e : cases.entrySet()) {
                String expected = e.getValue()[family];
                String got;
                if (expected.equals(REFUSED)) {
                    try {
                        got = String.join(" ", new TreeSet<>(relations(c, dialect, e.getKey())));
                    } catch (RefusedException refused) {
                        assertUnreadable(c, dialect, e.getKey());
                        continue;
                    }
                    wrong.add(e.getKey() + "\n    expected: " + REFUSED + "\n    got:      " + got);
                    continue;
                }
                try {
                    got = String.join(" ", new TreeSet<>(relations(c, dialect, e.getKey())));
                } catch (RefusedException refused) {
                    got = REFUSED + " (" + refused.getMessage() + ")";
                }
                String want = String.join(" ", new TreeSet<>(expected.isEmpty() ? Set.of() : Set.of(expected.split(" "))));
                if (!got.equals(want)) {
                    wrong.add(e.getKey() + "\n    expected: " + want + "\n    got:      " + got);
                }
            }
        }
        assertThat(wrong).as("the forms whose plan gives other relations").isEmpty();
    }

    private static void form(Map<String, String[]> cases, String sql, String mariadb, String mysql) {
        cases.put(sql, new String[] {mariadb, mysql});
    }

    private static void form(Map<String, String[]> cases, String sql, String both) {
        form(cases, sql, both, both);
    }

    @Test
    void R9_thePlanNamesEveryTableARowReads() throws SQLException {
        ScratchDatabase db = db();
        Map<String, String[]> cases = new LinkedHashMap<>();
        form(cases, "SELECT 1", "");
        form(cases, "SELECT id FROM orders", "orders");
        form(cases, "SELECT o.id FROM orders o", "orders");
        form(cases, "SELECT o.id FROM orders AS `a``b` JOIN orders o", "orders");
        form(cases, "SELECT o.id FROM orders o JOIN members m ON m.id = o.id", "orders members");
        form(cases, "SELECT o.id FROM orders o LEFT JOIN members m ON m.name = o.status", "orders members");
        form(cases, "SELECT o.id FROM orders o, members m WHERE m.id = o.qty", "orders members");
        form(cases, "SELECT id FROM orders WHERE id IN (SELECT id FROM hidden)", "orders hidden");
        // A semi-join materialized: its rows are another select, its tables printed in select #1's "semi join (...)".
        form(cases, "SELECT id FROM orders WHERE status IN (SELECT token FROM hidden)", "orders hidden");
        form(cases, "SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM hidden h WHERE h.id = o.id)", "orders hidden");
        form(cases, "SELECT (SELECT token FROM hidden WHERE id = 1)", "hidden");
        form(cases, "SELECT o.id, (SELECT max(h.token) FROM hidden h WHERE h.id = o.id) FROM orders o", "orders hidden");
        // MariaDB without expensive_subquery_limit = 0 prints the second subquery as its value, hidden not at all.
        form(cases, "SELECT id FROM orders WHERE id > (SELECT count(*) FROM hidden) + 0"
                + " AND status = (SELECT max(token) FROM hidden)", "orders hidden");
        form(cases, "SELECT * FROM (SELECT token FROM hidden) AS h", "hidden");
        // MySQL reads a derived table of one row while it plans and prints its values "from dual" in the note; its
        // trace's preparation, read before that, still names the table ...
        form(cases, "SELECT * FROM (SELECT token FROM hidden LIMIT 1) AS h", "hidden");
        form(cases, "SELECT * FROM (SELECT token FROM hidden LIMIT 2) AS h", "hidden");
        form(cases, "SELECT d.c FROM (SELECT h.token, count(*) c FROM hidden h GROUP BY h.token) AS d WHERE d.c > 0",
                "hidden");
        form(cases, "WITH x AS (SELECT token FROM hidden) SELECT * FROM x", "hidden");
        // ... but a CTE's select stays printed in the WITH.
        form(cases, "WITH x AS (SELECT token FROM hidden LIMIT 1) SELECT * FROM x", "hidden");
        form(cases, "WITH x AS (SELECT id FROM orders) SELECT a.id FROM x a JOIN x b ON a.id = b.id", "orders");
        form(cases, "WITH x AS (SELECT token FROM hidden LIMIT 2) SELECT a.token FROM x a JOIN x b ON a.token = b.token",
                "hidden");
        form(cases, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT count(*) FROM n",
                "");
        form(cases, "WITH RECURSIVE n(i) AS (SELECT id FROM hidden UNION ALL SELECT i + 1 FROM n WHERE i < 3)"
                + " SELECT count(*) FROM n", "hidden");
        form(cases, "WITH a AS (SELECT id FROM orders), b AS (SELECT id FROM members) SELECT * FROM a JOIN b USING (id)",
                "orders members");
        // A view the server merges is its tables; one it materializes is itself (its body is not printed), also
        // when MySQL reads it while planning (one row: an aggregate), which its note prints as its values.
        form(cases, "SELECT * FROM v_merge", "hidden");
        form(cases, "SELECT * FROM v_temp", "v_temp");
        form(cases, "SELECT * FROM v_agg", "v_agg");
        form(cases, "SELECT * FROM v_nested", "v_temp");
        form(cases, "SELECT * FROM v_sub", "v_sub");
        form(cases, "SELECT o.id FROM orders o WHERE o.id IN (SELECT id FROM v_temp)", "orders v_temp");
        form(cases, "SELECT id FROM orders WHERE status IN (SELECT token FROM v_temp)", "orders v_temp");
        form(cases, "SELECT v.id, (SELECT max(id) FROM orders) FROM v_temp v", "v_temp orders");
        form(cases, "SELECT * FROM v_temp t1 JOIN v_agg a", "v_temp v_agg");
        form(cases, "SELECT * FROM v_temp, (SELECT token FROM hidden LIMIT 1) h", "v_temp hidden");
        form(cases, "SELECT id FROM orders UNION SELECT id FROM hidden", "orders hidden");
        form(cases, "SELECT id FROM orders INTERSECT SELECT id FROM hidden", "orders hidden");
        form(cases, "SELECT id FROM orders EXCEPT SELECT id FROM hidden", "orders hidden");
        form(cases, "(SELECT id FROM orders LIMIT 1) UNION (SELECT id FROM hidden LIMIT 1)", "orders hidden");
        form(cases, "SELECT id FROM orders UNION ALL SELECT id FROM " + other + ".hidden", "orders other.hidden");
        form(cases, "SELECT h.token FROM " + other + ".hidden h", "other.hidden");
        // information_schema is its own on MariaDB, the data dictionary's tables in `mysql` on MySQL.
        form(cases, "SELECT table_name FROM information_schema.tables", "tables",
                "tables schemata catalogs collations tablespaces table_stats");
        form(cases, "SELECT user FROM mysql.user", "global_priv", "user");
        // Table elimination (MariaDB): a LEFT JOIN on a unique key that nothing uses is not read (nor printed).
        form(cases, "SELECT o.id FROM orders o LEFT JOIN hidden h ON h.id = o.id", "orders", "orders hidden");
        // An impossible WHERE: MySQL's note prints the select without its subquery; its trace's preparation names both.
        form(cases, "SELECT o.id FROM orders o WHERE 1 = 0 AND o.id IN (SELECT id FROM hidden)", "orders hidden");
        form(cases, "SELECT id FROM orders WHERE id = 1", "orders");
        form(cases, "SELECT id FROM orders WHERE id = 7", "orders");
        // A const table's values are printed in place of its columns: MySQL's note prints them raw (quotes, NUL),
        // its trace's preparation before they are read.
        form(cases, "SELECT b FROM bin WHERE id = 1", "bin");
        form(cases, "SELECT b FROM bin WHERE id > 0", "bin");
        // A select that ended after reading its const tables: on MySQL no row names them, the trace does.
        form(cases, "SELECT o.id FROM orders o JOIN members m ON m.id = 1 WHERE o.id = 7", "orders members");
        form(cases, "SELECT max(id) FROM hidden", "hidden");
        form(cases, "SELECT id FROM orders WHERE id > (SELECT max(id) FROM hidden)", "orders hidden");
        // Both evaluate a subquery whose MIN or MAX an index gives while they plan, for a lookup by its value, which
        // their notes print in its place (MariaDB too, expensive_subquery_limit or not: refused); MySQL any constant
        // for a lookup, after its trace's preparation named the subquery's table.
        form(cases, "SELECT id FROM orders WHERE id = (SELECT max(id) FROM hidden)", REFUSED, "orders hidden");
        form(cases, "SELECT id FROM orders WHERE id = (SELECT max(id) FROM orders)", REFUSED, "orders");
        form(cases, "SELECT o.id FROM orders o WHERE o.id = 1 AND o.status = (SELECT token FROM hidden LIMIT 1)",
                "orders hidden");
        form(cases, "SELECT * FROM orders o, (SELECT token FROM hidden LIMIT 1) h WHERE o.id = 7", "orders hidden");
        form(cases, "SELECT o.id FROM orders o JOIN (SELECT token FROM hidden LIMIT 1) h WHERE h.token = 'x'",
                "orders hidden");
        form(cases, "SELECT id FROM orders GROUP BY id WITH ROLLUP", "orders");
        form(cases, "SELECT count(*) OVER (PARTITION BY (SELECT token FROM hidden WHERE id = 1)) FROM orders",
                "orders hidden");
        form(cases, "SELECT 'a`b', 'it''s \\\\ \\' ok', X'60272E60', 0x41, DATE '2024-01-02' FROM orders", "orders");
        form(cases, "SELECT jt.a FROM JSON_TABLE('[1,2]', '$[*]' COLUMNS (a INT PATH '$')) AS jt", "");
        assertForms(db, cases);
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            assertThat(dialect.isSystemRelation(new TableRef("mysql", "global_priv"))).isTrue();
            assertThat(dialect.isSystemRelation(new TableRef("mysql", "tables"))).isTrue();
            assertThat(dialect.isSystemRelation(new TableRef("information_schema", "tables"))).isTrue();
            assertThat(dialect.isSystemRelation(new TableRef(db.name(), "orders"))).isFalse();
        }
    }

    /**
     * What the server prints raw: a literal with a character set introducer (its bytes, quotes included)
     * and, on MariaDB, a CTE's name (MySQL quotes it). Either could hide a table from a reading of the note,
     * so such a read is refused (a false refusal at worst), and no value of the statement or of a row is in
     * the message.
     */
    @Test
    void R9_aNoteThatCannotBeReadWithCertaintyIsRefused() throws SQLException {
        Map<String, String[]> cases = new LinkedHashMap<>();
        form(cases, "SELECT _binary X'27', token FROM hidden", REFUSED);
        form(cases, "SELECT _latin1'x', id FROM orders", REFUSED);
        form(cases, "SELECT _binary'abc' AS x, id FROM orders", REFUSED);
        form(cases, "WITH `a b` AS (SELECT token FROM hidden LIMIT 2) SELECT * FROM `a b`", REFUSED, "hidden");
        form(cases, "WITH `x'y` AS (SELECT token FROM hidden LIMIT 2) SELECT * FROM `x'y`", REFUSED, "hidden");
        form(cases, "WITH `a``b` AS (SELECT token FROM hidden LIMIT 2) SELECT * FROM `a``b`", REFUSED, "hidden");
        form(cases, "WITH x AS (SELECT 1 AS i), `y z` AS (SELECT token FROM hidden LIMIT 2) SELECT * FROM x, `y z`",
                REFUSED, "hidden");
        assertForms(db(), cases);
    }

    /** Under ANSI_QUOTES the server quotes names in double quotes (measured): read the same. */
    @Test
    void R9_theNoteIsReadUnderAnsiQuotes() throws SQLException {
        ScratchDatabase db = db();
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')");
            }
            assertThat(relations(c, dialect, "SELECT o.id, \"o\".status FROM orders o JOIN \"members\" m ON m.id = o.id"))
                    .containsExactlyInAnyOrder("orders", "members");
            assertThat(relations(c, dialect, "SELECT * FROM (SELECT token FROM hidden LIMIT 2) AS \"a\"\"b\""))
                    .containsExactly("hidden");
            String cte = "WITH \"x'y\" AS (SELECT token FROM hidden LIMIT 2) SELECT * FROM \"x'y\"";
            if (db.isMariadb()) {
                assertUnreadable(c, dialect, cte); // the name printed raw
            } else {
                assertThat(relations(c, dialect, cte)).containsExactly("hidden"); // the name printed quoted
            }
        }
    }

    /** The reading of MariaDB's note alone, on notes as the server prints them (10.11.19) and forged ones. */
    @Test
    void R9_theNoteIsReadByItsSyntaxOrNotAtAll() throws PlanNote.Unreadable {
        List<PlanNote.Row> none = List.of();
        assertThat(MariadbPlan.relations("x", List.of(new PlanNote.Row(1, "o")),
                "select `d`.`o`.`id` AS `id` from `d`.`orders` `o`")).containsExactly(new TableRef("d", "orders"));
        // a nested join's first table follows a parenthesis
        assertThat(MariadbPlan.relations("x", none, "select `d`.`o`.`id` AS `id` from (`d`.`hidden`) join `d`.`orders` `o`"
                + " where 0")).containsExactlyInAnyOrder(new TableRef("d", "hidden"), new TableRef("d", "orders"));
        // a derived table's column is not a relation; a two-part name elsewhere (a sequence) is
        assertThat(MariadbPlan.relations("x", none, "select `h`.`token` AS `token` from (/* select#2 */ select"
                + " `d`.`hidden`.`token` AS `token` from `d`.`hidden` limit 1) `h`")).containsExactly(new TableRef("d", "hidden"));
        assertThat(MariadbPlan.relations("x", none, "select nextval(`d`.`seq`) AS `n`")).containsExactly(new TableRef("d", "seq"));
        // a row the note does not name
        assertThatThrownBy(() -> MariadbPlan.relations("x", List.of(new PlanNote.Row(3, "hidden")),
                "/* select#1 */ select `d`.`orders`.`id` AS `id` from `d`.`orders` where `d`.`orders`.`status` = 'v'"))
                .isInstanceOf(PlanNote.Unreadable.class);
        assertThatThrownBy(() -> MariadbPlan.relations("x", List.of(new PlanNote.Row(1, "h")),
                "select `d`.`orders`.`id` AS `id` from `d`.`orders`")).isInstanceOf(PlanNote.Unreadable.class);
        for (String forged : List.of("select 'abc", "select `abc",
                "select 1 /* other */", "select é", "select 1)", "select (1", "with a`b as (select 1) select 1",
                "select _utf8mb4'x'", "select N'x'")) {
            assertThat(NoteLexer.unreadable(forged, PlanNote.Printing.RAW_CTE_NAMES).isPresent()
                    || throwsUnreadable(forged)).as(forged).isTrue();
        }
    }

    private static boolean throwsUnreadable(String note) {
        try {
            MariadbPlan.relations("x", List.of(), note);
            return false;
        } catch (PlanNote.Unreadable e) {
            return true;
        }
    }
}
