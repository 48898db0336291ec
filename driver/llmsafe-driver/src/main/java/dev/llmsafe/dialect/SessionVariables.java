package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * D17: reads and sets the session settings of one database that change what a statement means. A
 * setting is set only where it differs, so that a setting the credential may not change (PostgreSQL's
 * {@code session_replication_role}) is a refusal only when the application's differs; after setting,
 * the session is read again and must show the application's values, or the plan is refused.
 */
abstract class SessionVariables {

    /** The settings of the live session, in a fixed order. */
    abstract Map<String, String> read(Connection c) throws SQLException;

    /** Sets one setting on the session. */
    abstract void set(Connection c, String name, String value) throws SQLException;

    /**
     * Why this setting cannot be changed on a connection of the vendor driver without leaving the
     * driver's own idea of the session behind (Connector/J escapes string parameters by the sql_mode it
     * saw when it connected), or why the engine cannot read values exactly in it; empty when it can be set.
     */
    Optional<String> unsettable(String name, String current, String wanted) {
        return Optional.empty();
    }

    final SessionSettings current(Connection c) throws SQLException {
        return SessionSettings.of(read(c));
    }

    /** Makes the session's settings {@code wanted}, or refuses; the caller restores or discards the connection. */
    final void reproduce(Connection c, SessionSettings wanted) throws SQLException {
        if (!wanted.recorded()) {
            throw notRecorded();
        }
        reproduce(c, read(c), wanted);
    }

    /** {@link #reproduce(Connection, SessionSettings)} on a session just read as {@code now}. */
    final void reproduce(Connection c, Map<String, String> now, SessionSettings wanted) throws SQLException {
        if (!wanted.recorded()) {
            throw notRecorded();
        }
        boolean changed = false;
        if (!now.keySet().equals(wanted.values().keySet())) {
            throw refused("the plan records the session settings " + wanted.values().keySet() + ", and this database"
                    + " has " + now.keySet() + " (a plan of another database, or of another version of llmsafe)");
        }
        for (Map.Entry<String, String> e : wanted.values().entrySet()) {
            String name = e.getKey();
            String current = now.get(name);
            if (Objects.equals(current, e.getValue())) {
                continue;
            }
            Optional<String> why = unsettable(name, current, e.getValue());
            if (why.isPresent()) {
                throw refused(name + " is '" + e.getValue() + "' in the application's session and '" + current
                        + "' here: " + why.get());
            }
            changed = true;
            try {
                set(c, name, e.getValue());
            } catch (SQLException x) {
                throw new RefusedException(Refusal.SESSION_NOT_REPRODUCIBLE, message(name + " is '" + e.getValue()
                        + "' in the application's session, and this connection cannot be set to it ("
                        + x.getMessage() + ")"), x);
            }
        }
        if (!changed) {
            return;
        }
        Map<String, String> after = read(c);
        Map<String, String> differ = new LinkedHashMap<>();
        wanted.values().forEach((k, v) -> {
            if (!Objects.equals(after.get(k), v)) {
                differ.put(k, after.get(k));
            }
        });
        if (!differ.isEmpty()) {
            throw refused("after setting them, the session shows " + differ + " where the application's showed "
                    + wanted.values());
        }
    }

    /**
     * Puts back {@code own} on a session known to hold {@code now}, nothing read: each setting that differs
     * is set to the text the server itself showed for it, which a SET takes as it is or refuses (then the
     * caller discards the connection).
     */
    final void putBack(Connection c, Map<String, String> now, SessionSettings own) throws SQLException {
        for (Map.Entry<String, String> e : own.values().entrySet()) {
            if (!Objects.equals(now.get(e.getKey()), e.getValue())) {
                set(c, e.getKey(), e.getValue());
            }
        }
    }

    private static RefusedException notRecorded() {
        return refused("the plan was stored in format llmsafe-plan/1, before the session settings that change what"
                + " a statement means were recorded, so it cannot be run in the session it was planned in");
    }

    static RefusedException refused(String why) {
        return new RefusedException(Refusal.SESSION_NOT_REPRODUCIBLE, message(why));
    }

    private static String message(String why) {
        return "the statement cannot run in a session that means what the application's meant: " + why
                + ". Nothing was changed. Give the planning and applying connections the application's settings"
                + " (the same URL options and server defaults), then propose the change again.";
    }
}
