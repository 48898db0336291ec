package dev.llmsafe.store;

import dev.llmsafe.plan.Plan;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A plan as the store holds it, its integrity checked on the way out (T2): the plan, where it is in its
 * life, who approved it, and its history.
 *
 * @param plan the plan, exactly as it was stored (A10)
 * @param status where it is
 * @param approvedBy who approved it, as given
 * @param approvedAt when
 * @param outcome the reason of a failure, a rejection or an expiry, or the apply's counts
 * @param history the audit entries, oldest first
 * @param checksum the checksum of the plan's text as stored and checked on its way out (T2), which the
 *     approval's seal covers
 */
public record StoredPlan(Plan plan, PlanStatus status, Optional<String> approvedBy, Optional<Instant> approvedAt,
        Optional<String> outcome, List<AuditEntry> history, String checksum) {

    /** Copies the history. */
    public StoredPlan {
        history = List.copyOf(history);
    }
}
