package dev.llmsafe.mcp;

import static dev.llmsafe.mcp.JsonRpc.quote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One tool as the client sees it: name, title, description, input schema, output schema, annotations.
 * Every argument is a string, so the schema language needed is small, and the same description
 * produces the JSON Schema and checks the arguments.
 */
record ToolSpec(String name, String title, String description, List<Param> params, Hints hints,
        ObjectNode outputSchema) {

    /**
     * A string argument.
     *
     * @param allowed the only values accepted, or empty for any
     * @param minLength at least this many characters
     * @param maxLength at most this many characters; 0 for no bound
     */
    record Param(String name, String description, boolean required, List<String> allowed, int minLength,
            int maxLength) {

        static Param text(String name, String description, boolean required) {
            return new Param(name, description, required, List.of(), 0, 0);
        }

        static Param choice(String name, String description, List<String> allowed) {
            return new Param(name, description, false, allowed, 0, 0);
        }

        Param lengths(int min, int max) {
            return new Param(name, description, required, allowed, min, max);
        }
    }

    /**
     * The annotations, which tell a client how careful to be. They must be true: a client may run a
     * read-only tool without asking the user.
     */
    enum Hints {
        /** Reads only; only this database. */
        READ_ONLY(true, null, null),
        /**
         * {@code sql_plan}: runs a write (rolled back) and stores a plan, so not read-only; destroys
         * nothing; each call stores a new plan, so not idempotent.
         */
        PROPOSES(false, false, false);

        private final boolean readOnly;
        private final Boolean destructive;
        private final Boolean idempotent;

        Hints(boolean readOnly, Boolean destructive, Boolean idempotent) {
            this.readOnly = readOnly;
            this.destructive = destructive;
            this.idempotent = idempotent;
        }
    }

    /** This tool in a {@code tools/list} result, with the fields the session's revision has. */
    ObjectNode describe(ProtocolVersion version) {
        ObjectNode tool = JsonRpc.object();
        tool.put("name", name);
        if (version.hasStructuredOutput()) {
            tool.put("title", title);
        }
        tool.put("description", description);
        tool.set("inputSchema", inputSchema());
        if (version.hasStructuredOutput()) {
            tool.set("outputSchema", outputSchema.deepCopy());
        }
        if (version.hasToolAnnotations()) {
            ObjectNode annotations = tool.putObject("annotations");
            annotations.put("title", title);
            annotations.put("readOnlyHint", hints.readOnly);
            // destructiveHint and idempotentHint mean something only when readOnlyHint is false (MCP).
            if (hints.destructive != null) {
                annotations.put("destructiveHint", hints.destructive);
            }
            if (hints.idempotent != null) {
                annotations.put("idempotentHint", hints.idempotent);
            }
            // The tools reach one database, configured by the operator; never the open internet.
            annotations.put("openWorldHint", false);
        }
        return tool;
    }

    ObjectNode inputSchema() {
        ObjectNode schema = JsonRpc.object();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = JsonRpc.MAPPER.createArrayNode();
        for (Param p : params) {
            ObjectNode property = properties.putObject(p.name());
            property.put("type", "string");
            property.put("description", p.description());
            if (!p.allowed().isEmpty()) {
                ArrayNode values = property.putArray("enum");
                p.allowed().forEach(values::add);
                property.put("default", p.allowed().get(0));
            }
            if (p.minLength() > 0) {
                property.put("minLength", p.minLength());
            }
            if (p.maxLength() > 0) {
                property.put("maxLength", p.maxLength());
            }
            if (p.required()) {
                required.add(p.name());
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /** What is wrong with the arguments, said so that a model can correct them; empty when nothing is. */
    Optional<String> check(JsonNode args) {
        for (Iterator<String> names = args.fieldNames(); names.hasNext();) {
            String given = names.next();
            if (params.stream().noneMatch(p -> p.name().equals(given))) {
                return Optional.of("unknown argument " + quote(given) + "; " + name + " takes " + accepted());
            }
        }
        for (Param p : params) {
            JsonNode value = args.get(p.name());
            if (value == null) {
                if (p.required()) {
                    return Optional.of("the argument " + quote(p.name()) + " (a string) is required");
                }
                continue;
            }
            if (!value.isTextual()) {
                return Optional.of(quote(p.name()) + " must be a string, not " + kind(value));
            }
            String text = value.textValue();
            if (!p.allowed().isEmpty() && !p.allowed().contains(text)) {
                return Optional.of(quote(p.name()) + " must be one of "
                        + p.allowed().stream().map(JsonRpc::quote).collect(Collectors.joining(", ")));
            }
            int length = text.codePointCount(0, text.length());
            if (length < p.minLength() || (p.maxLength() > 0 && length > p.maxLength())) {
                return Optional.of(quote(p.name()) + " must have " + p.minLength() + " to " + p.maxLength()
                        + " characters");
            }
        }
        return Optional.empty();
    }

    private String accepted() {
        return params.stream().map(p -> quote(p.name()) + (p.required() ? "" : " (optional)"))
                .collect(Collectors.joining(", "));
    }

    private static String kind(JsonNode value) {
        switch (value.getNodeType()) {
            case NUMBER:
                return "a number";
            case BOOLEAN:
                return "a boolean";
            case ARRAY:
                return "an array";
            case OBJECT:
                return "an object";
            case NULL:
                return "null";
            default:
                return value.getNodeType().name().toLowerCase(Locale.ROOT);
        }
    }
}
