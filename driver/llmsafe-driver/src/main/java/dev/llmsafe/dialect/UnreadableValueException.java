package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.sql.SQLException;

/**
 * A value, or a session, from which a value cannot be read exactly: the reader refuses rather than
 * guess (a rounded FLOAT, a timestamp in a session whose time zone has daylight saving time, a text
 * form it does not know). The dry run and the apply turn it into a refusal of its own, {@link Refusal#UNREADABLE_VALUE}
 * ({@link #refusal()}), never "the database refused". SQLState {@value #SQL_STATE} (data
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

    /** J11, D13: this as the refusal a caller gets: the value is refused with its own code, never shown as a guess. */
    public RefusedException refusal() {
        return new RefusedException(Refusal.UNREADABLE_VALUE, "a value of the rows this statement touches cannot be"
                + " read exactly in this session: " + getMessage() + ". Nothing was changed.", this);
    }
}
