package dev.llmsafe.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON read into nodes that remember their line and column, so that every configuration error can
 * point at its key. Duplicate keys are kept apart so that they can be refused with a position.
 */
final class JsonTree {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .build();

    record Position(int line, int column) {
    }

    sealed interface Node permits Obj, Arr, Str, Num, Bool, Null {
        Position at();

        /** How the type is named in "found ..." messages. */
        String kind();
    }

    record Member(String key, Position keyAt, Node value) {
    }

    record Obj(Position at, Map<String, Member> members, List<Member> duplicates) implements Node {
        public String kind() {
            return "an object";
        }
    }

    record Arr(Position at, List<Node> items) implements Node {
        public String kind() {
            return "a list";
        }
    }

    record Str(Position at, String value) implements Node {
        public String kind() {
            return "a string";
        }
    }

    record Num(Position at, Number value, boolean integral) implements Node {
        public String kind() {
            return "a number";
        }
    }

    record Bool(Position at, boolean value) implements Node {
        public String kind() {
            return value ? "true" : "false";
        }
    }

    record Null(Position at) implements Node {
        public String kind() {
            return "null";
        }
    }

    private JsonTree() {
    }

    static Node parse(String text, String source) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new ConfigException(source, 0, 0, null, "the file is empty; it must hold a JSON object");
            }
            Node root = read(p, first);
            JsonToken extra = p.nextToken();
            if (extra != null) {
                Position at = at(p.currentTokenLocation());
                throw new ConfigException(source, at.line(), at.column(), null,
                        "text after the end of the JSON object");
            }
            return root;
        } catch (JsonParseException e) {
            JsonLocation loc = e.getLocation();
            throw new ConfigException(source, loc == null ? 0 : loc.getLineNr(), loc == null ? 0 : loc.getColumnNr(),
                    null, "not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ConfigException(source, 0, 0, null, "cannot read the JSON: " + e.getMessage());
        }
    }

    private static Node read(JsonParser p, JsonToken t) throws IOException {
        Position at = at(p.currentTokenLocation());
        switch (t) {
            case START_OBJECT: {
                Map<String, Member> members = new LinkedHashMap<>();
                List<Member> duplicates = new ArrayList<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    Position keyAt = at(p.currentTokenLocation());
                    Node value = read(p, p.nextToken());
                    Member m = new Member(key, keyAt, value);
                    if (members.putIfAbsent(key, m) != null) {
                        duplicates.add(m);
                    }
                }
                return new Obj(at, members, duplicates);
            }
            case START_ARRAY: {
                List<Node> items = new ArrayList<>();
                JsonToken next;
                while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
                    items.add(read(p, next));
                }
                return new Arr(at, items);
            }
            case VALUE_STRING:
                return new Str(at, p.getText());
            case VALUE_NUMBER_INT:
                return new Num(at, p.getNumberValue(), true);
            case VALUE_NUMBER_FLOAT:
                return new Num(at, p.getDecimalValue(), false);
            case VALUE_TRUE:
                return new Bool(at, true);
            case VALUE_FALSE:
                return new Bool(at, false);
            case VALUE_NULL:
                return new Null(at);
            default:
                throw new JsonParseException(p, "unexpected " + t);
        }
    }

    private static Position at(JsonLocation loc) {
        return new Position(loc.getLineNr(), loc.getColumnNr());
    }
}
