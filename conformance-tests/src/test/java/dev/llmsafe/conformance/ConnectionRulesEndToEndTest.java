package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.GuardListener;
import dev.llmsafe.jdbc.LlmSafeConnection;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.LlmSafeDriver;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.jdbc.ReadEstimate;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reads (R) and the JDBC surface (J), end to end: the application's {@code jdbc:llmsafe:} URL with the
 * planning role's credential, the configuration file of the four-role deployment (the read role behind
 * {@code readConnection}), and the command line in-process ({@code read}, {@code explain}, {@code show},
 * {@code approve}, {@code apply}). Each refusal is checked for its code, a distinctive part of its
 * message, and that nothing changed in the database.
 *
 * <p>Rows used: orders 1 and 2 are only ever proposed, never applied; order 3 is J7's (applied, then
 * put back); orders 4 and 5 are J5's batch (applied, then put back). Whoever changes a row restores it.
 */
class ConnectionRulesEndToEndTest {

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    private static final List<String> ALLOW = List.of("orders", "members", "many", "writing_view");

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(ConnectionRulesEndToEndTest::schema, ALLOW,
            List.of("orders"), List.of(), """
              "policy": {
                "allow": ["orders", "members", "many", "writing_view"],
                "impact": {"orders": "%s"},
                "denyIdentifiers": {"password_hash": "a stored credential"},
                "maxDeleteRows": 2,
                "read": {"maxRows": 10, "timeoutMs": 1000}
              }
            """.formatted(IMPACT));

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    /**
     * J11's deployment of its own, so that its tables stay out of the allowlist the metadata tests pin:
     * j11k has a primary key that used to throw unchecked exceptions from the dry run (a PostgreSQL row
     * holding timetz 24:00:00, a MariaDB zero date, SQLite NULL and REAL), j11b a 32-byte binary key.
     */
    private static final EndToEnd.Setup J11_SETUP = new EndToEnd.Setup(engine -> {
        String bin = switch (engine) {
            case POSTGRES -> "bytea";
            case MYSQL -> "VARBINARY(64)";
            case SQLITE -> "BLOB";
        };
        List<String> sql = new ArrayList<>(List.of("CREATE TABLE j11b (k " + bin + " NOT NULL PRIMARY KEY, v INT NOT NULL)"));
        switch (engine) {
            case POSTGRES -> sql.addAll(List.of("CREATE TABLE j11k (id INT, t timetz, v INT NOT NULL, PRIMARY KEY (id, t))",
                    "INSERT INTO j11k VALUES (1, '24:00:00-15:59', 1)",
                    "INSERT INTO j11b VALUES (decode(repeat('ab', 32), 'hex'), 1)"));
            case MYSQL -> sql.addAll(List.of("CREATE TABLE j11k (id INT, d DATETIME, v INT NOT NULL, PRIMARY KEY (id, d))",
                    "SET SESSION sql_mode = ''", "INSERT INTO j11k VALUES (1, '0000-00-00 00:00:00', 1)",
                    "SET SESSION sql_mode = DEFAULT", "INSERT INTO j11b VALUES (REPEAT(x'ab', 32), 1)"));
            case SQLITE -> sql.addAll(List.of("CREATE TABLE j11k (a INT, b REAL, c TEXT, v INT NOT NULL, PRIMARY KEY (a, b, c))",
                    "INSERT INTO j11k VALUES (1, 1.5, NULL, 1), (NULL, 2.5, 'x', 1)",
                    "INSERT INTO j11b VALUES (randomblob(32), 1)"));
        }
        return sql;
    }, List.of("j11k", "j11b"), List.of("j11k", "j11b"), List.of(), """
              "policy": {
                "allow": ["j11k", "j11b"],
                "impact": {"j11k": "A row keyed by an awkward value.", "j11b": "A row keyed by bytes."}
              }
            """);

    @RegisterExtension
    static final EndToEnd j11 = new EndToEnd(J11_SETUP);

    /**
     * orders (written), members (a secret column), many (30 rows, for the cap and the bounds), hidden and
     * write_log (not allowlisted: no role gets anything on them), and writing_view: an allowlisted view
     * whose function INSERTs into write_log with its owner's rights (PostgreSQL SECURITY DEFINER; MariaDB's
     * views and functions run as their definer by default), so that only the read-only session can stop
     * it, not a missing privilege of the read role. SQLite has no stored functions.
     */
    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3), (4, 'open', 4),"
                        + " (5, 'open', 5)",
                "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(40), password_hash VARCHAR(80))",
                "INSERT INTO members VALUES (1, 'ann', 'hash-of-ann'), (2, 'bob', 'hash-of-bob')",
                "CREATE TABLE many (id INT PRIMARY KEY)",
                "CREATE TABLE hidden (id INT PRIMARY KEY, note VARCHAR(40))",
                "INSERT INTO hidden VALUES (1, 'not for the model')",
                "CREATE TABLE write_log (note VARCHAR(20))"));
        StringBuilder many = new StringBuilder("INSERT INTO many VALUES (1)");
        for (int i = 2; i <= 30; i++) {
            many.append(", (").append(i).append(')');
        }
        sql.add(many.toString());
        switch (engine) {
            case POSTGRES -> sql.addAll(List.of(
                    "CREATE FUNCTION log_write() RETURNS int LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT"
                            + " AS $$ BEGIN INSERT INTO write_log VALUES ('written'); RETURN 1; END $$",
                    "CREATE FUNCTION peek() RETURNS text LANGUAGE sql STABLE AS $$ SELECT note FROM hidden LIMIT 1 $$",
                    "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders",
                    "CREATE PROCEDURE wipe() LANGUAGE sql AS $$ DELETE FROM orders $$"));
            case MYSQL -> sql.addAll(List.of(
                    "CREATE FUNCTION log_write() RETURNS INT DETERMINISTIC MODIFIES SQL DATA BEGIN"
                            + " INSERT INTO write_log VALUES ('written'); RETURN 1; END",
                    "CREATE FUNCTION peek() RETURNS VARCHAR(40) READS SQL DATA RETURN (SELECT note FROM hidden LIMIT 1)",
                    "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders",
                    "CREATE PROCEDURE wipe() MODIFIES SQL DATA DELETE FROM orders"));
            case SQLITE -> sql.add("CREATE VIEW writing_view AS SELECT id, 1 AS w FROM orders");
        }
        return sql;
    }

    static Deployed deployed(Engine engine) throws Exception {
        return e2e.deployed(engine);
    }

    // ---- R: reads -------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_onlyAllowlistedTablesAreReadAndSystemCatalogsAreRefused(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect()) {
            assertThat(column(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
            assertThat(column(c, "SELECT o.id FROM orders o JOIN members m ON m.id = o.id ORDER BY o.id"))
                    .containsExactly("1", "2");
        }
        for (String sql : List.of("SELECT note FROM hidden", "SELECT o.id FROM orders o JOIN hidden h ON h.id = o.id",
                "SELECT id FROM orders WHERE id IN (SELECT id FROM hidden)", "WITH x AS (SELECT * FROM hidden) SELECT * FROM x",
                "SELECT * FROM write_log")) {
            assertThat(refused(d, Refusal.TABLE_NOT_ALLOWED, c -> column(c, sql)).getMessage()).as(sql)
                    .contains(sql.contains("write_log") ? "write_log" : "hidden");
        }
        for (String sql : switch (engine) {
            case POSTGRES -> List.of("SELECT relname FROM pg_catalog.pg_class", "SELECT usename FROM pg_user",
                    "SELECT table_name FROM information_schema.tables");
            case MYSQL -> List.of("SELECT user FROM mysql.user", "SELECT table_name FROM information_schema.tables",
                    "SELECT * FROM performance_schema.threads", "SELECT * FROM sys.version");
            case SQLITE -> List.of("SELECT sql FROM sqlite_master", "SELECT name FROM sqlite_schema");
        }) {
            refused(d, Refusal.SYSTEM_CATALOG, c -> column(c, sql));
        }
        if (engine == Engine.MYSQL) {
            // The read role may not run peek(): the database refuses it (1370) before it reads anything.
            try (Connection read = d.connectAs(Role.READ)) {
                SQLException e = catchThrowableOfType(SQLException.class, () -> column(read, "SELECT peek()"));
                assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1370);
            }
            // Once it may (PostgreSQL grants EXECUTE to PUBLIC), llmsafe refuses it all the same.
            d.admin("GRANT EXECUTE ON FUNCTION " + d.app().name() + ".peek TO " + readRole(d));
        }
        if (engine != Engine.SQLITE) {
            // A stored routine that queries could read any table: refused, though it is called from a plain SELECT.
            RefusedException e = refused(d, Refusal.FORBIDDEN_FUNCTION, c -> column(c, "SELECT peek()"));
            assertThat(e.getMessage()).contains("peek").doesNotContain("not for the model");
        }
        // The command line reads through the same guard.
        Run hidden = d.llmsafe("read", "SELECT note FROM hidden");
        assertThat(hidden.status()).isEqualTo(Main.REFUSED);
        assertThat(hidden.err()).startsWith("Refused (TABLE_NOT_ALLOWED)").contains("hidden");
        assertThat(hidden.out()).doesNotContain("not for the model");
        Run catalog = d.llmsafe("read", engine == Engine.SQLITE ? "SELECT sql FROM sqlite_master"
                : "SELECT table_name FROM information_schema.tables", "--json");
        assertThat(catalog.status()).isEqualTo(Main.REFUSED);
        assertThat(catalog.out()).contains("\"code\"").contains("SYSTEM_CATALOG");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_R2_databaseMetaDataListsOnlyAllowlistedTablesAndNoSecretColumns(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String catalog = engine == Engine.MYSQL ? d.app().name() : null;
        String schema = engine == Engine.POSTGRES ? d.app().name() : null;
        try (Connection c = d.connect()) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(names(md.getTables(catalog, schema, "%", null), "TABLE_NAME"))
                    .containsExactlyInAnyOrder("orders", "members", "many", "writing_view");
            assertThat(names(md.getColumns(catalog, schema, "members", "%"), "COLUMN_NAME")).containsExactly("id", "name");
            if (engine == Engine.MYSQL && ServerId.of(d.app().admin()).announcedAsMysql55()) {
                // Measured on MariaDB 10.11 (README): Connector/J's query for the columns of every table at once is
                // refused by the read-only session; a table at a time works. Not on MariaDB 11 or MySQL, which
                // Connector/J asks through information_schema.
                SQLException all = catchThrowableOfType(SQLException.class, () -> md.getColumns(catalog, schema, "%", "%"));
                assertThat(all.getSQLState()).as(all.getMessage()).isEqualTo("25006");
            } else if (engine == Engine.MYSQL) {
                // MariaDB 11.8.9: the view's columns are not listed to the read role, the hidden tables neither.
                assertThat(names(md.getColumns(catalog, schema, "%", "%"), "TABLE_NAME")).contains("orders", "members")
                        .doesNotContain("hidden", "write_log");
                assertThat(names(md.getColumns(catalog, schema, "%", "%"), "COLUMN_NAME")).doesNotContain("password_hash",
                        "note");
            } else {
                assertThat(names(md.getColumns(catalog, schema, "%", "%"), "TABLE_NAME")).containsOnly("orders", "members",
                        "many", "writing_view");
                assertThat(names(md.getColumns(catalog, schema, "%", "%"), "COLUMN_NAME")).doesNotContain("password_hash",
                        "note");
            }
            assertThat(names(md.getColumns(catalog, schema, "hidden", "%"), "COLUMN_NAME")).isEmpty();
            assertThat(names(md.getColumns(catalog, schema, "write_log", "%"), "COLUMN_NAME")).isEmpty();
            assertThat(names(md.getPrimaryKeys(catalog, schema, "orders"), "COLUMN_NAME")).containsExactly("id");
            // A table that is not allowlisted is never named to the vendor: on MariaDB, Connector/J's SHOW KEYS
            // about it would fail for the read role (1142), which would say the table exists. No rows instead.
            for (String other : List.of("hidden", "no_such_table")) {
                assertThat(names(md.getPrimaryKeys(catalog, schema, other), "COLUMN_NAME")).isEmpty();
                assertThat(names(md.getIndexInfo(catalog, schema, other, false, true), "COLUMN_NAME")).isEmpty();
                assertThat(names(md.getImportedKeys(catalog, schema, other), "FKCOLUMN_NAME")).isEmpty();
                assertThat(names(md.getExportedKeys(catalog, schema, other), "PKCOLUMN_NAME")).isEmpty();
                assertThat(names(md.getBestRowIdentifier(catalog, schema, other, DatabaseMetaData.bestRowSession, true),
                        "COLUMN_NAME")).isEmpty();
                assertThat(names(md.getVersionColumns(catalog, schema, other), "COLUMN_NAME")).isEmpty();
                assertThat(names(md.getCrossReference(catalog, schema, "orders", catalog, schema, other),
                        "FKCOLUMN_NAME")).isEmpty();
            }
            assertThat(names(md.getIndexInfo(catalog, schema, "orders", false, true), "COLUMN_NAME")).contains("id");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R9_aCteHidesATableOnlyInItsScopeAndEveryExpressionIsVisited(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String sub = "(SELECT note FROM hidden WHERE id = 1)";
        List<String> attempts = new ArrayList<>(List.of(
                "WITH x AS (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden) SELECT note FROM hidden",
                "SELECT id FROM orders WHERE EXISTS (WITH hidden AS (SELECT 1 AS id) SELECT id FROM hidden)"
                        + " AND id IN (SELECT id FROM hidden)",
                "WITH a AS (SELECT note FROM hidden), hidden AS (SELECT 'x' AS note) SELECT note FROM a",
                "SELECT count(*) OVER (PARTITION BY " + sub + ") FROM orders"));
        attempts.add(switch (engine) {
            case POSTGRES -> "SELECT string_agg(status, ',' ORDER BY " + sub + ") FROM orders";
            case MYSQL -> "SELECT JSON_OBJECTAGG(id, " + sub + ") FROM orders";
            case SQLITE -> "SELECT json_group_object(id, " + sub + ") FROM orders";
        });
        for (String sql : attempts) {
            refused(d, Refusal.TABLE_NOT_ALLOWED, c -> column(c, sql));
        }
        try (Connection c = d.connect()) {
            assertThat(column(c, "WITH hidden AS (SELECT id, status FROM orders) SELECT status FROM hidden WHERE id = 1"))
                    .containsExactly("packed");
            assertThat(column(c, "WITH orders AS (SELECT 7 AS id) SELECT id FROM orders")).containsExactly("7");
        }
        Run cte = d.llmsafe("read", attempts.get(0), "--format", "csv");
        assertThat(cte.status()).isEqualTo(Main.REFUSED);
        assertThat(cte.err()).startsWith("Refused (TABLE_NOT_ALLOWED)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R10_aSecretIsRefusedUnderEveryRenamingAndPosition(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> attempts = new ArrayList<>(List.of("WITH x(a, b, c) AS (SELECT * FROM members) SELECT c FROM x",
                "SELECT id, status, status FROM orders UNION SELECT * FROM members",
                "SELECT count(*) FROM orders WHERE (1, 'ann', 'x') IN (SELECT * FROM members)",
                "SELECT id FROM members ORDER BY password_hash"));
        if (engine == Engine.POSTGRES) {
            attempts.addAll(List.of("SELECT c FROM members AS m(a, b, c)",
                    "SELECT l.x FROM members m, LATERAL (SELECT m.*) AS l(a, b, x)"));
        }
        for (String sql : attempts) {
            assertThat(refused(d, Refusal.DENIED_IDENTIFIER, c -> column(c, sql)).getMessage()).as(sql)
                    .doesNotContain("hash-of-");
        }
        try (Connection c = d.connect()) {
            assertThat(column(c, "SELECT * FROM (SELECT id, name FROM members) s ORDER BY 1")).containsExactly("1", "2");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R2_secretColumnsAreRefusedByReferenceByResultColumnAndAsWholeRows(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> attempts = new ArrayList<>(List.of("SELECT password_hash FROM members",
                "SELECT m.password_hash AS harmless FROM members m", "SELECT * FROM members",
                "SELECT m.* FROM members m WHERE id = 1", "SELECT x.* FROM (SELECT * FROM members) x",
                "SELECT id FROM members WHERE password_hash LIKE 'hash-of-a%'"));
        if (engine == Engine.POSTGRES) {
            // A whole row under another name carries the column too.
            attempts.addAll(List.of("SELECT row_to_json(m) FROM members m", "SELECT m::text FROM members m",
                    "SELECT string_agg(m::text, ',') FROM members m"));
        }
        for (String sql : attempts) {
            RefusedException e = refused(d, Refusal.DENIED_IDENTIFIER, c -> column(c, sql));
            assertThat(e.getMessage()).as(sql).contains(sql.contains("m)") || sql.contains("m::") ? "reads whole rows of m"
                    : "password_hash").doesNotContain("hash-of-");
        }
        try (Connection c = d.connect()) {
            assertThat(column(c, "SELECT name FROM members ORDER BY id")).containsExactly("ann", "bob");
            // Through a prepared statement too (R10 refuses it when it is prepared).
            RefusedException e = refused(d, Refusal.DENIED_IDENTIFIER, other -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT * FROM members WHERE id = ?")) {
                    ps.setInt(1, 1);
                    ps.executeQuery().next();
                }
            });
            assertThat(e.getMessage()).contains("password_hash");
        }
        Run star = d.llmsafe("read", "SELECT * FROM members", "--format", "csv");
        assertThat(star.status()).isEqualTo(Main.REFUSED);
        assertThat(star.err()).startsWith("Refused (DENIED_IDENTIFIER)").contains("password_hash");
        assertThat(star.all()).doesNotContain("hash-of-");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R3_aReadRunsAsTheReadRoleAndAReadThatWritesIsRefused(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        if (d.roles() != null) {
            try (Connection c = d.connect()) {
                String who = d.flavor() == Flavor.POSTGRES ? "SELECT current_user" : "SELECT CURRENT_USER()";
                assertThat(column(c, who)).singleElement().satisfies(u -> assertThat(u)
                        .startsWith(d.roles().login(Role.READ).name()));
            }
        }
        List<String> writes = new ArrayList<>(List.of("SELECT * FROM orders FOR UPDATE"));
        switch (engine) {
            case POSTGRES -> writes.addAll(List.of("WITH d AS (DELETE FROM orders WHERE id = 1 RETURNING *) SELECT * FROM d",
                    "WITH u AS (UPDATE orders SET qty = 0 WHERE id = 1 RETURNING 1) SELECT 1",
                    "SELECT * INTO orders_copy FROM orders"));
            case MYSQL -> writes.addAll(List.of("SELECT * FROM orders LOCK IN SHARE MODE",
                    "SELECT * FROM orders INTO OUTFILE '/tmp/llmsafe-e2e-r3.txt'"));
            case SQLITE -> { }
        }
        for (String sql : writes) {
            refused(d, Refusal.MIXED, c -> column(c, sql));
        }
    }

    /**
     * The guard sees a plain read of an allowlisted view; the view's function INSERTs with its owner's
     * rights. What stops it is the read-only session the server enforces (F29), which the read role runs
     * in. SQLite has no stored functions: no read can reach a write there (its session is shown
     * read-only by E7's probe).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void R3_aWritingFunctionCalledFromASelectIsStoppedByTheDatabase(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        RefusedException e = refused(d, Refusal.MIXED, c -> column(c, "SELECT w FROM writing_view WHERE id = 1"));
        assertThat(e.getMessage()).contains("the database refused to write while running a read");
        // The server's read-only session (25006), not a missing privilege (42501, 1142).
        assertThat(((SQLException) e.getCause()).getSQLState()).isEqualTo("25006");
        assertThat(d.rows("write_log")).isEmpty();
        // Not for want of a privilege: outside a read-only session the same read writes.
        try (Connection admin = d.app().connect(); Statement s = admin.createStatement()) {
            s.executeQuery("SELECT w FROM writing_view WHERE id = 1").close();
        }
        try {
            assertThat(d.rows("write_log")).containsExactly("[written]");
        } finally {
            d.admin("DELETE FROM write_log");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R4_aReadIsCutAtMaxRowsAndTheCutIsReported(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id FROM many ORDER BY id")) {
                List<Integer> ids = new ArrayList<>();
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
                assertThat(ids).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
                SQLWarning w = rs.getWarnings();
                assertThat((Throwable) w).isNotNull();
                assertThat(w.getSQLState()).isEqualTo("01L01");
                assertThat(w.getMessage()).contains("cut at 10 rows").contains("policy.read.maxRows");
                assertThat(rs.isAfterLast()).isTrue();
            }
            try (ResultSet rs = s.executeQuery("SELECT id FROM many WHERE id <= 10")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(10);
                assertThat((Throwable) rs.getWarnings()).as("exactly the cap: nothing was cut").isNull();
            }
            s.setMaxRows(1000);
            try (ResultSet rs = s.executeQuery("SELECT id FROM many")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).as("a caller's larger limit does not lift the cap").isEqualTo(10);
            }
        }
        Run json = d.llmsafe("read", "SELECT id FROM many ORDER BY id", "--json");
        assertThat(json.status()).as(json.err()).isEqualTo(Main.OK);
        JsonNode result = new ObjectMapper().readTree(json.out());
        assertThat(result.get("truncated").asBoolean()).isTrue();
        assertThat(result.get("rowCount").asInt()).isEqualTo(10);
        Run table = d.llmsafe("read", "SELECT id FROM many ORDER BY id");
        assertThat(table.out()).contains("10 rows").contains("The result was cut at 10 rows (policy.read.maxRows)");
        Run csv = d.llmsafe("read", "SELECT id FROM many ORDER BY id", "--format", "csv");
        assertThat(csv.out().lines()).hasSize(11);
        assertThat(csv.err()).contains("cut at 10 rows");
        Run whole = d.llmsafe("read", "SELECT id FROM many WHERE id <= 3", "--json");
        assertThat(new ObjectMapper().readTree(whole.out()).get("truncated").asBoolean()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R5_aReadPastTheReadTimeoutIsStoppedAndTheConnectionStaysUsable(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String slow = switch (engine) {
            case POSTGRES -> "SELECT count(*) FROM many a, many b, many c, many d, many e, many f";
            case MYSQL -> "SELECT count(*) FROM many a, many b, many c, many d, many e, many f WHERE a.id + b.id"
                    + " + c.id + d.id + e.id + f.id > 0";
            case SQLITE -> "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500000000)"
                    + " SELECT count(*) FROM n";
        };
        try (Connection c = d.connect()) {
            long start = System.nanoTime();
            RefusedException e = refused(d, Refusal.STATEMENT_TIMEOUT, other -> column(c, slow));
            assertThat((System.nanoTime() - start) / 1_000_000).as("policy.read.timeoutMs is 1000").isLessThan(10_000);
            assertThat(e.getMessage()).contains("ran longer than its bound of 1000 ms (policy.read.timeoutMs)");
            assertThat(column(c, "SELECT count(*) FROM many")).containsExactly("30");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R5_aReadAboveMaxCostIsRefusedWithTheEstimateAndExplainRunsNothing(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Path costed = variant(d, "costed", c -> ((ObjectNode) c.get("policy").get("read")).put("maxCost", 1000));
        String heavy = "SELECT count(*) FROM many a, many b, many c";
        try (Connection c = DriverManager.getConnection(urlFor(d, costed), credential(d))) {
            assertThat(column(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("packed");
            RefusedException e = catchThrowableOfType(RefusedException.class, () -> column(c, heavy));
            assertThat((Throwable) e).isNotNull();
            assertThat(e.code()).isEqualTo(Refusal.COST_TOO_HIGH);
            assertThat(e.getMessage()).contains("estimates this read at").contains("above the bound of 1000.0");
            ReadEstimate estimate = c.unwrap(LlmSafeConnection.class).explain(heavy);
            assertThat(estimate.estimate()).isGreaterThan(1000);
            assertThat(estimate.allowed()).isFalse();
        }
        // On the deployment's own configuration, without maxCost, the same read runs.
        try (Connection c = d.connect()) {
            assertThat(column(c, heavy)).containsExactly("27000");
        }
        Run explain = d.llmsafe("explain", heavy, "--config", costed.toString());
        assertThat(explain.status()).as(explain.all()).isEqualTo(Main.OK);
        assertThat(explain.out()).contains("Estimate: ").contains("Bound: 1000.0 (policy.read.maxCost)");
        Run read = d.llmsafe("read", heavy, "--config", costed.toString());
        assertThat(read.status()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).startsWith("Refused (COST_TOO_HIGH)");
        // EXPLAIN ANALYZE would run the statement: refused, and explain runs nothing of a view that writes.
        refused(d, Refusal.UNSUPPORTED_STATEMENT, c -> column(c, "EXPLAIN ANALYZE SELECT * FROM writing_view"));
        if (engine != Engine.SQLITE) {
            // SQLite's view does not write. MariaDB refuses EXPLAIN of a view to a role without SHOW VIEW (1345),
            // which samples/roles/mariadb.sql grants the read role for this reason.
            Run view = d.llmsafe("explain", "SELECT * FROM writing_view", "--config", costed.toString());
            if (engine == Engine.POSTGRES) {
                assertThat(view.out()).as(view.all()).contains("Estimate: ");
            } else {
                // Measured on MariaDB 10.11: EXPLAIN of the view calls its writing function; the read-only
                // session stops the write, and the explain is refused.
                assertThat(view.status()).as(view.all()).isEqualTo(Main.REFUSED);
                assertThat(view.err()).startsWith("Refused (MIXED)").contains("READ ONLY");
            }
            assertThat(d.rows("write_log")).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R6_theSchemaCommandDescribesAllowlistedTablesOnlyWithImpactAndWithoutSecrets(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Run text = d.llmsafe("schema");
        assertThat(text.status()).as(text.all()).isEqualTo(Main.OK);
        assertThat(text.out()).contains("Table: orders").contains("Changing it: " + IMPACT)
                .contains("Table: members").contains("Read only: changes cannot be proposed").contains("Table: many")
                .contains("name: ").doesNotContain("password_hash").doesNotContain("hidden").doesNotContain("write_log");
        assertThat(text.out()).containsPattern("id: \\w+.*\\(primary key\\)");
        Run json = d.llmsafe("schema", "--format", "json");
        assertThat(json.status()).as(json.all()).isEqualTo(Main.OK);
        JsonNode tables = new ObjectMapper().readTree(json.out()).get("tables");
        List<String> names = new ArrayList<>();
        tables.forEach(t -> names.add(t.get("name").asText().replaceFirst(".*\\.", "").toLowerCase(Locale.ROOT)));
        assertThat(names).containsExactlyInAnyOrder("orders", "members", "many", "writing_view");
        assertThat(json.out()).doesNotContain("password_hash").doesNotContain("hidden").contains(IMPACT);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R7_readsCallOnlyFunctionsCastsAndOperatorsThatComputeFromTheirArguments(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        for (String sql : switch (engine) {
            case POSTGRES -> List.of("SELECT current_setting('search_path')", "SELECT json_populate_record(NULL::orders, '{}')",
                    "SELECT 'orders'::regclass", "SELECT to_regclass('hidden')", "SELECT version()");
            case MYSQL -> List.of("SELECT database()", "SELECT sleep(1)", "SELECT id FROM orders PROCEDURE ANALYSE()");
            case SQLITE -> List.of("SELECT name FROM pragma_table_list()", "SELECT load_extension('x')");
        }) {
            RefusedException e = refused(d, Refusal.FORBIDDEN_FUNCTION, c -> column(c, sql));
            assertThat(e.getMessage()).as(sql).contains("Nothing ran");
        }
        try (Connection c = d.connect()) {
            assertThat(column(c, "SELECT 1")).containsExactly("1");
            assertThat(column(c, "SELECT lower('ABC')")).containsExactly("abc");
            assertThat(column(c, "SELECT coalesce(NULL, 'x')")).containsExactly("x");
        }
        // The command line reads through the same allowlist, and says how to add to it.
        Run run = d.llmsafe("read", engine == Engine.SQLITE ? "SELECT load_extension('x')" : "SELECT version()");
        assertThat(run.status()).isEqualTo(Main.REFUSED);
        assertThat(run.err()).startsWith("Refused (FORBIDDEN_FUNCTION)").contains("policy.read.allowFunctions");
    }

    /**
     * R8 on an application's own pool: its session settings (set by connectionInitSql, once per physical
     * connection) are what it gets back after the model used the connection, the guard's own settings
     * (read-only, the read's statement timeout) included: they are put back to the application's values,
     * not reset to the server's defaults.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R8_aPooledConnectionGoesBackWithTheApplicationsOwnSession(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(d.app().url());
        if (d.roles() != null) {
            config.setUsername(d.roles().login(Role.PLAN).name());
            config.setPassword(d.roles().login(Role.PLAN).password());
        }
        config.setMaximumPoolSize(1);
        config.setPoolName("e2e-r8-" + engine.key());
        String setting = switch (d.flavor()) {
            case POSTGRES -> "SELECT current_setting('statement_timeout') || ' ' || current_setting('default_transaction_read_only')";
            case MARIADB -> "SELECT CONCAT(@@SESSION.max_statement_time, ' ', @@SESSION.tx_read_only)";
            case MYSQL -> "SELECT CONCAT(@@SESSION.max_execution_time, ' ', @@SESSION.transaction_read_only)";
            default -> "SELECT (SELECT recursive_triggers FROM pragma_recursive_triggers) || ' ' || (SELECT query_only FROM pragma_query_only)";
        };
        config.setConnectionInitSql(switch (d.flavor()) {
            case POSTGRES -> "SET statement_timeout = 12345";
            case MARIADB -> "SET SESSION max_statement_time = 7";
            case MYSQL -> "SET SESSION max_execution_time = 7000";
            default -> "PRAGMA recursive_triggers = ON";
        });
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact(IMPACT)));
        try (HikariDataSource pool = new HikariDataSource(config); LlmSafeDataSource ds = new LlmSafeDataSource(pool, policy)) {
            List<String> before;
            try (Connection c = pool.getConnection()) {
                before = column(c, setting);
            }
            try (Connection c = ds.getConnection()) {
                assertThat(column(c, "SELECT id FROM orders WHERE id = 1")).containsExactly("1");
            }
            try (Connection c = pool.getConnection()) {
                assertThat(column(c, setting)).isEqualTo(before);
            }
        }
    }

    // ---- J: the JDBC surface -----------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_unwrapAndTheBackReferencesHandOutOnlyLlmsafesOwnObjects(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
            assertThat(c.unwrap(Connection.class)).isSameAs(c);
            assertThat(c.unwrap(LlmSafeConnection.class)).isSameAs(c);
            assertThat(s.getConnection()).isSameAs(c);
            assertThat(rs.getStatement()).isSameAs(s);
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getConnection()).isSameAs(c);
            for (Class<?> vendor : vendorTypes(engine)) {
                assertThat(c.isWrapperFor(vendor)).as(vendor.getName()).isFalse();
                assertThat(s.isWrapperFor(vendor)).as(vendor.getName()).isFalse();
                for (Object wrapper : List.of(c, s, rs, md, rs.getMetaData())) {
                    RefusedException e = refused(d, Refusal.FORBIDDEN_JDBC,
                            other -> ((java.sql.Wrapper) wrapper).unwrap(vendor));
                    assertThat(e.getMessage()).contains("unwrap");
                    assertThat(e.getSQLState()).isEqualTo("42501");
                }
            }
        }
        // The vendor APIs behind unwrap (pgjdbc's CopyManager, Connector/J's LOAD DATA) are out of reach as SQL too.
        refused(d, Refusal.FORBIDDEN, c -> c.createStatement().execute("COPY orders FROM STDIN"));
        refused(d, Refusal.FORBIDDEN, c -> c.createStatement().execute("LOAD DATA LOCAL INFILE '/etc/hosts' INTO TABLE orders"));
    }

    /** Every way JDBC offers to run an UPDATE. */
    private static Map<String, Jdbc> everyExecuteMethod() {
        String sql = "UPDATE orders SET status = 'shipped' WHERE id = 1";
        String ps = "UPDATE orders SET status = ? WHERE id = ?";
        Map<String, Jdbc> m = new LinkedHashMap<>();
        m.put("Statement.executeQuery", c -> c.createStatement().executeQuery(sql));
        m.put("Statement.executeUpdate", c -> c.createStatement().executeUpdate(sql));
        m.put("Statement.executeUpdate(keys)", c -> c.createStatement().executeUpdate(sql, Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.executeUpdate(int[])", c -> c.createStatement().executeUpdate(sql, new int[] {1}));
        m.put("Statement.executeUpdate(String[])", c -> c.createStatement().executeUpdate(sql, new String[] {"id"}));
        m.put("Statement.executeLargeUpdate", c -> c.createStatement().executeLargeUpdate(sql));
        m.put("Statement.executeLargeUpdate(keys)", c -> c.createStatement().executeLargeUpdate(sql,
                Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.executeLargeUpdate(int[])", c -> c.createStatement().executeLargeUpdate(sql, new int[] {1}));
        m.put("Statement.executeLargeUpdate(String[])", c -> c.createStatement().executeLargeUpdate(sql,
                new String[] {"id"}));
        m.put("Statement.execute(int[])", c -> c.createStatement().execute(sql, new int[] {1}));
        m.put("Statement.execute", c -> c.createStatement().execute(sql));
        m.put("Statement.execute(keys)", c -> c.createStatement().execute(sql, Statement.RETURN_GENERATED_KEYS));
        m.put("Statement.execute(String[])", c -> c.createStatement().execute(sql, new String[] {"id"}));
        m.put("Statement.executeBatch", c -> {
            Statement s = c.createStatement();
            s.addBatch(sql);
            s.executeBatch();
        });
        m.put("Statement.executeLargeBatch", c -> {
            Statement s = c.createStatement();
            s.addBatch(sql);
            s.executeLargeBatch();
        });
        m.put("PreparedStatement.executeQuery", c -> bound(c.prepareStatement(ps)).executeQuery());
        m.put("PreparedStatement.executeUpdate", c -> bound(c.prepareStatement(ps)).executeUpdate());
        m.put("PreparedStatement.executeLargeUpdate", c -> bound(c.prepareStatement(ps)).executeLargeUpdate());
        m.put("PreparedStatement.execute", c -> bound(c.prepareStatement(ps)).execute());
        m.put("prepareStatement(keys).executeUpdate", c -> bound(c.prepareStatement(ps,
                Statement.RETURN_GENERATED_KEYS)).executeUpdate());
        m.put("prepareStatement(int[]).executeUpdate", c -> bound(c.prepareStatement(ps, new int[] {1})).executeUpdate());
        m.put("prepareStatement(String[]).executeUpdate", c -> bound(c.prepareStatement(ps, new String[] {"id"}))
                .executeUpdate());
        m.put("prepareStatement(updatable).executeUpdate", c -> bound(c.prepareStatement(ps,
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE)).executeUpdate());
        m.put("PreparedStatement.executeBatch", c -> {
            PreparedStatement p = bound(c.prepareStatement(ps));
            p.addBatch();
            p.executeBatch();
        });
        m.put("PreparedStatement.executeLargeBatch", c -> {
            PreparedStatement p = bound(c.prepareStatement(ps));
            p.addBatch();
            p.executeLargeBatch();
        });
        return m;
    }

    private static PreparedStatement bound(PreparedStatement p) throws SQLException {
        p.setString(1, "shipped");
        p.setInt(2, 1);
        return p;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J2_everyExecuteMethodOfAWriteIsAStoredPlanAndChangesNothing(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        for (Map.Entry<String, Jdbc> method : everyExecuteMethod().entrySet()) {
            PlanPendingException p = planned(d, method.getValue());
            assertThat(p.plan().statements()).as(method.getKey()).singleElement().satisfies(s -> {
                assertThat(s.kind()).isEqualTo(PlannedStatement.Kind.UPDATE);
                assertThat(s.rows()).hasSize(1);
                assertThat(s.changedColumns()).containsExactly("status");
            });
            assertThat(p.getMessage()).as(method.getKey()).contains("id = 1\n    status: 'packed' -> 'shipped'");
            Run show = d.llmsafe("show", p.planId().toString());
            assertThat(show.status()).as(method.getKey() + ": " + show.err()).isEqualTo(Main.OK);
            assertThat(show.out()).as(method.getKey()).contains("Status: proposed");
        }
        // A write through executeQuery, with RETURNING, is a plan and not a read (MariaDB 10.11 has RETURNING on
        // DELETE only; MySQL has no RETURNING, so there the write is a plain one).
        String returning = switch (d.flavor()) {
            case MARIADB -> "DELETE FROM orders WHERE id = 2 RETURNING *";
            case MYSQL -> "UPDATE orders SET qty = 20 WHERE id = 2";
            default -> "UPDATE orders SET qty = 20 WHERE id = 2 RETURNING *";
        };
        PlanPendingException p = planned(d, c -> c.createStatement().executeQuery(returning));
        assertThat(p.plan().statements().get(0).sql()).isEqualTo(returning);
        // Everything else is refused, whatever the method.
        refused(d, Refusal.UNSUPPORTED_INSERT, c -> c.createStatement().executeQuery("INSERT INTO orders VALUES (9, 'x', 9)"));
        refused(d, Refusal.UNSUPPORTED_INSERT, c -> c.prepareStatement("INSERT INTO orders VALUES (?, 'x', 1)"));
        refused(d, Refusal.DDL, c -> c.createStatement().executeUpdate("DROP TABLE orders"));
        refused(d, Refusal.NO_WHERE, c -> c.createStatement().executeLargeUpdate("DELETE FROM orders"));
        refused(d, Refusal.UNSUPPORTED_STATEMENT, c -> c.createStatement().executeUpdate("SELECT * FROM orders"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J3_anUpdatableResultSetIsReadOnlyAndCannotWrite(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect()) {
            Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE);
            assertThat(c.getWarnings().getSQLState()).isEqualTo("01L02");
            assertThat(s.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            ResultSet rs = s.executeQuery("SELECT id, status FROM orders WHERE id = 1");
            assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
            assertThat(rs.next()).isTrue();
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.updateString("status", "hacked"));
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.updateObject(2, "hacked"));
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.updateRow());
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.deleteRow());
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.moveToInsertRow());
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.insertRow());
            refused(d, Refusal.FORBIDDEN_JDBC, other -> rs.absolute(3));
            PreparedStatement ps = c.prepareStatement("SELECT id, status FROM orders", ResultSet.TYPE_SCROLL_SENSITIVE,
                    ResultSet.CONCUR_UPDATABLE);
            ResultSet p = ps.executeQuery();
            assertThat(p.next()).isTrue();
            refused(d, Refusal.FORBIDDEN_JDBC, other -> p.updateInt(1, 9));
            refused(d, Refusal.FORBIDDEN_JDBC, other -> p.updateRow());
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J4_callableStatementsAndProcedureCallsAreRefused(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        // wipe() deletes every order on PostgreSQL and MariaDB; SQLite has no procedures, and is refused the same.
        RefusedException e = refused(d, Refusal.FORBIDDEN_JDBC, c -> c.prepareCall("{call wipe()}"));
        assertThat(e.getMessage()).startsWith("Refused (FORBIDDEN_JDBC): prepareCall is refused:");
        assertThat(e.getSQLState()).isEqualTo("42501");
        refused(d, Refusal.FORBIDDEN_JDBC, c -> c.prepareCall("CALL wipe()", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY));
        refused(d, Refusal.FORBIDDEN_JDBC, c -> c.prepareCall("CALL wipe()", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, ResultSet.HOLD_CURSORS_OVER_COMMIT));
        refused(d, Refusal.FORBIDDEN, c -> c.createStatement().execute("CALL wipe()"));
        refused(d, Refusal.FORBIDDEN, c -> c.prepareStatement("CALL wipe()").execute());
        refused(d, Refusal.UNSUPPORTED_STATEMENT, c -> c.createStatement().execute("{call wipe()}"));
        Run plan = d.plan("CALL wipe()");
        assertThat(plan.status()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).startsWith("Refused (FORBIDDEN)");
        assertThat(d.rows("orders")).hasSize(5);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J5_aBatchIsOnePlanAppliedWholeByTheCommandLineOrRefusedWhole(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        int stored = planCount(d);
        // One refused statement refuses the batch, and nothing is stored.
        refused(d, Refusal.UNSUPPORTED_INSERT, c -> {
            Statement s = c.createStatement();
            s.addBatch("UPDATE orders SET qty = 40 WHERE id = 4");
            s.addBatch("INSERT INTO orders VALUES (7, 'new', 7)");
            s.executeBatch();
        });
        // A statement the dry run refuses (three rows, above maxDeleteRows 2) refuses it too.
        refused(d, Refusal.TOO_MANY_ROWS, c -> {
            Statement s = c.createStatement();
            s.addBatch("UPDATE orders SET qty = 40 WHERE id = 4");
            s.addBatch("DELETE FROM orders WHERE id >= 3");
            s.executeLargeBatch();
        });
        assertThat(planCount(d)).as("no plan was stored for a refused batch").isEqualTo(stored);

        Run apply = proposeApproveApply(d, c -> {
            Statement s = c.createStatement();
            s.addBatch("UPDATE orders SET qty = 40 WHERE id = 4");
            s.addBatch("DELETE FROM orders WHERE id = 5");
            s.executeBatch();
        }, p -> {
            assertThat(p.plan().statements()).extracting(PlannedStatement::kind)
                    .containsExactly(PlannedStatement.Kind.UPDATE, PlannedStatement.Kind.DELETE);
            assertThat(p.getMessage()).contains("qty: 4 -> 40").contains("id = 5  (deleted)");
        });
        try {
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            List<String> after = new ArrayList<>(before);
            after.set(3, after.get(3).replace(", 4]", ", 40]"));
            after.remove(4);
            assertThat(d.rows("orders")).isEqualTo(after);
        } finally {
            d.admin("UPDATE orders SET qty = 4 WHERE id = 4");
            d.admin("DELETE FROM orders WHERE id = 5", "INSERT INTO orders VALUES (5, 'open', 5)");
        }
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J6_setReadOnlyFalseSetSchemaAndSessionSqlCannotWidenTheSession(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect()) {
            c.setReadOnly(false);
            assertThat(c.isReadOnly()).isTrue();
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            if (engine != Engine.SQLITE) {
                // The read-only session is still in force on the server: the view's write is stopped.
                refused(d, Refusal.MIXED, other -> column(c, "SELECT w FROM writing_view WHERE id = 1"));
                c.rollback();
            }
            c.commit();
            c.setAutoCommit(true);
            c.setSchema(c.getSchema());
            refused(d, Refusal.FORBIDDEN_JDBC, other -> c.setSchema("elsewhere"));
            refused(d, Refusal.FORBIDDEN_JDBC, other -> c.setCatalog("mysql"));
            for (String sql : switch (engine) {
                case POSTGRES -> List.of("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                        "SET default_transaction_read_only = off", "SET ROLE postgres", "RESET ALL", "BEGIN READ WRITE");
                case MYSQL -> List.of("SET SESSION TRANSACTION READ WRITE", "SET SESSION tx_read_only = 0", "USE mysql");
                case SQLITE -> List.of("PRAGMA query_only = OFF", "ATTACH DATABASE 'x.db' AS x");
            }) {
                refused(d, Refusal.FORBIDDEN, other -> c.createStatement().execute(sql));
            }
            // Still only a plan, after all of it.
            PlanPendingException p = planned(d, other -> c.createStatement().executeUpdate(
                    "UPDATE orders SET qty = 11 WHERE id = 1"));
            assertThat(p.getMessage()).contains("qty: 1 -> 11");
            assertThat(column(c, "SELECT count(*) FROM orders")).containsExactly("5");
        }
        assertThat(d.rows("write_log")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_aPlanIsPlanPendingExceptionWithItsSqlStateAndTheCardAsItsMessage(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        Run apply = proposeApproveApply(d, c -> c.createStatement().executeUpdate("UPDATE orders SET qty = 30 WHERE id = 3"),
                p -> {
                    assertThat(p.getSQLState()).isEqualTo(PlanPendingException.SQLSTATE).isEqualTo("25L01");
                    assertThat(p.getErrorCode()).isZero();
                    assertThat((Throwable) p).isNotInstanceOf(RefusedException.class);
                    assertThat(p.getMessage()).isEqualTo(p.plan().card())
                            .startsWith("Plan " + p.planId() + " is proposed, not applied. Nothing in the database has"
                                    + " changed.")
                            .contains("UPDATE orders SET qty = 30 WHERE id = 3").contains(IMPACT)
                            .contains("id = 3\n    qty: 3 -> 30").contains("llmsafe approve " + p.planId())
                            .contains("the proposer (assistant)");
                    assertThat(Plan.fromJson(p.planJson())).isEqualTo(p.plan());
                    // The plan the store holds is the one the exception carried: show prints the same card.
                    Run show = d.llmsafe("show", p.planId().toString());
                    assertThat(show.out()).startsWith(p.getMessage()).contains("Status: proposed");
                });
        try {
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            assertThat(apply.out()).contains("is applied: 1 row committed, exactly as the card showed.");
            List<String> after = new ArrayList<>(before);
            after.set(2, "[3, shipped, 30]");
            assertThat(d.rows("orders")).isEqualTo(after);
        } finally {
            d.admin("UPDATE orders SET qty = 3 WHERE id = 3");
        }
    }

    /**
     * J12 on an application's own pool guarded by LlmSafeDataSource, with the deployment's configuration
     * and the planning role: the listener is told of the read, the refusal (with its code) and the plan, in
     * that order, and the plan it was told of is the one the store holds.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void J12_aListenerOnTheGuardedDataSourceIsToldOfEachReadRefusalAndPlan(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Path file = d.home().resolve("app-llmsafe.json");
        JsonNode connection = new ObjectMapper().readTree(file.toFile()).get("connection");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(connection.get("url").asText());
        if (connection.has("user")) {
            config.setUsername(connection.get("user").asText());
            config.setPassword(connection.get("password").asText());
        }
        config.setMaximumPoolSize(2);
        config.setPoolName("e2e-j12-" + engine.key());
        List<String> events = new CopyOnWriteArrayList<>();
        GuardListener listener = new GuardListener() {
            @Override
            public void read(long nanos) {
                events.add("read");
            }

            @Override
            public void proposed(PlanPendingException pending, long nanos) {
                events.add("plan " + pending.planId());
            }

            @Override
            public void refused(Refusal code) {
                events.add("refused " + code);
            }
        };
        List<String> before = d.rows("orders");
        try (HikariDataSource pool = new HikariDataSource(config);
                LlmSafeDataSource guarded = new LlmSafeDataSource(pool, LlmSafeConfig.load(file))) {
            guarded.setListener(listener);
            try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                assertThat(column(c, "SELECT id FROM orders WHERE id = 1")).containsExactly("1");
                assertThat(catchThrowableOfType(RefusedException.class, () -> s.executeQuery("DROP TABLE orders")).code())
                        .isEqualTo(Refusal.DDL);
                PlanPendingException p = catchThrowableOfType(PlanPendingException.class,
                        () -> s.executeUpdate("UPDATE orders SET qty = 30 WHERE id = 3"));
                assertThat(events).containsExactly("read", "refused DDL", "plan " + p.planId());
                Run show = d.llmsafe("show", p.planId().toString());
                assertThat(show.out()).as(show.all()).contains("Status: proposed");
            }
        }
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    /**
     * J11 through the application's URL and the command line: keys that used to throw unchecked exceptions
     * from the dry run are planned, again and again (on PostgreSQL past pgjdbc's switch to binary transfer,
     * from a query's fifth run on the engine's pooled connection), approved and applied exactly; a key that
     * cannot be bound back, an empty statement and a missing actor are SQLExceptions with their code. On
     * MySQL proper the zero date key is one that cannot be bound back (its default sql_mode refuses to compare it).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void J11_everyFailureIsASqlExceptionWithACodeAndAwkwardKeysArePlannedAndApplied(Engine engine) throws Exception {
        Deployed d = j11.deployed(engine);
        List<String> keyed = d.rows("j11k");
        String id = null;
        if (d.flavor() == Flavor.MYSQL) {
            // MySQL 8.0 and 9.7 under their default sql_mode (NO_ZERO_DATE, strict) refuse to compare a zero
            // date (error 1525), so a row keyed by one cannot be found again: refused before the statement runs.
            RefusedException zero = d.refused("UPDATE j11k SET v = v + 1 WHERE v = 1", "j11k");
            assertThat(zero.code()).as(zero.getMessage()).isEqualTo(Refusal.KEY_NOT_BINDABLE);
            assertThat(zero.getMessage()).contains("a date with a zero part").contains("sql_mode")
                    .contains("Incorrect DATETIME value").contains("Nothing was changed");
            assertThat(d.rows("j11k")).isEqualTo(keyed);
        } else {
            PlanPendingException last = null;
            for (int run = 0; run < 7; run++) {
                last = d.propose("UPDATE j11k SET v = v + 1 WHERE v = 1", "j11k");
                assertThat(last.plan().statements().get(0).rows()).hasSize(engine == Engine.SQLITE ? 2 : 1);
            }
            id = last.planId().toString();
            assertThat(d.llmsafe("approve", id, "--as", "alice").status()).isEqualTo(Main.OK);
            Run apply = d.llmsafe("apply", id, "--as", "bob");
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            assertThat(d.rows("j11k")).isEqualTo(keyed.stream().map(r -> r.replaceFirst(", 1]$", ", 2]")).toList());
        }

        List<String> bytes = d.rows("j11b");
        RefusedException binary = d.refused("UPDATE j11b SET v = 2 WHERE v = 1", "j11b");
        assertThat(binary.code()).as(binary.getMessage()).isEqualTo(Refusal.KEY_NOT_BINDABLE);
        assertThat(binary.getMessage()).contains("a binary value of 32 bytes").contains("Nothing was changed");
        Run cli = d.plan("DELETE FROM j11b WHERE v = 1");
        assertThat(cli.status()).as(cli.all()).isEqualTo(Main.REFUSED);
        assertThat(cli.err()).startsWith("Refused (KEY_NOT_BINDABLE)");
        try (Connection c = d.connect(); Statement s = c.createStatement()) {
            SQLException empty = catchThrowableOfType(SQLException.class, () -> s.executeUpdate(null));
            assertThat((Throwable) empty).isInstanceOf(RefusedException.class);
            assertThat(((RefusedException) empty).code()).isEqualTo(Refusal.EMPTY);
            s.addBatch("UPDATE j11b SET v = 3 WHERE v = 1");
            s.addBatch(" ");
            SQLException batch = catchThrowableOfType(SQLException.class, s::executeBatch);
            assertThat((Throwable) batch).isInstanceOf(RefusedException.class);
            assertThat(((RefusedException) batch).code()).isEqualTo(Refusal.EMPTY);
        }
        if (id != null) {
            Run nobody = d.llmsafe("apply", id, "--as", " ");
            assertThat(nobody.status()).as(nobody.all()).isEqualTo(Main.USAGE);
            assertThat(nobody.err()).contains("Refused (INVALID_ARGUMENT): name the actor (--as NAME)");
        }
        assertThat(d.rows("j11b")).isEqualTo(bytes);
    }

    /**
     * J8 on a real MariaDB or MySQL server (issue 16): MariaDB Connector/J's URL, which a MariaDB user types,
     * is refused by name with SQLState 08001 and the jdbc:mysql: URL to write instead, without the
     * credential; and the URL it names connects through the guard to the same server, as the planning role.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void J8_aMariadbConnectorUrlIsRefusedWithTheUrlToWriteInsteadWhichConnects(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String mysqlUrl = d.url();
        assertThat(mysqlUrl).startsWith("jdbc:llmsafe:mysql://");
        String hostAndDatabase = mysqlUrl.substring("jdbc:llmsafe:mysql://".length()).split("\\?")[0];
        String mariadbUrl = "jdbc:llmsafe:mariadb://" + mysqlUrl.substring("jdbc:llmsafe:mysql://".length());
        Properties credential = new Properties();
        credential.setProperty("user", d.roles().login(Role.PLAN).name());
        credential.setProperty("password", d.roles().login(Role.PLAN).password());
        SQLException refused = catchThrowableOfType(SQLException.class,
                () -> DriverManager.getConnection(mariadbUrl, credential).close());
        assertThat(refused.getSQLState()).isEqualTo("08001");
        assertThat(refused.getMessage()).contains("through MySQL Connector/J")
                .contains("write jdbc:mysql://" + hostAndDatabase)
                .doesNotContain(d.roles().login(Role.PLAN).password());
        try (Connection c = DriverManager.getConnection(mysqlUrl, credential)) {
            assertThat(c.isWrapperFor(LlmSafeConnection.class)).isTrue();
            assertThat(column(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("packed");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_driverManagerAndAHikariPoolFindTheDriverFromTheUrlAlone(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        assertThat(DriverManager.getDriver(d.url())).isInstanceOf(LlmSafeDriver.class);
        String raw = "jdbc:" + d.url().substring("jdbc:llmsafe:".length());
        assertThat(DriverManager.getDriver(raw)).isNotInstanceOf(LlmSafeDriver.class);
        List<String> before = d.rows("orders");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(d.url());
        if (d.roles() != null) {
            config.setUsername(d.roles().login(Role.PLAN).name());
            config.setPassword(d.roles().login(Role.PLAN).password());
        }
        config.setMaximumPoolSize(1);
        config.setPoolName("e2e-j8-" + engine.key());
        try (HikariDataSource pool = new HikariDataSource(config)) {
            Connection physical;
            try (Connection c = pool.getConnection()) {
                physical = c.unwrap(LlmSafeConnection.class);
                assertThat(column(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("packed");
                if (d.roles() != null) {
                    // Through the pool, the read still runs as the read role.
                    assertThat(column(c, d.flavor() == Flavor.POSTGRES ? "SELECT current_user" : "SELECT CURRENT_USER()"))
                            .singleElement().satisfies(u -> assertThat(u).startsWith(d.roles().login(Role.READ).name()));
                }
            }
            PlanPendingException p;
            try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE orders SET status = ? WHERE id = ?")) {
                ps.setString(1, "shipped");
                ps.setInt(2, 2);
                ps.executeUpdate();
                throw new AssertionError("the UPDATE ran through the pool instead of becoming a plan");
            } catch (PlanPendingException e) {
                p = e;
            }
            assertThat(p.getMessage()).contains("UPDATE orders SET status = ? WHERE id = ?      [1: 'shipped' (setString), 2: 2 (setInt)]")
                    .contains("id = 2\n    status: 'packed' -> 'shipped'");
            assertThat(d.llmsafe("show", p.planId().toString()).out()).contains("Status: proposed");
            try (Connection c = pool.getConnection()) {
                RefusedException e = catchThrowableOfType(RefusedException.class, () -> column(c, "SELECT note FROM hidden"));
                assertThat(e.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            }
            try (Connection c = pool.getConnection()) {
                assertThat(c.unwrap(LlmSafeConnection.class)).as("no refusal or plan evicted the connection")
                        .isSameAs(physical);
            }
            assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
        }
        assertThat(d.rows("orders")).isEqualTo(before);

        // The configuration as a connection property instead of a URL parameter (the first place looked in).
        String bare = d.url().replaceFirst("[?&]llmsafe\\.config=[^&]*", "");
        assertThat(bare).doesNotContain("llmsafe.config");
        java.util.Properties props = credential(d);
        props.setProperty("llmsafe.config", d.home().resolve("app-llmsafe.json").toString());
        try (Connection c = DriverManager.getConnection(bare, props)) {
            assertThat(column(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("packed");
            RefusedException e = catchThrowableOfType(RefusedException.class, () -> column(c, "SELECT note FROM hidden"));
            assertThat(e.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        }
        // Given both ways, the two must agree; and a mistyped name is an error, not an open default.
        props.setProperty("llmsafe.config", d.home().resolve("llmsafe.json").toString());
        SQLException twice = catchThrowableOfType(SQLException.class, () -> DriverManager.getConnection(d.url(), props));
        assertThat(twice.getMessage()).contains("llmsafe.config is given both as a connection property").contains("give it once");
        java.util.Properties typo = credential(d);
        typo.setProperty("llmsafe.confg", d.home().resolve("app-llmsafe.json").toString());
        SQLException unknown = catchThrowableOfType(SQLException.class, () -> DriverManager.getConnection(bare, typo));
        assertThat(unknown.getMessage()).contains("unknown parameter llmsafe.confg");
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    /**
     * J8: a configuration file names one database wherever it is run from (a relative SQLite path is the
     * file's own directory's); one that could only refuse everything (an empty allowlist) or plan on a
     * database of its own (in-memory SQLite) does not load, and says where; a planning connection that
     * cannot write is told so.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_aConfigurationMeansOneDatabaseFromAnyDirectoryAndOneThatCannotWorkDoesNotLoad(Engine engine)
            throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        Path empty = variant(d, "empty-allow", c -> ((ObjectNode) c.get("policy")).putArray("allow"));
        Run check = d.llmsafe("check", "--config", empty.toString());
        assertThat(check.status()).as(check.all()).isEqualTo(Main.USAGE);
        assertThat(check.err()).contains(empty + ":").contains("policy.allow: the list is empty, so every statement"
                + " would be refused");
        SQLException load = catchThrowableOfType(SQLException.class,
                () -> DriverManager.getConnection(urlFor(d, empty), credential(d)));
        assertThat(load.getMessage()).startsWith("llmsafe cannot use its configuration: " + empty + ":")
                .contains("policy.allow: the list is empty");

        // The planning connection of the application's URL opened so that it cannot write.
        String readOnly = switch (engine) {
            case SQLITE -> d.url().replaceFirst("\\?", "?open_mode=1&");
            case POSTGRES -> d.url() + "&options=-c%20default_transaction_read_only%3Don";
            // Connector/J ends a read-only session at setReadOnly(false) on a server it takes for MySQL 5.6.5 or
            // later (MySQL, MariaDB 11) unless readOnlyPropagatesToServer=false; MariaDB 10.11 has only tx_read_only.
            case MYSQL -> d.url() + (ServerId.of(d.app().admin()).announcedAsMysql55() ? "&sessionVariables=tx_read_only=1"
                    : "&sessionVariables=transaction_read_only=1&readOnlyPropagatesToServer=false");
        };
        RefusedException cannotWrite = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = DriverManager.getConnection(readOnly, credential(d)); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE orders SET qty = 9 WHERE id = 2");
            }
        });
        assertThat((Throwable) cannotWrite).isNotNull();
        assertThat(cannotWrite.code()).as(cannotWrite.getMessage()).isEqualTo(Refusal.PLANNING_READ_ONLY);
        assertThat(cannotWrite.getMessage()).contains("the planning connection cannot write");
        assertThat(everything(d)).isEqualTo(before);
        if (engine != Engine.SQLITE) {
            return;
        }
        Path database = Path.of(d.app().name());
        Path memory = variant(d, "memory", c -> ((ObjectNode) c.get("connection")).put("url", "jdbc:sqlite::memory:"));
        Run inMemory = d.llmsafe("check", "--config", memory.toString());
        assertThat(inMemory.status()).as(inMemory.all()).isEqualTo(Main.USAGE);
        assertThat(inMemory.err()).contains("connection.url: jdbc:sqlite::memory: is an in-memory SQLite database");
        Path readOnlyFile = variant(d, "read-only", c -> ((ObjectNode) c.get("connection")).put("url",
                "jdbc:sqlite:" + database + "?open_mode=1"));
        Run plan = d.llmsafe("plan", "UPDATE orders SET qty = 9 WHERE id = 2", "--as", "assistant", "--config",
                readOnlyFile.toString());
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).startsWith("Refused (PLANNING_READ_ONLY): the planning connection cannot write");

        // A relative path, read from the file's directory, and the file run from two working directories.
        Path conf = Files.createDirectories(d.home().resolve("conf"));
        Path elsewhere = Files.createDirectories(d.home().resolve("elsewhere"));
        String relative = conf.relativize(database).toString();
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = (ObjectNode) json.readTree(d.home().resolve("llmsafe.json").toFile());
        ((ObjectNode) config.get("connection")).put("url", "jdbc:sqlite:" + relative);
        Path file = Files.writeString(conf.resolve("llmsafe.json"), json.writeValueAsString(config));
        for (Path cwd : List.of(conf, elsewhere, d.home())) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            int status = Main.run(new Main(d.env()::get, cwd), new java.io.PrintWriter(out, true),
                    new java.io.PrintWriter(err, true), "plan", "UPDATE orders SET qty = 9 WHERE id = 2", "--as",
                    "assistant", "--config", file.toString());
            assertThat(status).as("from %s: %s%s", cwd, out, err).isEqualTo(Main.OK);
            assertThat(out.toString()).contains("id = 2\n    qty: 2 -> 9");
            assertThat(cwd.resolve(relative).normalize()).as("no database made next to the working directory")
                    .satisfiesAnyOf(p -> assertThat(p).isEqualTo(database), p -> assertThat(p).doesNotExist());
        }
        assertThat(everything(d)).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J9_everyDatabaseMetaDataAnswerIsFilteredAndNoneNamesACredential(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        // A hidden table with a key to members, and an index on the secret column, made after the grants.
        d.admin("CREATE TABLE IF NOT EXISTS payroll (id INT PRIMARY KEY, member_id INT, FOREIGN KEY (member_id)"
                + " REFERENCES members (id))");
        try {
            d.admin("CREATE INDEX members_hash_idx ON members (password_hash)");
        } catch (SQLException exists) {
            // made by an earlier run of this method on the same deployment
        }
        List<String> hidden = new ArrayList<>(List.of("payroll", "hidden", "write_log", "password_hash",
                "members_hash_idx", "peek", "log_write", "wipe"));
        if (d.roles() != null) {
            for (Role r : Role.values()) {
                hidden.add(d.roles().login(r).name().toLowerCase(Locale.ROOT));
                hidden.add(d.roles().login(r).password().toLowerCase(Locale.ROOT));
            }
            hidden.add(d.roles().store().toLowerCase(Locale.ROOT));
        }
        String catalog = engine == Engine.MYSQL ? d.app().name() : null;
        String schema = engine == Engine.POSTGRES ? d.app().name() : null;
        List<String> leaks = new ArrayList<>();
        try (Connection c = d.connect()) {
            DatabaseMetaData md = c.getMetaData();
            // Every question that answers with rows, about hidden and allowlisted names, with and without schema.
            for (java.lang.reflect.Method m : DatabaseMetaData.class.getMethods()) {
                if (m.getReturnType() != ResultSet.class) {
                    continue;
                }
                for (String[] where : new String[][] {{null, null}, {catalog, schema}}) {
                    for (String name : java.util.Arrays.asList("payroll", "hidden", "members", "orders", "%", null)) {
                        Object[] args = new Object[m.getParameterCount()];
                        long total = java.util.stream.Stream.of(m.getParameterTypes()).filter(t -> t == String.class).count();
                        int k = 0;
                        for (int i = 0; i < args.length; i++) {
                            Class<?> t = m.getParameterTypes()[i];
                            if (t == String.class) {
                                // catalog, schema, name; a second table (getCrossReference) is members; then patterns.
                                int slot = k % 3;
                                args[i] = total == 6 && k >= 3 ? (slot == 2 ? "members" : where[slot])
                                        : k >= 3 || total == 2 && k == 1 ? "%" : slot == 2 ? name : where[slot];
                                k++;
                            } else if (t == int.class) {
                                args[i] = DatabaseMetaData.bestRowSession;
                            } else if (t == boolean.class) {
                                args[i] = false;
                            }
                        }
                        String answer;
                        try (ResultSet rs = (ResultSet) m.invoke(md, args)) {
                            StringBuilder sb = new StringBuilder();
                            int columns = rs.getMetaData().getColumnCount();
                            while (rs.next()) {
                                for (int i = 1; i <= columns; i++) {
                                    sb.append(rs.getString(i)).append(' ');
                                }
                            }
                            answer = sb.toString();
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            assertThat(e.getCause()).isInstanceOf(SQLException.class);
                            answer = String.valueOf(e.getCause().getMessage());
                        }
                        for (String h : hidden) {
                            if (answer.toLowerCase(Locale.ROOT).contains(h)) {
                                leaks.add(m.getName() + java.util.Arrays.toString(args) + " named " + h + ": " + answer);
                            }
                        }
                    }
                }
            }
            // The legitimate answers still come back, for the table the session finds by that name.
            assertThat(names(md.getIndexInfo(null, null, "members", false, true), "COLUMN_NAME")).containsExactly("id");
            assertThat(names(md.getPrimaryKeys(null, null, "orders"), "COLUMN_NAME")).containsExactly("id");
            assertThat(names(md.getExportedKeys(null, null, "members"), "FKTABLE_NAME")).isEmpty();
            assertThat(names(md.getBestRowIdentifier(null, null, "orders", DatabaseMetaData.bestRowSession, true),
                    "COLUMN_NAME")).isEqualTo(engine == Engine.SQLITE ? List.of() : List.of("id"));
            assertThat(names(md.getCatalogs(), "TABLE_CAT")).isEqualTo(switch (engine) {
                case POSTGRES -> List.of(c.getCatalog());
                case MYSQL -> List.of(d.app().name());
                case SQLITE -> List.of();
            });
            assertThat(names(md.getSchemas(), "TABLE_SCHEM")).isEqualTo(schema == null ? List.of() : List.of(schema));
            assertThat(names(md.getProcedures(null, null, "%"), "PROCEDURE_NAME")).isEmpty();
            // Where the database is, and no credential: not the read role's, not the application's.
            assertThat(md.getURL()).startsWith("jdbc:").doesNotContain("?").doesNotContain("@");
            assertThat(md.getUserName()).isNull();
            assertThat(c.getClientInfo()).isEmpty();
        }
        assertThat(leaks).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J10_aLobAccessorReadsTheColumnsOwnValueNeverALargeObject(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        long lo = 0;
        if (engine == Engine.POSTGRES) {
            // A large object every role may read: only llmsafe stands between the model and it.
            try (Statement s = d.app().admin().createStatement();
                    ResultSet rs = s.executeQuery("SELECT lo_from_bytea(0, convert_to('LO-SECRET', 'UTF8'))")) {
                rs.next();
                lo = rs.getLong(1);
            }
            d.admin("GRANT SELECT ON LARGE OBJECT " + lo + " TO PUBLIC");
        }
        try {
            List<String> before = everything(d);
            try (Connection c = d.connect()) {
                c.setAutoCommit(false);
                for (String sql : List.of("SELECT id FROM orders WHERE id = 1", "SELECT " + (lo == 0 ? 77 : lo))) {
                    for (String getter : List.of("getBlob", "getClob", "getObject(Blob)")) {
                        RefusedException e = catchThrowableOfType(RefusedException.class, () -> {
                            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                                rs.next();
                                switch (getter) {
                                    case "getBlob" -> rs.getBlob(1);
                                    case "getClob" -> rs.getClob(1);
                                    default -> rs.getObject(1, java.sql.Blob.class);
                                }
                            }
                        });
                        assertThat((Throwable) e).as(sql + " " + getter).isNotNull();
                        assertThat(e.code()).isEqualTo(Refusal.FORBIDDEN_JDBC);
                        assertThat(e.getMessage()).doesNotContain("LO-SECRET").contains("large object");
                    }
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT status, CAST(" + (lo == 0 ? 77 : lo) + " AS CHAR(20)) FROM orders WHERE id = 1")) {
                    rs.next();
                    assertThat(rs.getClob(1).getSubString(1, 6)).isEqualTo("packed");
                    java.sql.Blob b = rs.getBlob(2);
                    assertThat(new String(b.getBytes(1, (int) b.length()), StandardCharsets.UTF_8).strip())
                            .isEqualTo(String.valueOf(lo == 0 ? 77 : lo));
                }
                c.rollback();
            }
            assertThat(everything(d)).isEqualTo(before);
        } finally {
            if (lo != 0) {
                d.admin("SELECT lo_unlink(" + lo + ")");
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Something done on a connection of the application's URL. */
    @FunctionalInterface
    interface Jdbc {
        void run(Connection c) throws Exception;
    }

    /** What a test checks of a plan before it is approved. */
    @FunctionalInterface
    interface Check {
        void on(PlanPendingException p) throws Exception;
    }

    /** Every application table, read as the administrator: what a refusal or a dry run may not change. */
    private static List<String> everything(Deployed d) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String table : List.of("orders", "members", "many", "hidden", "write_log")) {
            out.add(table + d.rows(table));
        }
        return out;
    }

    /** The refusal the action meets on a new connection of the application's URL; nothing changed. */
    private static RefusedException refused(Deployed d, Refusal code, Jdbc action) throws Exception {
        List<String> before = everything(d);
        RefusedException e = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = d.connect()) {
                action.run(c);
            }
        });
        assertThat((Throwable) e).as("not refused (%s expected)", code).isNotNull();
        assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
        assertThat(everything(d)).as("a refusal changes nothing").isEqualTo(before);
        return e;
    }

    /** The action on a new connection of the application's URL must end in a plan, and change nothing. */
    private static PlanPendingException planned(Deployed d, Jdbc action) throws Exception {
        List<String> before = everything(d);
        try (Connection c = d.connect()) {
            action.run(c);
            throw new AssertionError("the write ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            assertThat(everything(d)).as("the dry run changed nothing").isEqualTo(before);
            return e;
        }
    }

    /**
     * The write through the application's URL becomes a plan (checked), which alice approves and bob
     * applies with the command line.
     */
    private static Run proposeApproveApply(Deployed d, Jdbc write, Check check) throws Exception {
        PlanPendingException p = planned(d, write);
        check.on(p);
        return d.approveAndApply(p.planId().toString());
    }

    private static int planCount(Deployed d) throws Exception {
        Run list = d.llmsafe("list", "--json");
        assertThat(list.status()).as(list.err()).isEqualTo(Main.OK);
        return new ObjectMapper().readTree(list.out()).size();
    }

    /** A copy of the application's configuration file, changed. */
    private static Path variant(Deployed d, String name, java.util.function.Consumer<ObjectNode> change) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = (ObjectNode) json.readTree(d.home().resolve("app-llmsafe.json").toFile());
        change.accept(config);
        return Files.writeString(d.home().resolve(name + "-llmsafe.json"), json.writerWithDefaultPrettyPrinter()
                .writeValueAsString(config));
    }

    /** The application's URL, with another configuration file. */
    private static String urlFor(Deployed d, Path config) {
        String app = URLEncoder.encode(d.home().resolve("app-llmsafe.json").toString(), StandardCharsets.UTF_8);
        assertThat(d.url()).contains(app);
        return d.url().replace(app, URLEncoder.encode(config.toString(), StandardCharsets.UTF_8));
    }

    private static String readRole(Deployed d) {
        String name = d.roles().login(Role.READ).name();
        return d.flavor() == Flavor.POSTGRES ? name : "'" + name + "'@'%'";
    }

    private static java.util.Properties credential(Deployed d) {
        java.util.Properties p = new java.util.Properties();
        if (d.roles() != null) {
            p.setProperty("user", d.roles().login(Role.PLAN).name());
            p.setProperty("password", d.roles().login(Role.PLAN).password());
        }
        return p;
    }

    /** The vendor's own types: what unwrap must never hand out. */
    private static List<Class<?>> vendorTypes(Engine engine) throws ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        for (String name : switch (engine) {
            case POSTGRES -> List.of("org.postgresql.PGConnection", "org.postgresql.core.BaseConnection",
                    "org.postgresql.PGStatement");
            case MYSQL -> List.of("com.mysql.cj.jdbc.JdbcConnection", "com.mysql.cj.jdbc.JdbcStatement");
            case SQLITE -> List.of("org.sqlite.SQLiteConnection", "org.sqlite.jdbc3.JDBC3Statement");
        }) {
            out.add(Class.forName(name));
        }
        return out;
    }

    /** The first column of every row of a read. */
    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static List<String> names(ResultSet rs, String column) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(column));
            }
        }
        return out;
    }
}
