package dev.llmsafe.conformance;

import java.sql.SQLException;

/**
 * The credential may not create a role, or grant it what a probe needs: the facts that compare roles
 * cannot be measured with it. Not a fact about the server, so the harness reports those facts as not
 * measured instead of as answers.
 */
final class RolesUnavailableException extends SQLException {

    private static final long serialVersionUID = 1L;

    RolesUnavailableException(String message, SQLException cause) {
        super(message, cause.getSQLState(), cause.getErrorCode(), cause);
    }
}
