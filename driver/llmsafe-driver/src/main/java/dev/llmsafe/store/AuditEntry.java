package dev.llmsafe.store;

import java.time.Instant;

/**
 * One line of a plan's history in the audit table.
 *
 * @param at when
 * @param actor who, as given (actor names are not an authorisation boundary: T3)
 * @param action what was done
 * @param outcome what came of it
 * @param detail the reason or the counts, in words
 */
public record AuditEntry(Instant at, String actor, AuditAction action, AuditOutcome outcome, String detail) {

    /** Whether this entry closes the plan for good: a rejection, an expiry, an apply's end. */
    public boolean closes() {
        return outcome.closes(action);
    }
}
