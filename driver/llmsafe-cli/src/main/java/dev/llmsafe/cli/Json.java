package dev.llmsafe.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON output of the command line: one object per command, pretty-printed. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** An object from alternating keys and values; a value that is a JSON string stays text. */
    static ObjectNode object(Object... kv) {
        ObjectNode o = MAPPER.createObjectNode();
        for (int i = 0; i < kv.length; i += 2) {
            o.set((String) kv[i], MAPPER.valueToTree(kv[i + 1]));
        }
        return o;
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String write(Object o) {
        try {
            // C5: what the command line prints has no raw invisible or bidi character; JSON escapes them exactly.
            return dev.llmsafe.value.Visible.escapeJson(MAPPER.writeValueAsString(o));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
