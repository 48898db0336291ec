package dev.llmsafe.value;

import java.util.Objects;

/**
 * JSON kept as text and compared as text: PostgreSQL {@code json}, MariaDB {@code JSON} (a LONGTEXT
 * with a {@code json_valid} check), SQLite. These columns store the text as written, so reordered keys
 * or new whitespace are a change to what the database holds. Compare {@link JsonbValue}.
 */
public record JsonValue(String text) implements Value {

    /** {@value}. */
    public static final String TAG = "json";

    /** @throws NullPointerException for a null text (NULL is {@link Value#NULL}) */
    public JsonValue {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String tag() {
        return TAG;
    }
}
