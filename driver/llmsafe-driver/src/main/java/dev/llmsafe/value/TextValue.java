package dev.llmsafe.value;

import java.util.Objects;

/**
 * Character data of any length and script, compared char for char (no collation, no trimming, no
 * Unicode normalisation: {@code é} and {@code e}+combining accent are different values, as they are
 * different bytes in the database). CHAR(n) padding is part of the value as the driver returns it.
 */
public record TextValue(String value) implements Value {

    /** {@value}. */
    public static final String TAG = "text";

    /** @throws NullPointerException for a null text (NULL is {@link Value#NULL}) */
    public TextValue {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String tag() {
        return TAG;
    }
}
