package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * D17 on MySQL and MariaDB: the session variables that change what a statement means. The dry-run and
 * apply connections used to run at {@code time_zone = '+00:00'}, and an application whose session is
 * at +09:00 (Connector/J's {@code connectionTimeZone} with {@code forceConnectionTimeZoneToSession})
 * got a card 9 hours off for a TIMESTAMP literal (issue 14). The character sets the driver encodes
 * text in, and the NO_BACKSLASH_ESCAPES mode it escapes string parameters by (read once when it
 * connects), must already be the application's: setting them under the driver would change what it
 * sends, so a difference is refused.
 */
final class MySqlSession extends SessionVariables {

    private static final List<String> COMMON = List.of("time_zone", "sql_mode", "div_precision_increment",
            "collation_connection", "character_set_client", "character_set_results", "lc_time_names",
            "default_week_format", "group_concat_max_len", "foreign_key_checks", "sql_safe_updates");
    private static final List<String> MARIADB = List.of("default_regex_flags", "old_mode");
    private static final List<String> MYSQL = List.of("block_encryption_mode");
    private static final Set<String> NUMBERS = Set.of("div_precision_increment", "default_week_format",
            "group_concat_max_len", "foreign_key_checks", "sql_safe_updates");
    private static final Set<String> DRIVER_OWNED = Set.of("character_set_client", "character_set_results");

    private final List<String> names;

    MySqlSession(boolean mariadb) {
        List<String> n = new ArrayList<>(COMMON);
        n.addAll(mariadb ? MARIADB : MYSQL);
        this.names = List.copyOf(n);
    }

    @Override
    Map<String, String> read(Connection c) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (String n : names) {
            sql.append("@@SESSION.").append(n).append(", ");
        }
        sql.setLength(sql.length() - 2);
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            rs.next();
            for (int i = 0; i < names.size(); i++) {
                String v = rs.getString(i + 1);
                out.put(names.get(i), v == null ? "" : v);
            }
        }
        return out;
    }

    @Override
    void set(Connection c, String name, String value) throws SQLException {
        if (NUMBERS.contains(name)) {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION " + name + " = " + Long.parseLong(value));
            }
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("SET SESSION " + name + " = ?")) {
            ps.setString(1, value);
            ps.execute();
        }
    }

    @Override
    Optional<String> unsettable(String name, String current, String wanted) {
        if (DRIVER_OWNED.contains(name)) {
            return Optional.of("the vendor driver encodes text in the character set it chose when it connected; give"
                    + " the planning and applying connections the application's characterEncoding");
        }
        if (name.equals("sql_mode") && noBackslashEscapes(current) != noBackslashEscapes(wanted)) {
            return Optional.of("Connector/J escapes string parameters by the NO_BACKSLASH_ESCAPES mode it saw when it"
                    + " connected; give the planning and applying connections the application's sql_mode");
        }
        if (NUMBERS.contains(name) && !wanted.matches("\\d+")) {
            return Optional.of("it is not a number");
        }
        return Optional.empty();
    }

    private static boolean noBackslashEscapes(String sqlMode) {
        return sqlMode != null && List.of(sqlMode.toUpperCase(Locale.ROOT).split(",")).contains("NO_BACKSLASH_ESCAPES");
    }
}
