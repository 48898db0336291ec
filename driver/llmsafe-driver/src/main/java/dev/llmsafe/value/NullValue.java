package dev.llmsafe.value;

/** SQL NULL. Every instance is equal to {@link Value#NULL}; it renders as {@code NULL}, unquoted. */
public record NullValue() implements Value {

    /** {@value}. */
    public static final String TAG = "null";

    @Override
    public String tag() {
        return TAG;
    }
}
