package dev.llmsafe.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id of a request too large to read, from the beginning and the end of it that were kept: the
 * answer then carries the request's id, so that the client's pending call fails at once instead of
 * waiting for its timeout (the official SDKs cannot match an error with {@code "id": null}).
 */
final class RequestIds {

    /** An {@code "id"} that is the last member of the top-level object: nothing but one brace after it. */
    private static final Pattern LAST = Pattern.compile("\"id\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9]+)\\s*}\\s*$");

    private RequestIds() {
    }

    /** The request's id, a string or an integer, or null when neither end shows it. */
    static JsonNode of(byte[] head, byte[] tail) {
        JsonNode id = head == null ? null : fromHead(head);
        return id != null || tail == null ? id : fromTail(new String(tail, StandardCharsets.UTF_8));
    }

    /** A top-level {@code "id"} member read before the kept beginning ends. */
    private static JsonNode fromHead(byte[] head) {
        try (JsonParser p = JsonRpc.MAPPER.getFactory().createParser(head)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("id")) {
                    return switch (value) {
                        case VALUE_STRING -> TextNode.valueOf(p.getText());
                        case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.INT
                                ? IntNode.valueOf(p.getIntValue()) : LongNode.valueOf(p.getLongValue());
                        default -> null;
                    };
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException | RuntimeException cut) {
            return null; // the kept beginning ended before the id, or it is not JSON
        }
    }

    private static JsonNode fromTail(String tail) {
        Matcher m = LAST.matcher(tail);
        if (!m.find()) {
            return null;
        }
        try {
            JsonNode id = JsonRpc.MAPPER.readTree(m.group(1));
            return id.isTextual() || id.canConvertToLong() ? id : null;
        } catch (IOException e) {
            return null;
        }
    }
}
