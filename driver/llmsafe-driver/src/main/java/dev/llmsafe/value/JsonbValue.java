package dev.llmsafe.value;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A JSON document compared canonically: PostgreSQL {@code jsonb} and MySQL's {@code JSON} type, which
 * both store a parsed document, so key order, whitespace and escapes are not part of the value. The
 * text is always the canonical form (built by the constructor from any text): keys sorted, no
 * whitespace, duplicate keys resolved to the last one as {@code jsonb} does, numbers exactly as
 * written ({@code 2.10} stays {@code 2.10}: {@code jsonb} keeps a number's scale, see
 * {@link DecimalValue}). {@code {"role":"user"}} and {@code {"role":"admin"}} differ.
 */
public record JsonbValue(String text) implements Value {

    /** {@value}. */
    public static final String TAG = "jsonb";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** @throws IllegalArgumentException when the text is not one JSON document */
    public JsonbValue {
        text = canonical(text);
    }

    private static String canonical(String text) {
        try {
            JsonNode tree = MAPPER.readTree(text);
            if (tree == null || tree.isMissingNode()) {
                throw new IllegalArgumentException("empty JSON document");
            }
            return MAPPER.writeValueAsString(sorted(tree));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON document: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.properties());
            fields.sort(Map.Entry.comparingByKey());
            ObjectNode out = MAPPER.createObjectNode();
            for (Map.Entry<String, JsonNode> f : fields) {
                out.set(f.getKey(), sorted(f.getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            var out = MAPPER.createArrayNode();
            node.forEach(e -> out.add(sorted(e)));
            return out;
        }
        return node;
    }

    @Override
    public String tag() {
        return TAG;
    }
}
