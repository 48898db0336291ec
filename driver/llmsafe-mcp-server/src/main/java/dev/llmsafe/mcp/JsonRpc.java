package dev.llmsafe.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON-RPC 2.0 as MCP uses it: the error codes, the two kinds of response, and the one JSON mapper. */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /**
     * A request other than initialize or ping before initialize. Implementation-defined (the -32000 to
     * -32099 range); the official TypeScript SDK answers the same case with -32000. Not -32002, which MCP
     * gives to "resource not found".
     */
    static final int NOT_INITIALIZED = -32000;

    /**
     * Strict reading: a duplicated key is an error, not "the last one wins", because a message that two
     * readers can read differently (a proxy that checks the first {@code sql}, a server that runs the
     * second) must not be read at all. Trailing content after the message is an error too. Decimals
     * keep their digits, so a plan's or a schema's JSON is passed on as the engine wrote it.
     */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private static final JsonNodeFactory NODES = MAPPER.getNodeFactory();

    private JsonRpc() {
    }

    /**
     * Compact JSON on one line: JSON strings escape every line break, and the mapper adds none. Invisible
     * and bidi characters are JSON escapes too (C5), so that a client's log or screen shows them.
     */
    static String write(JsonNode node) {
        try {
            return dev.llmsafe.value.Visible.escapeJson(MAPPER.writeValueAsString(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree that cannot be written", e);
        }
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode response = object();
        response.put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    /** An error response; {@code id} is null when the request's id could not be read (JSON-RPC 2.0, section 5). */
    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = object();
        response.put("jsonrpc", "2.0");
        response.set("id", id == null ? NullNode.instance : id);
        ObjectNode error = response.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return response;
    }

    /** A request that gets an error response instead of a result. */
    static final class Failure extends Exception {

        private static final long serialVersionUID = 1L;

        private final int code;

        Failure(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        int code() {
            return code;
        }
    }

    static Failure invalidParams(String message) {
        return new Failure(INVALID_PARAMS, message);
    }

    /** A client-chosen string cut short enough to repeat in a message or a log line. */
    static String quote(String s) {
        String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        StringBuilder b = new StringBuilder(cut.length() + 2).append('"');
        cut.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }
}
