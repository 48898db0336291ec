package dev.llmsafe.value;

import java.util.Objects;

/**
 * A value of a type this model does not name (PostgreSQL {@code inet}, {@code point}, ranges,
 * {@code money}; MariaDB {@code INET6}; PostgreSQL's {@code infinity} dates and {@code NaN} numerics),
 * kept as its type name and its exact text, and compared as both. Never a lossy conversion: a reader
 * that cannot get an exact text refuses instead.
 */
public record OtherValue(String type, String text) implements Value {

    /** {@value}. */
    public static final String TAG = "other";

    /** @throws NullPointerException for a null type or text */
    public OtherValue {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String tag() {
        return TAG;
    }
}
