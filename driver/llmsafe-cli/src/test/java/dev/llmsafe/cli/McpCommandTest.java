package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code llmsafe mcp} as an assistant runs it: the official MCP Java SDK client starts the command line
 * as a subprocess on a real database and calls the four tools; a person approves and applies with the
 * same command line, and the model sees the plan's status follow.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class McpCommandTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    private final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

    private int cli(String... args) {
        StringWriter out = new StringWriter();
        int status = Main.run(new Main(k -> null, dir), new PrintWriter(out, true), new PrintWriter(out, true), args);
        assertThat(status).as(String.join(" ", args) + ": " + out).isZero();
        return status;
    }

    private Path config(ScratchDatabase db) throws Exception {
        ObjectMapper json = new ObjectMapper();
        String conn = "{\"url\": " + json.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + json.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + json.writeValueAsString(db.password())) + "}";
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, "{\"connection\": " + conn + ","
                + (db.engine() == Engine.POSTGRES ? " \"schema\": \"" + db.name() + "\"," : "")
                + " \"policy\": {\"allow\": [\"orders\", \"members\"],"
                + " \"impact\": {\"orders\": \"A shipped order is invoiced the same night.\"},"
                + " \"denyIdentifiers\": {\"password_hash\": \"a stored credential\"}}}");
        return file;
    }

    private McpSyncClient start(Path config) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters server = ServerParameters.builder(java)
                .args("-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--config",
                        config.toString())
                .build();
        StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(stderr::add);
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("sdk-test-client", "2.1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new CallToolRequest(tool, arguments));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    private static Map<?, ?> structured(CallToolResult r) {
        return (Map<?, ?>) r.structuredContent();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void R4_J7_theFourToolsOnARealDatabaseAndAPlanThatAPersonAppliesWhileTheModelWatches(Engine engine) throws Exception {
        ScratchDatabase db = CliTest.seeded(dbs.fresh(engine));
        Path config = config(db);
        cli("migrate", "--config", config.toString());
        McpSyncClient client = start(config);
        try {
            assertThat(client.listTools().tools()).extracting(Tool::name)
                    .containsExactly("sql_read", "sql_plan", "sql_plan_status", "sql_schema");

            CallToolResult schema = call(client, "sql_schema", Map.of());
            assertThat(text(schema)).contains("orders").contains("A shipped order is invoiced the same night.")
                    .doesNotContain("password_hash");

            CallToolResult read = call(client, "sql_read", Map.of("sql", "SELECT id, status FROM orders ORDER BY id"));
            assertThat(read.isError()).as(text(read)).isFalse();
            assertThat(structured(read).get("rows"))
                    .isEqualTo(List.of(List.of(1, "packed"), List.of(2, "packed"), List.of(3, "shipped")));
            assertThat(structured(read).get("truncated")).isEqualTo(false);

            CallToolResult secret = call(client, "sql_read", Map.of("sql", "SELECT password_hash FROM members"));
            assertThat(secret.isError()).isTrue();
            assertThat(text(secret)).startsWith("Refused (DENIED_IDENTIFIER)");
            CallToolResult writeAsRead = call(client, "sql_read", Map.of("sql", "UPDATE orders SET qty = 0 WHERE id = 1"));
            assertThat(text(writeAsRead)).startsWith("Refused (UNSUPPORTED_STATEMENT)").contains("sql_plan");
            CallToolResult readAsPlan = call(client, "sql_plan", Map.of("sql", "SELECT * FROM orders"));
            assertThat(text(readAsPlan)).startsWith("Refused (UNSUPPORTED_STATEMENT)").contains("sql_read");

            List<String> before = db.snapshot("orders");
            CallToolResult plan = call(client, "sql_plan", Map.of("sql", "UPDATE orders SET status = 'shipped' WHERE id = 2"));
            assertThat(plan.isError()).as(text(plan)).isFalse();
            String planId = (String) structured(plan).get("planId");
            assertThat(text(plan)).startsWith("Plan " + planId + " is proposed, not applied.")
                    .contains("status: 'packed' -> 'shipped'").contains("proposer (mcp:sdk-test-client)");
            assertThat(db.snapshot("orders")).isEqualTo(before);

            assertThat(structured(call(client, "sql_plan_status", Map.of("planId", planId))).get("status"))
                    .isEqualTo("proposed");
            cli("approve", planId, "--as", "alice@example.com", "--config", config.toString());
            assertThat(structured(call(client, "sql_plan_status", Map.of("planId", planId))).get("status"))
                    .isEqualTo("approved");
            cli("apply", planId, "--as", "bob@example.com", "--config", config.toString());
            CallToolResult applied = call(client, "sql_plan_status", Map.of("planId", planId));
            assertThat(structured(applied).get("status")).isEqualTo("applied");
            assertThat(text(applied)).contains("approve by alice@example.com").contains("apply by bob@example.com");
            assertThat(db.snapshot("orders")).containsExactly("[1, packed, 1]", "[2, shipped, 2]", "[3, shipped, 3]");

            assertThat(call(client, "sql_plan_status", Map.of("planId", "not-a-plan")).isError()).isTrue();
        } finally {
            client.closeGracefully();
        }
        assertThat(stderr).noneMatch(l -> l.contains("Exception"));
    }
}
