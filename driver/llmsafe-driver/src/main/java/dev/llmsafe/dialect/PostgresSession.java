package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * D17 on PostgreSQL: the settings that change how a literal or an operator is read, or what a value
 * turns into in text. pgjdbc sets TimeZone to the JVM's zone when it connects, so two JVMs mean two
 * different {@code '2024-03-31 02:30'::timestamptz} and two different {@code ts::date}.
 * {@code search_path} is not among them: the engine's connections resolve names in the configured
 * schema, or the one the application's connection is in, pinned on every connection of its own (W4),
 * because the planning and applying roles' own paths ({@code "$user"}) differ from the application's.
 */
final class PostgresSession extends SessionVariables {

    /** Each changes what a statement reads or writes; every one is set with set_config. */
    private static final List<String> NAMES = List.of("TimeZone", "DateStyle", "IntervalStyle", "standard_conforming_strings", "extra_float_digits", "bytea_output", "timezone_abbreviations",
            "transform_null_equals", "array_nulls", "backslash_quote", "default_text_search_config", "lc_monetary",
            "lc_numeric", "lc_time", "xmlbinary", "xmloption", "session_replication_role");

    @Override
    Map<String, String> read(Connection c) throws SQLException {
        return read(c, null);
    }

    /**
     * The settings, after {@code search_path} is set to {@code searchPath} in the same statement when it is
     * not null: {@code set_config(..., false)} is SET, and the settings are read after it (the select list
     * is evaluated in order), so a connection is pinned and read in one round trip.
     */
    Map<String, String> read(Connection c, String searchPath) throws SQLException {
        return read(c, searchPath, null);
    }

    /**
     * {@link #read(Connection, String)}, with the bounds of the transaction this statement is the first of set
     * by it too when {@code bounds} is not null ({@code set_config(..., true)}: SET LOCAL).
     */
    Map<String, String> read(Connection c, String searchPath, Bounds bounds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql(searchPath != null, bounds))) {
            if (searchPath != null) {
                ps.setString(1, searchPath);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return values(rs, searchPath != null, bounds);
            }
        }
    }

    /** The statement of {@link #read(Connection, String, Bounds)}; its one parameter is the search path, if pinned. */
    String sql(boolean pin, Bounds bounds) {
        StringBuilder sql = new StringBuilder("SELECT ");
        if (pin) {
            sql.append("set_config('search_path', ?, false), ");
        }
        if (bounds != null) {
            sql.append("set_config('lock_timeout', '").append(bounds.lockTimeoutMs()).append("ms', true), ")
                    .append("set_config('statement_timeout', '").append(bounds.statementTimeoutMs()).append("ms', true), ");
        }
        for (String n : NAMES) {
            sql.append("current_setting('").append(n).append("'), ");
        }
        sql.setLength(sql.length() - 2);
        return sql.toString();
    }

    /** The settings from the result of {@link #sql}. */
    Map<String, String> values(ResultSet rs, boolean pin, Bounds bounds) throws SQLException {
        int first = 1 + (pin ? 1 : 0) + (bounds != null ? 2 : 0);
        Map<String, String> out = new LinkedHashMap<>();
        rs.next();
        for (int i = 0; i < NAMES.size(); i++) {
            String v = rs.getString(i + first);
            out.put(NAMES.get(i), v == null ? "" : v);
        }
        return out;
    }

    @Override
    void set(Connection c, String name, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT set_config(?, ?, false)")) {
            ps.setString(1, name);
            ps.setString(2, value);
            ps.executeQuery().close();
        }
    }

    @Override
    Optional<String> unsettable(String name, String current, String wanted) {
        if (name.equals("extra_float_digits")) {
            try {
                if (Integer.parseInt(wanted.trim()) < 1) {
                    // Measured behaviour of PostgreSQL 12 and later: below 1, float text is rounded.
                    return Optional.of("with extra_float_digits below 1 PostgreSQL rounds real and double precision"
                            + " values in text, and the dry run could not read them exactly");
                }
            } catch (NumberFormatException e) {
                return Optional.of("it is not a number");
            }
        }
        if (name.equals("DateStyle") && !wanted.startsWith("ISO")) {
            return Optional.of("pgjdbc needs a DateStyle that begins with ISO");
        }
        return Optional.empty();
    }
}
