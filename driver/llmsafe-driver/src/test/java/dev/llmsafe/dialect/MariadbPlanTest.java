package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * R9 on MariaDB, the server's own answer: the relations EXPLAIN EXTENDED's rows and Note 1003 name for
 * every form of read (measured on the local MariaDB 10.11), and the refusal of a note that cannot be read
 * with certainty. The legitimate forms give their relations; nothing that reads a table leaves it out.
 */
class MariadbPlanTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Dialect.Binder NONE = ps -> { };
    private static String other;

    private static ScratchDatabase db() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        assumeTrue(db.isMariadb(), "MariaDB only: MySQL's plan check is not built (not measured)");
        if (other == null) {
            other = "plan_" + Long.toHexString(System.nanoTime());
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20), qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                    "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20))",
                    "INSERT INTO members VALUES (1, 'ann'), (2, 'bob')",
                    "CREATE TABLE hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                    "INSERT INTO hidden VALUES (1, 'service-role-key')",
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

    @Test
    void R9_theMariadbPlanNamesEveryTableARowReads() throws SQLException {
        ScratchDatabase db = db();
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("SELECT 1", "");
        cases.put("SELECT id FROM orders", "orders");
        cases.put("SELECT o.id FROM orders o", "orders");
        cases.put("SELECT o.id FROM orders AS `a``b` JOIN orders o", "orders");
        cases.put("SELECT o.id FROM orders o JOIN members m ON m.id = o.id", "orders members");
        cases.put("SELECT o.id FROM orders o LEFT JOIN members m ON m.name = o.status", "orders members");
        cases.put("SELECT o.id FROM orders o, members m WHERE m.id = o.qty", "orders members");
        cases.put("SELECT id FROM orders WHERE id IN (SELECT id FROM hidden)", "orders hidden");
        // A semi-join materialized: its rows are select #3, its tables printed in select #1's "semi join (...)".
        cases.put("SELECT id FROM orders WHERE status IN (SELECT token FROM hidden)", "orders hidden");
        cases.put("SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM hidden h WHERE h.id = o.id)", "orders hidden");
        cases.put("SELECT (SELECT token FROM hidden WHERE id = 1)", "hidden");
        cases.put("SELECT o.id, (SELECT max(h.token) FROM hidden h WHERE h.id = o.id) FROM orders o", "orders hidden");
        // Without expensive_subquery_limit = 0 the second subquery is printed as its value, and hidden not at all.
        cases.put("SELECT id FROM orders WHERE id > (SELECT count(*) FROM hidden) + 0"
                + " AND status = (SELECT max(token) FROM hidden)", "orders hidden");
        cases.put("SELECT * FROM (SELECT token FROM hidden) AS h", "hidden");
        cases.put("SELECT * FROM (SELECT token FROM hidden LIMIT 1) AS h", "hidden");
        cases.put("SELECT d.c FROM (SELECT h.token, count(*) c FROM hidden h GROUP BY h.token) AS d WHERE d.c > 0",
                "hidden");
        cases.put("WITH x AS (SELECT token FROM hidden) SELECT * FROM x", "hidden");
        cases.put("WITH x AS (SELECT id FROM orders) SELECT a.id FROM x a JOIN x b ON a.id = b.id", "orders");
        cases.put("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT count(*) FROM n",
                "");
        cases.put("WITH RECURSIVE n(i) AS (SELECT id FROM hidden UNION ALL SELECT i + 1 FROM n WHERE i < 3)"
                + " SELECT count(*) FROM n", "hidden");
        cases.put("WITH a AS (SELECT id FROM orders), b AS (SELECT id FROM members) SELECT * FROM a JOIN b USING (id)",
                "orders members");
        // A view the server merges is its tables; one it materializes is itself (its body is not printed).
        cases.put("SELECT * FROM v_merge", "hidden");
        cases.put("SELECT * FROM v_temp", "v_temp");
        cases.put("SELECT * FROM v_agg", "v_agg");
        cases.put("SELECT * FROM v_nested", "v_temp");
        cases.put("SELECT * FROM v_sub", "v_sub");
        cases.put("SELECT o.id FROM orders o WHERE o.id IN (SELECT id FROM v_temp)", "orders v_temp");
        cases.put("SELECT id FROM orders UNION SELECT id FROM hidden", "orders hidden");
        cases.put("SELECT id FROM orders INTERSECT SELECT id FROM hidden", "orders hidden");
        cases.put("(SELECT id FROM orders LIMIT 1) UNION (SELECT id FROM hidden LIMIT 1)", "orders hidden");
        cases.put("SELECT id FROM orders UNION ALL SELECT id FROM " + other + ".hidden", "orders other.hidden");
        cases.put("SELECT h.token FROM " + other + ".hidden h", "other.hidden");
        cases.put("SELECT table_name FROM information_schema.tables", "tables");
        cases.put("SELECT user FROM mysql.user", "global_priv");
        // Table elimination: a LEFT JOIN on a unique key that nothing uses is not read (nor printed).
        cases.put("SELECT o.id FROM orders o LEFT JOIN hidden h ON h.id = o.id", "orders");
        cases.put("SELECT o.id FROM orders o WHERE 1 = 0 AND o.id IN (SELECT id FROM hidden)", "orders hidden");
        cases.put("SELECT id FROM orders WHERE id = 1", "orders");
        cases.put("SELECT id FROM orders GROUP BY id WITH ROLLUP", "orders");
        cases.put("SELECT count(*) OVER (PARTITION BY (SELECT token FROM hidden WHERE id = 1)) FROM orders",
                "orders hidden");
        cases.put("SELECT 'a`b', 'it''s \\\\ \\' ok', X'60272E60', 0x41, DATE '2024-01-02' FROM orders", "orders");
        cases.put("SELECT jt.a FROM JSON_TABLE('[1,2]', '$[*]' COLUMNS (a INT PATH '$')) AS jt", "");
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            for (Map.Entry<String, String> e : cases.entrySet()) {
                Set<String> expected = e.getValue().isEmpty() ? Set.of() : Set.of(e.getValue().split(" "));
                assertThat(relations(c, dialect, e.getKey())).as(e.getKey()).containsExactlyInAnyOrderElementsOf(expected);
            }
            assertThat(dialect.isSystemRelation(new TableRef("mysql", "global_priv"))).isTrue();
            assertThat(dialect.isSystemRelation(new TableRef("information_schema", "tables"))).isTrue();
            assertThat(dialect.isSystemRelation(new TableRef(db.name(), "orders"))).isFalse();
        }
    }

    /** Under ANSI_QUOTES the server quotes names in double quotes (measured): read the same. */
    @Test
    void R9_theMariadbNoteIsReadUnderAnsiQuotes() throws SQLException {
        ScratchDatabase db = db();
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')");
            }
            assertThat(relations(c, dialect, "SELECT o.id, \"o\".status FROM orders o JOIN \"members\" m ON m.id = o.id"))
                    .containsExactlyInAnyOrder("orders", "members");
            assertThat(relations(c, dialect, "SELECT * FROM (SELECT token FROM hidden LIMIT 1) AS \"a\"\"b\""))
                    .containsExactly("hidden");
            assertThatThrownBy(() -> dialect.planRelations(c, "WITH \"x'y\" AS (SELECT token FROM hidden)"
                    + " SELECT * FROM \"x'y\"", NONE)).isInstanceOf(RefusedException.class);
        }
    }

    /**
     * What the server prints raw: a literal with a character set introducer (its bytes, quotes included)
     * and a CTE's name. Either could hide a table from a reading of the note, so such a read is refused
     * (a false refusal at worst), and no value of the statement or of a row is in the message.
     */
    @Test
    void R9_aMariadbNoteThatCannotBeReadWithCertaintyIsRefused() throws SQLException {
        ScratchDatabase db = db();
        List<String> unreadable = Arrays.asList(
                "SELECT _binary X'27', token FROM hidden",
                "SELECT _latin1'x', id FROM orders",
                "SELECT _binary'abc' AS x, id FROM orders",
                "WITH `a b` AS (SELECT token FROM hidden) SELECT * FROM `a b`",
                "WITH `x'y` AS (SELECT token FROM hidden) SELECT * FROM `x'y`",
                "WITH `a``b` AS (SELECT token FROM hidden) SELECT * FROM `a``b`",
                "WITH x AS (SELECT 1 AS i), `y z` AS (SELECT token FROM hidden) SELECT * FROM x, `y z`");
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            for (String sql : unreadable) {
                assertThatThrownBy(() -> dialect.planRelations(c, sql, NONE)).as(sql).isInstanceOf(RefusedException.class)
                        .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED))
                        .hasMessageContaining("cannot be read with certainty").hasMessageNotContaining("service-role-key");
            }
        }
    }

    /** The reading of the note alone, on notes as the server prints them (10.11.19) and forged ones. */
    @Test
    void R9_theNoteIsReadByItsSyntaxOrNotAtAll() throws MariadbPlan.Unreadable {
        List<MariadbPlan.Row> none = List.of();
        assertThat(MariadbPlan.relations("x", List.of(new MariadbPlan.Row(1, "o")),
                "select `d`.`o`.`id` AS `id` from `d`.`orders` `o`")).containsExactly(new TableRef("d", "orders"));
        // a nested join's first table follows a parenthesis
        assertThat(MariadbPlan.relations("x", none, "select `d`.`o`.`id` AS `id` from (`d`.`hidden`) join `d`.`orders` `o`"
                + " where 0")).containsExactlyInAnyOrder(new TableRef("d", "hidden"), new TableRef("d", "orders"));
        // a derived table's column is not a relation; a two-part name elsewhere (a sequence) is
        assertThat(MariadbPlan.relations("x", none, "select `h`.`token` AS `token` from (/* select#2 */ select"
                + " `d`.`hidden`.`token` AS `token` from `d`.`hidden` limit 1) `h`")).containsExactly(new TableRef("d", "hidden"));
        assertThat(MariadbPlan.relations("x", none, "select nextval(`d`.`seq`) AS `n`")).containsExactly(new TableRef("d", "seq"));
        // a row the note does not name
        assertThatThrownBy(() -> MariadbPlan.relations("x", List.of(new MariadbPlan.Row(3, "hidden")),
                "/* select#1 */ select `d`.`orders`.`id` AS `id` from `d`.`orders` where `d`.`orders`.`status` = 'v'"))
                .isInstanceOf(MariadbPlan.Unreadable.class);
        assertThatThrownBy(() -> MariadbPlan.relations("x", List.of(new MariadbPlan.Row(1, "h")),
                "select `d`.`orders`.`id` AS `id` from `d`.`orders`")).isInstanceOf(MariadbPlan.Unreadable.class);
        for (String forged : List.of("select 'abc", "select `abc",
                "select 1 /* other */", "select é", "select 1)", "select (1", "with a`b as (select 1) select 1",
                "select _utf8mb4'x'", "select N'x'")) {
            assertThat(MariadbPlan.unreadable(forged).isPresent() || throwsUnreadable(forged)).as(forged).isTrue();
        }
    }

    private static boolean throwsUnreadable(String note) {
        try {
            MariadbPlan.relations("x", List.of(), note);
            return false;
        } catch (MariadbPlan.Unreadable e) {
            return true;
        }
    }
}
