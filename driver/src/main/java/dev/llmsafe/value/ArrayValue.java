package dev.llmsafe.value;

import java.util.List;

/**
 * A PostgreSQL array, element by element, each element a typed {@link Value} (NULL elements are
 * {@link Value#NULL}; a multi-dimensional array is an array of arrays). Arrays whose lower bound is
 * not 1 are {@link OtherValue}s with their exact text.
 */
public record ArrayValue(List<Value> elements) implements Value {

    /** {@value}. */
    public static final String TAG = "array";

    /** @throws NullPointerException for null elements (use {@link Value#NULL}) */
    public ArrayValue {
        elements = List.copyOf(elements);
    }

    @Override
    public String tag() {
        return TAG;
    }
}
