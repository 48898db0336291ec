package dev.llmsafe.value;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The JSON form of values (the schema is in the package documentation). Writing puts the fields in a
 * fixed order; reading is strict: an unknown tag, a missing or extra field, or a value the record
 * refuses is an {@link IllegalArgumentException}, because a stored plan that does not read back exactly
 * must not be applied (A10).
 */
public final class ValueJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ValueJson() {
    }

    /** The JSON form as a tree, for embedding in a larger document (a plan, a card). */
    public static ObjectNode toTree(Value v) {
        return tree(v, false);
    }

    /** Reads a value from its tree. */
    public static Value fromTree(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a value must be a JSON object: " + node);
        }
        String tag = text(node, "t");
        return switch (tag) {
            case NullValue.TAG -> fields(node, Value.NULL);
            case IntegerValue.TAG -> fields(node, new IntegerValue(new BigInteger(text(node, "v"))), "v");
            case DecimalValue.TAG -> fields(node, new DecimalValue(new BigDecimal(text(node, "v"))), "v");
            case FloatValue.TAG -> fields(node, FloatValue.ofDouble(Double.parseDouble(text(node, "v"))), "v");
            case FloatValue.TAG_SINGLE -> fields(node, FloatValue.ofFloat(Float.parseFloat(text(node, "v"))), "v");
            case BooleanValue.TAG -> fields(node, new BooleanValue(bool(node, "v")), "v");
            case TextValue.TAG -> fields(node, new TextValue(text(node, "v")), "v");
            case BinaryValue.TAG -> fields(node,
                    new BinaryValue(number(node, "len"), text(node, "sha256"), text(node, "head")),
                    "len", "sha256", "head");
            case DateValue.TAG -> fields(node, DateValue.parseIso(text(node, "v")), "v");
            case TimeValue.TAG -> node.has("offset")
                    ? fields(node, TimeValue.parseIso(text(node, "v"), Optional.of(offset(node, "offset"))),
                            "v", "offset")
                    : fields(node, TimeValue.parseIso(text(node, "v"), Optional.empty()), "v");
            case TimestampValue.TAG -> fields(node, TimestampValue.parseIso(text(node, "v")), "v");
            case TimestampTzValue.TAG -> fields(node,
                    TimestampTzValue.parseIsoUtc(text(node, "v"), offset(node, "shown")), "v", "shown");
            case IntervalValue.TAG -> fields(node, new IntervalValue(Math.toIntExact(number(node, "months")),
                    Math.toIntExact(number(node, "days")), Long.parseLong(text(node, "micros"))),
                    "months", "days", "micros");
            case UuidValue.TAG -> fields(node, new UuidValue(uuid(text(node, "v"))), "v");
            case EnumValue.TAG -> fields(node, new EnumValue(text(node, "v")), "v");
            case SetValue.TAG -> fields(node, new SetValue(strings(node, "v")), "v");
            case JsonValue.TAG -> fields(node, new JsonValue(text(node, "v")), "v");
            case JsonbValue.TAG -> fields(node, new JsonbValue(text(node, "v")), "v");
            case ArrayValue.TAG -> node.has("lower")
                    ? fields(node, new ArrayValue(values(node, "v"), Math.toIntExact(number(node, "lower"))), "v", "lower")
                    : fields(node, new ArrayValue(values(node, "v")), "v");
            case OtherValue.TAG -> fields(node, new OtherValue(text(node, "type"), text(node, "v")), "type", "v");
            case MaskedValue.TAG -> fields(node, new MaskedValue(text(node, "alg"), text(node, "v")), "alg", "v");
            default -> throw new IllegalArgumentException("unknown value type \"" + tag + "\"");
        };
    }

    static String write(Value v) {
        try {
            return MAPPER.writeValueAsString(tree(v, false));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a value tree always serialises", e);
        }
    }

    static Value read(String json) {
        try {
            return fromTree(MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON value: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The form that is hashed when a value is masked: the JSON form without what is only display
     * ({@code shown} of a {@link TimestampTzValue}), so that equal values give equal hashes.
     */
    static String canonical(Value v) {
        try {
            return MAPPER.writeValueAsString(tree(v, true));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a value tree always serialises", e);
        }
    }

    private static ObjectNode tree(Value v, boolean canonical) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("t", v.tag());
        if (v instanceof IntegerValue x) {
            o.put("v", x.value().toString());
        } else if (v instanceof DecimalValue x) {
            o.put("v", x.value().toString());
        } else if (v instanceof FloatValue x) {
            o.put("v", x.text());
        } else if (v instanceof BooleanValue x) {
            o.put("v", x.value());
        } else if (v instanceof TextValue x) {
            o.put("v", x.value());
        } else if (v instanceof BinaryValue x) {
            o.put("len", x.length()).put("sha256", x.sha256()).put("head", x.head());
        } else if (v instanceof DateValue x) {
            o.put("v", x.iso());
        } else if (v instanceof TimeValue x) {
            o.put("v", x.iso());
            x.offset().ifPresent(z -> o.put("offset", TimeValue.offsetText(z)));
        } else if (v instanceof TimestampValue x) {
            o.put("v", x.iso());
        } else if (v instanceof TimestampTzValue x) {
            o.put("v", x.isoUtc());
            if (!canonical) {
                o.put("shown", TimeValue.offsetText(x.shown()));
            }
        } else if (v instanceof IntervalValue x) {
            o.put("months", x.months()).put("days", x.days()).put("micros", Long.toString(x.micros()));
        } else if (v instanceof UuidValue x) {
            o.put("v", x.value().toString());
        } else if (v instanceof EnumValue x) {
            o.put("v", x.label());
        } else if (v instanceof SetValue x) {
            ArrayNode a = o.putArray("v");
            x.members().forEach(a::add);
        } else if (v instanceof JsonValue x) {
            o.put("v", x.text());
        } else if (v instanceof JsonbValue x) {
            o.put("v", x.text());
        } else if (v instanceof ArrayValue x) {
            ArrayNode a = o.putArray("v");
            x.elements().forEach(e -> a.add(tree(e, canonical)));
            if (x.lowerBound() != 1) {
                o.put("lower", x.lowerBound());
            }
        } else if (v instanceof OtherValue x) {
            o.put("type", x.type()).put("v", x.text());
        } else if (v instanceof MaskedValue x) {
            o.put("alg", x.algorithm()).put("v", x.hash());
        } else if (!(v instanceof NullValue)) {
            throw new IllegalStateException("no JSON form for " + v.getClass());
        }
        return o;
    }

    private static Value fields(JsonNode node, Value v, String... names) {
        Set<String> expected = new TreeSet<>(List.of(names));
        expected.add("t");
        Set<String> present = new TreeSet<>();
        node.fieldNames().forEachRemaining(present::add);
        if (!present.equals(expected)) {
            throw new IllegalArgumentException("a \"" + node.get("t").asText() + "\" value has the fields "
                    + expected + ", not " + present);
        }
        return v;
    }

    private static JsonNode field(JsonNode node, String name) {
        JsonNode f = node.get(name);
        if (f == null) {
            throw new IllegalArgumentException("missing field \"" + name + "\" in " + node);
        }
        return f;
    }

    private static String text(JsonNode node, String name) {
        JsonNode f = field(node, name);
        if (!f.isTextual()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be a string in " + node);
        }
        return f.textValue();
    }

    private static long number(JsonNode node, String name) {
        JsonNode f = field(node, name);
        if (!f.isIntegralNumber() || !f.canConvertToLong()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be an integer in " + node);
        }
        return f.longValue();
    }

    private static boolean bool(JsonNode node, String name) {
        JsonNode f = field(node, name);
        if (!f.isBoolean()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be true or false in " + node);
        }
        return f.booleanValue();
    }

    private static ZoneOffset offset(JsonNode node, String name) {
        String s = text(node, name);
        if (!s.matches("[+-]\\d{2}:\\d{2}(:\\d{2})?")) {
            throw new IllegalArgumentException("field \"" + name + "\" must be an offset like +05:30: " + s);
        }
        return ZoneOffset.of(s);
    }

    private static UUID uuid(String s) {
        UUID u = UUID.fromString(s);
        if (!u.toString().equals(s)) {
            throw new IllegalArgumentException("not a canonical UUID: " + s);
        }
        return u;
    }

    private static List<String> strings(JsonNode node, String name) {
        JsonNode f = field(node, name);
        if (!f.isArray()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be an array in " + node);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : f) {
            if (!e.isTextual()) {
                throw new IllegalArgumentException("set members must be strings in " + node);
            }
            out.add(e.textValue());
        }
        return out;
    }

    private static List<Value> values(JsonNode node, String name) {
        JsonNode f = field(node, name);
        if (!f.isArray()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be an array in " + node);
        }
        List<Value> out = new ArrayList<>();
        for (JsonNode e : f) {
            out.add(fromTree(e));
        }
        return out;
    }
}
