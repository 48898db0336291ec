package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * D17 on SQLite: the pragmas of a connection that change what a write does. sqlite-jdbc leaves
 * {@code foreign_keys} off unless the URL turns it on (measured, SPEC.md F28), and then a DELETE of a
 * parent does not cascade: the dry run and the apply run with the application's setting. The
 * pragmas are set outside a transaction (inside one, {@code foreign_keys} is silently ignored).
 * {@code case_sensitive_like} cannot be read back (measured on 3.54: the pragma returns nothing), so
 * a connection that sets it is not seen.
 */
final class SqliteSession extends SessionVariables {

    private static final List<String> NAMES = List.of("foreign_keys", "recursive_triggers", "ignore_check_constraints",
            "defer_foreign_keys", "trusted_schema", "reverse_unordered_selects");

    @Override
    Map<String, String> read(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement()) {
            for (String n : NAMES) {
                try (ResultSet rs = s.executeQuery("PRAGMA " + n)) {
                    out.put(n, rs.next() ? rs.getString(1) : "");
                }
            }
        }
        return out;
    }

    @Override
    void set(Connection c, String name, String value) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA " + name + " = " + Integer.parseInt(value));
        }
    }

    @Override
    Optional<String> unsettable(String name, String current, String wanted) {
        return wanted.matches("\\d+") ? Optional.empty() : Optional.of("it is not a number");
    }
}
