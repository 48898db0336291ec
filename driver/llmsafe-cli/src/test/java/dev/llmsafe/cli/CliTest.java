package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Setter;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The command line end to end, in-process, on real databases: output and exit status asserted. */
class CliTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new Main(Map.of("LLMSAFE_TEST_PW", "")::get, dir), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new Run(status, out.toString(), err.toString());
    }

    Path config(ScratchDatabase db) throws Exception {
        return config(db, "");
    }

    /** The configuration, with more policy keys (each followed by a comma) before "allow". */
    Path config(ScratchDatabase db, String morePolicy) throws Exception {
        String conn = "{\"url\": " + new ObjectMapper().writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": \"" + db.user() + "\"")
                + (db.password() == null ? "" : ", \"password\": \"" + db.password() + "\"") + "}";
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, "{\n  \"connection\": " + conn + ",\n"
                + (db.engine() == Engine.POSTGRES ? "  \"schema\": \"" + db.name() + "\",\n" : "")
                + "  \"policy\": {\n    " + morePolicy + "\"allow\": [\"orders\", \"members\"],\n"
                + "    \"impact\": {\"orders\": \"Changing an order moves money.\"},\n"
                + "    \"denyIdentifiers\": {\"password_hash\": \"a stored credential\"}\n  }\n}\n");
        return file;
    }

    static ScratchDatabase seeded(ScratchDatabase db) throws Exception {
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, password_hash VARCHAR(60))",
                "INSERT INTO members VALUES (7, 'Ann', 'x')");
        return db;
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void E1_T1_theWholeStoryThroughTheCommandLine(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        config(db);

        Run check = run("check");
        assertThat(check.status()).isEqualTo(Main.NOT_READY);
        assertThat(check.out()).contains("orders: ready").contains("members: read only")
                .contains("NOT READY: missing: run `llmsafe migrate` to create it").contains("Ready: no");

        Run planBefore = run("plan", "UPDATE orders SET status = ? WHERE id = ?", "--param", "shipped", "--param", "1",
                "--as", "assistant");
        assertThat(planBefore.status()).isEqualTo(Main.REFUSED);
        assertThat(planBefore.err()).startsWith("Refused (STORE_MISSING)").contains("llmsafe migrate");

        Run migrate = run("migrate");
        assertThat(migrate.status()).isZero();
        assertThat(migrate.out()).startsWith("The plan store is at version 1");
        assertThat(run("migrate").status()).isZero();
        assertThat(run("check").status()).isZero();

        Run schema = run("schema");
        assertThat(schema.out()).contains("Table: orders").contains("Changing it: Changing an order moves money.")
                .contains("Table: members").contains("Read only").doesNotContain("password_hash");

        Run plan = run("plan", "UPDATE orders SET status = ? WHERE status = 'packed'", "--param", "shipped",
                "--as", "assistant");
        assertThat(plan.status()).as(plan.err()).isZero();
        assertThat(plan.out()).contains("is proposed, not applied. Nothing in the database has changed.")
                .contains("2 rows would change, in 1 column: status").contains("status: 'packed' -> 'shipped'");
        String id = plan.out().substring(5, 41);

        Run list = run("list", "--status", "proposed");
        assertThat(list.out()).contains(id).contains("proposed").contains("assistant");

        Run self = run("approve", id, "--as", "Assistant");
        assertThat(self.status()).isEqualTo(Main.REFUSED);
        assertThat(self.err()).startsWith("Refused (SELF_APPROVAL)");

        assertThat(run("approve", id, "--as", "alice").out()).contains("is approved by alice");
        Run apply = run("apply", id, "--as", "bob");
        assertThat(apply.status()).as(apply.err()).isZero();
        assertThat(apply.out()).contains("is applied: 2 rows committed, exactly as the card showed.");

        Run show = run("show", id);
        assertThat(show.out()).contains("Status: applied (approved by alice)").contains("bob  apply  applied");

        Run json = run("show", id, "--json");
        JsonNode node = new ObjectMapper().readTree(json.out());
        assertThat(node.get("status").asText()).isEqualTo("applied");
        assertThat(node.get("plan").get("format").asText()).isEqualTo("llmsafe-plan/2");

        Run again = run("apply", id, "--as", "bob", "--json");
        assertThat(again.status()).isEqualTo(Main.REFUSED);
        assertThat(new ObjectMapper().readTree(again.out()).get("error").get("code").asText()).isEqualTo("ALREADY_APPLIED");

        Run read = run("plan", "SELECT * FROM orders", "--as", "assistant");
        assertThat(read.status()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).contains("Run it with `llmsafe read`");

        Run rejected = run("plan", "DELETE FROM orders WHERE id = 3", "--as", "assistant");
        String second = rejected.out().substring(5, 41);
        assertThat(run("reject", second, "--as", "carol", "--reason", "keep it").status()).isZero();
        assertThat(run("apply", second, "--as", "bob").err()).startsWith("Refused (PLAN_CLOSED)");
    }

    @Test
    void D16_aWholeNumberParameterBindsAsANumberWhateverItsLength() {
        assertThat(PlanCommand.parameter("42")).isEqualTo(Parameter.of(Setter.SET_LONG, 42L));
        // 19 digits: once bound as text, which PostgreSQL refuses for a BIGINT column.
        assertThat(PlanCommand.parameter("9223372036854775807")).isEqualTo(Parameter.of(Setter.SET_LONG, Long.MAX_VALUE));
        assertThat(PlanCommand.parameter("-9223372036854775808")).isEqualTo(Parameter.of(Setter.SET_LONG, Long.MIN_VALUE));
        assertThat(PlanCommand.parameter("18446744073709551615"))
                .isEqualTo(Parameter.of(Setter.SET_BIG_DECIMAL, new java.math.BigDecimal("18446744073709551615")));
        assertThat(PlanCommand.parameter("1.50"))
                .isEqualTo(Parameter.of(Setter.SET_BIG_DECIMAL, new java.math.BigDecimal("1.50")));
        assertThat(PlanCommand.parameter("string:9223372036854775807"))
                .isEqualTo(Parameter.of(Setter.SET_STRING, "9223372036854775807"));
        assertThat(PlanCommand.parameter("NULL")).isEqualTo(Parameter.ofNull(java.sql.Types.NULL));
        assertThat(PlanCommand.parameter("12a")).isEqualTo(Parameter.of(Setter.SET_STRING, "12a"));
    }

    @Test
    void initPrintsAStartingConfigurationThatLoads() throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(Engine.SQLITE));
        Run init = run("init", "--url", db.url());
        assertThat(init.status()).isZero();
        assertThat(init.out()).contains("// \"orders\"").contains("// \"members\"");
        Path file = dir.resolve("init.json");
        // As printed, nothing is allowed, and a configuration that would refuse every statement does not load.
        Files.writeString(file, init.out());
        assertThatThrownBy(() -> LlmSafeConfig.load(file, Map.<String, String>of()::get))
                .hasMessageContaining("policy.allow: the list is empty");
        // With one table uncommented it loads, and names the database init looked at.
        Files.writeString(file, init.out().replace("\"allow\": [", "\"allow\": [\"orders\""));
        LlmSafeConfig c = LlmSafeConfig.load(file, Map.<String, String>of()::get);
        assertThat(c.policy().tables()).hasSize(1);
        assertThat(c.connection().url()).isEqualTo(db.url());
    }

    @Test
    void failuresAreOneLineWithACodeAndNoStackTrace() throws Exception {
        Run none = run("check");
        assertThat(none.status()).isEqualTo(Main.USAGE);
        assertThat(none.err()).contains("no configuration: pass --config PATH").doesNotContain("\tat ");

        Files.writeString(dir.resolve("down.json"), "{\"connection\": {\"url\": \"jdbc:postgresql://127.0.0.1:1/none\","
                + " \"user\": \"x\"}, \"policy\": {\"allow\": [\"orders\"]}}");
        Run down = run("migrate", "--config", dir.resolve("down.json").toString());
        assertThat(down.status()).isEqualTo(Main.ERROR);
        assertThat(down.err().strip().lines().count()).isEqualTo(1);
        assertThat(down.err()).startsWith("the database could not be used:").contains("--debug shows the stack trace");

        Run debug = run("migrate", "--config", dir.resolve("down.json").toString(), "--debug");
        assertThat(debug.err()).contains("\tat ");

        Files.writeString(dir.resolve("bad.json"), "{\"connection\": {\"url\": \"jdbc:sqlite:x.db\"}, \"polcy\": {}}");
        Run bad = run("check", "--config", dir.resolve("bad.json").toString());
        assertThat(bad.status()).isEqualTo(Main.USAGE);
        assertThat(bad.err()).contains("polcy: unknown key; did you mean \"policy\"?");

        // SQLite would create a missing file: the application's database must exist, or it is the wrong path.
        Path missing = dir.resolve("nowhere").resolve("app.db");
        Files.writeString(dir.resolve("missing.json"), "{\"connection\": {\"url\": \"jdbc:sqlite:" + missing
                + "\"}, \"policy\": {\"allow\": [\"orders\"]}}");
        Run absent = run("migrate", "--config", dir.resolve("missing.json").toString());
        assertThat(absent.status()).isEqualTo(Main.USAGE);
        assertThat(absent.err()).contains("connection.url: there is no SQLite database at " + missing);
        assertThat(missing.getParent()).doesNotExist();

        Run usage = run("approve");
        assertThat(usage.status()).isEqualTo(Main.USAGE);
        assertThat(usage.err()).contains("Missing required");
    }

    @Test
    void everyCommandHasCompleteHelp() {
        for (String cmd : new String[] {"init", "migrate", "check", "plan", "read", "explain", "schema", "mcp", "list",
                "show", "approve", "apply", "reject"}) {
            Run help = run(cmd, "--help");
            assertThat(help.status()).isZero();
            assertThat(help.out()).contains("Usage: llmsafe " + cmd).contains("--config=PATH").contains("--json");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void R4_readPrintsATableCsvOrJsonAndSaysWhenTheRowsWereCut(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        String newline = engine == Engine.SQLITE ? "char(10)" : "chr(10)";
        db.execute("INSERT INTO members VALUES (8, 'Lee, \"Jr\"' || " + newline + " || 'x', NULL)");
        config(db, "\"read\": {\"maxRows\": 2},\n    ");

        Run table = run("read", "SELECT id, status FROM orders WHERE id < 3 ORDER BY id");
        assertThat(table.status()).as(table.err()).isZero();
        assertThat(table.out()).isEqualTo("""
                id | status
                ---+-------
                1  | packed
                2  | packed
                2 rows
                """);

        Run cut = run("read", "SELECT id FROM orders ORDER BY id");
        assertThat(cut.out()).endsWith("2 rows\nThe result was cut at 2 rows (policy.read.maxRows): more rows matched."
                + " Narrow the query to see the rest.\n");

        Run csv = run("read", "SELECT id, name, 1 AS one FROM members ORDER BY id", "--format", "csv");
        assertThat(csv.status()).as(csv.err()).isZero();
        assertThat(csv.out()).isEqualTo("id,name,one\r\n7,Ann,1\r\n8,\"Lee, \"\"Jr\"\"\nx\",1\r\n");
        Run csvCut = run("read", "SELECT id FROM orders ORDER BY id", "--format", "csv");
        assertThat(csvCut.out()).isEqualTo("id\r\n1\r\n2\r\n");
        assertThat(csvCut.err()).startsWith("The result was cut at 2 rows");

        Run json = run("read", "SELECT id, status FROM orders ORDER BY id", "--json");
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertThat(j.get("truncated").asBoolean()).isTrue();
        assertThat(j.get("rows").toString()).isEqualTo("[[1,\"packed\"],[2,\"packed\"]]");
        assertThat(j.get("columns").get(1).get("name").asText()).isEqualTo("status");

        Run secret = run("read", "SELECT password_hash FROM members");
        assertThat(secret.status()).isEqualTo(Main.REFUSED);
        assertThat(secret.err()).startsWith("Refused (DENIED_IDENTIFIER)");
        Run write = run("read", "UPDATE orders SET qty = 9 WHERE id = 1");
        assertThat(write.status()).isEqualTo(Main.REFUSED);
        assertThat(write.err()).startsWith("Refused (UNSUPPORTED_STATEMENT)").contains("llmsafe plan");
        assertThat(db.snapshot("orders")).contains("[1, packed, 1]");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void R5_explainShowsTheEstimateTheCostGateComparesAndRunsNothing(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        config(db);
        Run open = run("explain", "SELECT * FROM orders WHERE qty > 1");
        assertThat(open.status()).as(open.err()).isZero();
        assertThat(open.out()).startsWith("Estimate: ").contains("Bound: none (policy.read.maxCost is not set)");

        config(db, "\"read\": {\"maxCost\": 0.5},\n    ");
        Run gated = run("explain", "SELECT * FROM orders WHERE qty > 1", "--json");
        JsonNode j = new ObjectMapper().readTree(gated.out());
        assertThat(j.get("estimate").asDouble()).isGreaterThan(0.5);
        assertThat(j.get("bound").asDouble()).isEqualTo(0.5);
        assertThat(j.get("allowed").asBoolean()).isFalse();
        assertThat(run("read", "SELECT * FROM orders WHERE qty > 1").err()).startsWith("Refused (COST_TOO_HIGH)");

        assertThat(run("explain", "SELECT password_hash FROM members").err()).startsWith("Refused (DENIED_IDENTIFIER)");
        assertThat(run("explain", "DELETE FROM orders WHERE id = 1").err()).startsWith("Refused (UNSUPPORTED_STATEMENT)");
    }

    /** O1: a plan is named by its whole id or by a beginning of 8 characters or more that no other plan has. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES", "MYSQL"})
    void O1_aPlanIsNamedByItsIdOrAUniqueBeginningOfIt(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        config(db);
        assertThat(run("migrate").status()).isZero();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Run plan = run("plan", "UPDATE orders SET qty = " + (10 + i) + " WHERE id = 1", "--as", "assistant");
            assertThat(plan.status()).as(plan.err()).isZero();
            ids.add(plan.out().substring(5, 41));
        }
        String id = ids.get(0);
        String shortest = shortestUnique(id, ids);
        assertThat(run("show", shortest).out()).contains("Plan " + id);
        assertThat(run("show", shortest.toUpperCase(java.util.Locale.ROOT)).out()).contains("Plan " + id);
        Run approve = run("approve", shortest, "--as", "alice");
        assertThat(approve.out()).as(approve.err()).contains("Plan " + id + " is approved by alice");
        Run reject = run("reject", ids.get(1).substring(0, 13), "--as", "carol");
        assertThat(reject.out()).as(reject.err()).isEqualTo("Plan " + ids.get(1) + " is rejected by carol.\n");
        Run apply = run("apply", shortest, "--as", "bob");
        assertThat(apply.out()).as(apply.err()).contains("Plan " + id + " is applied");
        assertThat(db.snapshot("orders")).contains("[1, packed, 10]");

        Run tooShort = run("show", id.substring(0, 7));
        assertThat(tooShort.status()).isEqualTo(Main.USAGE);
        assertThat(tooShort.err()).contains("is not a plan id").contains("first 8 characters or more");
        Run none = run("show", "ffffffff-ffff");
        assertThat(none.status()).isEqualTo(Main.USAGE);
        assertThat(none.err()).contains("no plan id begins with ffffffff-ffff");
        Run wildcard = run("show", "%%%%%%%%");
        assertThat(wildcard.status()).isEqualTo(Main.USAGE);
        assertThat(wildcard.err()).contains("is not a plan id");
        // An ambiguous beginning: two ids made to share their first 8 characters, both named.
        String twin = id.substring(0, 8) + "-0000-4000-8000-000000000000";
        db.execute("UPDATE llmsafe_plans SET id = '" + twin + "' WHERE id = '" + ids.get(2) + "'");
        Run ambiguous = run("show", id.substring(0, 8));
        assertThat(ambiguous.status()).isEqualTo(Main.USAGE);
        assertThat(ambiguous.err()).contains(id.substring(0, 8) + " is the beginning of more than one plan id (")
                .contains(id).contains(twin).contains("type more of it");
    }

    private static String shortestUnique(String id, List<String> ids) {
        for (int n = 8; n < 36; n++) {
            String p = id.substring(0, n);
            if (ids.stream().filter(x -> x.startsWith(p)).count() == 1) {
                return p;
            }
        }
        return id;
    }

    /**
     * O2: the command line says what it is and where the user went wrong, and its outputs agree: the
     * nearest command for a mistyped one, a header and a count in list with times in UTC, one format
     * at a time in read, NULL told from '' in CSV when asked, a configuration from init that works as
     * printed on a server without a password.
     */
    @Test
    void O2_theCommandLineSaysWhereTheUserWentWrongAndItsOutputsAgree() throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(Engine.SQLITE));
        db.execute("INSERT INTO members VALUES (8, '', NULL)");
        config(db);
        assertThat(run("migrate").status()).isZero();

        Run typo = run("aprove", "x");
        assertThat(typo.status()).isEqualTo(Main.USAGE);
        assertThat(typo.err()).contains("Did you mean").contains("approve");
        assertThat(run("--version").out()).startsWith("llmsafe (development build");

        Run empty = run("list");
        assertThat(empty.out()).isEqualTo("No plans.\n");
        Run plan = run("plan", "UPDATE orders SET qty = 5 WHERE id = 1", "--as", "assistant");
        String id = plan.out().substring(5, 41);
        List<String> list = run("list").out().lines().toList();
        assertThat(list).hasSize(3);
        assertThat(list.get(0)).matches("PLAN +STATUS +CREATED +PROPOSER +ROWS +STATEMENT");
        assertThat(list.get(1)).matches(id + "  proposed  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  assistant +1  "
                + "UPDATE orders SET qty = 5 WHERE id = 1");
        assertThat(list.get(2)).isEqualTo("1 plan");

        String sql = "SELECT id, name FROM members ORDER BY id";
        assertThat(run("read", sql, "--json").out()).isEqualTo(run("read", sql, "--format", "json").out());
        Run both = run("read", sql, "--format", "csv", "--json");
        assertThat(both.status()).isEqualTo(Main.USAGE);
        assertThat(both.out()).contains("--json and --format csv ask for two formats");
        // '' is an empty field; NULL is the --null text.
        assertThat(run("read", "SELECT id, name, NULL AS x FROM members ORDER BY id", "--format", "csv", "--null", "\\N")
                .out()).isEqualTo("id,name,x\r\n7,Ann,\\N\r\n8,,\\N\r\n");
        assertThat(run("read", sql, "--null", "-").err()).contains("--null is for --format csv");
        Run secret = run("read", "SELECT * FROM members");
        // R10 refuses the star before it runs; either way the refusal names the column once.
        assertThat(secret.err()).startsWith("Refused (DENIED_IDENTIFIER)").contains("password_hash")
                .doesNotContain("password_hash: password_hash");

        // init, against a server that took no password, writes a connection that works as printed.
        ScratchDatabase pg = dbs.get(Engine.POSTGRES);
        Run init = run("init", "--url", pg.url(), "--user", pg.user());
        assertThat(init.status()).as(init.err()).isZero();
        assertThat(init.out()).doesNotContain("\"password\": \"${LLMSAFE_PASSWORD}\" }")
                .contains("add\n  // \"password\": \"${LLMSAFE_PASSWORD}\" here");
        Path file = dir.resolve("init.json");
        Files.writeString(file, init.out().replace("\"allow\": [", "\"allow\": [\"x\""));
        assertThat(LlmSafeConfig.load(file, Map.<String, String>of()::get).connection().password()).isEmpty();
    }

    /**
     * O5: one configuration per role. The approver's file names only the store and the seal key, the
     * applier's adds its own credential and the policy: neither holds the planning credential, each does
     * its part of the story, a command it cannot serve says which key it lacks, and check says what the
     * file serves.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void O5_theApproverAndTheApplierNeedNoPlanningCredential(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        ObjectMapper json = new ObjectMapper();
        String conn = "{\"url\": " + json.writeValueAsString(db.url()) + (db.user() == null ? "" : ", \"user\": \""
                + db.user() + "\"") + (db.password() == null ? "" : ", \"password\": \"" + db.password() + "\"") + "}";
        String schema = engine == Engine.POSTGRES ? "  \"schema\": \"" + db.name() + "\",\n" : "";
        String seal = "  \"sealKey\": \"0123456789abcdef0123456789abcdef\"";
        String policy = "  \"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Changing an order moves money.\"}}";
        Path planner = Files.writeString(dir.resolve("planner.json"), "{\n  \"connection\": " + conn + ",\n"
                + "  \"storeConnection\": " + conn + ",\n" + schema + seal + ",\n" + policy + "\n}");
        Path approver = Files.writeString(dir.resolve("approver.json"), "{\n  \"storeConnection\": " + conn + ",\n"
                + seal + "\n}");
        Path applier = Files.writeString(dir.resolve("applier.json"), "{\n  \"applyConnection\": " + conn + ",\n"
                + "  \"storeConnection\": " + conn + ",\n" + schema + seal + ",\n" + policy + "\n}");
        assertThat(Files.readString(approver)).doesNotContain("\"connection\"");
        assertThat(run("migrate", "--config", approver.toString()).status()).isZero();

        Run plan = run("plan", "UPDATE orders SET qty = 9 WHERE id = 1", "--as", "assistant", "--config", planner.toString());
        assertThat(plan.status()).as(plan.err()).isZero();
        String id = plan.out().substring(5, 41);
        assertThat(run("list", "--config", approver.toString()).out()).contains(id);
        assertThat(run("show", id, "--config", approver.toString()).out()).contains("qty: 1 -> 9");
        assertThat(run("approve", id, "--as", "alice", "--config", approver.toString()).out()).contains("is approved by alice");
        Run refused = run("apply", id, "--as", "bob", "--config", approver.toString());
        assertThat(refused.status()).isEqualTo(Main.USAGE);
        assertThat(refused.err()).contains("names no connection");
        Run notHere = run("plan", "UPDATE orders SET qty = 8 WHERE id = 2", "--as", "assistant", "--config", applier.toString());
        assertThat(notHere.status()).isEqualTo(Main.USAGE);
        assertThat(notHere.err()).contains("names no connection").contains("approve (approve, reject, list, show) and apply only");
        Run apply = run("apply", id, "--as", "bob", "--config", applier.toString());
        assertThat(apply.out()).as(apply.err()).contains("is applied: 1 row committed");
        assertThat(db.snapshot("orders")).contains("[1, packed, 9]");

        Run check = run("check", "--config", approver.toString());
        assertThat(check.status()).as(check.out()).isZero();
        assertThat(check.out()).startsWith("Serves: approve (approve, reject, list, show)\n")
                .contains("propose (plan, read, explain, schema, mcp, jdbc:llmsafe:) needs connection and policy")
                .contains("Store: version ").contains("Ready: yes");
        Run checkApplier = run("check", "--config", applier.toString());
        assertThat(checkApplier.out()).startsWith("Serves: approve (approve, reject, list, show), apply\n")
                .contains("Apply connection: reachable");
        assertThat(run("check", "--config", planner.toString()).out())
                .startsWith("Serves: propose (plan, read, explain, schema, mcp, jdbc:llmsafe:), approve (approve, reject,"
                        + " list, show), apply, read (read, explain, the console's reads)\n");
    }

    /** O2: integers are the same JSON type on every database: numbers up to 2^53, digits in a string beyond. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void O2_integersAreTheSameJsonTypeOnEveryDatabase(Engine engine) throws Exception {
        ScratchDatabase db = seeded(dbs.fresh(engine));
        db.execute("CREATE TABLE counters (id INT PRIMARY KEY, small BIGINT, edge BIGINT, big BIGINT, neg BIGINT)",
                "INSERT INTO counters VALUES (1, 42, 9007199254740992, 9007199254740993, -9223372036854775808)");
        config(db);
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, Files.readString(file).replace("\"allow\": [\"orders\", \"members\"]",
                "\"allow\": [\"orders\", \"members\", \"counters\"]"));
        for (String sql : List.of("SELECT id, small, edge, big, neg FROM counters",
                "SELECT id, small + 0 AS small, edge, big * 1 AS big, neg FROM counters")) {
            Run r = run("read", sql, "--json");
            assertThat(r.status()).as(r.err()).isZero();
            JsonNode row = new ObjectMapper().readTree(r.out()).get("rows").get(0);
            assertThat(row.toString()).as(sql).isEqualTo("[1,42,9007199254740992,\"9007199254740993\",\"-9223372036854775808\"]");
        }
    }
}
