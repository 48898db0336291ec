package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Reads through jdbc:llmsafe: on every database: allowlist, secrets, the server's read-only session, cap, cost, time. */
class ReadTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact("Changing an order moves money."))
            .table("members")
            .table("many")
            .table("writing_view")
            .secret("password_hash", "a stored credential")
            .read(r -> r.maxRows(10).timeoutMs(2000)));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    /** orders (5 rows), members (with a secret column), many (30 rows), hidden (not allowed), write_log. */
    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3), (4, 'open', 4),"
                            + " (5, 'open', 5)",
                    "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(40), password_hash VARCHAR(80))",
                    "INSERT INTO members VALUES (1, 'ann', 'hash-of-ann'), (2, 'bob', 'hash-of-bob')",
                    "CREATE TABLE hidden (id INT PRIMARY KEY, note VARCHAR(40))",
                    "INSERT INTO hidden VALUES (1, 'not for the model')",
                    "CREATE TABLE many (id INT PRIMARY KEY)",
                    "CREATE TABLE write_log (note VARCHAR(20))");
            for (int i = 1; i <= 30; i++) {
                db.execute("INSERT INTO many VALUES (" + i + ")");
            }
            switch (engine) {
                case POSTGRES -> db.execute("CREATE FUNCTION log_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                                + " INSERT INTO write_log VALUES ('written'); RETURN 1; END $$",
                        "CREATE FUNCTION peek() RETURNS text LANGUAGE sql STABLE AS $$ SELECT note FROM hidden LIMIT 1 $$",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case MYSQL -> db.execute("CREATE FUNCTION log_write() RETURNS INT DETERMINISTIC MODIFIES SQL DATA"
                                + " BEGIN INSERT INTO write_log VALUES ('written'); RETURN 1; END",
                        "CREATE FUNCTION peek() RETURNS VARCHAR(40) READS SQL DATA RETURN (SELECT note FROM hidden LIMIT 1)",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case SQLITE -> db.execute("CREATE VIEW writing_view AS SELECT id, 1 AS w FROM orders");
            }
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static void refused(Guarded g, Refusal code, String sql) throws SQLException {
        try (Connection c = g.connect()) {
            g.refusedUnchanged(code, () -> rows(c, sql));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_anAllowlistedTableIsReadAndEveryOtherTableIsRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            assertThat(rows(c, "SELECT status FROM orders WHERE id = 3")).containsExactly("shipped");
            assertThat(rows(c, "SELECT o.id FROM orders o JOIN members m ON m.id = o.id ORDER BY o.id"))
                    .containsExactly("1", "2");
        }
        refused(g, Refusal.TABLE_NOT_ALLOWED, "SELECT note FROM hidden");
        refused(g, Refusal.TABLE_NOT_ALLOWED, "SELECT o.id FROM orders o JOIN hidden h ON h.id = o.id");
        refused(g, Refusal.TABLE_NOT_ALLOWED, "SELECT id FROM orders WHERE id IN (SELECT id FROM hidden)");
        refused(g, Refusal.TABLE_NOT_ALLOWED, "SELECT * FROM no_such_table");
        refused(g, Refusal.TABLE_NOT_ALLOWED, "WITH x AS (SELECT * FROM hidden) SELECT * FROM x");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_namesAreMatchedAsTheDatabaseResolvesThem(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        List<String> allowed = switch (engine) {
            case POSTGRES -> List.of("ORDERS", "\"orders\"", "Orders");
            case MYSQL -> List.of("`orders`", "orders");
            case SQLITE -> List.of("ORDERS", "[orders]", "`orders`", "\"orders\"", "main.orders");
        };
        try (Connection c = g.connect()) {
            for (String name : allowed) {
                assertThat(rows(c, "SELECT count(*) FROM " + name)).as(name).containsExactly("5");
            }
        }
        if (engine == Engine.POSTGRES) {
            // Quoted, the name keeps its case, and "ORDERS" is no table at all: refused, not read as orders.
            refused(g, Refusal.TABLE_NOT_ALLOWED, "SELECT count(*) FROM \"ORDERS\"");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_systemCatalogsAreRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        for (String sql : switch (engine) {
            case POSTGRES -> List.of("SELECT relname FROM pg_catalog.pg_class", "SELECT usename FROM pg_user",
                    "SELECT table_name FROM information_schema.tables");
            case MYSQL -> List.of("SELECT user FROM mysql.user", "SELECT table_name FROM information_schema.tables",
                    "SELECT * FROM performance_schema.threads");
            case SQLITE -> List.of("SELECT sql FROM sqlite_master", "SELECT name FROM sqlite_schema");
        }) {
            refused(g, Refusal.SYSTEM_CATALOG, sql);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void R1_storedRoutinesThatQueryAreRefusedAndBuiltInsPass(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        // peek() reads a table that is not allowlisted; log_write() writes.
        refused(g, Refusal.FORBIDDEN_FUNCTION, "SELECT peek()");
        refused(g, Refusal.FORBIDDEN_FUNCTION, "SELECT id, log_write() FROM orders");
        try (Connection c = g.connect()) {
            assertThat(rows(c, "SELECT upper(status) FROM orders WHERE id = 1")).containsExactly("PACKED");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R2_secretsAreRefusedByReferenceAndByResultColumn(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        refused(g, Refusal.DENIED_IDENTIFIER, "SELECT password_hash FROM members");
        refused(g, Refusal.DENIED_IDENTIFIER, "SELECT m.password_hash AS x FROM members m");
        // SELECT * does not help: the result has the column under its own name.
        refused(g, Refusal.DENIED_IDENTIFIER, "SELECT * FROM members");
        refused(g, Refusal.DENIED_IDENTIFIER, "SELECT m.* FROM members m WHERE id = 1");
        refused(g, Refusal.DENIED_IDENTIFIER, "SELECT x.* FROM (SELECT * FROM members) x");
        if (engine == Engine.POSTGRES) {
            // Nor does a whole row under another name.
            refused(g, Refusal.DENIED_IDENTIFIER, "SELECT row_to_json(m) FROM members m");
            refused(g, Refusal.DENIED_IDENTIFIER, "SELECT m::text FROM members m");
        }
        try (Connection c = g.connect()) {
            assertThat(rows(c, "SELECT name FROM members ORDER BY id")).containsExactly("ann", "bob");
            // Through a prepared statement too: R10 refuses the * over a table with a secret column when it is prepared.
            assertThatThrownBy(() -> c.prepareStatement("SELECT * FROM members WHERE id = ?"))
                    .isInstanceOf(RefusedException.class).hasMessageContaining("password_hash");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R3_theReadSessionIsReadOnlyOnTheServerItself(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            // Around the guard, straight on the vendor connection reads run on: the server refuses the write.
            Connection session = ((GuardedConnection) c).readConnectionForTests();
            try (Statement s = session.createStatement()) {
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO write_log VALUES ('around')"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((GuardedConnection) c).engine().dialect().isReadOnlyViolation((SQLException) e))
                                .as(e.toString()).isTrue());
            }
        }
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void R3_aWritingFunctionBehindAnAllowedViewIsStoppedByTheReadOnlySession(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        // The guard sees a plain read of an allowlisted view; the view calls a function that INSERTs.
        refused(g, Refusal.MIXED, "SELECT * FROM writing_view");
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R4_rowsAreCappedAndTheTruncationIsAWarningOnTheResultSet(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id FROM many ORDER BY id")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(10);
                SQLWarning w = rs.getWarnings();
                assertThat((Throwable) w).isNotNull();
                assertThat(w.getSQLState()).isEqualTo(GuardedResultSet.TRUNCATED);
                assertThat(w.getMessage()).contains("cut at 10 rows");
                // The extra row fetched to see the truncation is never handed out.
                assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class);
                assertThat(rs.isAfterLast()).isTrue();
            }
            // Exactly the cap: nothing was cut, no warning.
            try (ResultSet rs = s.executeQuery("SELECT id FROM many WHERE id <= 10")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(10);
                assertThat((Throwable) rs.getWarnings()).isNull();
            }
            // The caller's own smaller limit is the caller's: no warning.
            s.setMaxRows(3);
            try (ResultSet rs = s.executeQuery("SELECT id FROM many")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(3);
                assertThat((Throwable) rs.getWarnings()).isNull();
            }
            // A larger one does not lift the cap.
            s.setMaxRows(1000);
            try (ResultSet rs = s.executeQuery("SELECT id FROM many")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(10);
                assertThat(s.getMaxRows()).isEqualTo(1000);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R5_aReadAboveTheCostBoundIsRefusedWithTheEstimateAndACheapOneRuns(Engine engine) throws SQLException {
        Guarded g = Guarded.of(guarded(engine).db, Policy.define(p -> p.table("orders").table("many")
                .read(r -> r.maxCost(1000))));
        try (Connection c = g.connect()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
                ps.setInt(1, 2);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("packed");
                }
            }
            g.refusedUnchanged(Refusal.COST_TOO_HIGH, () -> rows(c,
                    "SELECT count(*) FROM many a, many b, many c, many d WHERE a.id + b.id > c.id + d.id"));
            assertThatThrownBy(() -> rows(c, "SELECT count(*) FROM many a, many b, many c, many d"))
                    .hasMessageContaining("estimates this read at").hasMessageContaining("above the bound of 1000.0");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R5_aReadPastItsTimeoutIsStoppedAndTheConnectionStaysUsable(Engine engine) throws SQLException {
        Guarded g = Guarded.of(guarded(engine).db, Policy.define(p -> p.table("many").read(r -> r.timeoutMs(300))));
        String slow = switch (engine) {
            case POSTGRES -> "SELECT count(*) FROM many a, many b, many c, many d, many e, many f";
            case MYSQL -> "SELECT count(*) FROM many a, many b, many c, many d, many e, many f WHERE a.id + b.id"
                    + " + c.id + d.id + e.id + f.id > 0";
            case SQLITE -> "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500000000)"
                    + " SELECT count(*) FROM n";
        };
        try (Connection c = g.connect()) {
            long start = System.nanoTime();
            g.refusedUnchanged(Refusal.STATEMENT_TIMEOUT, () -> rows(c, slow));
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
            assertThat(rows(c, "SELECT count(*) FROM many")).containsExactly("30");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void R5_theCostGateExplainsWithoutRunning(Engine engine) throws SQLException {
        Guarded g = Guarded.of(guarded(engine).db, Policy.define(p -> p.table("writing_view")
                .read(r -> r.maxCost(1e9))));
        // EXPLAIN of a view that writes: a plain EXPLAIN does not call the function; the read itself is then
        // stopped by the server.
        refused(g, Refusal.MIXED, "SELECT * FROM writing_view");
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
    }

    @Test
    void R5_explainAnalyzeWhichRunsTheQueryIsRefused() throws SQLException {
        Guarded g = guarded(Engine.POSTGRES);
        refused(g, Refusal.UNSUPPORTED_STATEMENT, "EXPLAIN ANALYZE SELECT * FROM writing_view");
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R1_R2_metadataListsOnlyAllowlistedTablesAndNoSecretColumns(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        String catalog = engine == Engine.MYSQL ? g.db.name() : null;
        String schema = engine == Engine.POSTGRES ? g.db.name() : null;
        try (Connection c = g.connect()) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(names(md.getTables(catalog, schema, "%", null), "TABLE_NAME"))
                    .containsExactlyInAnyOrder("orders", "members", "many", "writing_view");
            assertThat(names(md.getColumns(catalog, schema, "members", "%"), "COLUMN_NAME")).containsExactly("id", "name");
            if (g.db.announcedAsMysql55()) {
                // Measured on MariaDB 10.11: Connector/J's query for the columns of every table is refused in the
                // read-only session (error 1792); a table at a time works. README, "Measured limits". Not on
                // MariaDB 11 or MySQL 8.0.31, which Connector/J asks through information_schema.
                assertThatThrownBy(() -> md.getColumns(catalog, schema, "%", "%")).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            } else {
                assertThat(names(md.getColumns(catalog, schema, "%", "%"), "TABLE_NAME")).doesNotContain("hidden", "write_log")
                        .contains("orders", "members");
            }
            assertThat(names(md.getColumns(catalog, schema, "hidden", "%"), "COLUMN_NAME")).isEmpty();
            assertThat(names(md.getPrimaryKeys(catalog, schema, "orders"), "COLUMN_NAME")).containsExactly("id");
            assertThat(names(md.getPrimaryKeys(catalog, schema, "hidden"), "COLUMN_NAME")).isEmpty();
            assertThat(names(md.getIndexInfo(catalog, schema, "hidden", false, true), "TABLE_NAME")).isEmpty();
            assertThat(names(md.getBestRowIdentifier(catalog, schema, "hidden", DatabaseMetaData.bestRowSession, true),
                    "COLUMN_NAME")).isEmpty();
            // An allowlisted table is answered for, named with its schema or as the session resolves it.
            for (String[] where : new String[][] {{catalog, schema}, {null, null}}) {
                // sqlite-jdbc answers getBestRowIdentifier with no rows for any table (measured, 3.54.1.0).
                assertThat(names(md.getBestRowIdentifier(where[0], where[1], "orders", DatabaseMetaData.bestRowSession,
                        true), "COLUMN_NAME")).as("best row of orders in %s.%s", where[0], where[1])
                        .isEqualTo(engine == Engine.SQLITE ? List.of() : List.of("id"));
                assertThat(names(md.getPrimaryKeys(where[0], where[1], "orders"), "COLUMN_NAME")).containsExactly("id");
            }
        }
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
