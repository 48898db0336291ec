package dev.llmsafe.store;

import java.time.Instant;

/**
 * One line of a plan's history in the audit table.
 *
 * @param at when
 * @param actor who, as given (actor names are not an authorisation boundary: T3)
 * @param action propose, approve, reject, apply, expire
 * @param outcome what came of it: done, attempting, applied, failed, refused
 * @param detail the reason or the counts, in words
 */
public record AuditEntry(Instant at, String actor, String action, String outcome, String detail) {
}
