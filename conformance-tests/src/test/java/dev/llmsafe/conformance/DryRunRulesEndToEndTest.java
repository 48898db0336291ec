package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The dry run (D1-D16) driven as a user drives it: the application's {@code jdbc:llmsafe:} URL with the
 * planning role of samples/roles, and {@code llmsafe plan}, {@code show}, {@code approve} and
 * {@code apply} in-process on the deployment's configuration file, on every engine. Every refusal is
 * checked for its code and message and for leaving the table as it was; every plan that is applied is
 * checked row by row against the card.
 */
class DryRunRulesEndToEndTest {

    private static final int LOCK_TIMEOUT_MS = 1000;
    private static final int STATEMENT_TIMEOUT_MS = 3000;

    private static final List<String> WRITTEN = List.of("orders", "slots", "d5", "d8", "d8u", "d8m", "d8n", "d12k", "d9", "d14",
            "d15p", "d15s", "d15r", "d15m", "d15v", "vals", "d16");
    /** digits is read, never written: the slow expression's rows on MariaDB (W4: what a write reads is allowlisted). */
    private static final List<String> READ = Stream.concat(WRITTEN.stream(), Stream.of("digits")).toList();

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(DryRunRulesEndToEndTest::schema, READ, WRITTEN,
            // PostgreSQL runs d14's trigger with the planning role's privileges: it needs INSERT on the audit table.
            List.of("d14_audit"), """
              "lockTimeoutMs": %d,
              "statementTimeoutMs": %d,
              "policy": {
                "allow": [%s],
                "impact": {%s},
                "denyIdentifiers": {"api_token": "a bearer token"},
                "autoColumns": {"d8": ["note"], "d8n": []},
                "maxUpdateRows": 3,
                "maxDeleteRows": 2,
                "limits": {"slots": {"maxUpdateRows": 1}}
              }
            """.formatted(LOCK_TIMEOUT_MS, STATEMENT_TIMEOUT_MS,
                    String.join(", ", READ.stream().map(t -> "\"" + t + "\"").toList()),
                    String.join(", ", WRITTEN.stream().map(t -> "\"" + t + "\": \"" + impact(t) + "\"").toList())));

    /** The rows of d16; `at` 2024-12-31 23:30 UTC is already 2025-01-01 in a session at +09:00. */
    private static final String D16_SEED = "INSERT INTO d16 VALUES (1, 100000, 1, 1.5, '2024-02-29 13:45:56', '2024-02-29'),"
            + " (2, 2, 2, 2.5, '2024-12-31 23:30:00', '2024-12-31')";

    private static String impact(String table) {
        return table.equals("orders") ? "Changing an order moves money: the ship date decides the payment month."
                : "Rows of " + table + " decide what the test sees.";
    }

    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(200), qty INT,"
                        + " api_token VARCHAR(40))",
                "INSERT INTO orders VALUES (1, 'packed', NULL, 1, 'tok-1'), (2, 'packed', 'fragile', 2, 'tok-2'),"
                        + " (3, 'shipped', NULL, 3, 'tok-3'), (4, 'open', NULL, 4, 'tok-4'), (5, 'open', NULL, 5, 'tok-5')",
                "CREATE TABLE slots (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO slots VALUES (1, 1), (2, 2), (3, 3), (4, 4)",
                "CREATE TABLE digits (d INT PRIMARY KEY)",
                "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
                "CREATE TABLE d5 (k VARCHAR(10) PRIMARY KEY, v INT)",
                // SQLite lets a primary key column that is not INTEGER hold NULL, several times (D5).
                engine == Engine.SQLITE ? "INSERT INTO d5 VALUES (NULL, 1), (NULL, 2)" : "INSERT INTO d5 VALUES ('a', 1)",
                "CREATE TABLE d8 (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
                "INSERT INTO d8 VALUES (1, 1, 'a'), (2, 1, 'a')",
                "CREATE TABLE d8n (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
                "INSERT INTO d8n VALUES (1, 1, 'a')",
                "CREATE TABLE d12k (api_token VARCHAR(40) PRIMARY KEY, owner VARCHAR(20) NOT NULL, uses INT NOT NULL)",
                "INSERT INTO d12k VALUES ('tok-alpha-1', 'bob', 1), ('tok-beta-2', 'bob', 2), ('tok-gamma-3', 'carol', 3)",
                "CREATE TABLE d8u (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
                "INSERT INTO d8u VALUES (1, 1, 'a')",
                engine == Engine.MYSQL ? "CREATE TABLE d8m (id INT PRIMARY KEY, v INT, updated_at TIMESTAMP(6) NOT NULL"
                        + " DEFAULT '2020-01-01 00:00:00' ON UPDATE CURRENT_TIMESTAMP(6))"
                        : "CREATE TABLE d8m (id INT PRIMARY KEY, v INT, updated_at VARCHAR(30))",
                "INSERT INTO d8m (id, v) VALUES (1, 1)",
                "CREATE TABLE d9 (id INT PRIMARY KEY, v INT)",
                "INSERT INTO d9 VALUES (1, 1)",
                "CREATE TABLE d14 (id INT PRIMARY KEY, v INT)",
                "INSERT INTO d14 VALUES (1, 1), (2, 2)",
                "CREATE TABLE d14_audit (id INT PRIMARY KEY, what VARCHAR(20))",
                "CREATE TABLE d15p (id INT PRIMARY KEY, code VARCHAR(5) NOT NULL UNIQUE, v INT)",
                "INSERT INTO d15p VALUES (1, 'a', 1), (2, 'b', 2)",
                "CREATE TABLE d15c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES d15p (id) ON DELETE CASCADE)",
                "INSERT INTO d15c VALUES (10, 1)",
                "CREATE TABLE d15u (id INT PRIMARY KEY, pcode VARCHAR(5),"
                        + " FOREIGN KEY (pcode) REFERENCES d15p (code) ON UPDATE CASCADE)",
                "INSERT INTO d15u VALUES (20, 'a')",
                "CREATE TABLE d15s (id INT PRIMARY KEY, v INT)",
                "INSERT INTO d15s VALUES (1, 1), (2, 2)",
                "CREATE TABLE d15sn (id INT PRIMARY KEY, sid INT, FOREIGN KEY (sid) REFERENCES d15s (id) ON DELETE SET NULL)",
                "INSERT INTO d15sn VALUES (30, 1)",
                "CREATE TABLE d15r (id INT PRIMARY KEY, v INT)",
                "INSERT INTO d15r VALUES (1, 1), (2, 2)",
                "CREATE TABLE d15rc (id INT PRIMARY KEY, rid INT, FOREIGN KEY (rid) REFERENCES d15r (id) ON DELETE RESTRICT)",
                "INSERT INTO d15rc VALUES (40, 1)",
                "CREATE TABLE d15m (id INT PRIMARY KEY, v INT)" + (engine == Engine.MYSQL ? " ENGINE=MyISAM" : ""),
                "INSERT INTO d15m VALUES (1, 1)",
                engine == Engine.SQLITE ? "CREATE VIRTUAL TABLE d15v USING fts5(body)"
                        : "CREATE TABLE d15v (id INT PRIMARY KEY, body VARCHAR(20))",
                engine == Engine.SQLITE ? "INSERT INTO d15v VALUES ('x')" : "INSERT INTO d15v VALUES (1, 'x')",
                "CREATE TABLE vals (id INT PRIMARY KEY, big BIGINT, amount DECIMAL(38,10), stamp "
                        + switch (engine) {
                            case POSTGRES -> "TIMESTAMP(6), doc JSONB)";
                            case MYSQL -> "DATETIME(6), doc JSON)";
                            case SQLITE -> "DATETIME, doc JSON)";
                        },
                "INSERT INTO vals VALUES (1, 9223372036854775806, 1234567890123456789012345678.0123456788,"
                        + " '2024-02-29 13:45:56.123456', '{\"role\":\"user\"}')",
                "CREATE TABLE d16 (id INT PRIMARY KEY, i4 INT, i8 BIGINT, f8 " + switch (engine) {
                    case POSTGRES -> "DOUBLE PRECISION, at TIMESTAMPTZ(6)";
                    case MYSQL -> "DOUBLE, at TIMESTAMP(6) NULL DEFAULT NULL";
                    case SQLITE -> "REAL, at TEXT";
                } + ", d DATE)",
                D16_SEED));
        switch (engine) {
            case POSTGRES -> sql.addAll(List.of(
                    "CREATE FUNCTION d8_touch() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN NEW.note := 'touched'; RETURN NEW; END $$",
                    "CREATE TRIGGER d8_touch BEFORE UPDATE ON d8 FOR EACH ROW EXECUTE FUNCTION d8_touch()",
                    "CREATE TRIGGER d8u_touch BEFORE UPDATE ON d8u FOR EACH ROW EXECUTE FUNCTION d8_touch()",
                    "CREATE FUNCTION d8n_check() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN IF NEW.v < 0 THEN RAISE EXCEPTION 'negative'; END IF; RETURN NEW; END $$",
                    "CREATE TRIGGER d8n_check BEFORE UPDATE ON d8n FOR EACH ROW EXECUTE FUNCTION d8n_check()",
                    "CREATE RULE d9_nothing AS ON UPDATE TO d9 DO INSTEAD NOTHING",
                    "CREATE FUNCTION d14_log() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN INSERT INTO d14_audit VALUES (OLD.id, 'deleted'); RETURN OLD; END $$",
                    "CREATE TRIGGER d14_log AFTER DELETE ON d14 FOR EACH ROW EXECUTE FUNCTION d14_log()"));
            case MYSQL -> sql.addAll(List.of(
                    "CREATE TRIGGER d8_touch BEFORE UPDATE ON d8 FOR EACH ROW SET NEW.note = 'touched'",
                    "CREATE TRIGGER d8u_touch BEFORE UPDATE ON d8u FOR EACH ROW SET NEW.note = 'touched'",
                    "CREATE TRIGGER d8n_check BEFORE UPDATE ON d8n FOR EACH ROW"
                            + " IF NEW.v < 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'negative'; END IF",
                    "CREATE TRIGGER d14_log AFTER DELETE ON d14 FOR EACH ROW INSERT INTO d14_audit VALUES (OLD.id, 'deleted')"));
            case SQLITE -> sql.addAll(List.of(
                    "CREATE TRIGGER d8_touch AFTER UPDATE OF v ON d8 BEGIN UPDATE d8 SET note = 'touched' WHERE id = NEW.id; END",
                    "CREATE TRIGGER d8u_touch AFTER UPDATE OF v ON d8u BEGIN UPDATE d8u SET note = 'touched' WHERE id = NEW.id; END",
                    "CREATE TRIGGER d8n_check BEFORE UPDATE ON d8n BEGIN SELECT RAISE(ABORT, 'negative') WHERE NEW.v < 0; END",
                    "CREATE TRIGGER d14_log AFTER DELETE ON d14 BEGIN INSERT INTO d14_audit VALUES (OLD.id, 'deleted'); END"));
        }
        return sql;
    }

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    // ---- D1-D3: counted first, against ceilings of their own -------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D1_tooManyMatchingRowsAreRefusedBeforeTheHeavyStatementRuns(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // A SET expression that runs for far longer than the statement bound (D6_aStatementRunningPast...):
        // had the statement run before the count, the refusal would be STATEMENT_TIMEOUT.
        String heavy = "UPDATE slots SET v = " + slowExpression(engine) + " WHERE id <= 2";
        assertRefusal(d.refused(heavy, "slots"), Refusal.TOO_MANY_ROWS, "2 rows of ",
                "more than the 1 a single UPDATE may change");

        Run cli = planRefused(d, "slots", Refusal.TOO_MANY_ROWS, heavy);
        assertThat(cli.err()).contains("more than the 1 a single UPDATE may change");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D2_noMatchingRowIsNoRows(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertRefusal(d.refused("UPDATE orders SET note = 'x' WHERE id = 99", "orders"), Refusal.NO_ROWS,
                "no row of ", "matches the WHERE clause, so there is nothing to change");
        Run cli = planRefused(d, "orders", Refusal.NO_ROWS, "DELETE FROM orders WHERE id = ?", "--param", "99");
        assertThat(cli.err()).contains("nothing to delete");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D3_updateAndDeleteHaveCeilingsOfTheirOwnAndATableCanLowerThem(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertThat(d.propose("UPDATE orders SET note = 'x' WHERE id <= 3", "orders").plan().rowCount()).isEqualTo(3);
        assertRefusal(d.refused("UPDATE orders SET note = 'x' WHERE id <= 4", "orders"), Refusal.TOO_MANY_ROWS,
                "4 rows of ", "more than the 3 a single UPDATE may change");
        PlanPendingException two = d.propose("DELETE FROM orders WHERE id <= 2", "orders");
        assertThat(two.getMessage()).contains("2 rows would be deleted outright");
        assertRefusal(d.refused("DELETE FROM orders WHERE id <= 3", "orders"), Refusal.TOO_MANY_ROWS,
                "3 rows of ", "more than the 2 a single DELETE may delete");
        // policy.limits lowers the UPDATE ceiling of slots to 1; its DELETE ceiling stays the policy's 2.
        assertRefusal(d.refused("UPDATE slots SET v = v + 10 WHERE id <= 2", "slots"), Refusal.TOO_MANY_ROWS,
                "more than the 1 a single UPDATE may change");
        assertThat(d.propose("DELETE FROM slots WHERE id <= 2", "slots").plan().rowCount()).isEqualTo(2);
    }

    // ---- D4, D6, D7: a transaction of its own, bounded, rolled back ---------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D4_theDryRunIsNotNestedInTheCallersOpenTransaction(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("slots");
        try (Connection caller = d.connect()) {
            caller.setAutoCommit(false);
            PlanPendingException pending;
            try (Statement s = caller.createStatement()) {
                s.executeUpdate("UPDATE slots SET v = 33 WHERE id = 3");
                throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
            } catch (PlanPendingException e) {
                pending = e;
            }
            assertThat(d.rows("slots")).isEqualTo(before);
            String id = pending.planId().toString();
            // The caller's transaction is still open. Had the dry run and the plan's storing run in it, the
            // store would not show the plan to another session yet, and the dry run's row lock would still
            // be held: the apply, on a connection of its own, would wait for it and be refused.
            Run show = d.llmsafe("show", id);
            assertThat(show.status()).as(show.all()).isEqualTo(Main.OK);
            assertThat(show.out()).contains("Status: proposed");
            Run apply = d.approveAndApply(id);
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            // The caller ends its own transaction as it likes; the plan is not part of it.
            caller.rollback();
        }
        try {
            assertThat(d.rows("slots")).contains("[3, 33]");
        } finally {
            d.admin("UPDATE slots SET v = 3 WHERE id = 3");
        }
        assertThat(d.rows("slots")).isEqualTo(before);
    }

    /**
     * An application that guards its own pool ({@code LlmSafeDataSource}) lends the dry run that pool's
     * connections. A pool that hands out connections outside auto-commit (Hikari's autoCommit=false,
     * common under an ORM) gives connections whose transaction belongs to the application: the dry run
     * refuses to nest in one, and says why.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D4_aBorrowedConnectionInsideATransactionIsNestingRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        Path file = d.home().resolve("app-llmsafe.json");
        JsonNode connection = new ObjectMapper().readTree(file.toFile()).get("connection");
        List<String> before = d.rows("slots");
        for (boolean autoCommit : List.of(false, true)) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(connection.get("url").asText());
            if (connection.has("user")) {
                config.setUsername(connection.get("user").asText());
                config.setPassword(connection.get("password").asText());
            }
            config.setMaximumPoolSize(3);
            config.setAutoCommit(autoCommit);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                LlmSafeDataSource guarded = new LlmSafeDataSource(pool, LlmSafeConfig.load(file));
                try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE slots SET v = 44 WHERE id = 4");
                    throw new AssertionError("the UPDATE ran through LlmSafeDataSource instead of becoming a plan");
                } catch (PlanPendingException e) {
                    assertThat(autoCommit).as("planned on a connection inside a transaction: " + e.getMessage()).isTrue();
                    assertThat(e.getMessage()).contains("  id = 4\n    v: 4 -> 44\n");
                } catch (RefusedException e) {
                    assertThat(autoCommit).as(e.getMessage()).isFalse();
                    assertRefusal(e, Refusal.NESTING_REFUSED, "inside a transaction it does not own");
                } finally {
                    guarded.close();
                }
            }
            assertThat(d.rows("slots")).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_aRowLockedByAnotherSessionIsRefusedAtTheConfiguredLockTimeout(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("slots");
        try (Connection other = d.app().connect()) {
            other.setAutoCommit(false);
            try (Statement s = other.createStatement()) {
                // SQLite locks the whole database for a writer, whatever the row.
                s.executeUpdate(engine == Engine.SQLITE ? "UPDATE slots SET v = v WHERE id = 1"
                        : "UPDATE slots SET v = v + 100 WHERE id = 1");
            }
            long start = System.nanoTime();
            RefusedException e = d.refused("UPDATE slots SET v = 10 WHERE id = 1", "slots");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertRefusal(e, Refusal.LOCK_TIMEOUT, "is locked by another session for longer than " + LOCK_TIMEOUT_MS + " ms",
                    "Nothing was changed");
            assertThat(ms).as("refused at the bound, not a hang").isGreaterThanOrEqualTo(LOCK_TIMEOUT_MS - 100).isLessThan(8_000);

            Run cli = planRefused(d, "slots", Refusal.LOCK_TIMEOUT, "UPDATE slots SET v = 10 WHERE id = 1");
            assertThat(cli.err()).contains("longer than " + LOCK_TIMEOUT_MS + " ms");
            other.rollback();
        }
        assertThat(d.rows("slots")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D6_aStatementRunningPastTheConfiguredBoundIsStopped(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        long start = System.nanoTime();
        RefusedException e = d.refused("UPDATE slots SET v = " + slowExpression(engine) + " WHERE id = 2", "slots");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertRefusal(e, Refusal.STATEMENT_TIMEOUT, "ran longer than " + STATEMENT_TIMEOUT_MS + " ms and was stopped",
                "Nothing was changed");
        assertThat(ms).as("stopped at the bound").isLessThan(STATEMENT_TIMEOUT_MS + 6_000);
    }

    /**
     * D7's failure path (a ROLLBACK that commits) cannot be provoked through the URL or the command
     * line without sabotaging the vendor driver (PlannerConcurrencyTest does it with a proxy). End to
     * end: after a plan the rows are as they were, the card says the change was measured and rolled
     * back, and while the application's connection (and so the engine's dry-run pool) is still open,
     * another session writes the same rows at once: no transaction of the dry run was left holding them.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D7_afterEveryPlanTheRowsAreAsTheyWereAndNothingIsLeftLocked(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> slots = d.rows("slots");
        List<String> orders = d.rows("orders");
        try (Connection app = d.connect()) {
            String card;
            try (Statement s = app.createStatement()) {
                s.executeUpdate("DELETE FROM orders WHERE id = 5");
                throw new AssertionError("the DELETE ran through jdbc:llmsafe: instead of becoming a plan");
            } catch (PlanPendingException e) {
                card = e.getMessage();
            }
            assertThat(card).contains("Nothing in the database has changed.")
                    .contains("Measured by running the statement and rolling back\n  id = 5  (deleted)\n");
            assertThat(d.rows("orders")).isEqualTo(orders);
            // The application's connection is still open, and with it the engine's pool.
            writeAtOnce(d, "UPDATE orders SET qty = 55 WHERE id = 5");
        }
        Run update = d.plan("UPDATE slots SET v = ? WHERE id = ?", "--param", "70", "--param", "4");
        assertThat(update.status()).as(update.all()).isEqualTo(Main.OK);
        assertThat(update.out()).contains("Nothing in the database has changed.")
                .contains("Measured by running the statement and rolling back\n  id = 4\n    v: 4 -> 70\n");
        writeAtOnce(d, "UPDATE slots SET v = 71 WHERE id = 4");
        assertThat(d.rows("slots")).isEqualTo(slots);
        assertThat(d.rows("orders")).isEqualTo(orders);
    }

    /** Another session writes, with a short lock wait of its own, and rolls back. */
    private static void writeAtOnce(Deployed d, String sql) throws SQLException {
        try (Connection other = d.app().connect(); Statement s = other.createStatement()) {
            switch (d.engine()) {
                case POSTGRES -> s.execute("SET lock_timeout = '500ms'");
                case MYSQL -> s.execute("SET SESSION innodb_lock_wait_timeout = 1");
                case SQLITE -> s.execute("PRAGMA busy_timeout = 500");
            }
            other.setAutoCommit(false);
            assertThat(s.executeUpdate(sql)).isEqualTo(1);
            other.rollback();
        }
    }

    // ---- D5: keys ------------------------------------------------------------------------------

    /** Only SQLite lets a primary key hold the same value (NULL) twice; PostgreSQL and MariaDB refuse the rows. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void D5_rowsWhoseKeysAreNotDistinctAreRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertRefusal(d.refused("UPDATE d5 SET v = 3 WHERE k IS NULL", "d5"), Refusal.KEY_NOT_UNIQUE,
                "the 2 rows matched in ", "have only 1 distinct keys");
        planRefused(d, "d5", Refusal.KEY_NOT_UNIQUE, "DELETE FROM d5 WHERE v IN (1, 2)");
    }

    // ---- D8: columns the database maintains ------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D8_aTriggerThatMayChangeColumnsIsRefusedUntilTheyAreDeclared(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertRefusal(d.refused("UPDATE d8u SET v = 2 WHERE id = 1", "d8u"), Refusal.AUTO_COLUMNS_UNKNOWN,
                "the trigger d8u_touch on ", "Declare them in policy.autoColumns");
    }

    /**
     * A declared trigger column is maintained by the database: a line of its own on the card, no value, not
     * in changedColumns, set by the trigger at apply. On SQLite the trigger writes the row with an UPDATE of
     * its own, which total_changes() counts as a second write and the update hook shows is the same row (D14).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D8_D14_declaredAutoColumnsAreMaintainedByTheDatabaseAndApplied(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        Cycle c = cycle(d, () -> { }, () -> { }, "UPDATE d8 SET v = ? WHERE id = ?", "--param", "2", "--param", "2");
        assertThat(c.plan().out()).contains("  1 row would change, in 1 column: v\n  Maintained by the database, not set"
                        + " by this statement: note. The database sets it again at apply; the value is not shown here and"
                        + " not checked.\n")
                .contains("  id = 2\n    v: 1 -> 2\n\n").doesNotContain("touched")
                .contains("Warnings\n  - The trigger d8_touch (");
        JsonNode statement = showJson(d, EndToEnd.planId(c.plan())).get("plan").get("statements").get(0);
        assertThat(texts(statement.get("changedColumns"))).containsExactly("v");
        assertThat(texts(statement.get("autoColumns"))).containsExactly("note");
        assertThat(c.apply().status()).as(c.apply().all()).isEqualTo(Main.OK);
        assertThat(d.rows("d8")).containsExactly("[1, 1, a]", "[2, 2, touched]");
    }

    /** An empty autoColumns list declares that the table's triggers change no column: planned, and applied. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D8_anEmptyAutoColumnsListDeclaresATriggerThatChangesNoColumn(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        Cycle c = cycle(d, () -> { }, () -> { }, "UPDATE d8n SET v = 5 WHERE id = 1");
        assertThat(c.plan().out()).contains("  1 row would change, in 1 column: v\n").contains("    v: 1 -> 5\n")
                .doesNotContain("Maintained by the database");
        assertThat(c.apply().status()).as(c.apply().all()).isEqualTo(Main.OK);
        assertThat(d.rows("d8n")).containsExactly("[1, 5, a]");
        d.admin("UPDATE d8n SET v = 1 WHERE id = 1");
    }

    /** ON UPDATE CURRENT_TIMESTAMP is a MySQL/MariaDB column attribute; the catalog reports it. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void D8_anOnUpdateColumnIsReportedByTheCatalogWithoutADeclaration(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        Cycle c = cycle(d, () -> { }, () -> { }, "UPDATE d8m SET v = 2 WHERE id = 1");
        assertThat(c.plan().out()).contains("1 row would change, in 1 column: v\n  Maintained by the database, not set by"
                + " this statement: updated_at.").doesNotContain("updated_at: ").doesNotContain("2020-01-01");
        assertThat(c.apply().status()).as(c.apply().all()).isEqualTo(Main.OK);
        List<String> rows = d.rows("d8m");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).startsWith("[1, 2, ").doesNotContain("2020-01-01");
    }

    // ---- D9, D14: the database's own counts ------------------------------------------------------

    /**
     * A rewrite rule that swallows the UPDATE is PostgreSQL's; MariaDB has none, and SQLite's count is
     * taken from changes() (see D9_D14 below, where sqlite-jdbc's own count includes the trigger's rows).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "POSTGRES")
    void D9_theDatabasesOwnCountMustMatchTheRowsShown(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertRefusal(d.refused("UPDATE d9 SET v = 2 WHERE id = 1", "d9"), Refusal.ROW_COUNT_MISMATCH,
                "the database reports 0 rows affected where 1 rows matched");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D9_D14_aTriggerWritingAnotherTableIsMeasuredAndRefusedWithItsCounts(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> audit = d.rows("d14_audit");
        String counts = switch (engine) {
            case POSTGRES -> "d14_audit: 2 inserted, 0 updated, 0 deleted";
            case MYSQL -> "the session wrote 2 inserted, 0 updated, 2 deleted where the card shows 2 deleted";
            case SQLITE -> "4 rows written where the card shows 2";
        };
        // Not ROW_COUNT_MISMATCH: on SQLite the driver's count (4) includes the trigger's rows, changes() does not.
        assertRefusal(d.refused("DELETE FROM d14 WHERE id IN (1, 2)", "d14"), Refusal.SIDE_EFFECTS,
                counts, "Nothing was kept: it was rolled back");
        Run cli = planRefused(d, "d14", Refusal.SIDE_EFFECTS, "DELETE FROM d14 WHERE id = ?", "--param", "1");
        assertThat(cli.err()).contains(switch (engine) {
            case POSTGRES -> "d14_audit: 1 inserted, 0 updated, 0 deleted";
            case MYSQL -> "the session wrote 1 inserted, 0 updated, 1 deleted where the card shows 1 deleted";
            case SQLITE -> "2 rows written where the card shows 1";
        });
        assertThat(d.rows("d14_audit")).isEqualTo(audit).isEmpty();
    }

    /**
     * MariaDB's measure is the session's own status counters (SPEC.md F39 to F42), which need no
     * privilege: the planning role of samples/roles holds no PROCESS (which would show it every
     * session's statements) and plans.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void D14_theMeasureNeedsNoPrivilegeBeyondTheTablesOnMariadb(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String plan = "'" + d.roles().login(Role.PLAN).name() + "'@'%'";
        try (Connection c = d.app().connect(); java.sql.PreparedStatement ps = c.prepareStatement("SELECT COUNT(*)"
                + " FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ? AND PRIVILEGE_TYPE = 'PROCESS'")) {
            ps.setString(1, plan);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("PROCESS held by " + plan).isZero();
            }
        }
        List<String> before = d.rows("slots");
        PlanCommands.proposed(d.plan("UPDATE slots SET v = 20 WHERE id = 2"));
        assertThat(d.rows("slots")).isEqualTo(before);
    }

    // ---- D10: no change ------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D10_anUpdateThatChangesNothingIsNoChange(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        assertRefusal(d.refused("UPDATE orders SET status = status WHERE id IN (1, 2)", "orders"),
                Refusal.NO_CHANGE, "matches 2 rows of ", "changes no value in any of them");
        planRefused(d, "orders", Refusal.NO_CHANGE, "UPDATE orders SET status = ? WHERE id = ?", "--param", "packed",
                "--param", "1");
        // Rows that match without changing are shown as such next to the ones that change.
        PlanPendingException mixed = d.propose("UPDATE orders SET status = 'packed' WHERE id IN (1, 4)", "orders");
        assertThat(mixed.getMessage()).contains("  id = 1\n    (matched, but no value changes)\n")
                .contains("  id = 4\n    status: 'open' -> 'packed'\n");
    }

    // ---- D11, D12: a DELETE keeps every column; secrets by hash ---------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D11_D12_aDeleteShowsEveryColumnASecretAsAHashAndApplyComparesThemAll(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        Run plan = d.plan("DELETE FROM orders WHERE id = ?", "--param", "1");
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        assertThat(plan.out()).contains("1 row would be deleted outright, with every value shown below")
                .contains("  id = 1  (deleted)\n    id: 1\n    status: 'packed'\n    note: NULL\n    qty: 1\n"
                        + "    api_token: <masked>\n")
                .doesNotContain("tok-1");
        JsonNode statement = showJson(d, EndToEnd.planId(plan)).get("plan").get("statements").get(0);
        assertThat(statement.get("kind").asText()).isEqualTo("DELETE");
        assertThat(texts(statement.get("changedColumns"))).containsExactly("id", "status", "note", "qty", "api_token");
        JsonNode columns = statement.get("rows").get(0).get("columns");
        assertThat(columns.get(2).get("before").toString()).isEqualTo("{\"t\":\"null\"}");
        assertThat(columns.get(4).get("before").toString())
                .isEqualTo("{\"t\":\"masked\",\"alg\":\"sha256\",\"v\":\"" + sha256("{\"t\":\"text\",\"v\":\"tok-1\"}") + "\"}");
        assertThat(plan.out() + showJson(d, EndToEnd.planId(plan))).doesNotContain("tok-1");

        try {
            // D11: a column the DELETE does not name, changed after approval, stops the apply.
            Cycle note = cycle(d, () -> d.admin("UPDATE orders SET note = 'late' WHERE id = 1"),
                    () -> d.admin("UPDATE orders SET note = NULL WHERE id = 1"), "DELETE FROM orders WHERE id = ?",
                    "--param", "1");
            assertRefused(note.apply(), Refusal.ROW_CHANGED, "note is now 'late', the card showed NULL");
            assertThat(d.rows("orders")).isEqualTo(before);
            // D12: so does the secret, compared by its hash.
            Cycle secret = cycle(d, () -> d.admin("UPDATE orders SET api_token = 'tok-9' WHERE id = 1"),
                    () -> d.admin("UPDATE orders SET api_token = 'tok-1' WHERE id = 1"), "DELETE FROM orders WHERE id = ?",
                    "--param", "1");
            assertRefused(secret.apply(), Refusal.ROW_CHANGED, "api_token is now <masked>");
            assertThat(secret.apply().err()).doesNotContain("tok-");
            assertThat(d.rows("orders")).isEqualTo(before);
            // Unchanged, the row is deleted exactly.
            Cycle applied = cycle(d, () -> { }, () -> { }, "DELETE FROM orders WHERE id = ?", "--param", "1");
            assertThat(applied.apply().status()).as(applied.apply().all()).isEqualTo(Main.OK);
            assertThat(d.rows("orders")).isEqualTo(before.subList(1, before.size()));
        } finally {
            d.admin("DELETE FROM orders WHERE id = 1", "INSERT INTO orders VALUES (1, 'packed', NULL, 1, 'tok-1')");
        }
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    /**
     * D12: a table whose primary key is a secret column. Through the URL, whose configuration has no seal
     * key, it is refused; with a seal key the card and the JSON show each key withheld as a keyed hash, the
     * store's sealed plan alone holds the value, and the DELETE applies exactly.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D12_aDeleteOnATableWhoseKeyIsSecretIsPlannedWithTheKeyWithheldAndApplied(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("d12k");
        assertRefusal(d.refused("DELETE FROM d12k WHERE owner = 'bob'", "d12k"), Refusal.DENIED_IDENTIFIER,
                "is a secret identifier", "no seal key is configured");
        String sealed = PlanCommands.variant(d, "d12-sealed", PlanCommands.top("\"sealKey\": \"a-seal-key-of-32-characters-long\""));
        Run plan = d.plan("--config", sealed, "DELETE FROM d12k WHERE owner = ?", "--param", "bob");
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        String id = EndToEnd.planId(plan);
        try {
            assertThat(plan.out()).containsPattern("  api_token = <withheld, hmac-sha256 [0-9a-f]{16}>  \\(deleted\\)\n"
                    + "    api_token: <masked>\n    owner: 'bob'\n    uses: 1\n").doesNotContain("tok-");
            Run show = d.llmsafe("show", id, "--json", "--config", sealed);
            assertThat(show.status()).as(show.all()).isEqualTo(Main.OK);
            assertThat(show.out()).doesNotContain("tok-").doesNotContain("withheldKey").contains("hmac-sha256");
            assertThat(StoreAdmin.get(d, id, "plan_json")).contains("\"withheldKey\":{\"api_token\":{\"t\":\"text\","
                    + "\"v\":\"tok-alpha-1\"}}");
            assertThat(d.llmsafe("approve", id, "--as", "alice", "--config", sealed).status()).isEqualTo(Main.OK);
            Run apply = d.llmsafe("apply", id, "--as", "bob", "--config", sealed);
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            assertThat(d.rows("d12k")).containsExactly(before.get(2));
        } finally {
            StoreAdmin.remove(d, List.of(id));
            d.admin("DELETE FROM d12k", "INSERT INTO d12k VALUES ('tok-alpha-1', 'bob', 1), ('tok-beta-2', 'bob', 2),"
                    + " ('tok-gamma-3', 'carol', 3)");
        }
    }

    // ---- D13: values exactly -------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D13_exactValuesAreShownOnTheCardAndAppliedExactly(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // SQLite stores a DECIMAL(38,10) as a REAL (F13): there is no exact decimal there to show.
        boolean decimals = engine != Engine.SQLITE;
        String sql = "UPDATE vals SET big = 9223372036854775807, "
                + (decimals ? "amount = 1234567890123456789012345678.0123456789, " : "")
                + "stamp = '2024-02-29 13:45:56.123457', doc = '{\"role\":\"admin\"}' WHERE id = 1";
        Cycle c = cycle(d, () -> { }, () -> { }, sql);
        String card = c.plan().out();
        assertThat(card).contains("    big: 9223372036854775806 -> 9223372036854775807\n")
                // PostgreSQL's JSONB in its canonical form; JSON as it was written.
                .contains("    doc: {\"role\":\"user\"} -> {\"role\":\"admin\"}\n")
                .contains(engine == Engine.SQLITE ? "    stamp: '2024-02-29 13:45:56.123456' -> '2024-02-29 13:45:56.123457'\n"
                        : "    stamp: 2024-02-29T13:45:56.123456 -> 2024-02-29T13:45:56.123457\n");
        if (decimals) {
            assertThat(card).contains("    amount: 1234567890123456789012345678.0123456788 -> "
                    + "1234567890123456789012345678.0123456789\n");
        }
        assertThat(c.apply().status()).as(c.apply().all()).isEqualTo(Main.OK);
        try (Statement s = d.app().admin().createStatement();
             ResultSet rs = s.executeQuery("SELECT big, amount, stamp, doc FROM vals WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(Long.MAX_VALUE);
            if (decimals) {
                assertThat(rs.getBigDecimal(2)).isEqualTo(new java.math.BigDecimal("1234567890123456789012345678.0123456789"));
            }
            assertThat(rs.getString(3)).isEqualTo("2024-02-29 13:45:56.123457");
            // PostgreSQL's JSONB and MySQL's JSON print the parsed document back normalised; MariaDB and SQLite keep the text.
            assertThat(rs.getString(4)).isEqualTo(d.flavor() == Flavor.POSTGRES || d.flavor() == Flavor.MYSQL
                    ? "{\"role\": \"admin\"}" : "{\"role\":\"admin\"}");
        } finally {
            d.admin("UPDATE vals SET big = 9223372036854775806, amount = 1234567890123456789012345678.0123456788,"
                    + " stamp = '2024-02-29 13:45:56.123456', doc = '{\"role\":\"user\"}' WHERE id = 1");
        }
    }

    // ---- D15: what cannot roll back or would cascade ------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D15_anInboundCascadeIsRefusedAndAWriteThatCascadesNothingIsPlanned(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> children = d.rows("d15c");
        List<String> codes = d.rows("d15u");
        assertRefusal(d.refused("DELETE FROM d15p WHERE id = 1", "d15p"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15c", "(pid) is ON DELETE CASCADE");
        assertRefusal(d.refused("UPDATE d15p SET code = 'z' WHERE id = 1", "d15p"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15u", "(pcode) is ON UPDATE CASCADE");
        planRefused(d, "d15p", Refusal.CASCADE_SIDE_EFFECTS, "DELETE FROM d15p WHERE id = ?", "--param", "2");
        assertThat(d.propose("UPDATE d15p SET v = 5 WHERE id = 1", "d15p").getMessage()).contains("v: 1 -> 5");
        assertThat(d.rows("d15c")).isEqualTo(children);
        assertThat(d.rows("d15u")).isEqualTo(codes);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D15_anInboundSetNullIsRefusedAndARestrictIsNot(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> children = d.rows("d15sn");
        assertRefusal(d.refused("DELETE FROM d15s WHERE id = 2", "d15s"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15sn", "(sid) is ON DELETE SET NULL");
        assertThat(d.rows("d15sn")).isEqualTo(children);
        // RESTRICT changes no row of the child: a DELETE of a row no child references is planned.
        PlanPendingException restrict = d.propose("DELETE FROM d15r WHERE id = 2", "d15r");
        assertThat(restrict.getMessage()).contains("  id = 2  (deleted)\n");
    }

    /** MyISAM is MariaDB's and MySQL's; SQLite's equivalent is a virtual table; PostgreSQL's a foreign table (not set up here). */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL", "SQLITE"})
    void D15_aTableThatCannotRollBackIsNotTransactional(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        if (engine == Engine.MYSQL) {
            assertRefusal(d.refused("UPDATE d15m SET v = 2 WHERE id = 1", "d15m"), Refusal.NOT_TRANSACTIONAL,
                    "stored by MyISAM, which a ROLLBACK cannot undo");
            assertThat(d.rows("d15m")).containsExactly("[1, 1]");
        } else {
            assertRefusal(d.refused("UPDATE d15v SET body = 'y' WHERE rowid = 1", "d15v"), Refusal.NOT_TRANSACTIONAL,
                    "which a ROLLBACK cannot undo");
        }
    }

    /**
     * On MariaDB the planning role sees the cascade rules only through REFERENCES ON db.*, on MySQL the
     * foreign key's columns only through SELECT (or REFERENCES) ON db.* (F21): the role's grant of each
     * (samples/roles) taken away, the plan is refused.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void D15_aCatalogTheCredentialCannotFullySeeIsCascadesUnknown(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String privilege = catalogPrivilege(d);
        String grant = privilege + " ON `" + d.app().name() + "`.*";
        String plan = "'" + d.roles().login(Role.PLAN).name() + "'@'%'";
        d.admin("REVOKE " + grant + " FROM " + plan);
        try {
            Run cli = planRefused(d, "d15p", Refusal.CASCADES_UNKNOWN, "UPDATE d15p SET v = 7 WHERE id = 2");
            assertThat(cli.err()).contains("GRANT " + privilege);
        } finally {
            d.admin("GRANT " + grant + " TO " + plan);
        }
    }

    /**
     * D15, E1: the planning role's REFERENCES given on a database pattern ({@code app\_%}) instead of the
     * database's name is seen as the server sees it: plans are made, cascades still refused, and check
     * calls the table ready (measured on MariaDB 10.11, where such a grant shows the rules; on MySQL the
     * grants are SELECT, which shows the foreign key's columns, and TRIGGER: measured on 8.0.31 and 9.7.4).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void D15_E1_aDatabaseGrantOnAPatternIsSeenAsTheServerSeesIt(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // Every database-level grant of the role moves to the pattern: a grant naming the database exactly
        // would decide alone (MysqlGrants), and MySQL's role has TRIGGER there too.
        String privilege = d.flavor() == Flavor.MYSQL ? "SELECT, TRIGGER" : catalogPrivilege(d);
        String exact = privilege + " ON `" + d.app().name() + "`.*";
        String escaped = d.app().name().replace("_", "\\_");
        String pattern = privilege + " ON `" + escaped.substring(0, escaped.length() - 2) + "%`.*";
        String plan = "'" + d.roles().login(Role.PLAN).name() + "'@'%'";
        d.admin("REVOKE " + exact + " FROM " + plan, "GRANT " + pattern + " TO " + plan);
        try {
            List<String> before = d.rows("d15p");
            Run update = d.plan("UPDATE d15p SET v = 7 WHERE id = 2");
            assertThat(update.status()).as(update.all()).isEqualTo(Main.OK);
            assertThat(update.out()).contains("v: 2 -> 7");
            assertRefused(d.plan("DELETE FROM d15p WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS, "(pid) is ON DELETE CASCADE");
            assertThat(d.rows("d15p")).isEqualTo(before);
            Run check = d.llmsafe("check");
            assertThat(check.out()).as(check.all()).contains("d15p: ").doesNotContain("cannot see all");
        } finally {
            d.admin("REVOKE " + pattern + " FROM " + plan, "GRANT " + exact + " TO " + plan);
        }
    }

    /** The database-level grant of samples/roles that shows the planning role inbound foreign keys (F21). */
    private static String catalogPrivilege(Deployed d) {
        return d.flavor() == Flavor.MYSQL ? "SELECT" : "REFERENCES";
    }

    // ---- D16: parameters -------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_preparedStatementParametersAreOnTheCardAndReusedExactlyAtApply(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        String sql = "UPDATE orders SET note = ?, qty = ? WHERE id = ? AND status = ?";
        try {
            PlanPendingException pending;
            try (Connection c = d.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, "it's");
                ps.setLong(2, 40L);
                ps.setInt(3, 2);
                ps.setString(4, "packed");
                ps.executeUpdate();
                throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
            } catch (PlanPendingException e) {
                pending = e;
            }
            assertThat(d.rows("orders")).isEqualTo(before);
            assertThat(pending.getMessage()).contains("  " + sql + "      [1: 'it''s' (setString), 2: 40 (setLong), 3: 2 (setInt),"
                    + " 4: 'packed' (setString)]\n")
                    .contains("  id = 2\n    note: 'fragile' -> 'it''s'\n    qty: 2 -> 40\n");
            String id = pending.planId().toString();
            JsonNode params = showJson(d, id).get("plan").get("statements").get(0).get("parameters");
            assertThat(params.toString()).isEqualTo("[{\"setter\":\"SET_STRING\",\"class\":\"java.lang.String\","
                    + "\"value\":\"it's\"},{\"setter\":\"SET_LONG\",\"class\":\"java.lang.Long\",\"value\":\"40\"},"
                    + "{\"setter\":\"SET_INT\",\"class\":\"java.lang.Integer\",\"value\":\"2\"},"
                    + "{\"setter\":\"SET_STRING\",\"class\":\"java.lang.String\",\"value\":\"packed\"}]");
            Run apply = d.approveAndApply(id);
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            assertThat(apply.out()).contains("is applied: 1 row committed, exactly as the card showed.");
            List<String> expected = new ArrayList<>(before);
            expected.set(1, "[2, packed, it's, 40, tok-2]");
            assertThat(d.rows("orders")).isEqualTo(expected);
        } finally {
            d.admin("UPDATE orders SET note = 'fragile', qty = 2 WHERE id = 2");
        }
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    /** Binds a statement's parameters, as an application does. */
    private interface Bind {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /**
     * The same statement bound the same way, run raw on the administrator's connection in a transaction
     * that is rolled back: the rows it leaves in d16, or the database's error.
     */
    private static Object rawRun(Deployed d, String sql, Bind bind) throws SQLException {
        Connection c = d.app().admin();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind.bind(ps);
            ps.executeUpdate();
            return d.rows("d16");
        } catch (SQLException e) {
            return e;
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /** Proposes through the application's connection and, for a plan, approves and applies it with the CLI. */
    private static Object proposeAndApply(Deployed d, Connection app, String sql, Bind bind) throws Exception {
        PlanPendingException pending;
        try (PreparedStatement ps = app.prepareStatement(sql)) {
            bind.bind(ps);
            ps.executeUpdate();
            throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            pending = e;
        } catch (RefusedException e) {
            return e;
        }
        Run apply = d.approveAndApply(pending.planId().toString());
        assertThat(apply.status()).as(sql + "\n" + pending.getMessage() + "\n" + apply.all()).isEqualTo(Main.OK);
        return pending;
    }

    /**
     * Issue 14's measured cases, end to end: each statement bound through jdbc:llmsafe: as the application
     * binds it, planned, approved and applied with the command line, ends with the rows the same statement
     * bound the same way leaves when run raw; one the database rejects raw is refused with its reason.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_parametersAreReplayedThroughTheApplicationsOwnSetterUpToTheApply(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> seeded = d.rows("d16");
        boolean sqlType = engine == Engine.MYSQL;
        Bind typed = ps -> ps.setObject(1, 42, java.sql.JDBCType.INTEGER);
        List<Object[]> cases = List.of(
                new Object[] {"UPDATE d16 SET i8 = i4 * ? WHERE id = 1", (Bind) ps -> ps.setInt(1, 100000), null},
                new Object[] {"UPDATE d16 SET f8 = ? WHERE id = 2", (Bind) ps -> ps.setFloat(1, 0.1f), null},
                new Object[] {"UPDATE d16 SET i4 = ? WHERE id = 2", (Bind) ps -> ps.setObject(1, "12", java.sql.Types.INTEGER),
                        null},
                new Object[] {"UPDATE d16 SET i4 = 7 WHERE id = 2 AND ? IS NULL",
                        (Bind) ps -> ps.setNull(1, java.sql.Types.INTEGER), null},
                // pgjdbc and sqlite-jdbc do not implement the SQLType form: llmsafe binds it as the int form.
                new Object[] {"UPDATE d16 SET i4 = ? WHERE id = 1", typed,
                        sqlType ? typed : (Bind) ps -> ps.setObject(1, 42, java.sql.Types.INTEGER)},
                new Object[] {"UPDATE d16 SET i8 = i4 * ? WHERE id = 1 AND ? IS NOT NULL", (Bind) ps -> {
                    ps.setLong(1, 3L);
                    ps.setTimestamp(2, java.sql.Timestamp.valueOf("2024-01-01 00:00:00"));
                }, null});
        try (Connection app = d.connect()) {
            for (Object[] k : cases) {
                String sql = (String) k[0];
                Bind bind = (Bind) k[1];
                Object raw = rawRun(d, sql, k[2] == null ? bind : (Bind) k[2]);
                Object outcome = proposeAndApply(d, app, sql, bind);
                if (raw instanceof SQLException rejected) {
                    assertThat(outcome).as(sql + ": raw rejected it (" + rejected.getMessage() + ")")
                            .isInstanceOf(RefusedException.class);
                    // The dry run's count binds only the WHERE's parameters, so PostgreSQL numbers them from there.
                    // R10: a reason that can carry values is given by its SQLState only.
                    String reason = dev.llmsafe.DatabaseErrors.mayCarryValues(rejected) ? "SQLState " + rejected.getSQLState()
                            : rejected.getMessage().lines().findFirst().orElse("").replaceAll("\\$\\d+", "\\$n");
                    assertThat(((RefusedException) outcome).getMessage().replaceAll("\\$\\d+", "\\$n")).contains(reason);
                    assertThat(d.rows("d16")).isEqualTo(seeded);
                } else {
                    assertThat(outcome).as(sql + ": " + outcome).isInstanceOf(PlanPendingException.class);
                    assertThat(d.rows("d16")).as(sql + ": the applied rows are the raw run's").isEqualTo(raw);
                }
                d.admin("DELETE FROM d16", D16_SEED);
            }
        } finally {
            d.admin("DELETE FROM d16", D16_SEED);
        }
        if (engine == Engine.POSTGRES) {
            // The measured case: planned and committed before, rejected by the database raw.
            assertThat(rawRun(d, "UPDATE d16 SET i8 = i4 * ? WHERE id = 1", ps -> ps.setInt(1, 100000)))
                    .isInstanceOf(SQLException.class);
        }
    }

    /**
     * D17 end to end: the application's session decides what `DATE(at)` is. On MariaDB the application
     * connects at +09:00 (Connector/J connectionTimeZone with forceConnectionTimeZoneToSession); on
     * PostgreSQL pgjdbc gives the session the JVM's zone, Asia/Tokyo while the application connects. The
     * command line applies from a connection whose own session is at UTC, and writes what the card showed.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D17_theDryRunAndTheApplyRunInTheApplicationsSessionSettings(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String sql = switch (engine) {
            case POSTGRES -> "UPDATE d16 SET d = CAST(at AS DATE) WHERE id = 2";
            case MYSQL -> "UPDATE d16 SET d = DATE(at) WHERE id = 2";
            case SQLITE -> "UPDATE d16 SET i4 = 16 WHERE id = 2";
        };
        java.util.TimeZone zone = java.util.TimeZone.getDefault();
        Object outcome;
        try {
            Connection app;
            if (engine == Engine.POSTGRES) {
                java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Asia/Tokyo"));
                app = d.connect();
                java.util.TimeZone.setDefault(zone);
            } else if (engine == Engine.MYSQL) {
                java.util.Properties credential = new java.util.Properties();
                credential.setProperty("user", d.roles().login(Role.PLAN).name());
                credential.setProperty("password", d.roles().login(Role.PLAN).password());
                app = java.sql.DriverManager.getConnection(d.url()
                        + "&connectionTimeZone=%2B09:00&forceConnectionTimeZoneToSession=true", credential);
            } else {
                app = d.connect();
            }
            try (app) {
                outcome = proposeAndApply(d, app, sql, ps -> { });
            }
            assertThat(outcome).as(String.valueOf(outcome)).isInstanceOf(PlanPendingException.class);
            PlanPendingException pending = (PlanPendingException) outcome;
            JsonNode settings = showJson(d, pending.planId().toString()).get("plan").get("session").get("settings");
            switch (engine) {
                case POSTGRES -> {
                    assertThat(settings.get("TimeZone").asText()).isEqualTo("Asia/Tokyo");
                    assertThat(pending.getMessage()).contains("    d: 2024-12-31 -> 2025-01-01\n");
                    assertThat(d.rows("d16").get(1)).endsWith(", 2025-01-01]");
                }
                case MYSQL -> {
                    assertThat(settings.get("time_zone").asText()).isEqualTo("+09:00");
                    assertThat(pending.getMessage()).contains("    d: 2024-12-31 -> 2025-01-01\n");
                    assertThat(d.rows("d16").get(1)).endsWith(", 2025-01-01]");
                }
                case SQLITE -> assertThat(settings.get("foreign_keys").asText()).isEqualTo("0");
            }
        } finally {
            java.util.TimeZone.setDefault(zone);
            d.admin("DELETE FROM d16", D16_SEED);
        }
    }

    /**
     * JSON is compared by what the database keeps: PostgreSQL's JSONB and MySQL's JSON keep content (other
     * whitespace is no change at all), MariaDB's JSON and SQLite keep the text as written (other whitespace is a change
     * of the stored text, and the card shows it).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D10_D13_jsonIsComparedByWhatTheDatabaseKeeps(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String spaced = "UPDATE vals SET doc = '{\"role\": \"user\"}' WHERE id = 1";
        if (d.flavor() == Flavor.POSTGRES || d.flavor() == Flavor.MYSQL) {
            // JSONB and MySQL's JSON keep the parsed document: the spacing is not a change.
            assertRefusal(d.refused(spaced, "vals"), Refusal.NO_CHANGE, "changes no value");
        } else {
            assertThat(d.propose(spaced, "vals").getMessage())
                    .contains("    doc: {\"role\":\"user\"} -> {\"role\": \"user\"}\n");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_commandLineParametersBindAsDocumentedAndAreReusedAtApply(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> orders = d.rows("orders");
        List<String> vals = d.rows("vals");
        try {
            // NULL binds as NULL, string:42 as the text 42, a whole number as a number.
            Cycle c = cycle(d, () -> { }, () -> { }, "UPDATE orders SET note = ?, status = ? WHERE id = ?",
                    "--param", "NULL", "--param", "string:42", "--param", "2");
            assertThat(c.plan().out()).contains("      [1: NULL (setNull(NULL)), 2: '42' (setString), 3: 2 (setLong)]\n")
                    .contains("  id = 2\n    status: 'packed' -> '42'\n    note: 'fragile' -> NULL\n");
            assertThat(showJson(d, EndToEnd.planId(c.plan())).get("plan").get("statements").get(0).get("parameters")
                    .toString()).isEqualTo("[{\"setter\":\"SET_NULL\",\"sqlType\":0,\"value\":null},{\"setter\":"
                    + "\"SET_STRING\",\"class\":\"java.lang.String\",\"value\":\"42\"},{\"setter\":\"SET_LONG\","
                    + "\"class\":\"java.lang.Long\",\"value\":\"2\"}]");
            assertThat(c.apply().status()).as(c.apply().all()).isEqualTo(Main.OK);
            List<String> expected = new ArrayList<>(orders);
            expected.set(1, "[2, 42, null, 2, tok-2]");
            assertThat(d.rows("orders")).isEqualTo(expected);

            // The largest 64-bit integer is a whole number too.
            Cycle big = cycle(d, () -> { }, () -> { }, "UPDATE vals SET big = ? WHERE id = ?",
                    "--param", "9223372036854775807", "--param", "1");
            assertThat(big.plan().out()).contains("      [1: 9223372036854775807 (setLong), 2: 1 (setLong)]\n")
                    .contains("    big: 9223372036854775806 -> 9223372036854775807\n");
            assertThat(big.apply().status()).as(big.apply().all()).isEqualTo(Main.OK);
            assertThat(d.rows("vals").get(0)).startsWith("[1, 9223372036854775807, ");
        } finally {
            d.admin("UPDATE orders SET note = 'fragile', status = 'packed' WHERE id = 2",
                    "UPDATE vals SET big = 9223372036854775806 WHERE id = 1");
        }
        assertThat(d.rows("orders")).isEqualTo(orders);
        assertThat(d.rows("vals")).isEqualTo(vals);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D13_D16_decimalAndTimestampParametersKeepTheirTypeAndEveryDigitThroughApply(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // SQLite stores a DECIMAL(38,10) as a REAL (F13): the decimal parameter is bound where it can be kept.
        boolean decimals = engine != Engine.SQLITE;
        String sql = "UPDATE vals SET " + (decimals ? "amount = ?, " : "") + "stamp = ? WHERE id = ?";
        java.math.BigDecimal amount = new java.math.BigDecimal("1234567890123456789012345678.0123456787");
        java.time.LocalDateTime stamp = java.time.LocalDateTime.of(2024, 2, 29, 13, 45, 56, 123_455_000);
        List<String> before = d.rows("vals");
        // Connector/J drops a LocalDateTime's fraction for MariaDB 10.x, which it takes for MySQL 5.5 (measured).
        boolean fractionDropped = engine == Engine.MYSQL && ServerId.of(d.app().admin()).announcedAsMysql55();
        try {
            PlanPendingException pending;
            try (Connection c = d.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                if (decimals) {
                    ps.setBigDecimal(i++, amount);
                }
                ps.setObject(i++, stamp);
                ps.setInt(i, 1);
                ps.executeUpdate();
                throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
            } catch (PlanPendingException e) {
                pending = e;
            }
            assertThat(d.rows("vals")).isEqualTo(before);
            assertThat(pending.getMessage()).contains("  " + sql + "      [" + (decimals
                    ? "1: 1234567890123456789012345678.0123456787 (setBigDecimal), 2: '2024-02-29T13:45:56.123455'"
                            + " (setObject(LocalDateTime)), 3: 1 (setInt)]"
                    : "1: '2024-02-29T13:45:56.123455' (setObject(LocalDateTime)), 2: 1 (setInt)]"));
            if (decimals) {
                assertThat(pending.getMessage()).contains("    amount: 1234567890123456789012345678.0123456788 -> "
                        + "1234567890123456789012345678.0123456787\n");
            }
            assertThat(pending.getMessage()).contains("    stamp: " + switch (engine) {
                case POSTGRES -> "2024-02-29T13:45:56.123456 -> 2024-02-29T13:45:56.123455\n";
                // D16: the parameter is sent as the application sent it, and Connector/J sends a LocalDateTime
                // to MariaDB 10.x (which introduces itself as 5.5.5) without its fraction (measured): the card
                // says what the application's statement writes.
                case MYSQL -> "2024-02-29T13:45:56.123456 -> 2024-02-29T13:45:56."
                        + (fractionDropped ? "000000" : "123455") + "\n";
                // sqlite-jdbc binds a LocalDateTime as its ISO text, which SQLite keeps as text.
                case SQLITE -> "'2024-02-29 13:45:56.123456' -> '2024-02-29T13:45:56.123455'\n";
            });
            JsonNode params = showJson(d, pending.planId().toString()).get("plan").get("statements").get(0)
                    .get("parameters");
            assertThat(params.toString()).isEqualTo("[" + (decimals
                    ? "{\"setter\":\"SET_BIG_DECIMAL\",\"class\":\"java.math.BigDecimal\","
                            + "\"value\":\"1234567890123456789012345678.0123456787\"}," : "")
                    + "{\"setter\":\"SET_OBJECT\",\"class\":\"java.time.LocalDateTime\","
                    + "\"value\":\"2024-02-29T13:45:56.123455\"},"
                    + "{\"setter\":\"SET_INT\",\"class\":\"java.lang.Integer\",\"value\":\"1\"}]");
            Run apply = d.approveAndApply(pending.planId().toString());
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            try (Statement s = d.app().admin().createStatement();
                 ResultSet rs = s.executeQuery("SELECT amount, stamp FROM vals WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                if (decimals) {
                    assertThat(rs.getBigDecimal(1)).isEqualTo(amount);
                }
                // The applied row is what the card showed.
                assertThat(rs.getString(2)).isEqualTo(switch (engine) {
                    case POSTGRES -> "2024-02-29 13:45:56.123455";
                    case MYSQL -> fractionDropped ? "2024-02-29 13:45:56" : "2024-02-29 13:45:56.123455";
                    case SQLITE -> "2024-02-29T13:45:56.123455";
                });
            }
        } finally {
            d.admin("UPDATE vals SET big = 9223372036854775806, amount = 1234567890123456789012345678.0123456788,"
                    + " stamp = '2024-02-29 13:45:56.123456', doc = '{\"role\":\"user\"}' WHERE id = 1");
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** A step around the apply, on the database. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** A plan that was proposed and approved, and what its apply said. */
    record Cycle(Run plan, Run apply) {
    }

    /**
     * {@code llmsafe plan} (its arguments given), {@code approve} as another person, the step before,
     * {@code apply} as a third, and the step after. The plan must be proposed.
     */
    static Cycle cycle(Deployed d, Step before, Step after, String... planArgs) throws Exception {
        Run plan = d.plan(planArgs);
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        String id = EndToEnd.planId(plan);
        Run approve = d.llmsafe("approve", id, "--as", "alice");
        assertThat(approve.status()).as(approve.all()).isEqualTo(Main.OK);
        before.run();
        Run apply;
        try {
            apply = d.llmsafe("apply", id, "--as", "bob");
        } finally {
            after.run();
        }
        return new Cycle(plan, apply);
    }

    /** {@code llmsafe plan ARGS} is refused with the code, and the table is as it was. */
    static Run planRefused(Deployed d, String table, Refusal code, String... planArgs) throws Exception {
        List<String> before = d.rows(table);
        Run run = d.plan(planArgs);
        assertRefused(run, code);
        assertThat(d.rows(table)).as("a refusal changes nothing").isEqualTo(before);
        return run;
    }

    static void assertRefused(Run run, Refusal code, String... texts) {
        assertThat(run.status()).as(run.all()).isEqualTo(Main.REFUSED);
        assertThat(run.err()).startsWith("Refused (" + code + ")");
        for (String text : texts) {
            assertThat(run.err()).contains(text);
        }
    }

    static void assertRefusal(RefusedException e, Refusal code, String... texts) {
        assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
        for (String text : texts) {
            assertThat(e.getMessage()).contains(text);
        }
    }

    static JsonNode showJson(Deployed d, String id) throws Exception {
        Run show = d.llmsafe("show", id, "--json");
        assertThat(show.status()).as(show.all()).isEqualTo(Main.OK);
        return new ObjectMapper().readTree(show.out());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** An expression that takes far longer than the statement bound to compute, and is then 1. */
    private static String slowExpression(Engine engine) {
        return switch (engine) {
            case POSTGRES -> "(SELECT count(*) FROM generate_series(1, 300000000)) - 299999999";
            // 10^9 rows of an allowlisted table (MariaDB's sequence tables are in no catalog a policy can allow).
            case MYSQL -> "(SELECT count(*) FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits d"
                    + " CROSS JOIN digits e CROSS JOIN digits f CROSS JOIN digits g CROSS JOIN digits h CROSS JOIN digits i"
                    + " WHERE a.d + i.d = 99) + 1";
            case SQLITE -> "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 300000000)"
                    + " SELECT count(*) - 299999999 FROM r)";
        };
    }
}
