package dev.llmsafe.apply;

import dev.llmsafe.Defects;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.store.AuditAction;
import dev.llmsafe.store.AuditOutcome;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * Approves and rejects plans (A1). The proposer cannot approve its own plan unless self-approval is
 * allowed in the configuration, and then the audit says that one actor did both rather than dressing
 * it up as a review. Approving is a separate act from applying.
 */
public final class Approver {

    private final PlanStore store;
    private final boolean allowSelfApprove;

    /**
     * @param store the plan store
     * @param allowSelfApprove whether one actor may propose and approve
     */
    public Approver(PlanStore store, boolean allowSelfApprove) {
        this.store = store;
        this.allowSelfApprove = allowSelfApprove;
    }

    /**
     * Approves a proposed plan.
     *
     * @param actor who approves, as given
     * @return the plan as approved
     * @throws RefusedException SELF_APPROVAL, ALREADY_APPROVED, ALREADY_APPLIED, PLAN_CLOSED, PLAN_EXPIRED,
     *     PLAN_NOT_FOUND, or an integrity refusal
     */
    public StoredPlan approve(UUID planId, String actor) throws SQLException {
        Actors.planId(planId);
        Actors.checked(actor);
        try {
            return approveChecked(planId, actor);
        } catch (RuntimeException e) {
            throw Defects.refusal("approving plan " + planId, e);
        }
    }

    private StoredPlan approveChecked(UUID planId, String actor) throws SQLException {
        StoredPlan sp = store.load(planId);
        requireProposed(sp);
        boolean self = Actors.same(actor, sp.plan().proposer());
        if (self && !allowSelfApprove) {
            store.audit(planId, actor, AuditAction.APPROVE, AuditOutcome.REFUSED, "the proposer may not approve its own plan");
            throw new RefusedException(Refusal.SELF_APPROVAL, actor + " proposed plan " + planId + " and cannot also"
                    + " approve it: a card read by its own author confirms nothing. Another person must approve it;"
                    + " if one person really holds both roles, set allowSelfApprove (the audit will say so).");
        }
        // The move and its audit row are one act; the plan returned is the one just checked, as approved.
        Optional<StoredPlan> approved = store.markApproved(sp, actor, self ? AuditOutcome.SELF_APPROVED : AuditOutcome.DONE,
                self ? "proposed and approved by the same actor (allowSelfApprove)" : "");
        if (approved.isEmpty()) {
            requireProposed(store.load(planId));
            throw new RefusedException(Refusal.ALREADY_APPROVED, "plan " + planId + " changed while it was being approved.");
        }
        return approved.get();
    }

    /** Rejects a proposed or approved plan; it can then never be applied. */
    public void reject(UUID planId, String actor, String reason) throws SQLException {
        Actors.planId(planId);
        Actors.checked(actor);
        try {
            rejectChecked(planId, actor, reason);
        } catch (RuntimeException e) {
            throw Defects.refusal("rejecting plan " + planId, e);
        }
    }

    private void rejectChecked(UUID planId, String actor, String reason) throws SQLException {
        StoredPlan sp = store.load(planId);
        if (sp.status() != PlanStatus.PROPOSED && sp.status() != PlanStatus.APPROVED) {
            throw closed(sp);
        }
        if (!store.markRejected(planId, "rejected by " + actor + (reason == null || reason.isBlank() ? "" : ": " + reason))) {
            throw closed(store.load(planId));
        }
        store.audit(planId, actor, AuditAction.REJECT, AuditOutcome.DONE, reason == null ? "" : reason);
    }

    private static void requireProposed(StoredPlan sp) throws RefusedException {
        if (sp.status() == PlanStatus.APPROVED) {
            throw new RefusedException(Refusal.ALREADY_APPROVED, "plan " + sp.plan().id() + " was approved already, by "
                    + sp.approvedBy().orElse("?") + ". It can be applied now.");
        }
        if (sp.status() != PlanStatus.PROPOSED) {
            throw closed(sp);
        }
    }

    static RefusedException closed(StoredPlan sp) {
        UUID id = sp.plan().id();
        return switch (sp.status()) {
            case APPLYING, APPLIED -> new RefusedException(Refusal.ALREADY_APPLIED, "plan " + id + " is "
                    + sp.status().label() + "; it can be applied only once.");
            case PROPOSED -> new RefusedException(Refusal.NOT_APPROVED, "plan " + id + " is proposed but not approved;"
                    + " a person other than the proposer must approve it first.");
            default -> new RefusedException(Refusal.PLAN_CLOSED, "plan " + id + " is " + sp.status().label()
                    + sp.outcome().map(o -> " (" + o + ")").orElse("") + "; that is final. Propose the change again.");
        };
    }
}
