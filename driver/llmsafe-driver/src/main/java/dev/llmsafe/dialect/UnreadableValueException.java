package dev.llmsafe.dialect;

import java.sql.SQLException;

/**
 * A value, or a session, from which a value cannot be read exactly: the reader refuses rather than
 * guess (a rounded FLOAT, a timestamp in a session whose time zone has daylight saving time, a text
 * form it does not know). The planner turns it into a refusal. SQLState {@value #SQL_STATE} (data
 * exception), which connection pools do not treat as a broken connection.
 */
public final class UnreadableValueException extends SQLException {

    private static final long serialVersionUID = 1L;

    /** {@value}. */
    public static final String SQL_STATE = "22000";

    /** A refusal to read, saying what and why. */
    public UnreadableValueException(String message) {
        super(message, SQL_STATE);
    }

    /** A refusal to read, saying what and why, with the parse error behind it. */
    public UnreadableValueException(String message, Throwable cause) {
        super(message, SQL_STATE, cause);
    }
}
