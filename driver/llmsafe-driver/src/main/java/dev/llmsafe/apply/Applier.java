package dev.llmsafe.apply;

import dev.llmsafe.Defects;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Connections;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.SessionSettings;
import dev.llmsafe.dialect.UnreadableValueException;
import dev.llmsafe.plan.ParameterReplay;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.store.AuditAction;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.AuditOutcome;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies approved plans, on the separately configured apply connection with its own credential (A2).
 * The order matters: the "attempting" audit is committed first (no audit, no apply: A7); one
 * conditional status move decides which applier goes on (A8); the plan is replayed in one transaction
 * and compared with the card at every step ({@link Replayer}); COMMIT; the outcome is recorded. Any
 * failure rolls back everything and closes the plan (A11).
 */
public final class Applier {

    private static final Logger LOG = LoggerFactory.getLogger(Applier.class);

    private final PlanStore store;
    private final DataSource applyPool;
    private final Dialect dialect;
    private final Bounds bounds;
    private final boolean allowSelfApprove;
    private final Replayer replayer;

    /**
     * @param store the plan store, on a connection separate from the apply
     * @param applyPool connections with the apply credential
     * @param dialect the database's dialect
     * @param policy the policy now in force (the plan is re-validated against it)
     * @param bounds the time bounds of the apply (A9)
     * @param allowSelfApprove whether the proposer may also apply
     * @param maskKey the key secret values were hashed with, or null
     */
    public Applier(PlanStore store, DataSource applyPool, Dialect dialect, Policy policy, Bounds bounds,
            boolean allowSelfApprove, byte[] maskKey) {
        this.store = store;
        this.applyPool = applyPool;
        this.dialect = dialect;
        this.bounds = bounds;
        this.allowSelfApprove = allowSelfApprove;
        this.replayer = new Replayer(dialect, policy, bounds, maskKey);
    }

    /**
     * Applies an approved plan.
     *
     * @param actor who applies, as given
     * @return what was committed
     * @throws RefusedException when the plan cannot be applied, or when anything differs from the card
     *     (then nothing was committed and the plan is failed)
     */
    public ApplyResult apply(UUID planId, String actor) throws SQLException {
        Actors.planId(planId);
        Actors.checked(actor);
        try {
            return applyChecked(planId, actor);
        } catch (RuntimeException e) {
            // J11: the apply's own failures are recorded and turned into refusals below; this is what is left.
            throw Defects.refusal("applying plan " + planId, e);
        }
    }

    private ApplyResult applyChecked(UUID planId, String actor) throws SQLException {
        StoredPlan sp = store.load(planId);
        if (sp.status() != PlanStatus.APPROVED) {
            throw Approver.closed(sp);
        }
        Optional<AuditEntry> closing = closingEntry(sp);
        if (closing.isPresent()) {
            // The status and the history are read one after the other: another applier may have finished in
            // between. It moves the status before it writes the outcome, so a fresh read tells the two apart.
            StoredPlan now = store.load(planId);
            if (now.status() != PlanStatus.APPROVED) {
                throw Approver.closed(now);
            }
            AuditEntry e = closing.get();
            throw new RefusedException(Refusal.PLAN_CLOSED, "plan " + planId + " says approved, but its audit trail"
                    + " records '" + e.action().label() + " " + e.outcome().label() + "' by " + e.actor() + " at " + e.at()
                    + ": the store was edited to bring a closed plan back. Nothing was applied; propose the change again,"
                    + " and find out who can write the plan store.");
        }
        if (Actors.same(actor, sp.plan().proposer()) && !allowSelfApprove) {
            throw new RefusedException(Refusal.SELF_APPROVAL, actor + " proposed plan " + planId + " and cannot also"
                    + " apply it. Another person must apply it; if one person really holds both roles, set"
                    + " allowSelfApprove (the audit will say so).");
        }
        // A7, A8: the "attempting" audit row is written, committed, before the plan moves (AUDIT_FAILED when not).
        if (!store.markApplying(planId, actor)) {
            throw Approver.closed(store.load(planId));
        }
        List<Long> rows;
        try {
            rows = run(sp);
        } catch (SQLException | RuntimeException e) {
            // A11: whatever stopped it, the plan ends failed and the audit says why; never left "applying".
            SQLException failure = e instanceof RuntimeException r ? Defects.refusal("applying plan " + planId, r)
                    : (SQLException) e;
            String reason = failure instanceof RefusedException r ? r.code() + ": " + r.detail()
                    : "error: " + failure.getMessage();
            List<String> lost = record(planId, actor, PlanStatus.FAILED, AuditOutcome.FAILED, reason);
            lost.forEach(w -> LOG.warn("plan {}: {}", planId, w));
            throw failure;
        }
        long total = rows.stream().mapToLong(Long::longValue).sum();
        String counts = (total == 1 ? "1 row" : total + " rows")
                + (rows.size() == 1 ? "" : " (" + rows.size() + " statements: " + rows + ")");
        List<String> warnings = record(planId, actor, PlanStatus.APPLIED, AuditOutcome.APPLIED, counts + " committed");
        return new ApplyResult(planId, rows, warnings);
    }

    /**
     * T2: the status is not sealed, so a store writer can move a rejected, failed, expired or applied plan
     * back to approved, and both seals still verify. Its audit trail still says it was closed. A writer who
     * also deletes those audit rows is stopped only by the rows at apply (A3, A4) and by the plan's sealed
     * age (A11).
     */
    private static Optional<AuditEntry> closingEntry(StoredPlan sp) {
        return sp.history().stream().filter(AuditEntry::closes).findFirst();
    }

    private List<Long> run(StoredPlan sp) throws SQLException {
        for (PlannedStatement s : sp.plan().statements()) {
            // D16: a parameter this JVM cannot send as the application did is refused before anything runs.
            ParameterReplay.check(s.parameters());
        }
        try (Connection c = Connections.lease(applyPool)) {
            return replayIn(c, sp.plan());
        }
    }

    private List<Long> replayIn(Connection c, Plan plan) throws SQLException {
        // D17: the apply runs in the application's session, as the dry run did; the pooled connection's own
        // settings are put back afterwards. The first statement is read by the settings of that session, as
        // beginApply makes and proves it, so that its table can be asked in the round trip that opens the apply.
        SessionSettings wanted = plan.session();
        Analysis first = replayer.analyze(plan.statements().get(0), dialect.lexSettings(c, wanted));
        SessionSettings own = null;
        List<Long> rows;
        try {
            // Inside the bound: on SQLite, BEGIN IMMEDIATE is where the apply waits for another writer.
            Dialect.Opened opened = dialect.beginApply(c, bounds, wanted, first.target());
            own = opened.own();
            rows = replayer.replay(c, plan, first, opened.table());
        } catch (RuntimeException e) {
            end(c, own, wanted);
            throw e;
        } catch (SQLException e) {
            end(c, own, wanted);
            if (e instanceof UnreadableValueException u) {
                throw u.refusal();
            }
            // The server's own bound, or the watchdog's (MySQL bounds no write on the server, F01).
            Optional<Refusal> bound = e instanceof RefusedException r && r.code() == Refusal.STATEMENT_TIMEOUT
                    ? Optional.of(r.code()) : dialect.boundRefusal(e);
            throw bound.<SQLException>map(code -> new RefusedException(code, "the apply waited or"
                    + " ran past its bound (" + bounds.lockTimeoutMs() + " ms for a lock, " + bounds.statementTimeoutMs()
                    + " ms a statement); nothing was applied. Propose the change again.", e)).orElse(e);
        }
        try {
            dialect.commitApply(c);
        } catch (SQLException e) {
            end(c, own, wanted);
            throw new SQLException("COMMIT failed (" + e.getMessage() + "): whether the change was written is"
                    + " unknown. Check the rows of the plan before anything else.", e.getSQLState(), e);
        }
        restore(c, own, wanted);
        return rows;
    }

    /** Puts the pooled connection's own settings back after an apply; one that cannot be is discarded. */
    private void restore(Connection c, SessionSettings own, SessionSettings used) {
        if (own.equals(used)) {
            return;
        }
        try {
            if (c.getAutoCommit()) {
                dialect.reproduce(c, own);
                return;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("the session settings of an apply connection could not be put back; discarding it", e);
        }
        Connections.discard(applyPool, c);
    }

    /**
     * Rolls back a transaction that began and puts the session back; a connection whose transaction could
     * not begin ({@code own} is null), or cannot end, is in a state no later apply should inherit
     * (sqlite-jdbc, for one, says it is in a transaction after a BEGIN that failed, and a pool may not know),
     * so it leaves the pool.
     */
    private void end(Connection c, SessionSettings own, SessionSettings used) {
        if (own != null) {
            try {
                dialect.rollbackDryRun(c);
                restore(c, own, used);
                return;
            } catch (SQLException | RuntimeException e) {
                LOG.debug("rollback after a failed apply failed; discarding the connection", e);
            }
        }
        Connections.discard(applyPool, c);
    }

    /** The outcome, best effort: a failure to record it is a warning, never a false failure (A7). */
    private List<String> record(UUID planId, String actor, PlanStatus status, AuditOutcome outcome, String detail) {
        try {
            store.finish(planId, status, actor, outcome, detail);
            return List.of();
        } catch (SQLException e) {
            LOG.debug("plan {}: the outcome and its audit row could not be written together; writing them apart", planId, e);
        }
        List<String> warnings = new ArrayList<>();
        try {
            store.finish(planId, status, detail);
        } catch (SQLException e) {
            warnings.add("the plan's status could not be set to " + status.label() + ": " + e.getMessage());
        }
        try {
            store.audit(planId, actor, AuditAction.APPLY, outcome, detail);
        } catch (SQLException e) {
            warnings.add("the outcome could not be written to the audit trail: " + e.getMessage());
        }
        return warnings;
    }
}
