package dev.llmsafe;

import java.sql.SQLException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * R10: what of a database's error reaches the model. A message can carry values: a failed conversion
 * prints the value it could not convert (PostgreSQL {@code invalid input syntax for type integer:
 * "<value>"}), a unique violation prints the key (DETAIL), a JSON path error prints the path. Only
 * errors whose class says they concern the statement's text, names, the session or resources (SQLState
 * classes 08, 0A, 25, 40, 42, 53, 54, 57) pass verbatim; of every other error (data exceptions, integrity
 * violations, raised exceptions, errors without a SQLState) the caller gets the SQLState and the vendor
 * code with a generic message. The full message is logged at debug level for the application's owner.
 */
public final class DatabaseErrors {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseErrors.class);
    private static final Set<String> VERBATIM = Set.of("08", "0A", "25", "40", "42", "53", "54", "57");

    private DatabaseErrors() {
    }

    /** Whether the error's message may carry a value the statement read. */
    public static boolean mayCarryValues(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.length() < 2 || !VERBATIM.contains(state.substring(0, 2).toUpperCase(java.util.Locale.ROOT));
    }

    /** The error's message, or its SQLState and vendor code when the message may carry values. */
    public static String describe(SQLException e) {
        if (!mayCarryValues(e)) {
            return e.getMessage();
        }
        LOG.debug("a database error's message was withheld from the caller", e);
        return "the database reported an error with SQLState " + e.getSQLState() + " (vendor code " + e.getErrorCode()
                + "); its message is withheld because it can carry values the policy hides (a failed conversion"
                + " prints the value). Check the types and values the statement uses";
    }

    /** The error itself, or one with its SQLState and vendor code and no message or cause that may carry values. */
    public static SQLException withheld(SQLException e) {
        if (!mayCarryValues(e)) {
            return e;
        }
        return new SQLException(describe(e) + ".", e.getSQLState(), e.getErrorCode());
    }
}
