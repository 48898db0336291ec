package dev.llmsafe.value;

import java.util.List;

/**
 * A PostgreSQL array, element by element, each element a typed {@link Value} (NULL elements are
 * {@link Value#NULL}; a multi-dimensional array is an array of arrays). {@code lowerBound} is the
 * index of the first element, 1 unless the array was written with explicit bounds such as
 * {@code '[0:1]={5,6}'}: that array and {@code '{5,6}'} are different values in PostgreSQL.
 */
public record ArrayValue(List<Value> elements, int lowerBound) implements Value {

    /** {@value}. */
    public static final String TAG = "array";

    /** @throws NullPointerException for null elements (use {@link Value#NULL}) */
    public ArrayValue {
        elements = List.copyOf(elements);
    }

    /** An array whose first index is 1, the default. */
    public ArrayValue(List<Value> elements) {
        this(elements, 1);
    }

    /** True when this array or a nested one has a lower bound other than 1. */
    public boolean explicitBounds() {
        return lowerBound != 1 || elements.stream().anyMatch(e -> e instanceof ArrayValue a && a.explicitBounds());
    }

    /** The bounds PostgreSQL writes before such an array: {@code [0:1]}, {@code [2:3][1:1]}. */
    public String bounds() {
        StringBuilder b = new StringBuilder();
        Value level = this;
        while (level instanceof ArrayValue a && !a.elements.isEmpty()) {
            b.append('[').append(a.lowerBound).append(':').append(a.lowerBound + a.elements.size() - 1).append(']');
            level = a.elements.get(0);
        }
        return b.toString();
    }

    @Override
    public String tag() {
        return TAG;
    }
}
