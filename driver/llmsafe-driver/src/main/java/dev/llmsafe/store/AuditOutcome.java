package dev.llmsafe.store;

import java.util.Locale;

/**
 * What came of an audited act. Stored as its {@link #label()}, the text the audit table has always held
 * (lower case, {@code self-approved} with a dash), so stores written before this type read back unchanged.
 */
public enum AuditOutcome {
    /** The act happened (propose, approve, reject, expire). */
    DONE,
    /** The proposer approved its own plan, as allowSelfApprove permits; the audit says so (A1). */
    SELF_APPROVED,
    /** The act was refused (an approval by the proposer). */
    REFUSED,
    /** An apply is about to begin; committed before its transaction opens (A7). */
    ATTEMPTING,
    /** An apply committed. */
    APPLIED,
    /** An apply rolled back (A11). */
    FAILED;

    /** The text stored in the audit table and shown to people. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether this outcome, recorded for {@code action}, closes the plan for good. */
    public boolean closes(AuditAction action) {
        return switch (action) {
            case REJECT, EXPIRE -> this == DONE;
            case APPLY -> this == APPLIED || this == FAILED;
            case PROPOSE, APPROVE -> false;
        };
    }

    /**
     * The outcome a stored label names.
     *
     * @throws IllegalArgumentException for a text no llmsafe writes (the store reads that as tampering)
     */
    static AuditOutcome of(String label) {
        for (AuditOutcome o : values()) {
            if (o.label().equals(label)) {
                return o;
            }
        }
        throw new IllegalArgumentException("an audit outcome '" + label + "' that llmsafe does not write");
    }
}
