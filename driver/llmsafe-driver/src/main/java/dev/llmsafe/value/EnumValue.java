package dev.llmsafe.value;

import java.util.Objects;

/** The label of an enum value (PostgreSQL {@code CREATE TYPE ... AS ENUM}, MySQL {@code ENUM}). */
public record EnumValue(String label) implements Value {

    /** {@value}. */
    public static final String TAG = "enum";

    /** @throws NullPointerException for a null label (NULL is {@link Value#NULL}) */
    public EnumValue {
        Objects.requireNonNull(label, "label");
    }

    @Override
    public String tag() {
        return TAG;
    }
}
