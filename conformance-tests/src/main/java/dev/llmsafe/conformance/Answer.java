package dev.llmsafe.conformance;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What one fact measured on one server, as the text SPEC.md shows in that server's column. An answer
 * with several parts ("admin: 1 · planning: 0") is built with {@link Parts}, and one part can be read on
 * its own with {@link #part} or {@link #find}.
 *
 * @param fact the fact
 * @param server the server it was measured on
 * @param text the answer, plain text without "|" (it is a table cell)
 */
record Answer(Fact fact, ServerId server, String text) {

    static final String SEPARATOR = " · ";

    Answer {
        if (text.contains("|") || text.contains("\n")) {
            throw new IllegalArgumentException(fact + ": an answer is a table cell, no '|' or newline: " + text);
        }
    }

    ServerId.Flavor flavor() {
        return server.flavor();
    }

    /** The value of one part of a multi-part answer; fails when the part is missing. */
    String part(String key) {
        return find(key).orElseThrow(() -> new IllegalStateException(fact + " on " + server + " has no part \""
                + key + "\": " + text));
    }

    /** The value of one part of a multi-part answer, if it has that part. */
    Optional<String> find(String key) {
        for (String p : text.split(SEPARATOR)) {
            int colon = p.indexOf(": ");
            if (colon > 0 && p.substring(0, colon).equals(key)) {
                return Optional.of(p.substring(colon + 2));
            }
        }
        return Optional.empty();
    }

    /** Builds a multi-part answer in the order the parts were measured. */
    static final class Parts {
        private final Map<String, String> parts = new LinkedHashMap<>();

        Parts put(String key, String value) {
            if (parts.put(key, value) != null) {
                throw new IllegalArgumentException("part measured twice: " + key);
            }
            return this;
        }

        @Override
        public String toString() {
            return parts.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining(SEPARATOR));
        }
    }
}
