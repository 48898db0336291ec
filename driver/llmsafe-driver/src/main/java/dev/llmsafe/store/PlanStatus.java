package dev.llmsafe.store;

/**
 * Where a plan is in its life. Each move is one conditional UPDATE of the store, so two actors racing
 * for one move cannot both win (A8): proposed to approved to applying to applied or failed; proposed or
 * approved to rejected or expired.
 */
public enum PlanStatus {
    /** Stored by a dry run; waiting for a person. */
    PROPOSED,
    /** Approved by a person other than the proposer. */
    APPROVED,
    /** An applier has taken it; its transaction is running. */
    APPLYING,
    /** Committed. */
    APPLIED,
    /** The apply found a difference or an error and rolled back; terminal (A11). */
    FAILED,
    /** A person rejected it; terminal. */
    REJECTED,
    /** Older than the configured age; terminal. */
    EXPIRED;

    /** The lower-case name stored in the plans table and shown to people. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static PlanStatus of(String label) {
        return valueOf(label.toUpperCase(java.util.Locale.ROOT));
    }
}
