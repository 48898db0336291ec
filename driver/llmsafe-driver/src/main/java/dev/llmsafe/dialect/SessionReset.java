package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * R8: every setting of a session that a statement could change, read when the model's connection is
 * taken from an application's pool and put back, one by one where it differs, when it is given back,
 * so that whatever the model managed to change (a search_path that sends the application's next write
 * to another schema's table, session_replication_role that turns its triggers and foreign keys off,
 * sql_mode, time_zone, SQLite's pragmas) does not outlive its use. Settings are put back to what the
 * application had, not to the server's defaults (which is what DISCARD ALL or COM_RESET_CONNECTION
 * do): a pool's connectionInitSql runs once per physical connection, and its settings must stay.
 */
public abstract class SessionReset {

    /** What a session's settings were, by name. */
    public record Snapshot(Map<String, String> values) {
        /** Copies the map. */
        public Snapshot {
            values = Map.copyOf(values);
        }
    }

    SessionReset() {
    }

    /** Reads every setting a statement could change. */
    public final Snapshot take(Connection c) throws SQLException {
        return new Snapshot(read(c));
    }

    /**
     * Puts back every setting that differs from the snapshot, outside a transaction.
     *
     * @return the names of the settings that were put back
     * @throws SQLException when one cannot be: the caller discards the connection
     */
    public final List<String> restore(Connection c, Snapshot before) throws SQLException {
        Map<String, String> now = read(c);
        List<String> changed = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : before.values().entrySet()) {
            String current = now.get(e.getKey());
            if (current != null && !current.equals(e.getValue()) && set(c, e.getKey(), e.getValue())) {
                changed.add(e.getKey());
            }
        }
        if (!changed.isEmpty()) {
            Map<String, String> after = read(c);
            for (String name : changed) {
                if (!before.values().get(name).equals(after.get(name))) {
                    throw new SQLException("the session setting " + name + " could not be put back to "
                            + before.values().get(name) + " (it is " + after.get(name) + ")");
                }
            }
        }
        return changed;
    }

    abstract Map<String, String> read(Connection c) throws SQLException;

    /**
     * Sets one setting for the session.
     *
     * @return false when no session can set it (the server's own: it moved by itself, nothing to put back)
     */
    abstract boolean set(Connection c, String name, String value) throws SQLException;

    /**
     * PostgreSQL: every setting a session may change (pg_settings of context user and superuser), and
     * its role. The transaction_* settings describe the current transaction, not the session.
     */
    static final class Postgres extends SessionReset {
        @Override
        Map<String, String> read(Connection c) throws SQLException {
            Map<String, String> out = new LinkedHashMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name, setting FROM"
                    + " pg_catalog.pg_settings WHERE context IN ('user', 'superuser') AND name NOT LIKE 'transaction\\_%'"
                    + " UNION ALL SELECT 'role', current_user::text")) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2) == null ? "" : rs.getString(2));
                }
            }
            return out;
        }

        @Override
        boolean set(Connection c, String name, String value) throws SQLException {
            if (name.equals("role")) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET ROLE \"" + value.replace("\"", "\"\"") + "\"");
                }
                return true;
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_catalog.set_config(?, ?, false)")) {
                ps.setString(1, name);
                ps.setString(2, value);
                ps.executeQuery().close();
            }
            return true;
        }
    }

    /**
     * MySQL and MariaDB: every session variable, as SHOW SESSION VARIABLES lists it, but those a session can set
     * that move by themselves ({@link #MOVING}). What no session can set is not a name on a list: the server's
     * answer to the SET decides it (error 1238 or 1229), and is remembered, so that a variable that moves with
     * every statement (MySQL 9.7's read-only statement_id) costs one refused SET, not one per connection given
     * back. The isolation level is a setting like the others: the dry run sets its own for the session (READ
     * COMMITTED) on a connection it borrowed from the application's pool.
     */
    static final class Mysql extends SessionReset {
        /**
         * Settable, and moved by what runs on the connection without a SET, so that putting them back would undo
         * the server's own work, not the model's (measured on MariaDB 10.11.19, MySQL 8.0.31 and 9.7.4: each
         * of these takes {@code SET SESSION x = @@SESSION.x}, and moved across a RAND(), an INSERT of an
         * AUTO_INCREMENT row and a SLEEP(1.1)).
         */
        static final Set<String> MOVING = Set.of(
                // the session's clock: it moved 1.1 s across the SLEEP; set back, NOW() would stand still
                "timestamp",
                // RAND()'s seeds, advanced by every RAND() (MariaDB shows them, MySQL shows 0): set back, the
                // application's next RAND() would repeat the numbers it was given before
                "rand_seed1", "rand_seed2",
                // the id of the session's last AUTO_INCREMENT row (identity is its other name): it moved 0 -> 1
                // with the INSERT, and a trigger's INSERT moves it back itself when the trigger ends
                "last_insert_id", "identity");
        /** ER_INCORRECT_GLOBAL_LOCAL_VAR ("is a read only variable") and ER_GLOBAL_VARIABLE ("should be set with SET GLOBAL"). */
        /** ER_INCORRECT_GLOBAL_LOCAL_VAR ("is a read only variable") and ER_GLOBAL_VARIABLE ("should be set with SET GLOBAL"). */
        private static final int READ_ONLY = 1238;
        private static final int GLOBAL_ONLY = 1229;

        /** The variables this server refused a session's SET of (1238, 1229): the same for every session of it. */
        private final Set<String> unsettable = java.util.concurrent.ConcurrentHashMap.newKeySet();

        /** The variables whose SET this server refused, for tests. */
        Set<String> unsettable() {
            return Set.copyOf(unsettable);
        }

        @Override
        Map<String, String> read(Connection c) throws SQLException {
            Map<String, String> out = new LinkedHashMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION VARIABLES")) {
                while (rs.next()) {
                    String name = rs.getString(1).toLowerCase(java.util.Locale.ROOT);
                    if (!MOVING.contains(name) && !unsettable.contains(name)) {
                        out.put(name, rs.getString(2) == null ? "" : rs.getString(2));
                    }
                }
            }
            return out;
        }

        @Override
        boolean set(Connection c, String name, String value) throws SQLException {
            if (!name.matches("[a-z0-9_]+")) {
                throw new SQLException("unexpected session variable name " + name);
            }
            try {
                if (value.matches("-?\\d+(\\.\\d+)?")) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET SESSION " + name + " = " + value);
                    }
                } else {
                    try (PreparedStatement ps = c.prepareStatement("SET SESSION " + name + " = ?")) {
                        ps.setString(1, value);
                        ps.execute();
                    }
                }
                return true;
            } catch (SQLException e) {
                if (e.getErrorCode() == READ_ONLY || e.getErrorCode() == GLOBAL_ONLY) {
                    // The server's own (MySQL 9.7's statement_id and gtid_executed, MariaDB's last_gtid, a
                    // global-only variable an operator changed): no session, the model's included, can set it, so
                    // nothing of the session's is to put back, now or on any later connection of this server.
                    unsettable.add(name);
                    return false;
                }
                throw e;
            }
        }
    }

    /** SQLite: the pragmas of a connection that a statement could change and that can be read back. */
    static final class Sqlite extends SessionReset {
        private static final List<String> PRAGMAS = List.of("query_only", "foreign_keys", "recursive_triggers",
                "ignore_check_constraints", "defer_foreign_keys", "trusted_schema", "reverse_unordered_selects",
                "writable_schema", "automatic_index", "cell_size_check", "legacy_alter_table", "secure_delete",
                "synchronous", "temp_store", "cache_size", "busy_timeout", "cache_spill", "count_changes",
                "full_column_names", "short_column_names", "empty_result_callbacks");

        @Override
        Map<String, String> read(Connection c) throws SQLException {
            Map<String, String> out = new LinkedHashMap<>();
            try (Statement s = c.createStatement()) {
                for (String p : PRAGMAS) {
                    try (ResultSet rs = s.executeQuery("PRAGMA " + p)) {
                        if (rs.next()) {
                            out.put(p, rs.getString(1) == null ? "" : rs.getString(1));
                        }
                    }
                }
            }
            return out;
        }

        @Override
        boolean set(Connection c, String name, String value) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA " + name + " = " + Long.parseLong(value.trim()));
            }
            return true;
        }
    }
}
