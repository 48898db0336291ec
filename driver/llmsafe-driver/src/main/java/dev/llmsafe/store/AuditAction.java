package dev.llmsafe.store;

import java.util.Locale;

/**
 * What an audit entry records being done to a plan. Stored as its {@link #label()}, the lower-case text
 * the audit table has always held, so stores written before this type read back unchanged.
 */
public enum AuditAction {
    /** A dry run stored the plan. */
    PROPOSE,
    /** A person approved it, or tried to. */
    APPROVE,
    /** A person rejected it. */
    REJECT,
    /** An applier applied it, or tried to. */
    APPLY,
    /** The store closed it for its age (A11). */
    EXPIRE;

    /** The text stored in the audit table and shown to people. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The action a stored label names.
     *
     * @throws IllegalArgumentException for a text no llmsafe writes (the store reads that as tampering)
     */
    static AuditAction of(String label) {
        for (AuditAction a : values()) {
            if (a.label().equals(label)) {
                return a;
            }
        }
        throw new IllegalArgumentException("an audit action '" + label + "' that llmsafe does not write");
    }
}
