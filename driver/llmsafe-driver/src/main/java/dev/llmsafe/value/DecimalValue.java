package dev.llmsafe.value;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * An exact NUMERIC or DECIMAL, scale included: {@code 1.10} and {@code 1.1} are different values.
 *
 * <p>Why scale is content: the database stores and returns it. PostgreSQL's unconstrained NUMERIC
 * keeps the scale it was given ({@code 1.10} reads back as {@code 1.10}, {@code 1.1} as {@code 1.1}),
 * so an UPDATE from one to the other changes what every reader of the row gets, even though
 * {@code 1.10 = 1.1} in SQL. A card that called that "no change" would hide a change the database made.
 * A column with a declared scale (DECIMAL(10,2), NUMERIC(10,2)) always returns its own scale, so the
 * question does not arise there. NaN and the infinities, which PostgreSQL's NUMERIC also holds, are
 * {@link OtherValue}s of type {@code numeric}.
 */
public record DecimalValue(BigDecimal value) implements Value {

    /** {@value}. */
    public static final String TAG = "dec";

    /** @throws NullPointerException for a null number (NULL is {@link Value#NULL}) */
    public DecimalValue {
        Objects.requireNonNull(value, "value");
    }

    /** The number of a decimal text such as {@code 1.10}; the scale is kept. */
    public static DecimalValue of(String text) {
        return new DecimalValue(new BigDecimal(text));
    }

    @Override
    public String tag() {
        return TAG;
    }
}
