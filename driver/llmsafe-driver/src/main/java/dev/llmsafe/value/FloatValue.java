package dev.llmsafe.value;

/**
 * A binary floating-point number: REAL/FLOAT4 ({@code single}) or DOUBLE PRECISION/FLOAT8. Equality
 * is exact, bit for bit as {@link Double#compare} sees it (so NaN equals NaN and {@code -0.0} differs
 * from {@code 0.0}), never within an epsilon: one unit in the last place is a change. A single-precision
 * value is kept as the {@code double} it widens to exactly, and rendered as a {@code float}.
 */
public record FloatValue(double value, boolean single) implements Value {

    /** {@value}: a 64-bit float. */
    public static final String TAG = "f64";
    /** {@value}: a 32-bit float. */
    public static final String TAG_SINGLE = "f32";

    /** A 64-bit float. */
    public static FloatValue ofDouble(double value) {
        return new FloatValue(value, false);
    }

    /** A 32-bit float. */
    public static FloatValue ofFloat(float value) {
        return new FloatValue(value, true);
    }

    /** @throws IllegalArgumentException for a single-precision value that no {@code float} holds */
    public FloatValue {
        if (single && !Double.isNaN(value) && (double) (float) value != value) {
            throw new IllegalArgumentException(value + " is not a single-precision value");
        }
    }

    /** The shortest decimal text that reads back as this exact value ({@code NaN}, {@code Infinity} too). */
    public String text() {
        return single ? Float.toString((float) value) : Double.toString(value);
    }

    @Override
    public String tag() {
        return single ? TAG_SINGLE : TAG;
    }
}
