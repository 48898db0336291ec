package dev.llmsafe.value;

import java.util.Objects;
import java.util.UUID;

/** A UUID (PostgreSQL {@code uuid}, MariaDB {@code UUID}). */
public record UuidValue(UUID value) implements Value {

    /** {@value}. */
    public static final String TAG = "uuid";

    /** @throws NullPointerException for a null UUID (NULL is {@link Value#NULL}) */
    public UuidValue {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String tag() {
        return TAG;
    }
}
