package dev.llmsafe.mcp;

import static dev.llmsafe.mcp.Wire.INITIALIZED;
import static dev.llmsafe.mcp.Wire.assertError;
import static dev.llmsafe.mcp.Wire.initialize;
import static dev.llmsafe.mcp.Wire.ping;
import static dev.llmsafe.mcp.Wire.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lifecycle and JSON-RPC 2.0 as MCP uses it: every malformed message gets its error, and the
 * server answers the next message as if nothing had happened.
 */
class McpProtocolTest {

    private final Wire wire = new Wire();

    @ParameterizedTest
    @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
    void initializeAnswersWithTheClientsRevisionWhenItIsSpoken(String version) {
        List<JsonNode> out = wire.send(initialize(version), INITIALIZED, ping(1));
        assertThat(out).hasSize(2);
        JsonNode init = result(out.get(0), 0);
        assertThat(init.get("protocolVersion").asText()).isEqualTo(version);
        assertThat(init.path("capabilities").path("tools").isObject()).isTrue();
        assertThat(init.path("capabilities").size()).as("only tools").isEqualTo(1);
        assertThat(init.path("serverInfo").path("name").asText()).isEqualTo("llmsafe");
        assertThat(init.path("serverInfo").path("version").asText()).isNotBlank();
        assertThat(init.path("instructions").asText()).contains("sql_plan").contains("Nothing here can approve or apply");
        assertThat(result(out.get(1), 1).size()).as("ping's result is empty").isZero();
    }

    @Test
    void anUnknownRevisionIsAnsweredWithTheLatest() {
        JsonNode init = result(wire.send(initialize("2099-01-01")).get(0), 0);
        assertThat(init.get("protocolVersion").asText()).isEqualTo("2025-11-25");
    }

    @Test
    void initializeWithoutAVersionOrAClientIsInvalidParamsAndARetryWorks() {
        List<JsonNode> out = wire.send(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":20250618,"
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\"}",
                initialize("2025-06-18"));
        assertError(out.get(0), 1, -32602);
        assertError(out.get(1), 2, -32602);
        assertError(out.get(2), 3, -32602);
        assertError(out.get(3), 4, -32602);
        assertThat(result(out.get(4), 0).get("protocolVersion").asText()).isEqualTo("2025-06-18");
    }

    @Test
    void beforeInitializeOnlyPingIsAnswered() {
        List<JsonNode> out = wire.send(ping(1),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                Wire.call(3, "sql_read", "{\"sql\":\"SELECT id FROM orders\"}"),
                initialize("2025-11-25"), INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
        assertThat(out).hasSize(5);
        result(out.get(0), 1);
        assertError(out.get(1), 2, -32000);
        assertThat(out.get(1).path("error").path("message").asText()).contains("not initialized");
        assertError(out.get(2), 3, -32000);
        result(out.get(3), 0);
        assertThat(result(out.get(4), 4).get("tools")).hasSize(4);
    }

    @Test
    void aSecondInitializeIsRefusedAndTheSessionKeepsItsRevision() {
        List<JsonNode> out = wire.send(initialize("2025-06-18"), INITIALIZED,
                initialize("2024-11-05").replace("\"id\":0", "\"id\":1"),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertError(out.get(1), 1, -32600);
        // 2025-06-18 has tool titles; 2024-11-05 would not.
        assertThat(result(out.get(2), 2).path("tools").get(0).has("title")).isTrue();
    }

    @Test
    void textThatIsNotJsonIsAParseErrorAndTheNextMessageIsAnswered() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":",
                "not json at all", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"} trailing", ping(3));
        assertThat(out).hasSize(5);
        assertError(out.get(1), null, -32700);
        assertError(out.get(2), null, -32700);
        assertError(out.get(3), null, -32700);
        result(out.get(4), 3);
    }

    @Test
    void invalidUtf8IsAParseError() {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.writeBytes((initialize("2025-11-25") + "\n").getBytes(StandardCharsets.UTF_8));
        in.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"".getBytes(StandardCharsets.UTF_8));
        in.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28}); // a lead byte followed by a non-continuation byte
        in.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
        in.writeBytes((ping(2) + "\n").getBytes(StandardCharsets.UTF_8));
        List<JsonNode> out = wire.send(in.toByteArray());
        assertError(out.get(1), null, -32700);
        result(out.get(2), 2);
    }

    @Test
    void aDuplicatedKeyIsAParseErrorNotTheLastOneWins() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"sql_plan\","
                        + "\"arguments\":{\"sql\":\"SELECT 1\",\"sql\":\"UPDATE orders SET status = 'x' WHERE id = 1\"}}}",
                ping(2));
        assertThat(out).hasSize(3);
        assertError(out.get(1), null, -32700);
        assertThat(out.get(1).path("error").path("message").asText()).contains("Duplicate field");
        result(out.get(2), 2);
    }

    @Test
    void aMessageOverTheBoundIsRefusedWithoutBeingReadAndTheNextIsAnswered() {
        McpServer small = new McpServer(new ShopTools(), null, 4096);
        String padding = "x".repeat(4096);
        String tooLong = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"p\":\"" + padding + "\"}}}";
        String atTheBound = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"_meta\":{\"p\":\"";
        atTheBound = atTheBound + "y".repeat(4096 - atTheBound.length() - 4) + "\"}}}";
        assertThat(atTheBound).hasSize(4096);
        List<JsonNode> out = new Wire(small).send(initialize("2025-11-25"), tooLong, atTheBound + "\r", ping(3));
        assertThat(out).hasSize(4);
        assertError(out.get(1), 1, -32600);
        assertThat(out.get(1).path("error").path("message").asText()).contains("too large").contains("4096");
        result(out.get(2), 2);
        result(out.get(3), 3);
    }

    @Test
    void theDefaultBoundIsOneMebibyte() {
        String tooLong = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"sql_read\","
                + "\"arguments\":{\"sql\":\"SELECT '" + "z".repeat(1 << 20) + "' FROM orders\"}}}";
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED, tooLong, ping(2));
        assertThat(out).hasSize(3);
        assertError(out.get(1), 1, -32600);
        result(out.get(2), 2);
    }

    /** The answer to a message over the bound carries its id wherever the kept ends show it. */
    @Test
    void O4_aMessageOverTheBoundIsAnsweredWithItsIdWhereverItCanBeRead() {
        McpServer small = new McpServer(new ShopTools(), null, 4096);
        String big = "\"params\":{\"_meta\":{\"id\":99,\"p\":\"" + "x".repeat(20_000) + "\"}}";
        record Case(String message, Object id) {
        }
        List<Case> cases = List.of(
                new Case("{\"jsonrpc\":\"2.0\",\"id\":\"first\",\"method\":\"ping\"," + big + "}", "first"),
                new Case("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"," + big + ",\"id\":\"last \\\"q\\\"\"}", "last \"q\""),
                new Case("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"," + big + ",\"id\":-7}  ", -7),
                new Case("{\"jsonrpc\":\"2.0\",\"id\":12345678901,\"method\":\"ping\"," + big + "}", 12345678901L),
                // Only a nested "id" in view, or none: null, as JSON-RPC says when the id cannot be read.
                new Case("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"," + big + ",\"x\":{\"id\":5}}", null),
                new Case("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"," + big + "}", null),
                new Case("[" + big + "]", null));
        for (Case c : cases) {
            List<JsonNode> out = new Wire(small).send(initialize("2025-11-25"), c.message(), ping(3));
            assertThat(out).as(c.message().substring(0, 40)).hasSize(3);
            JsonNode id = out.get(1).get("id");
            if (c.id() == null) {
                assertThat(id.isNull()).as(c.message().substring(0, 40)).isTrue();
            } else if (c.id() instanceof String text) {
                assertThat(id.asText()).isEqualTo(text);
            } else {
                assertThat(id.asLong()).isEqualTo(((Number) c.id()).longValue());
            }
            assertThat(out.get(1).path("error").path("code").asInt()).isEqualTo(-32600);
            result(out.get(2), 3);
        }
    }

    @Test
    void somethingOtherThanARequestObjectIsAnInvalidRequest() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"),
                "42",
                "\"ping\"",
                "{\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":4}",
                ping(5));
        assertThat(out).hasSize(11);
        assertError(out.get(1), null, -32600);
        assertError(out.get(2), null, -32600);
        assertError(out.get(3), 1, -32600);
        assertError(out.get(4), 2, -32600);
        assertError(out.get(5), null, -32600);
        assertError(out.get(6), null, -32600);
        assertError(out.get(7), null, -32600);
        assertError(out.get(8), 3, -32600);
        assertError(out.get(9), 4, -32600);
        result(out.get(10), 5);
    }

    @Test
    void aStringIdIsEchoedAsAString() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"), "{\"jsonrpc\":\"2.0\",\"id\":\"req-7\",\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"req-8\",\"method\":\"nope\"}");
        assertThat(out.get(1).get("id").isTextual()).isTrue();
        assertThat(out.get(1).get("id").asText()).isEqualTo("req-7");
        assertThat(out.get(2).get("id").asText()).isEqualTo("req-8");
        assertThat(out.get(2).path("error").path("code").asInt()).isEqualTo(-32601);
    }

    @Test
    void anUnknownMethodIsMethodNotFound() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"), INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"plans/approve\",\"params\":{\"id\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"debug\"}}",
                ping(4));
        assertError(out.get(1), 1, -32601);
        assertError(out.get(2), 2, -32601);
        assertError(out.get(3), 3, -32601);
        result(out.get(4), 4);
    }

    @Test
    void paramsThatAreNotAnObjectAreInvalidParams() {
        List<JsonNode> out = wire.send(initialize("2025-11-25"),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[1,2]}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":\"sql_read\"}", ping(3));
        assertError(out.get(1), 1, -32602);
        assertError(out.get(2), 2, -32602);
        result(out.get(3), 3);
    }

    @Test
    void notificationsAndResponsesAreNeverAnswered() {
        List<JsonNode> out = wire.send(
                INITIALIZED, // before initialize: ignored
                initialize("2025-11-25"), INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\",\"params\":[1]}",
                "{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":78,\"error\":{\"code\":-1,\"message\":\"x\"}}",
                ping(1));
        assertThat(out).hasSize(2);
        result(out.get(0), 0);
        result(out.get(1), 1);
    }

    @Test
    void blankLinesAndCrlfLineEndingsAreAccepted() {
        byte[] in = (initialize("2025-11-25") + "\r\n\r\n   \n" + ping(1) + "\r\n" + ping(2)).getBytes(StandardCharsets.UTF_8);
        List<JsonNode> out = wire.send(in);
        assertThat(out).hasSize(3);
        result(out.get(1), 1);
        result(out.get(2), 2); // the last line has no newline at all
    }

    @Test
    void batchesAreAnsweredIn2025_03_26AndRefusedInLaterRevisions() {
        String batch = "[" + ping(1) + "," + INITIALIZED + ",{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}]";
        List<JsonNode> old = new Wire().send(initialize("2025-03-26"), batch, "[]", "[" + INITIALIZED + "]", ping(4));
        assertThat(old).hasSize(4);
        JsonNode answers = old.get(1);
        assertThat(answers.isArray()).isTrue();
        assertThat(answers).hasSize(3); // the notification gets none
        result(answers.get(0), 1);
        assertError(answers.get(1), 2, -32601);
        assertThat(result(answers.get(2), 3).get("tools")).hasSize(4);
        assertError(old.get(2), null, -32600); // an empty batch
        result(old.get(3), 4); // a batch of notifications only is answered with nothing

        List<JsonNode> current = new Wire().send(initialize("2025-06-18"), batch, ping(4));
        assertThat(current).hasSize(3);
        assertError(current.get(1), null, -32600);
        result(current.get(2), 4);

        List<JsonNode> early = new Wire().send("[" + initialize("2025-03-26") + "]", ping(4));
        assertError(early.get(0), null, -32600);
        result(early.get(1), 4);
    }

    @Test
    void onlyProtocolMessagesAreWrittenOneLineEach() {
        Wire w = new Wire();
        List<JsonNode> out = w.send(initialize("2025-11-25"), INITIALIZED,
                Wire.call(1, "sql_plan", "{\"sql\":\"UPDATE orders SET status = 'shipped' WHERE id = 2\"}"),
                Wire.call(2, "sql_schema", "{}"), "garbage", ping(3));
        assertThat(out).hasSize(5);
        // The card and the schema text have many lines; on the wire each message is still one line.
        assertThat(w.raw().chars().filter(c -> c == '\n').count()).isEqualTo(5);
        for (JsonNode m : out) {
            assertThat(m.isObject()).isTrue();
            assertThat(m.get("jsonrpc").asText()).isEqualTo("2.0");
        }
    }
}
