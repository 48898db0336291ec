package dev.llmsafe.mcp;

import static dev.llmsafe.mcp.Wire.INITIALIZED;
import static dev.llmsafe.mcp.Wire.assertError;
import static dev.llmsafe.mcp.Wire.call;
import static dev.llmsafe.mcp.Wire.initialize;
import static dev.llmsafe.mcp.Wire.ping;
import static dev.llmsafe.mcp.Wire.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.tools.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tools/list and tools/call: the four tools, their schemas and annotations, and what each call returns. */
class McpToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> session(String version, String... lines) {
        List<String> all = new ArrayList<>(List.of(initialize(version), INITIALIZED));
        all.addAll(List.of(lines));
        List<JsonNode> out = new Wire().send(all.toArray(String[]::new));
        return out.subList(1, out.size());
    }

    private static JsonNode tools(String version) {
        return result(session(version, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").get(0), 1).get("tools");
    }

    private static JsonNode tool(JsonNode tools, String name) {
        for (JsonNode t : tools) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name);
    }

    @Test
    void thereAreExactlyFourToolsAndNoneApprovesOrApplies() {
        JsonNode tools = tools("2025-11-25");
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).containsExactly("sql_read", "sql_plan", "sql_plan_status", "sql_schema");
    }

    @Test
    void eachInputSchemaIsClosedAndNamesItsRequiredArguments() throws Exception {
        JsonNode tools = tools("2025-11-25");
        assertThat(tool(tools, "sql_read").get("inputSchema")).isEqualTo(JSON.readTree(
                "{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\",\"description\":\"One SELECT statement.\"}},"
                        + "\"required\":[\"sql\"],\"additionalProperties\":false}"));
        assertThat(tool(tools, "sql_plan").at("/inputSchema/required")).isEqualTo(JSON.readTree("[\"sql\"]"));
        assertThat(tool(tools, "sql_plan_status").at("/inputSchema/required")).isEqualTo(JSON.readTree("[\"planId\"]"));
        assertThat(tool(tools, "sql_plan_status").at("/inputSchema/properties/planId/type").asText()).isEqualTo("string");
        JsonNode schema = tool(tools, "sql_schema").get("inputSchema");
        assertThat(schema.has("required")).isFalse();
        assertThat(schema.at("/properties/format/enum")).isEqualTo(JSON.readTree("[\"text\",\"json\"]"));
        for (JsonNode t : tools) {
            assertThat(t.at("/inputSchema/additionalProperties").asBoolean(true)).as(t.get("name").asText()).isFalse();
            assertThat(t.at("/inputSchema/type").asText()).isEqualTo("object");
            assertThat(t.at("/outputSchema/type").asText()).isEqualTo("object");
            assertThat(t.get("description").asText()).hasSizeGreaterThan(80);
        }
    }

    @Test
    void theAnnotationsTellTheTruthSqlPlanIsNotReadOnly() {
        JsonNode tools = tools("2025-11-25");
        JsonNode plan = tool(tools, "sql_plan").get("annotations");
        assertThat(plan.get("readOnlyHint").asBoolean(true)).isFalse();
        assertThat(plan.get("destructiveHint").asBoolean(true)).isFalse();
        assertThat(plan.get("idempotentHint").asBoolean(true)).isFalse();
        assertThat(plan.get("openWorldHint").asBoolean(true)).isFalse();
        for (String name : List.of("sql_read", "sql_plan_status", "sql_schema")) {
            JsonNode a = tool(tools, name).get("annotations");
            assertThat(a.get("readOnlyHint").asBoolean(false)).as(name).isTrue();
            assertThat(a.get("openWorldHint").asBoolean(true)).as(name).isFalse();
        }
    }

    @Test
    void olderRevisionsGetOnlyTheFieldsTheirSchemaHas() {
        for (JsonNode t : tools("2024-11-05")) {
            assertThat(t.has("annotations") || t.has("outputSchema") || t.has("title")).as(t.toString()).isFalse();
        }
        for (JsonNode t : tools("2025-03-26")) {
            assertThat(t.has("annotations")).isTrue();
            assertThat(t.has("outputSchema") || t.has("title")).isFalse();
        }
        JsonNode read = session("2025-03-26", call(1, "sql_read", "{\"sql\":\"SELECT * FROM orders\"}")).get(0);
        assertThat(result(read, 1).has("structuredContent")).isFalse();
        assertThat(result(read, 1).at("/content/0/text").asText()).contains("\"truncated\":false");
    }

    @Test
    void aCursorIsInvalidBecauseNoneIsIssued() {
        JsonNode out = session("2025-11-25", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"abc\"}}").get(0);
        assertError(out, 1, -32602);
    }

    @Test
    void sqlReadReturnsColumnsRowsAndTheTruncationFlagAsStructuredContentAndText() throws Exception {
        Wire wire = new Wire();
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED,
                call(1, "sql_read", "{\"sql\":\"SELECT id, status, total, created_at, note FROM orders\"}"),
                call(2, "sql_read", "{\"sql\":\"SELECT * FROM orders LIMIT 2\"}"));
        JsonNode all = result(out.get(1), 1);
        assertThat(all.get("isError").asBoolean(true)).isFalse();
        JsonNode s = all.get("structuredContent");
        assertThat(s.at("/columns/0")).isEqualTo(JSON.readTree("{\"name\":\"id\",\"type\":\"int8\"}"));
        assertThat(s.get("rows")).hasSize(3);
        assertThat(s.at("/rows/1")).isEqualTo(JSON.readTree("[2,\"packed\",89.90,\"2026-11-28T16:40:12.123456Z\",\"gift wrap\"]"));
        assertThat(s.at("/rows/0/4").isNull()).isTrue();
        assertThat(s.get("rowCount").asInt()).isEqualTo(3);
        assertThat(s.get("truncated").asBoolean(true)).isFalse();
        // The text is the same JSON, for clients that show the model only text (MCP recommends it).
        assertThat(JSON.readTree(all.at("/content/0/text").asText())).isEqualTo(s);
        assertThat(all.get("content")).hasSize(1);
        // Decimals keep their scale on the wire: 12.50, not 12.5.
        assertThat(wire.raw()).contains("[3,\"packed\",12.50,");

        JsonNode cut = result(out.get(2), 2);
        assertThat(cut.at("/structuredContent/truncated").asBoolean()).isTrue();
        assertThat(cut.at("/structuredContent/rows")).hasSize(2);
        assertThat(cut.get("content")).hasSize(2);
        assertThat(cut.at("/content/1/text").asText()).contains("Only the first 2 rows").contains("Narrow the query");
    }

    @Test
    void aRefusalIsAToolResultMarkedAsAnErrorWithItsCode() {
        List<JsonNode> out = session("2025-11-25",
                call(1, "sql_read", "{\"sql\":\"SELECT email, password_hash FROM members\"}"),
                call(2, "sql_plan", "{\"sql\":\"DELETE FROM orders\"}"),
                ping(3));
        JsonNode read = result(out.get(0), 1);
        assertThat(read.get("isError").asBoolean()).isTrue();
        assertThat(read.at("/content/0/text").asText()).startsWith("Refused (DENIED_IDENTIFIER): ")
                .contains("Leave it out of the query");
        assertThat(read.at("/_meta/dev.llmsafe~1refusal").asText()).isEqualTo("DENIED_IDENTIFIER");
        assertThat(read.has("structuredContent")).as("an error does not claim to match the output schema").isFalse();
        JsonNode plan = result(out.get(1), 2);
        assertThat(plan.get("isError").asBoolean()).isTrue();
        assertThat(plan.at("/content/0/text").asText()).startsWith("Refused (NO_WHERE): ");
        result(out.get(2), 3);
    }

    @Test
    void aDatabaseErrorIsShownToTheModelWithItsSqlState() {
        JsonNode r = result(session("2025-11-25", call(1, "sql_read", "{\"sql\":\"SELECT shipped_at FROM orders\"}")).get(0), 1);
        assertThat(r.get("isError").asBoolean()).isTrue();
        assertThat(r.at("/content/0/text").asText()).startsWith("The database reported an error (SQLState 42703): ")
                .contains("shipped_at");
    }

    @Test
    void aDefectInTheEngineIsAnInternalErrorAndTheServerGoesOn() {
        List<JsonNode> out = session("2025-11-25", call(1, "sql_read", "{\"sql\":\"SELECT crash FROM orders\"}"), ping(2));
        assertError(out.get(0), 1, -32603);
        assertThat(out.get(0).path("error").path("message").asText()).doesNotContain("defect");
        result(out.get(1), 2);
    }

    @Test
    void sqlPlanReturnsTheCardAndThePlanIdProposedUnderTheClientsName() {
        List<JsonNode> out = session("2025-11-25",
                call(1, "sql_plan", "{\"sql\":\"UPDATE orders SET status = 'shipped' WHERE id = 2\"}"));
        JsonNode r = result(out.get(0), 1);
        assertThat(r.get("isError").asBoolean(true)).isFalse();
        String planId = r.at("/structuredContent/planId").asText();
        String card = r.at("/content/0/text").asText();
        assertThat(card).contains(planId).contains("Nothing in the database has changed")
                .contains("'packed' -> 'shipped'").contains("mcp:test-client");
        assertThat(r.at("/structuredContent/card").asText()).isEqualTo(card);
        JsonNode plan = r.at("/structuredContent/plan");
        assertThat(plan.get("format").asText()).isEqualTo("llmsafe-plan/2");
        assertThat(plan.get("id").asText()).isEqualTo(planId);
        assertThat(plan.get("proposer").asText()).isEqualTo("mcp:test-client");
    }

    @Test
    void aConfiguredProposerNameWinsOverTheClientsName() {
        McpServer server = new McpServer(new ShopTools(), "assistant@orders-team");
        List<JsonNode> out = new Wire(server).send(initialize("2025-11-25"), INITIALIZED,
                call(1, "sql_plan", "{\"sql\":\"UPDATE orders SET status = 'shipped' WHERE id = 3\"}"));
        assertThat(result(out.get(1), 1).at("/structuredContent/plan/proposer").asText()).isEqualTo("assistant@orders-team");
    }

    @Test
    void aClientNameWithControlCharactersIsCleanedBeforeItNamesAProposer() {
        assertThat(Session.printable("evil\nname\u001b[31m")).isEqualTo("evilname[31m");
        assertThat(Session.printable(" \t")).isEqualTo("unnamed-client");
        assertThat(Session.printable("x".repeat(500))).hasSize(64);
    }

    @Test
    void sqlPlanStatusFollowsAPlanAndSaysWhenThereIsNone() {
        Wire wire = new Wire();
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED,
                call(1, "sql_plan", "{\"sql\":\"UPDATE orders SET status = 'shipped' WHERE id = 2\"}"));
        String planId = result(out.get(1), 1).at("/structuredContent/planId").asText();
        // A new session over the same tools: plans outlive sessions.
        ShopTools tools = new ShopTools();
        Wire again = new Wire(new McpServer(tools, null));
        List<JsonNode> status = again.send(initialize("2025-11-25"), INITIALIZED,
                call(1, "sql_plan_status", "{\"planId\":\"" + ShopTools.FAILED_PLAN + "\"}"),
                call(2, "sql_plan_status", "{\"planId\":\"" + planId + "\"}"),
                call(3, "sql_plan", "{\"sql\":\"UPDATE orders SET status = 'shipped' WHERE id = 3\"}"));
        JsonNode failed = result(status.get(1), 1);
        assertThat(failed.at("/structuredContent/status").asText()).isEqualTo("failed");
        assertThat(failed.at("/structuredContent/reason").asText()).startsWith("ROW_CHANGED");
        assertThat(failed.at("/structuredContent/history")).hasSize(3);
        assertThat(failed.at("/content/0/text").asText()).startsWith("Plan " + ShopTools.FAILED_PLAN + " is failed.")
                .contains("Reason: ROW_CHANGED").contains("approved by alice@example.com");
        JsonNode unknown = result(status.get(2), 2);
        assertThat(unknown.get("isError").asBoolean()).isTrue();
        assertThat(unknown.at("/content/0/text").asText()).contains("No plan has the id");

        String newId = result(status.get(3), 3).at("/structuredContent/planId").asText();
        List<JsonNode> proposed = new Wire(new McpServer(tools, null)).send(initialize("2025-11-25"),
                call(1, "sql_plan_status", "{\"planId\":\"" + newId + "\"}"));
        JsonNode p = result(proposed.get(1), 1).get("structuredContent");
        assertThat(p.get("status").asText()).isEqualTo("proposed");
        assertThat(p.has("reason")).isFalse();
    }

    @Test
    void sqlSchemaGivesTextByDefaultAndJsonOnRequest() {
        Wire wire = new Wire();
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED, call(1, "sql_schema", "{}"),
                call(2, "sql_schema", "{\"format\":\"json\"}"),
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"sql_schema\"}}")
                .subList(1, 4);
        JsonNode text = result(out.get(0), 1);
        assertThat(text.at("/content/0/text").asText()).startsWith("Table shop.orders").contains(ShopTools.IMPACT);
        assertThat(text.at("/structuredContent/format").asText()).isEqualTo("text");
        JsonNode json = result(out.get(1), 2);
        assertThat(json.at("/structuredContent/format").asText()).isEqualTo("json");
        assertThat(json.at("/structuredContent/schema/tables/0/primaryKey/0").asText()).isEqualTo("id");
        // The engine's JSON is embedded as it was written: the default 0.00 does not become 0.0.
        assertThat(wire.raw()).contains("\"nullable\":false,\"default\":0.00}");
        assertThat(result(out.get(2), 3).at("/structuredContent/format").asText()).as("arguments may be left out").isEqualTo("text");
    }

    @Test
    void aMalformedCallIsInvalidParamsInEveryRevision() {
        for (String version : List.of("2025-06-18", "2025-11-25")) {
            List<JsonNode> out = session(version,
                    call(1, "sql_approve", "{\"planId\":\"x\"}"),
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":42}}",
                    call(4, "sql_read", "\"SELECT 1\""),
                    call(5, "sql_read", "[\"SELECT 1\"]"),
                    ping(6));
            assertError(out.get(0), 1, -32602);
            assertThat(out.get(0).path("error").path("message").asText()).isEqualTo("Unknown tool: \"sql_approve\"");
            for (int i = 1; i <= 4; i++) {
                assertError(out.get(i), i + 1, -32602);
            }
            result(out.get(5), 6);
        }
    }

    private static final List<String> WRONG_ARGUMENTS = List.of(
            call(1, "sql_read", "{\"sql\":42}"),
            call(2, "sql_read", "{}"),
            call(3, "sql_read", "{\"sql\":\"SELECT id FROM orders\",\"limit\":5}"),
            call(4, "sql_plan", "{\"sql\":null}"),
            call(5, "sql_plan_status", "{\"planId\":\"\"}"),
            call(6, "sql_plan_status", "{\"planId\":[\"a\"]}"),
            call(7, "sql_schema", "{\"format\":\"xml\"}"),
            call(8, "sql_schema", "{\"format\":true}"));

    @Test
    void wrongArgumentsAreInvalidParamsUpTo2025_06_18() {
        List<String> lines = new ArrayList<>(WRONG_ARGUMENTS);
        lines.add(ping(9));
        List<JsonNode> out = session("2025-06-18", lines.toArray(String[]::new));
        for (int i = 0; i < WRONG_ARGUMENTS.size(); i++) {
            assertError(out.get(i), i + 1, -32602);
        }
        assertThat(out.get(0).path("error").path("message").asText()).isEqualTo("Invalid arguments for sql_read: \"sql\" must be a string, not a number");
        assertThat(out.get(2).path("error").path("message").asText()).contains("unknown argument \"limit\"");
        assertThat(out.get(6).path("error").path("message").asText()).contains("one of \"text\", \"json\"");
        result(out.get(WRONG_ARGUMENTS.size()), 9);
    }

    @Test
    void wrongArgumentsAreToolErrorsTheModelCanCorrectFrom2025_11_25() {
        List<JsonNode> out = session("2025-11-25", WRONG_ARGUMENTS.toArray(String[]::new));
        for (int i = 0; i < WRONG_ARGUMENTS.size(); i++) {
            JsonNode r = result(out.get(i), i + 1);
            assertThat(r.get("isError").asBoolean()).as(WRONG_ARGUMENTS.get(i)).isTrue();
            assertThat(r.at("/content/0/text").asText()).startsWith("Invalid arguments for ");
        }
        assertThat(result(out.get(1), 2).at("/content/0/text").asText()).contains("\"sql\" (a string) is required");
    }

    /** C5: the status text a client shows gives reasons and actor names with visible escapes; the data stays exact. */
    @Test
    void C5_theStatusTextShowsReasonsAndActorsWithVisibleEscapes() {
        JsonNode r = ToolResult.status(ProtocolVersion.latest(), new PlanStatus("p", PlanStatus.State.REJECTED,
                "no\u202Eway", List.of("2026-12-01T00:00:00Z reject by eve\u200B: rejected")));
        assertThat(r.get("content").get(0).get("text").asText()).isEqualTo("Plan p is rejected.\nReason: no\\u{202E}way"
                + "\nHistory:\n  2026-12-01T00:00:00Z reject by eve\\u{200B}: rejected");
        assertThat(r.get("structuredContent").get("reason").asText()).isEqualTo("no\u202Eway");
        assertThat(JsonRpc.write(r)).contains("no\\u202eway").doesNotContain("\u202E");
    }
}
