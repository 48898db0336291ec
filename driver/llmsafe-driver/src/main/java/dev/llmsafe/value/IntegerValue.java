package dev.llmsafe.value;

import java.math.BigInteger;
import java.util.Objects;

/**
 * An integer of any width: SMALLINT to BIGINT, MySQL's BIGINT UNSIGNED up to 2^64-1, BIT(n), YEAR,
 * SQLite's INTEGER storage class. Kept as a {@link BigInteger} so that no value passes through a
 * {@code double} or wraps at {@code Long.MAX_VALUE}.
 */
public record IntegerValue(BigInteger value) implements Value {

    /** {@value}. */
    public static final String TAG = "int";

    /** @throws NullPointerException for a null integer (NULL is {@link Value#NULL}) */
    public IntegerValue {
        Objects.requireNonNull(value, "value");
    }

    /** The value of a 64-bit integer. */
    public static IntegerValue of(long value) {
        return new IntegerValue(BigInteger.valueOf(value));
    }

    @Override
    public String tag() {
        return TAG;
    }
}
