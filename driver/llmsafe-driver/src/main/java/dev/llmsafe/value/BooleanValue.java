package dev.llmsafe.value;

/**
 * A PostgreSQL {@code boolean}. MySQL's BOOLEAN is TINYINT(1) and can hold 2 or -1, so it is read as an
 * {@link IntegerValue}, never as this.
 */
public record BooleanValue(boolean value) implements Value {

    /** {@value}. */
    public static final String TAG = "bool";

    @Override
    public String tag() {
        return TAG;
    }
}
