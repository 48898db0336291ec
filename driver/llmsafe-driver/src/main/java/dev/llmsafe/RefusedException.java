package dev.llmsafe;

import java.sql.SQLException;

/**
 * Something llmsafe will not do, with its {@link Refusal code}. The message says what was refused,
 * why, and what to do instead; it is written to be shown as it is, to a person or to a model
 * (agent frameworks pass {@code getMessage()} on as the tool result).
 *
 * <p>It is a {@link SQLException} so that JDBC callers need no new catch clause; its SQLState is the
 * code's, never one that makes a connection pool discard the connection.
 */
public class RefusedException extends SQLException {

    private static final long serialVersionUID = 1L;

    private final Refusal code;
    private final String detail;

    /**
     * @param code why
     * @param detail what was refused and what to do instead, in sentences
     */
    public RefusedException(Refusal code, String detail) {
        super("Refused (" + code.name() + "): " + detail, code.sqlState());
        this.code = code;
        this.detail = detail;
    }

    /**
     * @param code why
     * @param detail what was refused and what to do instead
     * @param cause the error underneath, kept for logs
     */
    public RefusedException(Refusal code, String detail, Throwable cause) {
        this(code, detail);
        initCause(cause);
    }

    /** The reason, as a stable code. */
    public Refusal code() {
        return code;
    }

    /** The message without the code prefix. */
    public String detail() {
        return detail;
    }
}
