package dev.llmsafe.conformance;

import static dev.llmsafe.conformance.PlanCommands.apply;
import static dev.llmsafe.conformance.PlanCommands.ok;
import static dev.llmsafe.conformance.PlanCommands.plan;
import static dev.llmsafe.conformance.PlanCommands.proposed;
import static dev.llmsafe.conformance.PlanCommands.replaced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.cli.Main;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.testing.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's command line (O1 to O3) on the four-role deployment of {@link EndToEnd}: plans named
 * by a beginning of their id, outputs that say what they are, and the launcher as it is installed.
 */
class OperatorRulesEndToEndTest {

    private static final int O1 = 10;
    private static final int O2 = 20;

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> PlanCommands.orders(List.of(O1, O2)),
            List.of("orders"), List.of("orders"), List.of(), """
              "policy": {
                "allow": ["orders"],
                "impact": {"orders": "Changing an order moves money."}
              }
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void O1_approveApplyShowAndRejectTakeAUniqueBeginningOfThePlanId(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> before = d.rows("orders");
        String id = proposed(plan(d, "assistant", "UPDATE orders SET qty = 40 WHERE id = " + O1));
        String other = proposed(plan(d, "assistant", "UPDATE orders SET qty = 41 WHERE id = " + (O1 + 1)));
        String prefix = id.substring(0, 12);
        assertThat(ok(d.llmsafe("show", prefix)).out()).contains("Plan " + id);
        assertThat(ok(d.llmsafe("approve", prefix, "--as", "alice")).out()).startsWith("Plan " + id + " is approved");
        assertThat(ok(d.llmsafe("reject", other.substring(0, 9), "--as", "carol")).out())
                .isEqualTo("Plan " + other + " is rejected by carol." + System.lineSeparator());
        Run applied = ok(apply(d, prefix, "--as", "bob"));
        assertThat(applied.out()).startsWith("Plan " + id + " is applied: 1 row committed");
        assertThat(d.rows("orders")).isEqualTo(replaced(before, O1, "[" + O1 + ", packed, null, 40]"));
        Run shortened = d.llmsafe("approve", "1234567", "--as", "alice");
        assertThat(shortened.status()).isEqualTo(Main.USAGE);
        assertThat(shortened.err()).contains("first 8 characters or more");
        Run nowhere = d.llmsafe("apply", "ffffffff-ffff-ffff", "--as", "bob");
        assertThat(nowhere.status()).isEqualTo(Main.USAGE);
        assertThat(nowhere.err()).contains("no plan id begins with ffffffff-ffff-ffff");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void O2_listHasAHeaderACountAndTimesInUtc_andReadGivesOneFormatAtATime(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String id = proposed(plan(d, "assistant", "UPDATE orders SET qty = 42 WHERE id = " + O2));
        List<String> list = ok(d.llmsafe("list", "--status", "proposed")).out().lines().toList();
        assertThat(list.get(0)).matches("PLAN +STATUS +CREATED +PROPOSER +ROWS +STATEMENT");
        assertThat(list).anyMatch(l -> l.matches(id + "  proposed  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  assistant"
                + " +1  UPDATE orders SET qty = 42 WHERE id = " + O2));
        assertThat(list.get(list.size() - 1)).matches("\\d+ plans?");

        String sql = "SELECT id, note FROM orders WHERE id IN (" + O2 + ", " + (O2 + 1) + ") ORDER BY id";
        assertThat(ok(d.llmsafe("read", sql, "--json")).out()).isEqualTo(ok(d.llmsafe("read", sql, "--format", "json")).out());
        Run both = d.llmsafe("read", sql, "--format", "csv", "--json");
        assertThat(both.status()).isEqualTo(Main.USAGE);
        assertThat(both.out()).contains("ask for two formats");
        assertThat(ok(d.llmsafe("read", sql, "--format", "csv", "--null", "NULL")).out())
                .isEqualTo("id,note\r\n" + O2 + ",NULL\r\n" + (O2 + 1) + ",fragile\r\n");
        Run typo = d.llmsafe("shw", id);
        assertThat(typo.status()).isEqualTo(Main.USAGE);
        assertThat(typo.err()).contains("Did you mean").contains("show");
    }

    /**
     * O5: the four-role deployment run with one file per role: the planner's (the planning credential and
     * the policy), the approver's (the store credential alone) and the applier's (its own credential, the
     * store's, the policy). The approver's and the applier's files hold no planning credential.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void O5_theApproverAndTheApplierRunFromFilesWithoutThePlanningCredential(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String full = Files.readString(d.home().resolve("llmsafe.json"));
        String store = line(full, "storeConnection");
        String apply = line(full, "applyConnection");
        String schema = full.contains("\n  \"schema\"") ? line(full, "schema") : "";
        Path approver = Files.writeString(d.home().resolve("approver.json"), "{\n" + store.replaceFirst(",$", "") + "\n}\n");
        Path applier = Files.writeString(d.home().resolve("applier.json"), "{\n" + apply + "\n" + store + "\n"
                + (schema.isEmpty() ? "" : schema + "\n") + SETUP.config().strip() + "\n}\n");
        for (Path file : List.of(approver, applier)) {
            assertThat(Files.readString(file)).doesNotContain("\"connection\"").doesNotContain("PLAN_PASSWORD");
        }
        List<String> before = d.rows("orders");
        String id = proposed(plan(d, "assistant", "UPDATE orders SET qty = 43 WHERE id = " + (O2 + 2)));
        assertThat(ok(d.llmsafe("list", "--config", approver.toString())).out()).contains(id);
        assertThat(ok(d.llmsafe("approve", id, "--as", "alice", "--config", approver.toString())).out())
                .contains("is approved by alice");
        Run wrongFile = d.llmsafe("apply", id, "--as", "bob", "--config", approver.toString());
        assertThat(wrongFile.status()).isEqualTo(Main.USAGE);
        assertThat(wrongFile.err()).contains("names no connection");
        Run applied = ok(apply(d, id, "--as", "bob", "--config", applier.toString()));
        assertThat(applied.out()).contains("is applied: 1 row committed");
        assertThat(d.rows("orders")).isEqualTo(replaced(before, O2 + 2, "[" + (O2 + 2) + ", open, null, 43]"));
        Run check = ok(d.llmsafe("check", "--config", approver.toString()));
        assertThat(check.out()).startsWith("Serves: approve (approve, reject, list, show)\n").contains("Ready: yes");
        assertThat(ok(d.llmsafe("check", "--config", applier.toString())).out())
                .startsWith("Serves: approve (approve, reject, list, show), apply\n").contains("Apply connection: reachable");
    }

    /** The one line of the deployment's file that holds a top-level key, with its comma. */
    private static String line(String config, String key) {
        return config.lines().filter(l -> l.startsWith("  \"" + key + "\":")).findFirst()
                .orElseThrow(() -> new AssertionError(key + " is not in\n" + config));
    }

    /**
     * E10: on the four-role deployment, an allowlisted table the read role was never granted: check says it
     * is not ready and names the grant, and `llmsafe read` of it is NOT_GRANTED (exit 1) on PostgreSQL and
     * MariaDB, where it was an unexpected error and a wrong TABLE_NOT_ALLOWED.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E10_aTableTheReadRoleWasNotGrantedIsFoundByCheckAndItsReadIsNotGranted(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        d.app().execute("CREATE TABLE IF NOT EXISTS archive_e10 (id INT PRIMARY KEY, note VARCHAR(20))");
        String config = PlanCommands.variant(d, "e10", t -> t.replace("\"allow\": [\"orders\"]", "\"allow\": [\"orders\", \"archive_e10\"]"));
        Run check = d.llmsafe("check", "--config", config);
        assertThat(check.status()).as(check.all()).isEqualTo(Main.NOT_READY);
        assertThat(check.out()).contains("archive_e10").contains("the read connection (").contains("cannot read it")
                .contains("Grant it SELECT");
        Run read = d.llmsafe("read", "SELECT id FROM archive_e10", "--config", config);
        assertThat(read.status()).as(read.all()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).startsWith("Refused (NOT_GRANTED)");
        assertThat(ok(d.llmsafe("read", "SELECT id FROM orders WHERE id = " + O2, "--config", config)).out()).contains("1 row");
    }

    /**
     * O3: the launcher runs the executable jar through a symbolic link, and from a copied directory of
     * {@code bin/llmsafe} and {@code lib/}, and the jar says its version and build.
     */
    @Test
    void O3_theLauncherWorksThroughASymlinkAndFromACopy_andSaysItsVersion() throws Exception {
        Path root = SpecFacts.specFile().getParent();
        Path launcher = root.resolve("driver/llmsafe-cli/bin/llmsafe");
        Path jar;
        try (Stream<Path> files = Files.list(root.resolve("driver/llmsafe-cli/target"))) {
            jar = files.filter(p -> p.getFileName().toString().matches("llmsafe-cli-.*-all\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no executable jar in driver/llmsafe-cli/target: run mvn package first"));
        }
        Path linked = Files.createDirectories(dir.resolve("path"));
        Files.createSymbolicLink(linked.resolve("llmsafe"), launcher);
        Path copy = dir.resolve("llmsafe-dist");
        Files.createDirectories(copy.resolve("bin"));
        Files.createDirectories(copy.resolve("lib"));
        Files.copy(launcher, copy.resolve("bin/llmsafe"));
        copy.resolve("bin/llmsafe").toFile().setExecutable(true);
        Files.copy(jar, copy.resolve("lib").resolve(jar.getFileName()));
        for (Path command : List.of(linked.resolve("llmsafe"), copy.resolve("bin/llmsafe"))) {
            List<String> out = run(command, "--version");
            assertThat(out.get(0)).as(command.toString()).matches("llmsafe \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(built \\d{4}-\\d\\d-\\d\\dT.*\\)");
        }
        Files.delete(copy.resolve("lib").resolve(jar.getFileName()));
        List<String> missing = run(copy.resolve("bin/llmsafe"), "--version");
        assertThat(String.join("\n", missing)).contains("no executable jar in " + copy.toRealPath());
    }

    /**
     * O4: {@code llmsafe mcp} itself, driven by the official MCP Java SDK client: a request over the
     * message bound fails at once with its id and the session goes on; a server started while the
     * database is down answers initialize and tools/list, and each tool result says the database cannot be
     * reached, until it is back.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void O4_theMcpServerSurvivesAnOversizedRequestAndADatabaseThatIsDown(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String sql = "SELECT id, qty FROM orders WHERE id = " + O2;
        McpSyncClient client = mcp(d, d.home().resolve("llmsafe.json").toString());
        try {
            client.initialize();
            assertThat(text(read(client, sql))).contains("\"rows\":[[" + O2 + ",");
            String big = "SELECT '" + "z".repeat(1 << 20) + "' AS z";
            assertThatThrownBy(() -> read(client, big)).isInstanceOf(McpError.class).hasMessageContaining("too large");
            CallToolResult after = read(client, sql);
            assertThat(after.isError()).isFalse();
            assertThat(text(after)).contains("\"rows\":[[" + O2 + ",");
        } finally {
            client.closeGracefully();
        }

        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String down = PlanCommands.variant(d, "down", t -> t.replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:" + closed));
        McpSyncClient orphan = mcp(d, down);
        try {
            McpSchema.InitializeResult init = orphan.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("llmsafe");
            assertThat(orphan.listTools().tools()).extracting(McpSchema.Tool::name).contains("sql_read", "sql_plan");
            for (int i = 0; i < 2; i++) {
                CallToolResult r = read(orphan, sql);
                assertThat(r.isError()).isTrue();
                assertThat(text(r)).contains("The database cannot be reached now, so nothing ran")
                        .contains("tries again on the next call");
            }
        } finally {
            orphan.closeGracefully();
        }
    }

    private static McpSyncClient mcp(Deployed d, String config) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters server = ServerParameters.builder(java)
                .args("-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--config", config)
                .env(d.env())
                .build();
        StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> { });
        return McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("e2e-sdk-client", "2.1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
    }

    private static CallToolResult read(McpSyncClient client, String sql) {
        return client.callTool(new CallToolRequest("sql_read", Map.of("sql", sql)));
    }

    private static String text(CallToolResult r) {
        return r.content().stream().filter(TextContent.class::isInstance).map(c -> ((TextContent) c).text())
                .reduce("", String::concat);
    }

    private static List<String> run(Path command, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", command.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out.lines().toList();
    }
}
