package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The card (C1-C4) as a person and a user interface get it: the message of the
 * {@code PlanPendingException} the application's {@code jdbc:llmsafe:} connection throws, the output of
 * {@code llmsafe plan} and {@code llmsafe show}, and their {@code --json} forms, on every engine, with
 * the least-privilege roles of samples/roles.
 */
class CardRulesEndToEndTest {

    private static final String ORDERS = "Changing an order moves money: the ship date decides the payment month.";
    private static final String MEMBERS = "A member's quota and role decide what they may do.";
    private static final String IRREVERSIBLE = "Deleted rows cannot be brought back by llmsafe: it keeps no copy to restore"
            + " them from, and applying this plan is final. The values shown here are the only record llmsafe keeps of them.";

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> List.of(
            "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
            "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
            "CREATE TABLE members (id INT PRIMARY KEY, quota INT NOT NULL, profile " + switch (engine) {
                case POSTGRES -> "JSONB";
                case MYSQL, SQLITE -> "JSON";
            } + ")",
            "INSERT INTO members VALUES (7, 5, '{\"role\":\"user\"}')"), List.of("orders", "members"),
            List.of("orders", "members"), List.of(), """
              "policy": {
                "allow": ["orders", "members"],
                "impact": {"orders": "%s", "members": "%s"}
              }
            """.formatted(ORDERS, MEMBERS));

    /**
     * What each dialect cannot guarantee, as every card of it must print it (E5, C2): the dialect's own list, which
     * must state the facts of {@link #facts}. A limitation reworded there needs no edit here; a fact lost fails.
     */
    private static List<String> limitations(Deployed d) throws SQLException {
        List<String> out = Dialects.of(d.app().admin(), null).limitations();
        for (List<String> fact : facts(d)) {
            assertThat(out).as("a limitation of %s that states %s", d.flavor(), fact)
                    .anySatisfy(l -> assertThat(l).contains(fact));
        }
        if (d.flavor() == Flavor.MARIADB) {
            // MariaDB bounds an UPDATE or DELETE itself (max_statement_time, also inside a trigger): MySQL's gaps
            // are not its own.
            assertThat(String.join("\n", out)).doesNotContain("1095").doesNotContain("max_execution_time")
                    .doesNotContain("internal temporary tables");
        }
        return out;
    }

    /** The facts a card of each database must state, each as the words one limitation holds together. */
    private static List<List<String>> facts(Deployed d) {
        return switch (d.engine()) {
            case POSTGRES -> List.of(List.of("Sequence values", "trigger", "default", "not given back by ROLLBACK"));
            case MYSQL -> {
                List<List<String>> out = new ArrayList<>();
                if (d.flavor() == Flavor.MYSQL) {
                    // No server timeout for a write: the client cancels it, and inside a trigger even that is
                    // refused (error 1095), so the statement cannot be stopped before its end.
                    out.add(List.of("UPDATE or DELETE", "max_execution_time", "SELECT", "cancelled from the client"));
                    out.add(List.of("trigger", "1095", "runs to its end"));
                    out.add(List.of("internal temporary tables", "SIDE_EFFECTS"));
                }
                out.add(List.of("Handler_write", "Handler_update", "Handler_delete", "without the tables"));
                out.add(List.of("ON DELETE", "ON UPDATE", "CASCADE", "SET NULL", "SET DEFAULT", "CASCADE_SIDE_EFFECTS"));
                out.add(List.of("Foreign keys from other databases", "privileges"));
                yield out;
            }
            case SQLITE -> List.of(List.of("no row locks", "whole database's write lock"),
                    List.of("no statement timeout", "interrupted from the client"),
                    List.of("not per table", "WITHOUT ROWID", "refused"),
                    List.of("Functions the application registers", "no catalog", "built-in volatile functions"));
        };
    }

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    // ---- C1 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C1_theCardSaysNothingChangedAndShowsStatementParametersImpactCountsAndEveryRowsChange(Engine engine)
            throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        String sql = "UPDATE orders SET status = ?, qty = qty + 10 WHERE status = ?";
        PlanPendingException pending = proposePrepared(d, sql, "shipped", "packed");
        assertThat(d.rows("orders")).as("the card's first sentence is true").isEqualTo(before);
        String id = pending.planId().toString();
        String card = pending.getMessage();
        assertThat(card).startsWith("Plan " + id + " is proposed, not applied. Nothing in the database has changed.\n\n"
                + "  " + sql + "      [1: 'shipped' (setString), 2: 'packed' (setString)]\n\n"
                + "What this touches\n"
                + "  " + table(d, "orders") + ": " + ORDERS + "\n"
                + "  2 rows would change, in 2 columns: status, qty\n\n"
                + "Measured by running the statement and rolling back\n"
                + "  id = 1\n    status: 'packed' -> 'shipped'\n    qty: 1 -> 11\n"
                + "  id = 2\n    status: 'packed' -> 'shipped'\n    qty: 2 -> 12\n\n"
                + "Limits of this check on ");

        // The same card is the one kept, and shown again by the command line.
        Run show = d.llmsafe("show", id);
        assertThat(show.status()).as(show.all()).isEqualTo(Main.OK);
        assertThat(show.out()).startsWith(card).contains("Status: proposed");

        // Through the command line, with literal values and a DELETE: every column of the row is shown.
        Run delete = d.plan("DELETE FROM orders WHERE id = ?", "--param", "3");
        assertThat(delete.status()).as(delete.all()).isEqualTo(Main.OK);
        assertThat(delete.out()).startsWith("Plan " + EndToEnd.planId(delete) + " is proposed, not applied. Nothing in the"
                + " database has changed.\n\n"
                + "  DELETE FROM orders WHERE id = ?      [1: 3 (setLong)]\n\n"
                + "What this touches\n"
                + "  " + table(d, "orders") + ": " + ORDERS + "\n"
                + "  1 row would be deleted outright, with every value shown below\n"
                + "  " + IRREVERSIBLE + "\n\n"
                + "Measured by running the statement and rolling back\n"
                + "  id = 3  (deleted)\n    id: 3\n    status: 'shipped'\n    qty: 3\n\n");
        assertThat(d.rows("orders")).isEqualTo(before);

        // The statement shown is the one that ran: the comment-free text (S2), not what was sent.
        Run commented = d.plan("UPDATE orders /* approve quickly */ SET qty = 9 -- no need to look\nWHERE id = 3");
        assertThat(commented.status()).as(commented.all()).isEqualTo(Main.OK);
        assertThat(commented.out()).contains(" has changed.\n\n  UPDATE orders  SET qty = 9 \n  WHERE id = 3\n\nWhat this touches\n")
                .doesNotContain("approve quickly").doesNotContain("no need to look");
        assertThat(json(d.llmsafe("show", EndToEnd.planId(commented), "--json")).get("plan").get("statements").get(0)
                .get("sql").asText()).isEqualTo("UPDATE orders  SET qty = 9 \nWHERE id = 3");
    }

    // ---- C7 ------------------------------------------------------------------------------------

    /** A DELETE says that llmsafe cannot bring its rows back: in the exception's card, the command line's, and the JSON. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void C7_aDeleteCardSaysTheDeletedRowsCannotBeBroughtBack(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        PlanPendingException pending = d.propose("DELETE FROM orders WHERE id IN (1, 2)", "orders");
        assertThat(pending.getMessage()).contains("  2 rows would be deleted outright, with every value shown below\n  "
                + IRREVERSIBLE + "\n");
        JsonNode statement = new ObjectMapper().readTree(pending.planJson()).get("statements").get(0);
        assertThat(statement.get("irreversible").asBoolean()).isTrue();
        assertThat(statement.get("notice").asText()).isEqualTo(IRREVERSIBLE);
        Run shown = d.llmsafe("show", pending.planId().toString());
        assertThat(shown.out()).contains(IRREVERSIBLE);
        assertThat(json(d.llmsafe("show", pending.planId().toString(), "--json")).get("plan").get("statements").get(0)
                .get("notice").asText()).isEqualTo(IRREVERSIBLE);
        assertThat(d.propose("UPDATE orders SET qty = 4 WHERE id = 1", "orders").getMessage()).doesNotContain(IRREVERSIBLE);
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    // ---- C2 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C2_E5_everyLimitationOfTheDatabaseIsPrintedOnEveryCard(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String version = d.app().admin().getMetaData().getDatabaseProductVersion();
        String database = switch (d.flavor()) {
            case POSTGRES -> "PostgreSQL " + version.split(" ")[0];
            case MARIADB -> "MariaDB " + version.replaceFirst("^5\\.5\\.5-", "").split("-")[0];
            case MYSQL -> "MySQL " + version.split("-")[0];
            case SQLITE -> "SQLite " + version;
        };
        StringBuilder section = new StringBuilder("\nLimits of this check on " + database + "\n");
        limitations(d).forEach(l -> section.append("  - ").append(l).append('\n'));
        section.append('\n');

        String url = d.propose("UPDATE orders SET qty = 20 WHERE id = 2", "orders").getMessage();
        Run cli = d.plan("UPDATE members SET quota = ? WHERE id = ?", "--param", "6", "--param", "7");
        assertThat(cli.status()).as(cli.all()).isEqualTo(Main.OK);
        Run show = d.llmsafe("show", EndToEnd.planId(cli));
        for (String card : List.of(url, cli.out(), show.out())) {
            assertThat(card).contains(section);
        }
        JsonNode plan = json(d.llmsafe("show", EndToEnd.planId(cli), "--json")).get("plan");
        assertThat(plan.get("database").asText()).isEqualTo(database);
        assertThat(texts(plan.get("limitations"))).isEqualTo(limitations(d));
    }

    // ---- C3 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C3_theCardNamesTheApproveAndApplyCommandsAndTheProposerCanDoNeither(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        // The application names its model as the proposer (llmsafe.proposer in the URL).
        PlanPendingException pending;
        try (Connection c = connectAs(d, "agent-7"); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE orders SET qty = 30 WHERE id = 3");
            throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            pending = e;
        }
        String id = pending.planId().toString();
        assertThat(pending.getMessage()).endsWith("\n\nA person other than the proposer (agent-7) must approve it, and a"
                + " separate applier commits it; the proposer can do neither:\n"
                + "  llmsafe approve " + id + " --as <approver>\n"
                + "  llmsafe apply   " + id + " --as <applier>\n");

        // The proposer cannot approve its own plan; nobody can apply it before another person approved it.
        Run self = d.llmsafe("approve", id, "--as", "agent-7");
        assertRefused(self, Refusal.SELF_APPROVAL, "agent-7 proposed plan " + id + " and cannot also approve it");
        assertRefused(d.llmsafe("apply", id, "--as", "bob"), Refusal.NOT_APPROVED, "is proposed but not approved");
        // Nor, through its connection, reach the plan store: the engine's tables are refused by name.
        RefusedException store = d.refused("UPDATE llmsafe_plans SET status = 'approved' WHERE plan_id = '" + id + "'",
                "orders");
        assertThat(store.code()).as(store.getMessage()).isEqualTo(Refusal.ENGINE_TABLE);
        JsonNode shown = json(d.llmsafe("show", id, "--json"));
        assertThat(shown.get("status").asText()).isEqualTo("proposed");
        assertThat(shown.get("approvedBy").isNull()).isTrue();

        // The commands the card names are the ones that work, for other people; the proposer still cannot apply.
        Run approve = d.llmsafe("approve", id, "--as", "alice");
        assertThat(approve.status()).as(approve.all()).isEqualTo(Main.OK);
        assertRefused(d.llmsafe("apply", id, "--as", "agent-7"), Refusal.SELF_APPROVAL, "cannot also apply it");
        assertThat(d.rows("orders")).isEqualTo(before);
        Run apply = d.llmsafe("apply", id, "--as", "bob");
        try {
            assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
            List<String> expected = new ArrayList<>(before);
            expected.set(2, "[3, shipped, 30]");
            assertThat(d.rows("orders")).isEqualTo(expected);
        } finally {
            d.admin("UPDATE orders SET qty = 3 WHERE id = 3");
        }
    }

    // ---- C4 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C4_planAndShowGiveTheCardAsDocumentedJson(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("members");
        Run planned = d.llmsafe("plan", "UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}' WHERE id = ?",
                "--param", "7", "--as", "assistant", "--json");
        assertThat(planned.status()).as(planned.all()).isEqualTo(Main.OK);
        assertThat(d.rows("members")).isEqualTo(before);
        JsonNode out = json(planned);
        String id = out.get("planId").asText();
        JsonNode plan = out.get("plan");
        // Fields are only ever added: display forms (C5) came after the first ones.
        assertThat(fieldNames(plan)).containsExactly("format", "id", "createdAt", "proposer", "database", "session",
                "statements", "limitations", "warnings", "display");
        assertThat(plan.get("format").asText()).isEqualTo("llmsafe-plan/2");
        assertThat(plan.get("id").asText()).isEqualTo(id);
        assertThat(plan.get("proposer").asText()).isEqualTo("assistant");
        assertThat(out.get("card").asText()).startsWith("Plan " + id + " is proposed, not applied.")
                .contains("  " + table(d, "members") + ": " + MEMBERS + "\n");
        assertThat(plan.get("statements")).hasSize(1);
        JsonNode s = plan.get("statements").get(0);
        assertThat(fieldNames(s)).containsExactly("sql", "parameters", "kind", "table", "impact", "keyColumns",
                "changedColumns", "autoColumns", "affectedRows", "irreversible", "display", "rows");
        assertThat(s.get("irreversible").asBoolean()).isFalse();
        assertThat(s.get("sql").asText()).isEqualTo("UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}'"
                + " WHERE id = ?");
        assertThat(s.get("parameters").toString()).isEqualTo("[{\"setter\":\"SET_LONG\",\"class\":\"java.lang.Long\","
                + "\"value\":\"7\"}]");
        assertThat(s.get("display").get("parameters").toString()).isEqualTo("[\"7 (setLong)\"]");
        assertThat(s.get("kind").asText()).isEqualTo("UPDATE");
        assertThat(s.get("table").get("name").asText()).isEqualTo("members");
        assertThat(s.get("impact").asText()).isEqualTo(MEMBERS);
        assertThat(texts(s.get("keyColumns"))).containsExactly("id");
        assertThat(texts(s.get("changedColumns"))).containsExactly("quota", "profile");
        assertThat(texts(s.get("autoColumns"))).isEmpty();
        assertThat(s.get("affectedRows").asLong()).isEqualTo(1);
        assertThat(s.get("rows")).hasSize(1);
        JsonNode row = s.get("rows").get(0);
        assertThat(row.get("key").toString()).isEqualTo("{\"id\":{\"t\":\"int\",\"v\":\"7\"}}");
        JsonNode quota = row.get("columns").get(0);
        assertThat(quota.toString()).isEqualTo("{\"column\":\"quota\",\"before\":{\"t\":\"int\",\"v\":\"5\"},"
                + "\"after\":{\"t\":\"int\",\"v\":\"15\"},\"auto\":false,"
                + "\"display\":{\"column\":\"quota\",\"before\":\"5\",\"after\":\"15\"}}");
        JsonNode profile = row.get("columns").get(1);
        assertThat(profile.get("column").asText()).isEqualTo("profile");
        assertThat(profile.get("before").get("v").asText()).isEqualTo("{\"role\":\"user\"}");
        assertThat(profile.get("after").get("v").asText()).isEqualTo("{\"role\":\"admin\"}");
        // MySQL's JSON is a parsed document, like PostgreSQL's JSONB (compared canonically); MariaDB's JSON and
        // SQLite's are text.
        assertThat(profile.get("before").get("t").asText())
                .isEqualTo(d.flavor() == Flavor.POSTGRES || d.flavor() == Flavor.MYSQL ? "jsonb" : "json");
        assertThat(texts(plan.get("limitations"))).isEqualTo(limitations(d));
        assertThat(texts(plan.get("warnings"))).isEmpty();

        // show --json: the same plan and card, with its status and history.
        JsonNode shown = json(d.llmsafe("show", id, "--json"));
        assertThat(shown.get("planId").asText()).isEqualTo(id);
        assertThat(shown.get("status").asText()).isEqualTo("proposed");
        assertThat(shown.get("plan")).isEqualTo(plan);
        assertThat(shown.get("card").asText()).isEqualTo(out.get("card").asText());
        assertThat(shown.get("history").get(0).get("actor").asText()).isEqualTo("assistant");
        assertThat(shown.get("history").get(0).get("action").asText()).isEqualTo("propose");

        // Through the URL the exception carries the same JSON as the store keeps.
        PlanPendingException pending = d.propose("UPDATE orders SET status = 'lost' WHERE id = 1", "orders");
        JsonNode kept = json(d.llmsafe("show", pending.planId().toString(), "--json")).get("plan");
        assertThat(new ObjectMapper().readTree(pending.planJson())).isEqualTo(kept);
        assertThat(kept.get("format").asText()).isEqualTo("llmsafe-plan/2");

        // A refusal is JSON too.
        Run refused = d.llmsafe("plan", "UPDATE orders SET qty = 1 WHERE id = 99", "--as", "assistant", "--json");
        assertThat(refused.status()).as(refused.all()).isEqualTo(Main.REFUSED);
        JsonNode error = json(refused).get("error");
        assertThat(error.get("code").asText()).isEqualTo("NO_ROWS");
        assertThat(error.get("message").asText()).contains("no row of ");
    }

    // ---- C5 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C5_invisibleAndBidiCharactersReachNoScreenRaw(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        // The model's value reverses the rest of the card's line and hides text, through the URL and the CLI.
        String value = "ship\u202Eped\u200B\uDB40\uDC41";
        PlanPendingException pending = proposePrepared(d, "UPDATE orders SET status = ? WHERE id = 1", value);
        Run cli = d.plan("UPDATE orders SET status = 'x\u2066y\u00AD' WHERE id = 2");
        assertThat(cli.status()).as(cli.all()).isEqualTo(Main.OK);
        assertThat(d.rows("orders")).isEqualTo(before);
        String id = pending.planId().toString();
        String card = pending.getMessage();
        assertThat(card).contains("  UPDATE orders SET status = ? WHERE id = 1      [1: 'ship\\u{202E}ped\\u{200B}\\u{E0041}' (setString)]\n")
                .contains("    status: 'packed' -> 'ship\\u{202E}ped\\u{200B}\\u{E0041}'\n")
                .contains("How to read this card\n");
        assertThat(cli.out()).contains("  UPDATE orders SET status = 'x\\u{2066}y\\u{AD}' WHERE id = 2\n");
        for (String screen : List.of(card, cli.out(), d.llmsafe("show", id).out(), d.llmsafe("list").out(),
                d.llmsafe("show", id, "--json").out())) {
            assertThat(screen.codePoints().filter(cp -> cp != '\n' && dev.llmsafe.value.Visible.hidden(cp)))
                    .as(screen).isEmpty();
        }
        // The JSON keeps the exact value, and gives the card's form beside it for a user interface.
        JsonNode plan = json(d.llmsafe("show", id, "--json")).get("plan");
        JsonNode status = plan.get("statements").get(0).get("rows").get(0).get("columns").get(0);
        assertThat(status.get("after").get("v").asText()).isEqualTo(value);
        assertThat(status.get("display").get("after").asText()).isEqualTo("'ship\\u{202E}ped\\u{200B}\\u{E0041}'");
        assertThat(plan.get("statements").get(0).get("parameters").get(0).get("value").asText()).isEqualTo(value);
    }

    // ---- C6 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C6_aChangeWhoseTwoSidesLookAlikeIsFlagged(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // 'packed' to 'p\u0430cked' (a Cyrillic a): the two sides print the same.
        Run alike = d.plan("UPDATE orders SET status = 'p\u0430cked' WHERE id = 1");
        assertThat(alike.status()).as(alike.all()).isEqualTo(Main.OK);
        assertThat(alike.out()).contains("    status: 'packed' -> 'p\u0430cked'\n      LOOKS ALIKE: they differ only in"
                + " characters that are drawn alike; a word of the new value mixes letters of different scripts: char 2"
                + " was U+0061 LATIN SMALL LETTER A and is U+0430 CYRILLIC SMALL LETTER A")
                .contains("  - 1 changed value looks the same before and after but is not: read the lines marked LOOKS"
                        + " ALIKE.\n");
        JsonNode column = json(d.llmsafe("show", EndToEnd.planId(alike), "--json")).get("plan").get("statements").get(0)
                .get("rows").get(0).get("columns").get(0);
        assertThat(column.get("lookAlike").get("reasons").toString()).isEqualTo("[\"CONFUSABLE\",\"MIXED_SCRIPT\"]");
        // Zero-width and NBSP changes are flagged; an ordinary change is not.
        assertThat(d.plan("UPDATE orders SET status = 'pa\u200Bcked' WHERE id = 1").out())
                .contains("LOOKS ALIKE: they differ only in invisible characters");
        Run ordinary = d.plan("UPDATE orders SET status = 'lost' WHERE id = 1");
        assertThat(ordinary.out()).contains("status: 'packed' -> 'lost'\n").doesNotContain("LOOKS ALIKE");
        assertThat(json(d.llmsafe("show", EndToEnd.planId(ordinary), "--json")).get("plan").get("statements").get(0)
                .get("rows").get(0).get("columns").get(0).has("lookAlike")).isFalse();
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The table as the card names it: with its schema or database where the dialect has one. */
    private static String table(Deployed d, String name) {
        return d.engine() == Engine.SQLITE ? "main." + name : d.app().name() + "." + name;
    }

    /** The application's connection with the planning role's credential, naming the proposer of its plans. */
    private static Connection connectAs(Deployed d, String proposer) throws SQLException {
        Properties credential = new Properties();
        if (d.roles() != null) {
            credential.setProperty("user", d.roles().login(Role.PLAN).name());
            credential.setProperty("password", d.roles().login(Role.PLAN).password());
        }
        return DriverManager.getConnection(d.url() + "&llmsafe.proposer=" + proposer, credential);
    }

    /** The statement as a PreparedStatement through the application's URL; it must become a plan. */
    private static PlanPendingException proposePrepared(Deployed d, String sql, String... params) throws Exception {
        try (Connection c = d.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            ps.executeUpdate();
            throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            return e;
        }
    }

    private static void assertRefused(Run run, Refusal code, String text) {
        assertThat(run.status()).as(run.all()).isEqualTo(Main.REFUSED);
        assertThat(run.err()).startsWith("Refused (" + code + ")").contains(text);
    }

    private static JsonNode json(Run run) throws Exception {
        return new ObjectMapper().readTree(run.out());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
