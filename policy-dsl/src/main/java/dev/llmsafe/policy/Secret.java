package dev.llmsafe.policy;

/**
 * A password or key from the configuration. It never shows itself: {@link #toString()} is a mask,
 * and {@link LlmSafeConfig#toJson()} writes back what the file said (for example
 * {@code ${LLMSAFE_PASSWORD}}), never what the environment held.
 */
public final class Secret {

    private final String value;
    private final String source;

    private Secret(String value, String source) {
        this.value = value;
        this.source = source;
    }

    /** A secret given directly in code; it renders as itself in {@link LlmSafeConfig#toJson()}. */
    public static Secret of(String value) {
        return new Secret(value, value);
    }

    static Secret fromFile(String value, String source) {
        return new Secret(value, source);
    }

    /** The secret itself. Call it only where it is handed to a driver or a MAC. */
    public String reveal() {
        return value;
    }

    /** The text the configuration held before interpolation. */
    String source() {
        return source;
    }

    /** Equal when the values are equal, wherever they came from. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** Always a mask. */
    @Override
    public String toString() {
        return "********";
    }
}
