package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * R9 on MySQL: the plan's relations from the optimizer trace's preparation, which is written before the
 * optimizer reads a row. Values planted in rows that a read fetches by key (a const table, whose values
 * MySQL's Note 1003 prints raw, quotes unescaped: measured on 8.0.31 and 9.7.4) are never read as SQL:
 * the hidden table beside them is always named. Then the reading of traces alone, as MySQL writes them
 * and forged.
 */
class MysqlPlanTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Dialect.Binder NONE = ps -> { };

    /**
     * Values that could steer a reading of the note: quotes, backslashes, backquotes, double quotes,
     * comments, and text that spells the rest of a FROM clause naming allowlisted tables under the aliases
     * the plan's rows read (the note's real {@code `db`.`hidden` `h`} swallowed by a string). The last two
     * are read together: the first opens a string that the second, read by key in the WHERE, closes.
     */
    private static List<String> planted(String db) {
        String from = "from `" + db + "`.`planted` `c` join `" + db + "`.`planted` `c2` join `" + db + "`.`orders` `h`";
        return List.of("x' y", "'", "''", "\\", "a\\", "a\\'b", "a`b", "`", "a\"b", "\"", "/* select#9 */", "/*", "*/",
                "#", "-- x", "' AS x " + from + " where '", "x' AS `s` " + from + " where '\\",
                "x' AS `s` " + from + " where (('\\", "1 + '");
    }

    private static ScratchDatabase mysql() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        assumeFalse(db.isMariadb(), "MySQL's plan check; MariaDB escapes the values its note prints");
        db.execute("CREATE TABLE IF NOT EXISTS orders (id INT PRIMARY KEY, status VARCHAR(20))",
                "INSERT IGNORE INTO orders VALUES (1, 'packed')",
                "CREATE TABLE IF NOT EXISTS hidden (id INT PRIMARY KEY, token VARCHAR(40))",
                "INSERT IGNORE INTO hidden VALUES (1, 'service-role-key')");
        return db;
    }

    /**
     * Every planted value read by key next to a hidden table, in the select list, in a subquery's
     * comparison and in the WHERE, with the reading of the statement bypassed: the plan names hidden.
     * (The note's reading, which this replaced, named only planted and orders for the last case.)
     */
    @Test
    void R9_valuesReadWhilePlanningAreNeverReadAsSql() throws SQLException {
        ScratchDatabase db = mysql();
        db.execute("CREATE TABLE planted (id INT PRIMARY KEY, s VARCHAR(300))");
        List<String> values = planted(db.name());
        try (Connection c = db.connect()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO planted VALUES (?, ?)")) {
                for (int i = 0; i < values.size(); i++) {
                    ps.setInt(1, i + 1);
                    ps.setString(2, values.get(i));
                    ps.executeUpdate();
                }
            }
            Dialect dialect = Dialects.of(c, null);
            TableRef hidden = new TableRef(db.name(), "hidden");
            List<String> reads = new ArrayList<>();
            for (int id = 1; id <= values.size(); id++) {
                reads.add("SELECT c.s, h.token FROM planted c JOIN hidden h WHERE c.id = " + id);
                reads.add("SELECT c.s FROM planted c WHERE c.id = " + id + " AND c.s NOT IN (SELECT token FROM hidden)");
                reads.add("SELECT c.s, h.token FROM planted c JOIN hidden h WHERE c.id = " + id + " AND h.token <> c.s");
                reads.add("SELECT h.token FROM hidden h WHERE h.token <> (SELECT s FROM planted WHERE id = " + id + ")");
            }
            int opens = values.size() - 1;
            reads.add("SELECT c.s, h.token FROM planted c JOIN planted c2 JOIN hidden h WHERE c.id = " + opens
                    + " AND c2.id = " + (opens + 1) + " AND h.token = c2.s");
            List<String> missed = new ArrayList<>();
            for (String sql : reads) {
                Set<TableRef> relations = dialect.planRelations(c, sql, NONE).orElseThrow();
                if (!relations.contains(hidden)) {
                    missed.add(sql + " -> " + relations);
                }
            }
            assertThat(missed).as("reads whose plan does not name hidden").isEmpty();
        }
        // Server-side prepared statements (an application's useServerPrepStmts): the values bound, planted ones
        // included, are not read as SQL either.
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", db.user());
        props.setProperty("password", db.password());
        props.setProperty("useServerPrepStmts", "true");
        try (Connection c = java.sql.DriverManager.getConnection(db.url(), props)) {
            Dialect dialect = Dialects.of(c, null);
            List<String> missed = new ArrayList<>();
            for (String value : values) {
                Set<TableRef> relations = dialect.planRelations(c, "SELECT c.s, h.token FROM planted c JOIN hidden h"
                        + " WHERE c.id = ? AND h.token <> ?", ps -> {
                            ps.setInt(1, values.size() - 1);
                            ps.setString(2, value);
                        }).orElseThrow();
                if (!relations.contains(new TableRef(db.name(), "hidden"))) {
                    missed.add(value + " -> " + relations);
                }
            }
            assertThat(missed).as("server-prepared reads whose plan does not name hidden").isEmpty();
        }
    }

    /**
     * The trace is switched on when the EXPLAIN left none, and a trace of another statement is never read:
     * with the trace switched off after one read, the next read's relations are its own. The session's own
     * trace settings (end markers) do not change the reading.
     */
    @Test
    void R9_theTraceReadIsTheTraceOfThisExplain() throws SQLException {
        ScratchDatabase db = mysql();
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            assertThat(dialect.planRelations(c, "SELECT id FROM hidden", NONE).orElseThrow())
                    .containsExactly(new TableRef(db.name(), "hidden"));
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION optimizer_trace = 'enabled=off'");
            }
            assertThat(dialect.planRelations(c, "SELECT id FROM orders", NONE).orElseThrow())
                    .containsExactly(new TableRef(db.name(), "orders"));
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION optimizer_trace = 'enabled=on', end_markers_in_json = on"); // comments in the JSON
            }
            assertThat(dialect.planRelations(c, "SELECT id FROM hidden", NONE).orElseThrow())
                    .containsExactly(new TableRef(db.name(), "hidden"));
            try (Statement s = c.createStatement()) {
                s.execute("USE information_schema");
            }
            // no table of the session's database now: the table is named by its database
            assertThat(dialect.planRelations(c, "SELECT id FROM " + db.name() + ".orders", NONE).orElseThrow())
                    .containsExactly(new TableRef(db.name(), "orders"));
        }
    }

    private static String text(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A join_preparation step: the inner steps, then the expanded query, as MySQL writes them. */
    private static String prep(long n, String query, String... inner) {
        StringBuilder steps = new StringBuilder();
        for (String s : inner) {
            steps.append(s).append(", ");
        }
        return "{\"join_preparation\": {\"select#\": " + n + ", \"steps\": [" + steps + "{\"expanded_query\": "
                + text("/* select#" + n + " */ " + query) + "}]}}";
    }

    private static String step(String kind, long n, String table, boolean materialized) {
        return "{\"" + kind + "\": {\"table\": " + text(table) + ", \"select#\": " + n + ", \""
                + (materialized ? "materialized" : "merged") + "\": true}}";
    }

    private static String trace(String... steps) {
        return "{\"steps\": [" + String.join(", ", steps) + "]}";
    }

    private static Set<TableRef> read(String trace) throws PlanNote.Unreadable {
        return MysqlPlan.relations("x", List.of(), trace, "d");
    }

    private static TableRef d(String table) {
        return new TableRef("d", table);
    }

    /** Traces as MySQL 8.0.31 writes them, and forged ones. */
    @Test
    void R9_theTraceIsReadByItsPreparation() throws PlanNote.Unreadable {
        // unqualified: the session's database; qualified: its own
        assertThat(read(trace(prep(1, "select `c`.`s` AS `s` from `cb` `c` join `o`.`t` where (`c`.`id` = 1)"))))
                .containsExactlyInAnyOrder(d("cb"), new TableRef("o", "t"));
        // a view materialized is the view, its body not read; one merged is its tables
        String body = prep(2, "select `hidden`.`id` AS `id` from `hidden`");
        assertThat(read(trace(prep(1, "select `v`.`id` AS `id` from `v`", body, step("view", 2, "`v`", true)))))
                .containsExactly(d("v"));
        assertThat(read(trace(prep(1, "select `hidden`.`id` AS `id` from (`hidden`)", body, step("view", 2, "`v`", false)))))
                .containsExactly(d("hidden"));
        // a materialized view is named by its own step too, whatever the query prints
        assertThat(read(trace(prep(1, "select 1 AS `1`", body, step("view", 2, "`o`.`v` `w`", true)))))
                .containsExactly(new TableRef("o", "v"));
        assertThatThrownBy(() -> read(trace(prep(1, "select 1 AS `1`", body, step("view", 2, "`v`.", true)))))
                .isInstanceOf(PlanNote.Unreadable.class);
        // a derived table's alias, a correlated subquery's outer column, a materialized CTE read by its name and alias
        assertThat(read(trace(prep(1, "select `d2`.`id` AS `id` from (/* select#2 */ select `orders`.`id` AS `id` from"
                + " `orders` where (`orders`.`id` = 1)) `d2` where exists(/* select#3 */ select 1 from `hidden` `h` where"
                + " (`h`.`id` = `d2`.`id`))", prep(2, "select `orders`.`id` AS `id` from `orders`"),
                step("derived", 2, " `d2`", true), prep(3, "select 1 from `hidden` `h` where (`h`.`id` = `d2`.`id`)")))))
                .containsExactlyInAnyOrder(d("orders"), d("hidden"));
        String cte = prep(2, "select `hidden`.`token` AS `token` from `hidden`");
        assertThat(read(trace(prep(1, "select `a`.`token` AS `token` from `x` `a`", cte, step("derived", 2, "`x` `a`", true)))))
                .containsExactly(d("hidden"));
        // a CTE's name read in another select (without a step of its own there) is a table of that name
        assertThat(read(trace(prep(1, "select `x`.`token` AS `token` from `x` where `x`.`token` in (/* select#3 */ select"
                + " `x`.`token` from `x`)", cte, step("derived", 2, "`x`", true), prep(3, "select `x`.`token` from `x`")))))
                .containsExactlyInAnyOrder(d("hidden"), d("x"));
        // a recursive CTE's own reference is known by its row
        String recursive = trace(prep(1, "select count(0) AS `c` from `n`", cte, step("derived", 2, "`n`", true),
                prep(3, "select (`n`.`i` + 1) AS `i + 1` from `n` where (`n`.`i` < 3)")));
        assertThat(MysqlPlan.relations("x", List.of(new PlanNote.Row(3, "UNION", "n", "ALL", "Recursive; Using where")),
                recursive, "d")).containsExactly(d("hidden"));
        assertThat(read(recursive)).containsExactlyInAnyOrder(d("hidden"), d("n"));
        // a union's selects, its temporary table created between them
        assertThat(read(trace(prep(1, "select `orders`.`id` AS `id` from `orders`"), "{\"creating_tmp_table\": {}}",
                prep(2, "select `hidden`.`id` AS `id` from `hidden`")))).containsExactlyInAnyOrder(d("orders"), d("hidden"));
        // what follows the preparation (values the optimizer read) is not read, but a select prepared there refuses
        String optimized = "{\"join_optimization\": {\"select#\": 1, \"steps\": [{\"expanded_query\": \"select 1 from `hidden`\"}]}}";
        assertThat(read(trace(prep(1, "select `orders`.`id` AS `id` from `orders`"), optimized))).containsExactly(d("orders"));
        assertThatThrownBy(() -> read(trace(prep(1, "select 1 AS `1`"), "{\"join_optimization\": {\"steps\": ["
                + prep(4, "select 1 from `orders`") + "]}}"))).isInstanceOf(PlanNote.Unreadable.class)
                .hasMessageContaining("after the optimizer began");
        // no session database for an unqualified table; not JSON; no preparation; a select prepared twice
        assertThatThrownBy(() -> MysqlPlan.relations("x", List.of(), trace(prep(1, "select 1 from `t`")), null))
                .isInstanceOf(PlanNote.Unreadable.class).hasMessageContaining("has none");
        assertThat(MysqlPlan.relations("x", List.of(), trace(prep(1, "select 1 from `o`.`t`")), null))
                .containsExactly(new TableRef("o", "t"));
        for (String forged : List.of("", "{\"steps\": ", "{}", trace(), trace("{\"join_optimization\": {}}"),
                trace(prep(1, "select 1", prep(1, "select 2"))), trace(prep(1, "select 'abc")),
                trace(prep(1, "select _binary''' AS `x` from `t`")))) {
            assertThatThrownBy(() -> read(forged)).as(forged).isInstanceOf(PlanNote.Unreadable.class);
        }
    }

    /** A refusal for a trace MySQL keeps from the credential names what to grant. */
    @Test
    void R9_aTraceKeptFromTheCredentialIsNotGranted() throws SQLException {
        ScratchDatabase db = mysql();
        db.execute("CREATE OR REPLACE SQL SECURITY DEFINER VIEW v_definer AS SELECT id FROM hidden",
                "CREATE OR REPLACE SQL SECURITY INVOKER VIEW v_invoker AS SELECT id FROM hidden");
        var role = db.createRole("GRANT SELECT ON {db}.hidden TO {role}", "GRANT SELECT, SHOW VIEW ON {db}.v_definer TO {role}",
                "GRANT SELECT, SHOW VIEW ON {db}.v_invoker TO {role}");
        try (Connection c = db.connect(role)) {
            Dialect dialect = Dialects.of(c, null);
            assertThat(dialect.planRelations(c, "SELECT id FROM v_invoker", NONE).orElseThrow())
                    .containsExactly(new TableRef(db.name(), "hidden"));
            assertThatThrownBy(() -> dialect.planRelations(c, "SELECT id FROM v_definer", NONE))
                    .isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.NOT_GRANTED))
                    .hasMessageContaining("SQL SECURITY INVOKER");
        }
    }
}
