package dev.llmsafe.tools;

import java.util.Objects;

/**
 * The schema context for prompts (R6), in its two forms; {@code sql_schema} returns the one asked for.
 *
 * @param text for reading, by a model or a person
 * @param json the same content as a JSON object
 */
public record SchemaContext(String text, String json) {

    /** Both are required. */
    public SchemaContext {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(json, "json");
    }
}
