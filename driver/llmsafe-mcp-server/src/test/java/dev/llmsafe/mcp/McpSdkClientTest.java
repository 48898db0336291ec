package dev.llmsafe.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The server as a real client sees it: the official MCP Java SDK client (2.1.0), which nobody here
 * wrote, starts {@link ShopServerMain} as a subprocess with the test class path and talks to it over
 * its standard input and output, as an assistant would talk to {@code llmsafe mcp}. The client checks
 * every structured result against the tool's output schema (schema caching is on), so a result that
 * does not match what {@code tools/list} promised fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class McpSdkClientTest {

    private final List<String> stderr = Collections.synchronizedList(new ArrayList<>());
    private final JsonSchemaValidator validator = McpJsonDefaults.getSchemaValidator();
    private McpSyncClient client;
    private McpSchema.InitializeResult init;

    @BeforeAll
    void start() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters server = ServerParameters.builder(java)
                .args("-cp", System.getProperty("java.class.path"), ShopServerMain.class.getName())
                .build();
        StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(stderr::add);
        client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("sdk-test-client", "2.1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(60))
                .enableCallToolSchemaCaching(true)
                .build();
        init = client.initialize();
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    @Test
    void initializeNegotiatesTheClientsLatestRevision() {
        assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(init.serverInfo().name()).isEqualTo("llmsafe");
        assertThat(init.capabilities().tools()).isNotNull();
        assertThat(init.capabilities().resources()).isNull();
        assertThat(init.capabilities().prompts()).isNull();
        assertThat(init.instructions()).contains("sql_plan");
        assertThat(client.ping()).isNotNull();
    }

    @Test
    void toolsListHasExactlyTheFourToolsWithClosedSchemasAndTruthfulAnnotations() {
        List<Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(Tool::name).containsExactly("sql_read", "sql_plan", "sql_plan_status", "sql_schema");
        Map<String, Tool> byName = tools.stream().collect(Collectors.toMap(Tool::name, t -> t));
        for (Tool t : tools) {
            assertThat(t.inputSchema()).containsEntry("type", "object").containsEntry("additionalProperties", false);
            assertThat(validator.validateSchema(t.inputSchema()).valid()).as(t.name()).isTrue();
            assertThat(validator.validateSchema(t.outputSchema()).valid()).as(t.name()).isTrue();
            assertThat(t.title()).isNotBlank();
            assertThat(t.annotations().openWorldHint()).as(t.name()).isFalse();
        }
        assertThat(byName.get("sql_read").inputSchema().get("required")).isEqualTo(List.of("sql"));
        assertThat(byName.get("sql_plan").inputSchema().get("required")).isEqualTo(List.of("sql"));
        assertThat(byName.get("sql_plan_status").inputSchema().get("required")).isEqualTo(List.of("planId"));
        assertThat(byName.get("sql_schema").inputSchema()).doesNotContainKey("required");

        McpSchema.ToolAnnotations plan = byName.get("sql_plan").annotations();
        assertThat(plan.readOnlyHint()).isFalse();
        assertThat(plan.destructiveHint()).isFalse();
        assertThat(plan.idempotentHint()).isFalse();
        for (String name : List.of("sql_read", "sql_plan_status", "sql_schema")) {
            assertThat(byName.get(name).annotations().readOnlyHint()).as(name).isTrue();
        }

        // The input schemas mean to a real JSON Schema validator what the server enforces.
        Map<String, Object> read = byName.get("sql_read").inputSchema();
        assertThat(validator.validate(read, Map.of("sql", "SELECT 1")).valid()).isTrue();
        assertThat(validator.validate(read, Map.of("sql", 1)).valid()).isFalse();
        assertThat(validator.validate(read, Map.of()).valid()).isFalse();
        assertThat(validator.validate(read, Map.of("sql", "SELECT 1", "limit", 5)).valid()).isFalse();
        Map<String, Object> schema = byName.get("sql_schema").inputSchema();
        assertThat(validator.validate(schema, Map.of()).valid()).isTrue();
        assertThat(validator.validate(schema, Map.of("format", "json")).valid()).isTrue();
        assertThat(validator.validate(schema, Map.of("format", "xml")).valid()).isFalse();
    }

    @Test
    void sqlReadReturnsRowsAsStructuredContentThatMatchesItsSchema() {
        List<Tool> tools = client.listTools().tools();
        CallToolResult r = call("sql_read", Map.of("sql", "SELECT id, status, total, created_at, note FROM orders"));
        assertThat(r.isError()).isFalse();
        @SuppressWarnings("unchecked")
        Map<String, Object> s = (Map<String, Object>) r.structuredContent();
        assertThat(s.get("truncated")).isEqualTo(false);
        assertThat(s.get("rowCount")).isEqualTo(3);
        assertThat((List<?>) s.get("rows")).hasSize(3);
        assertThat(((List<?>) ((List<?>) s.get("rows")).get(1))).element(1).isEqualTo("packed");
        assertThat(text(r)).contains("\"gift wrap\"");
        assertThat(validator.validate(tool(tools, "sql_read").outputSchema(), s).valid()).isTrue();

        CallToolResult cut = call("sql_read", Map.of("sql", "SELECT * FROM orders LIMIT 2"));
        assertThat(((Map<?, ?>) cut.structuredContent()).get("truncated")).isEqualTo(true);
        assertThat(cut.content()).hasSize(2);
    }

    @Test
    void aRefusedReadIsAToolErrorCarryingTheCodeAndTheMessage() {
        CallToolResult r = call("sql_read", Map.of("sql", "SELECT password_hash FROM members"));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).startsWith("Refused (DENIED_IDENTIFIER): The column password_hash is secret");
        assertThat(r.meta()).containsEntry("dev.llmsafe/refusal", "DENIED_IDENTIFIER");
    }

    @Test
    void sqlPlanReturnsTheCardAndItsIdAndTheStatusFollowsIt() {
        List<Tool> tools = client.listTools().tools();
        CallToolResult r = call("sql_plan", Map.of("sql", "UPDATE orders SET status = 'shipped' WHERE id = 2"));
        assertThat(r.isError()).isFalse();
        @SuppressWarnings("unchecked")
        Map<String, Object> s = (Map<String, Object>) r.structuredContent();
        String planId = (String) s.get("planId");
        assertThat(text(r)).isEqualTo(s.get("card"))
                .startsWith("Plan " + planId + " is proposed, not applied. Nothing in the database has changed.")
                .contains("status: 'packed' -> 'shipped'")
                .contains("proposer (mcp:sdk-test-client)")
                .contains("llmsafe approve " + planId);
        assertThat(((Map<?, ?>) s.get("plan")).get("format")).isEqualTo("llmsafe-plan/2");
        assertThat(validator.validate(tool(tools, "sql_plan").outputSchema(), s).valid()).isTrue();

        CallToolResult status = call("sql_plan_status", Map.of("planId", planId));
        assertThat(status.isError()).isFalse();
        assertThat(((Map<?, ?>) status.structuredContent()).get("status")).isEqualTo("proposed");
        assertThat(text(status)).contains("proposed by mcp:sdk-test-client");

        CallToolResult failed = call("sql_plan_status", Map.of("planId", ShopTools.FAILED_PLAN));
        assertThat(((Map<?, ?>) failed.structuredContent()).get("reason").toString()).startsWith("ROW_CHANGED");
        assertThat(call("sql_plan_status", Map.of("planId", "no-such-plan")).isError()).isTrue();
    }

    @Test
    void aRefusedPlanIsAToolErrorCarryingTheCode() {
        CallToolResult r = call("sql_plan", Map.of("sql", "DELETE FROM orders"));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).startsWith("Refused (NO_WHERE): ").contains("WHERE id = 42");
        assertThat(r.meta()).containsEntry("dev.llmsafe/refusal", "NO_WHERE");
    }

    @Test
    void sqlSchemaAsTextAndAsJson() {
        CallToolResult t = call("sql_schema", Map.of());
        assertThat(text(t)).startsWith("Table shop.orders").contains(ShopTools.IMPACT);
        CallToolResult j = call("sql_schema", Map.of("format", "json"));
        Map<?, ?> schema = (Map<?, ?>) ((Map<?, ?>) j.structuredContent()).get("schema");
        assertThat(schema.get("tables")).asList().hasSize(1);
    }

    @Test
    void aWrongArgumentIsAToolErrorTheModelCanReadAndAnUnknownToolIsAProtocolError() {
        CallToolResult wrong = call("sql_read", Map.of("sql", 42));
        assertThat(wrong.isError()).isTrue();
        assertThat(text(wrong)).isEqualTo("Invalid arguments for sql_read: \"sql\" must be a string, not a number");

        assertThatThrownBy(() -> call("sql_apply", Map.of("planId", "x")))
                .isInstanceOfSatisfying(McpError.class, e -> {
                    assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
                    assertThat(e.getJsonRpcError().message()).isEqualTo("Unknown tool: \"sql_apply\"");
                });
        assertThat(client.ping()).as("the session goes on").isNotNull();
    }

    @Test
    void theServersLogAndStrayPrintsGoToStandardErrorNotToTheProtocol() throws InterruptedException {
        // The client reads standard error on a thread of its own; give the first lines a moment.
        for (int i = 0; i < 50 && stderr.stream().noneMatch(l -> l.contains("MCP session")); i++) {
            Thread.sleep(100);
        }
        assertThat(stderr).anyMatch(l -> l.contains("ShopServerMain: serving MCP"));
        assertThat(stderr).anyMatch(l -> l.contains("MCP session: client \"sdk-test-client\"")
                && l.contains("protocol 2025-11-25"));
    }

    private CallToolResult call(String tool, Map<String, Object> arguments) {
        return client.callTool(new CallToolRequest(tool, arguments));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    private static Tool tool(List<Tool> tools, String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }
}
