package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The environment (E), end to end: {@code llmsafe check} on the four-role deployment and on
 * configurations a user could get wrong (a read connection that can write, an applier that shares the
 * planning credential), and the bounds, the limits and the concurrency of dry runs, through the
 * command line and the application's {@code jdbc:llmsafe:} URL.
 *
 * <p>Rows used: orders 1 is check's probe row (check runs its dry runs on the first row by key); orders
 * 2 and 3 are E4's (applied, then put back); orders 4 is held locked by E3. stamped and the tables
 * that are not ready are never written.
 */
class EnvironmentRulesEndToEndTest {

    private static final List<String> ALLOW = List.of("orders", "stamped", "nokey", "parent", "members", "digits");
    private static final List<String> WRITTEN = List.of("orders", "stamped", "nokey", "parent");

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(EnvironmentRulesEndToEndTest::schema, ALLOW, WRITTEN,
            List.of(), """
              "lockTimeoutMs": 1000,
              "statementTimeoutMs": 1500,
              "policy": {
                "allow": ["orders", "stamped", "nokey", "parent", "members", "digits"],
                "impact": {
                  "orders": "Changing an order moves money.",
                  "stamped": "A stamped row is re-sent to the warehouse.",
                  "nokey": "Notes are shown to customers.",
                  "parent": "Removing an account closes its sub-accounts."
                },
                "autoColumns": {"stamped": ["touched"]}
              }
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    /**
     * orders: ready. stamped: ready, but a trigger stamps every update of a row, which only the real
     * table has (E6). nokey: no primary key. parent: an ON DELETE CASCADE child (child is not
     * allowlisted). members: no impact sentence. digits: read only, the rows of MariaDB's slow expression.
     */
    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3), (4, 'open', 4)",
                "CREATE TABLE stamped (id INT PRIMARY KEY, v INT NOT NULL, touched INT NOT NULL)",
                "INSERT INTO stamped VALUES (1, 10, 0)",
                "CREATE TABLE nokey (id INT, note VARCHAR(20))",
                "INSERT INTO nokey VALUES (1, 'first')",
                "CREATE TABLE parent (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO parent VALUES (1, 1)",
                "CREATE TABLE child (id INT PRIMARY KEY, pid INT NOT NULL, FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE)",
                "INSERT INTO child VALUES (1, 1)",
                "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
                "INSERT INTO members VALUES (7, 'Ann')",
                "CREATE TABLE digits (d INT PRIMARY KEY)",
                "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)"));
        switch (engine) {
            case POSTGRES -> sql.addAll(List.of("CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.touched := OLD.touched + 1; RETURN NEW; END $$",
                    "CREATE TRIGGER stamp BEFORE UPDATE ON stamped FOR EACH ROW EXECUTE FUNCTION stamp()"));
            case MYSQL -> sql.add("CREATE TRIGGER stamp BEFORE UPDATE ON stamped FOR EACH ROW"
                    + " SET NEW.touched = OLD.touched + 1");
            case SQLITE -> sql.add("CREATE TRIGGER stamp AFTER UPDATE OF v ON stamped BEGIN"
                    + " UPDATE stamped SET touched = OLD.touched + 1 WHERE id = NEW.id; END");
        }
        return sql;
    }

    static Deployed deployed(Engine engine) throws Exception {
        return e2e.deployed(engine);
    }

    // ---- check ----------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E1_checkSaysPerTableWhetherADryRunIsPossibleAndWhyNot(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        Run check = check(d);
        assertThat(check.status()).as(check.all()).isEqualTo(Main.NOT_READY);
        assertThat(check.out()).contains("  orders: ready\n").contains("  nokey: NOT READY\n")
                .contains("  parent: NOT READY\n").contains("  members: read only\n").contains("  digits: read only\n")
                .contains("Ready: no");
        JsonNode report = checkJson(d);
        assertThat(table(report, "orders").get("problems")).isEmpty();
        assertThat(texts(table(report, "nokey").get("problems"))).singleElement().isEqualTo(
                "it has no primary key, so its rows cannot be shown one by one (add one)");
        assertThat(table(report, "nokey").get("measured").asText()).isEqualTo("not probed");
        assertThat(texts(table(report, "parent").get("problems"))).singleElement().satisfies(p -> assertThat(p)
                .startsWith("the foreign key from ").contains("child (pid) is ON DELETE CASCADE")
                .endsWith("a DELETE here would change rows the card cannot show"));
        assertThat(table(report, "members").get("measured").asText())
                .isEqualTo("readable only: no impact sentence (policy.impact), so it is never written");
        assertThat(everything(d)).as("check changed nothing").isEqualTo(before);

        // The dry runs agree with check, and refuse for the same reasons.
        assertRefusedPlan(d, "UPDATE nokey SET note = 'second' WHERE id = 1", "NO_PRIMARY_KEY");
        assertRefusedPlan(d, "DELETE FROM parent WHERE id = 1", "CASCADE_SIDE_EFFECTS");
        assertRefusedPlan(d, "UPDATE members SET name = 'Bob' WHERE id = 7", "IMPACT_UNDECLARED");
        assertRefusedPlan(d, "UPDATE digits SET d = 10 WHERE d = 9", "IMPACT_UNDECLARED");
        assertThat(everything(d)).isEqualTo(before);

        // Allowlisted in the file but not in the database (ghost), or not granted to the planning role (child, which
        // samples/roles granted nothing on): each is that table's finding, and the rest is still checked.
        Path unseen = variant(d, "unseen", c -> {
            ObjectNode policy = (ObjectNode) c.get("policy");
            ((ArrayNode) policy.get("allow")).add("ghost").add("child");
            ((ObjectNode) policy.get("impact")).put("ghost", "Ghosts.").put("child", "Sub-accounts.");
        });
        Run text = check(d, "--config", unseen.toString());
        assertThat(text.status()).as(text.all()).isEqualTo(Main.NOT_READY);
        assertThat(text.out()).contains("  orders: ready\n").contains("  ghost: NOT READY\n");
        JsonNode more = checkJson(d, unseen);
        assertThat(texts(table(more, "ghost").get("problems"))).containsExactly("the planning connection cannot see a"
                + " table by this name: check the name, the schema setting and the credential's privileges");
        if (d.roles() != null) {
            assertThat(table(more, "child").get("state").asText()).isEqualTo("NOT_READY");
            // Neither the planning role nor the read role was granted it: both findings (E10).
            List<String> problems = texts(table(more, "child").get("problems"));
            assertThat(problems).hasSize(2);
            if (d.flavor() == Flavor.MARIADB) {
                // Without TRIGGER on it, its triggers are not believed (F20), which check says before it probes.
                assertThat(problems.get(0)).startsWith("this credential cannot see all triggers")
                        .contains("GRANT TRIGGER ON `" + d.app().name() + "`.`child`");
            } else {
                assertThat(problems.get(0)).startsWith("the probe failed: ").contains("child").endsWith("A dry run"
                        + " needs SELECT, UPDATE and DELETE on it for the planning credential (samples/roles)");
            }
            assertThat(problems.get(1)).startsWith("the read connection (").contains("cannot read it");
        } else {
            // A file has no grants: whoever opens it may write every table.
            assertThat(table(more, "child").get("state").asText()).isEqualTo("READY");
        }
        assertThat(everything(d)).isEqualTo(before);
    }

    /**
     * The probe is a real dry run on a real row of each ready table: on stamped, whose trigger stamps the
     * row, it changes a value a scratch table would not have changed (a column the database maintains,
     * D8), and the rollback is still proven.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void E6_rollbackIsProbedOnTheRealTablesWithTheirTriggers(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        JsonNode report = checkJson(d);
        assertThat(table(report, "orders").get("measured").asText()).isEqualTo("a dry run on one real row ran, was rolled"
                + " back, and the rollback was proven (" + report.get("database").asText() + ")");
        assertThat(table(report, "stamped").get("state").asText()).isEqualTo("READY");
        // The trigger ran on the real row and moved the column it maintains (D8); on SQLite it writes the row a
        // second time, which is that one row, not a side effect (D14).
        assertThat(table(report, "stamped").get("measured").asText()).isEqualTo("a dry run on one real row ran, changed"
                + " only what the database maintains itself (touched), was rolled back, and the rollback was proven ("
                + report.get("database").asText() + ")");
        assertThat(everything(d)).as("every probe was rolled back").isEqualTo(before);
        assertThat(d.rows("stamped")).containsExactly("[1, 10, 0]");
    }

    /** "Rows affected" is a Connector/J setting: PostgreSQL and SQLite count rows matched with no option. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void E2_rowsAffectedIsProbedBothWaysOnMariaDb(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        assertThat(texts(checkJson(d).get("notes"))).contains("Rows affected are rows matched on the engine's connections"
                + " (probed: a same-value UPDATE reports 1, and 0 with useAffectedRows=true), which is what the dry run"
                + " compares (D9).");
        assertThat(everything(d)).isEqualTo(before);
        // A planning connection whose URL asks for rows changed does not get it: the engine's connections pin
        // useAffectedRows=false, so check probes rows matched and a plan whose rows include an unchanged one is a
        // card whose count the database confirms (D9), not a refusal of every such UPDATE.
        Path changed = variant(d, "affected", c -> {
            ObjectNode connection = (ObjectNode) c.get("connection");
            connection.put("url", connection.get("url").asText() + "?useAffectedRows=true");
        });
        assertThat(texts(checkJson(d, changed).get("notes"))).anySatisfy(n -> assertThat(n)
                .startsWith("Rows affected are rows matched on the engine's connections"));
        String update = "UPDATE orders SET status = 'packed' WHERE id IN (1, 3)";
        Run plan = d.plan(update, "--config", changed.toString());
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        assertThat(plan.out()).contains("id = 3\n    status: 'shipped' -> 'packed'");
        assertThat(everything(d)).isEqualTo(before);
        // The application's URL cannot ask for it: the driver pins useAffectedRows=false, and the same UPDATE is a plan.
        try (Connection c = java.sql.DriverManager.getConnection(d.url() + "&useAffectedRows=true",
                d.roles().login(Role.PLAN).name(), d.roles().login(Role.PLAN).password());
                Statement s = c.createStatement()) {
            s.executeUpdate(update);
            throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException p) {
            assertThat(p.getMessage()).contains("id = 3\n    status: 'shipped' -> 'packed'");
        }
        assertThat(everything(d)).isEqualTo(before);
        assertThat(everything(d)).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E7_theReadRoleIsProvenReadOnlyAndAReadConnectionWithThePlanningCredentialIsReportedAsAbleToWrite(
            Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        JsonNode read = guard(checkJson(d), "read");
        assertThat(read.get("own").asBoolean()).isTrue();
        assertThat(read.get("where").asText()).contains(d.roles().login(Role.READ).name());
        // Every allowlisted table is probed, the written ones too: the database refuses the read role each write.
        assertThat(read.get("finding").asText()).isEqualTo("a credential the database itself refuses writes from (probed"
                + " on digits, members, nokey, orders, parent, stamped)");
        assertThat(read.get("sharesWith")).isEmpty();

        // The same deployment with the read connection given the planning role's credential.
        Path writable = variant(d, "writable-read", c -> c.set("readConnection", c.get("connection").deepCopy()));
        JsonNode wrong = guard(checkJson(d, writable), "read");
        // digits and members, probed first, are refused to the planning role too; nokey, which it may write, is not.
        assertThat(wrong.get("finding").asText()).startsWith("this credential CAN write (a DELETE ... WHERE 1 = 0 on nokey"
                + " was accepted)").endsWith("Point readConnection at a role with SELECT only.");
        assertThat(texts(wrong.get("sharesWith"))).containsExactly("plan");
        // And none at all: reads would use the caller's connection.
        Path none = variant(d, "no-read", c -> c.remove("readConnection"));
        JsonNode missing = guard(checkJson(d, none), "read");
        assertThat(missing.get("own").asBoolean()).isFalse();
        assertThat(missing.get("finding").asText()).startsWith("not set, so reads use the caller's connection (the"
                + " planning credential for the command line); this credential CAN write");
        assertThat(everything(d)).as("the probes wrote nothing").isEqualTo(before);
    }

    /** SQLite has no roles: the read connection is the file opened read-only, and the same file opened for writing can write. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void E7_aSqliteFileOpenedReadOnlyIsProvenReadOnlyAndOneOpenedForWritingIsNot(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        JsonNode read = guard(checkJson(d), "read");
        assertThat(read.get("finding").asText()).isEqualTo("a credential the database itself refuses writes from (probed"
                + " on digits, members, nokey, orders, parent, stamped)");
        Path writable = variant(d, "writable-read", c -> c.set("readConnection", c.get("connection").deepCopy()));
        assertThat(guard(checkJson(d, writable), "read").get("finding").asText())
                .startsWith("this credential CAN write (a DELETE ... WHERE 1 = 0 on digits was accepted)");
        assertThat(everything(d)).isEqualTo(before);
    }

    /**
     * E9: SQLite opened with no rollback journal on disk (journal_mode OFF, or MEMORY on a file) is not
     * planned on, and check does not call a rollback proven there; TRUNCATE is. PostgreSQL and InnoDB
     * have no such setting.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void E9_sqliteWithoutARollbackJournalIsNotPlannedOnAndCheckSaysWhy(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        for (String mode : List.of("off", "memory", "truncate")) {
            Path config = variant(d, "journal-" + mode, c -> {
                for (String k : List.of("connection", "applyConnection")) {
                    ObjectNode conn = (ObjectNode) c.get(k);
                    conn.put("url", conn.get("url").asText() + "?journal_mode=" + mode);
                }
            });
            Run plan = d.llmsafe("plan", "UPDATE orders SET qty = 40 WHERE id = 1", "--as", "assistant", "--config",
                    config.toString());
            JsonNode orders = table(checkJson(d, config), "orders");
            if (mode.equals("truncate")) {
                assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
                assertThat(orders.get("measured").asText()).contains("the rollback was proven");
            } else {
                assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
                assertThat(plan.err()).startsWith("Refused (NOT_TRANSACTIONAL): main.orders cannot be planned on: the"
                        + " SQLite database main ").contains("journal_mode").contains("Open it with journal_mode DELETE");
                assertThat(orders.get("state").asText()).isEqualTo("NOT_READY");
                assertThat(orders.get("measured").asText()).isEqualTo("not probed");
                assertThat(texts(orders.get("problems"))).anySatisfy(p -> assertThat(p).contains("journal_mode"));
            }
        }
        assertThat(everything(d)).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E8_checkSaysWhereEachGuardSitsAndWhichConnectionsShareACredential(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        JsonNode report = checkJson(d);
        assertThat(report.get("guards")).extracting(g -> g.get("role").asText())
                .containsExactly("read", "plan", "apply", "store");
        assertThat(guard(report, "plan").get("finding").asText()).isEqualTo("writes for real, always rolled back");
        assertThat(texts(report.get("notes"))).anySatisfy(n -> assertThat(n).startsWith("No seal key is set here"))
                .anySatisfy(n -> assertThat(n).startsWith("Actor names (--as) are taken at their word")
                        .endsWith("The boundary is the apply credential."));
        if (d.roles() != null) {
            // Four roles, four credentials: none shared, and each guard names its own.
            for (Role r : Role.values()) {
                JsonNode g = guard(report, r.key());
                assertThat(g.get("where").asText()).as(r.key()).contains(d.roles().login(r).name());
                assertThat(g.get("own").asBoolean()).as(r.key()).isTrue();
                assertThat(g.get("sharesWith")).as(r.key()).isEmpty();
            }
            assertThat(guard(report, "apply").get("finding").asText()).isEqualTo("commits approved plans");
            assertThat(guard(report, "store").get("finding").asText()).isEqualTo("holds plans and the audit trail");
        } else {
            // A file has no credentials: every connection is the same file, and check says so.
            assertThat(guard(report, "apply").get("finding").asText()).startsWith("the SAME credential as plan");
            assertThat(guard(report, "store").get("where").asText()).contains("store.db");
        }

        // An applier configured with the planning credential, and the store with it too.
        Path shared = variant(d, "shared", c -> {
            c.set("applyConnection", c.get("connection").deepCopy());
            c.set("storeConnection", c.get("connection").deepCopy());
            c.put("sealKey", "a-seal-key-of-32-characters-long");
        });
        JsonNode sharing = checkJson(d, shared);
        JsonNode apply = guard(sharing, "apply");
        assertThat(apply.get("finding").asText()).isEqualTo("the SAME credential as plan: the separation between"
                + " proposing and committing then rests entirely on this library being correct");
        assertThat(texts(apply.get("sharesWith"))).contains("plan", "store");
        assertThat(guard(sharing, "store").get("finding").asText()).isEqualTo("the same credential as apply: whatever"
                + " commits a change can also edit the record of its approval");
        assertThat(texts(sharing.get("notes"))).anySatisfy(n -> assertThat(n).startsWith("A seal key is set here."));
        Run text = check(d, "--config", shared.toString());
        assertThat(text.out()).contains("Where the guards actually sit").contains(engine == Engine.SQLITE
                ? "same credential as: read, plan, store" : "same credential as: plan, store");

        // Not configured at all: apply and store fall back to the planning connection, and check says so.
        Path fallback = variant(d, "fallback", c -> {
            c.remove("applyConnection");
            c.remove("storeConnection");
        });
        JsonNode unset = checkJson(d, fallback);
        assertThat(guard(unset, "apply").get("own").asBoolean()).isFalse();
        assertThat(guard(unset, "apply").get("finding").asText()).startsWith("the SAME credential as plan");
        assertThat(check(d, "--config", fallback.toString()).out())
                .contains("(not configured: the planning connection)");
    }

    // ---- bounds, concurrency, limits ------------------------------------------------------------

    /**
     * statementTimeoutMs and lockTimeoutMs of the configuration bound the dry run. PostgreSQL and MariaDB
     * stop the statement themselves (statement_timeout, max_statement_time); SQLite has no such setting,
     * and its cards declare the gap. MySQL, which bounds SELECT only, declares it too, and its watchdog
     * cancels the statement.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void E3_theConfiguredTimeoutsAreRealSessionSettingsOrTheGapIsDeclared(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        long start = System.nanoTime();
        long[] refusedAt = new long[1];
        RefusedException e = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = d.connect(); Statement s = c.createStatement()) {
                try {
                    s.executeUpdate("UPDATE orders SET qty = " + slowExpression(engine) + " WHERE id = 4");
                } finally {
                    refusedAt[0] = System.nanoTime(); // the statement's end, not the closing of the pools after it
                }
            }
        });
        assertThat((Throwable) e).isNotNull();
        assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.STATEMENT_TIMEOUT);
        assertThat(e.getMessage()).contains("ran longer than 1500 ms and was stopped");
        assertThat((refusedAt[0] - start) / 1_000_000).as("stopped at about its bound").isLessThan(9_000);
        switch (d.flavor()) {
            // The server stopped it, not the client's watchdog.
            case POSTGRES -> assertThat(((SQLException) e.getCause()).getSQLState()).isEqualTo("57014");
            case MARIADB -> assertThat(((SQLException) e.getCause()).getErrorCode()).isEqualTo(1969);
            // MySQL bounds no write (F01): the watchdog's cancel, which Connector/J reports without a code.
            case MYSQL -> assertThat(e.getCause().getClass().getSimpleName()).isEqualTo("MySQLStatementCancelledException");
            default -> { }
        }
        assertThat(everything(d)).isEqualTo(before);

        // A row held by another session: the dry run waits lockTimeoutMs, then refuses.
        try (Connection other = d.app().connect()) {
            other.setAutoCommit(false);
            try (Statement s = other.createStatement()) {
                s.executeUpdate("UPDATE orders SET qty = qty WHERE id = 4");
            }
            try {
                start = System.nanoTime();
                Run locked = d.plan("UPDATE orders SET qty = 40 WHERE id = 4");
                assertThat(locked.status()).as(locked.all()).isEqualTo(Main.REFUSED);
                assertThat(locked.err()).startsWith("Refused (LOCK_TIMEOUT)").contains("for longer than 1000 ms");
                assertThat((System.nanoTime() - start) / 1_000_000).as("refused within the bound").isLessThan(8_000);
            } finally {
                other.rollback();
            }
        }
        assertThat(everything(d)).isEqualTo(before);

        String card = d.plan("UPDATE orders SET qty = 44 WHERE id = 4").out();
        String gap = "SQLite has no statement timeout (sqlite-jdbc's query timeout does not stop a running statement,"
                + " measured): a statement is interrupted from the client when it runs past the bound.";
        if (engine == Engine.SQLITE) {
            assertThat(card).contains("  - " + gap);
        } else if (d.flavor() == Flavor.MYSQL) {
            assertThat(card).contains("  - MySQL has no server statement timeout for UPDATE or DELETE");
        } else {
            assertThat(card).contains("Limits of this check on ").doesNotContain("no statement timeout")
                    .doesNotContain("no server statement timeout");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E4_twoPlansProposedAtTheSameTimeDoNotDisturbEachOther(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = everything(d);
        List<String> orders = d.rows("orders");
        // The same row twice, and another: each dry run sees the committed row, never the other's uncommitted write.
        List<PlanPendingException> plans = together(d, "UPDATE orders SET qty = 100 WHERE id = 2",
                "UPDATE orders SET qty = 200 WHERE id = 2", "UPDATE orders SET status = 'lost' WHERE id = 3");
        assertThat(plans.get(0).getMessage()).contains("id = 2\n    qty: 2 -> 100").doesNotContain("id = 3");
        assertThat(plans.get(1).getMessage()).contains("id = 2\n    qty: 2 -> 200").doesNotContain("id = 3");
        assertThat(plans.get(2).getMessage()).contains("id = 3\n    status: 'shipped' -> 'lost'").doesNotContain("id = 2");
        assertThat(plans).extracting(PlanPendingException::planId).doesNotHaveDuplicates();
        assertThat(everything(d)).as("three dry runs at once changed nothing").isEqualTo(before);
        try {
            for (int i : new int[] {1, 2}) {
                Run apply = d.approveAndApply(plans.get(i).planId().toString());
                assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            }
            List<String> after = new ArrayList<>(orders);
            after.set(1, "[2, packed, 200]");
            after.set(2, "[3, lost, 3]");
            assertThat(d.rows("orders")).isEqualTo(after);
        } finally {
            d.admin("UPDATE orders SET qty = 2 WHERE id = 2", "UPDATE orders SET status = 'shipped' WHERE id = 3");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E5_everyLimitationOfTheDatabaseIsOnEveryCard(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> limits = switch (d.flavor()) {
            case POSTGRES -> List.of("Sequence values a trigger or a default takes during the dry run are not given back"
                    + " by ROLLBACK.");
            case MARIADB, MYSQL -> List.of("The side-effect measure is the session's count of rows written"
                    + " (Handler_write, Handler_update, Handler_delete), in all tables together: side effects are"
                    + " measured as a number of rows, without the tables they are in.",
                    "That count does not see what a foreign key's ON DELETE or ON UPDATE action writes: a statement"
                            + " that could fire a CASCADE, SET NULL or SET DEFAULT is refused from the catalog"
                            + " (CASCADE_SIDE_EFFECTS).",
                    "Foreign keys from other databases are visible only to a credential with privileges there.");
            case SQLITE -> List.of("SQLite has no row locks: the dry run holds the whole database's write lock while it"
                    + " runs.", "SQLite has no statement timeout", "SQLite counts the rows a connection writes in"
                    + " total, not per table", "Functions the application registers with SQLite are in no catalog");
        };
        List<String> cards = new ArrayList<>();
        // The command line's card, its JSON, and the card show prints again.
        Run plan = d.plan("UPDATE orders SET qty = 11 WHERE id = 1");
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        cards.add(plan.out());
        cards.add(d.llmsafe("show", EndToEnd.planId(plan)).out());
        Run json = d.plan("DELETE FROM orders WHERE id = ?", "--param", "1", "--json");
        JsonNode parsed = new ObjectMapper().readTree(json.out());
        cards.add(parsed.get("card").asText());
        assertThat(texts(parsed.get("plan").get("limitations"))).hasSizeGreaterThanOrEqualTo(limits.size())
                .allSatisfy(l -> assertThat(parsed.get("card").asText()).contains("  - " + l));
        // The application's: one statement, and a batch of two.
        cards.add(d.propose("UPDATE orders SET status = 'held' WHERE id = 1", "orders").getMessage());
        cards.add(planned(d, c -> {
            Statement s = c.createStatement();
            s.addBatch("UPDATE orders SET qty = 12 WHERE id = 1");
            s.addBatch("UPDATE orders SET status = 'held' WHERE id = 2");
            s.executeBatch();
        }).getMessage());
        for (String card : cards) {
            assertThat(card).contains("Limits of this check on ");
            for (String limit : limits) {
                assertThat(card).contains(limit);
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Something done on a connection of the application's URL. */
    @FunctionalInterface
    interface Jdbc {
        void run(Connection c) throws Exception;
    }

    /** Every application table, read as the administrator. */
    private static List<String> everything(Deployed d) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String table : List.of("orders", "stamped", "nokey", "parent", "child", "members")) {
            out.add(table + d.rows(table));
        }
        return out;
    }

    /** {@code llmsafe check ARGS}. */
    private static Run check(Deployed d, String... args) {
        List<String> all = new ArrayList<>(List.of("check"));
        all.addAll(List.of(args));
        return d.llmsafe(all.toArray(String[]::new));
    }

    private static JsonNode checkJson(Deployed d) throws Exception {
        Run check = check(d, "--json");
        assertThat(check.err()).isEmpty();
        return new ObjectMapper().readTree(check.out());
    }

    private static JsonNode checkJson(Deployed d, Path config) throws Exception {
        Run check = check(d, "--json", "--config", config.toString());
        assertThat(check.err()).isEmpty();
        return new ObjectMapper().readTree(check.out());
    }

    private static JsonNode table(JsonNode report, String name) {
        for (JsonNode t : report.get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no table " + name + " in " + report);
    }

    private static JsonNode guard(JsonNode report, String role) {
        for (JsonNode g : report.get("guards")) {
            if (g.get("role").asText().equals(role)) {
                return g;
            }
        }
        throw new AssertionError("no guard " + role + " in " + report);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static void assertRefusedPlan(Deployed d, String sql, String code) throws Exception {
        Run plan = d.plan(sql);
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).startsWith("Refused (" + code + ")");
    }

    /** The action through the application's URL must end in a plan. */
    private static PlanPendingException planned(Deployed d, Jdbc action) throws Exception {
        List<String> before = everything(d);
        try (Connection c = d.connect()) {
            action.run(c);
            throw new AssertionError("the write ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            assertThat(everything(d)).isEqualTo(before);
            return e;
        }
    }

    /** The statements proposed through the application's URL at the same moment, one thread each. */
    private static List<PlanPendingException> together(Deployed d, String... sql) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(sql.length);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<PlanPendingException>> futures = new ArrayList<>();
            for (String statement : sql) {
                Callable<PlanPendingException> task = () -> {
                    start.await();
                    for (int attempt = 1; ; attempt++) {
                        try {
                            return planned(d, c -> c.createStatement().executeUpdate(statement));
                        } catch (RefusedException e) {
                            // Two dry runs of one row: the second waits for the first's row lock at most
                            // lockTimeoutMs (D6), which a busy machine can outlast. Its refusal says to try
                            // again, and so it does, up to five times.
                            if (e.code() != Refusal.LOCK_TIMEOUT || attempt >= 5) {
                                throw e;
                            }
                        }
                    }
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            List<PlanPendingException> out = new ArrayList<>();
            for (Future<PlanPendingException> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A copy of the deployment's configuration file for the command line, changed. */
    private static Path variant(Deployed d, String name, Consumer<ObjectNode> change) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = (ObjectNode) json.readTree(d.home().resolve("app-llmsafe.json").toFile());
        change.accept(config);
        return Files.writeString(d.home().resolve(name + "-llmsafe.json"), json.writerWithDefaultPrettyPrinter()
                .writeValueAsString(config));
    }

    /** An expression that takes far longer than the bound to compute, and is then 4 (the row's own qty). */
    private static String slowExpression(Engine engine) {
        return switch (engine) {
            case POSTGRES -> "(SELECT count(*) FROM generate_series(1, 300000000)) - 299999996";
            case MYSQL -> "(SELECT count(*) FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits d"
                    + " CROSS JOIN digits e CROSS JOIN digits f CROSS JOIN digits g CROSS JOIN digits h CROSS JOIN digits i"
                    + " WHERE a.d + i.d = 99) + 4";
            case SQLITE -> "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 300000000)"
                    + " SELECT count(*) - 299999996 FROM r)";
        };
    }
}
