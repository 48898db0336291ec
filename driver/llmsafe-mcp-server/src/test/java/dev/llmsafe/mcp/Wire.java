package dev.llmsafe.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs a server over bytes: what a client would write in, every line it would read out. */
final class Wire {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpServer server;
    private String raw;

    Wire(McpServer server) {
        this.server = server;
    }

    Wire() {
        this(new McpServer(new ShopTools(), null));
    }

    static String initialize(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test-client\",\"version\":\"1.0\"}}}";
    }

    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    static String ping(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    /** Sends the lines (each followed by a newline) and returns every line the server wrote, parsed. */
    List<JsonNode> send(String... lines) {
        return send(String.join("\n", lines).concat("\n").getBytes(StandardCharsets.UTF_8));
    }

    List<JsonNode> send(byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            server.serve(new ByteArrayInputStream(input), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        raw = out.toString(StandardCharsets.UTF_8);
        List<JsonNode> messages = new ArrayList<>();
        if (raw.isEmpty()) {
            return messages;
        }
        assertThat(raw).as("every message ends with a newline").endsWith("\n");
        for (String line : raw.substring(0, raw.length() - 1).split("\n", -1)) {
            try {
                messages.add(JSON.readTree(line));
            } catch (IOException e) {
                throw new AssertionError("the server wrote a line that is not JSON: " + line, e);
            }
        }
        return messages;
    }

    /** The server's output, exactly as written by the last {@link #send}. */
    String raw() {
        return raw;
    }

    /** Asserts that a message is a JSON-RPC error with this id (null for none) and code. */
    static void assertError(JsonNode message, Integer id, int code) {
        assertThat(message.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(message.has("result")).as("an error has no result: %s", message).isFalse();
        assertThat(message.path("error").path("code").asInt()).as("code of %s", message).isEqualTo(code);
        assertThat(message.path("error").path("message").asText()).isNotBlank();
        if (id == null) {
            assertThat(message.get("id").isNull()).as("id of %s", message).isTrue();
        } else {
            assertThat(message.get("id").asInt()).as("id of %s", message).isEqualTo(id);
        }
    }

    /** Asserts that a message is the result of the request with this id, and returns the result. */
    static JsonNode result(JsonNode message, int id) {
        assertThat(message.has("error")).as("not an error: %s", message).isFalse();
        assertThat(message.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(message.get("id").asInt()).isEqualTo(id);
        return message.get("result");
    }
}
