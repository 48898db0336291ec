package dev.llmsafe.mcp;

import java.util.Optional;

/**
 * The MCP revisions this server speaks, oldest first: the four that the official Java SDK 2.1.0 client
 * offers. What changed between them and matters to this server is one flag each, so that a client of an
 * older revision never receives fields its schema does not have.
 */
enum ProtocolVersion {
    V2024_11_05("2024-11-05"),
    /** Added tool annotations and JSON-RPC batches (which every receiver had to accept). */
    V2025_03_26("2025-03-26"),
    /** Removed batches; added structured tool output ({@code outputSchema}, {@code structuredContent}) and titles. */
    V2025_06_18("2025-06-18"),
    /** Input validation errors of a tool became tool results with {@code isError}, not JSON-RPC errors (SEP-1303). */
    V2025_11_25("2025-11-25");

    private final String id;

    ProtocolVersion(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    static ProtocolVersion latest() {
        return V2025_11_25;
    }

    static Optional<ProtocolVersion> of(String id) {
        for (ProtocolVersion v : values()) {
            if (v.id.equals(id)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    boolean hasToolAnnotations() {
        return compareTo(V2025_03_26) >= 0;
    }

    boolean acceptsBatches() {
        return this == V2025_03_26;
    }

    boolean hasStructuredOutput() {
        return compareTo(V2025_06_18) >= 0;
    }

    boolean reportsInputErrorsAsToolResults() {
        return compareTo(V2025_11_25) >= 0;
    }
}
