package dev.llmsafe.dialect;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of a database session that change what a statement means (D17), by name, as the
 * session reported them: MySQL's {@code time_zone} decides which instant a TIMESTAMP literal is and
 * which day {@code DATE(ts)} gives, {@code sql_mode} how text is read and what is an error,
 * PostgreSQL's {@code TimeZone} and {@code DateStyle} what a literal means, SQLite's
 * {@code foreign_keys} whether a DELETE cascades. A plan keeps those of the
 * application's session; the dry run and the apply run in them.
 *
 * @param recorded false for a plan stored before settings were kept (format llmsafe-plan/1)
 * @param values each setting's value as the session showed it; an empty text for SQL NULL
 */
public record SessionSettings(boolean recorded, Map<String, String> values) {

    /** The settings of a plan stored before they were recorded: never reproducible. */
    public static final SessionSettings NOT_RECORDED = new SessionSettings(false, Map.of());

    /** Copies the map, keeping its order. */
    public SessionSettings {
        Objects.requireNonNull(values, "values");
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        if (!recorded && !values.isEmpty()) {
            throw new IllegalArgumentException("settings that were not recorded have no values");
        }
    }

    /** Recorded settings. */
    public static SessionSettings of(Map<String, String> values) {
        return new SessionSettings(true, values);
    }
}
