package dev.llmsafe.apply;

import static dev.llmsafe.apply.ApplyTest.POLICY;
import static dev.llmsafe.apply.ApplyTest.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.Refusal;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Approve and apply over a store created by migrate and then edited behind llmsafe's back: each refuses what it finds changed. */
class TamperedStoreTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

    private static Workflow fresh(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(100), qty INT NOT NULL,"
                        + " api_token VARCHAR(20))",
                "INSERT INTO orders VALUES (1, 'packed', NULL, 1, 't1'), (2, 'packed', 'fragile', 2, 't2')");
        return new Workflow(db);
    }

    private static String column(Workflow w, UUID id, String column) throws SQLException {
        try (PreparedStatement ps = w.db.admin().prepareStatement("SELECT " + column + " FROM llmsafe_plans WHERE id = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void set(Workflow w, UUID id, String column, String value) throws SQLException {
        try (PreparedStatement ps = w.db.admin().prepareStatement("UPDATE llmsafe_plans SET " + column + " = ? WHERE id = ?")) {
            ps.setString(1, value);
            ps.setString(2, id.toString());
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    /** The applier of a sealed store: the key, the default bounds. */
    private static Applier sealedApplier(Workflow w, PlanStore sealed) {
        return w.applier(sealed, POLICY, KEY, false, Bounds.DEFAULT);
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T1_migrateCreatesTheStoreOnceAndEveryOperationOnAMissingStoreSaysRunMigrate(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore store = new PlanStore(w.pool, null, Duration.ofHours(24), w.clock);
            assertThat(store.version()).isEmpty();
            refused(() -> store.load(UUID.randomUUID()), Refusal.STORE_MISSING, "Run `llmsafe migrate` to create it.");
            refused(() -> w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1"),
                    Refusal.STORE_MISSING, "Run `llmsafe migrate`");
            assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]");
            assertThat(store.migrate()).isEqualTo(1);
            assertThat(store.migrate()).isEqualTo(1);
            assertThat(store.version()).contains(1);
            Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.PROPOSED);
            assertThat(store.list(Optional.of(PlanStatus.PROPOSED)).plans()).hasSize(1);
            refused(() -> store.load(UUID.randomUUID()), Refusal.PLAN_NOT_FOUND, "`llmsafe list` shows the plans");
            // The version is asked in the plan's own query: a store at another version is refused even where
            // the row is there to read.
            dev.llmsafe.store.StoredPlan proposed = store.load(plan.id());
            w.db.execute("UPDATE llmsafe_schema_version SET version = 2");
            refused(() -> store.load(plan.id()), Refusal.STORE_MISSING, "newer than this llmsafe");
            refused(() -> store.markApproved(proposed, "alice", dev.llmsafe.store.AuditOutcome.DONE, ""),
                    Refusal.STORE_MISSING, "newer than this llmsafe");
            refused(() -> store.markApplying(plan.id(), "deploy"), Refusal.STORE_MISSING, "newer than this llmsafe");
            int auditRows = w.db.snapshot("llmsafe_audit").size();
            refused(() -> store.audit(plan.id(), "deploy", dev.llmsafe.store.AuditAction.APPLY,
                    dev.llmsafe.store.AuditOutcome.ATTEMPTING, ""), Refusal.STORE_MISSING, "newer than this llmsafe");
            assertThat(w.db.snapshot("llmsafe_audit")).hasSize(auditRows);
            w.db.execute("UPDATE llmsafe_schema_version SET version = 0");
            refused(() -> store.load(plan.id()), Refusal.STORE_MISSING, "Run `llmsafe migrate` to upgrade it.");
            w.db.execute("UPDATE llmsafe_schema_version SET version = 1");
            assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.PROPOSED);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_anEditedPlanIsCaughtByItsChecksumAndWithAKeyByItsSeal(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore plain = w.store(null);
            Plan a = w.propose(plain, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            String json = column(w, a.id(), "plan_json");
            set(w, a.id(), "plan_json", json.replace("qty = 5", "qty = 500"));
            refused(() -> plain.load(a.id()), Refusal.PLAN_TAMPERED, "does not match its checksum");
            // list sets the edited plan apart with its refusal; one edited row does not hide the others.
            Plan intact = w.propose(plain, POLICY, "assistant", "UPDATE orders SET qty = 4 WHERE id = 1");
            PlanStore.Listing listing = plain.list(Optional.empty());
            assertThat(listing.plans()).extracting(p -> p.plan().id()).containsExactly(intact.id());
            assertThat(listing.unreadable()).containsOnlyKeys(a.id());
            assertThat(listing.unreadable().get(a.id()).code()).isEqualTo(Refusal.PLAN_TAMPERED);

            // Without a key, whoever can write the store can recompute the checksum; the apply still compares
            // what the statement does with the card, and rolls back.
            Plan b = w.propose(plain, POLICY, "assistant", "UPDATE orders SET qty = 6 WHERE id = 2");
            String edited = column(w, b.id(), "plan_json").replace("qty = 6", "qty = 600");
            set(w, b.id(), "plan_json", edited);
            set(w, b.id(), "checksum", sha256(edited));
            new Approver(plain, false).approve(b.id(), "alice");
            refused(() -> w.applier(plain, POLICY).apply(b.id(), "bob"), Refusal.RESULT_MISMATCH, "qty became 600");
            assertThat(w.snapshot("orders")).contains("[2, packed, fragile, 2, t2]");

            // With a key, the same edit is caught before anything runs.
            PlanStore sealed = new PlanStore(w.pool, KEY, Duration.ofHours(24), w.clock);
            Plan c = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = 7 WHERE id = 2");
            String edited2 = column(w, c.id(), "plan_json").replace("qty = 7", "qty = 700");
            set(w, c.id(), "plan_json", edited2);
            set(w, c.id(), "checksum", sha256(edited2));
            refused(() -> sealed.load(c.id()), Refusal.PLAN_TAMPERED, "the plan's seal does not match it");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_aForgedApprovalIsCaught(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore plain = w.store(null);
            Plan a = w.propose(plain, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            set(w, a.id(), "status", "approved");
            refused(() -> plain.load(a.id()), Refusal.PLAN_TAMPERED, "marked approved but no approval is recorded");

            PlanStore sealed = new PlanStore(w.pool, KEY, Duration.ofHours(24), w.clock);
            Plan b = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = 6 WHERE id = 1");
            new Approver(sealed, false).approve(b.id(), "alice");
            set(w, b.id(), "approved_by", "the-ceo");
            refused(() -> sealed.load(b.id()), Refusal.PLAN_TAMPERED, "the approval's seal does not match it");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_theAuditIsStoredAsTheTextItAlwaysWasAndATextLlmsafeDoesNotWriteIsTampering(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore store = w.store(null);
            Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            new Approver(store, true).approve(plan.id(), "assistant");
            new Approver(store, false).reject(plan.id(), "carol", "no");
            List<String> rows = new java.util.ArrayList<>();
            try (PreparedStatement ps = w.db.admin().prepareStatement("SELECT action, outcome FROM llmsafe_audit"
                    + " WHERE plan_id = ? ORDER BY id")) {
                ps.setString(1, plan.id().toString());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(rs.getString(1) + " " + rs.getString(2));
                    }
                }
            }
            assertThat(rows).containsExactly("propose done", "approve self-approved", "reject done");
            w.db.execute("UPDATE llmsafe_audit SET action = 'unreject' WHERE plan_id = '" + plan.id() + "' AND action = 'reject'");
            refused(() -> store.load(plan.id()), Refusal.PLAN_TAMPERED, "an audit action 'unreject' that llmsafe does not write");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_aSealKeyOnOneSideOnlyRefusesEveryPlan(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore sealed = w.store(KEY);
            PlanStore plain = new PlanStore(w.pool, null, Duration.ofHours(24), w.clock);
            Plan a = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            refused(() -> plain.load(a.id()), Refusal.PLAN_UNSEALED, "is sealed, but no seal key is set here");
            Plan b = w.propose(plain, POLICY, "assistant", "UPDATE orders SET qty = 6 WHERE id = 1");
            refused(() -> sealed.load(b.id()), Refusal.PLAN_UNSEALED, "carries no seal, but a seal key is set here");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_replayingAnAppliedPlanByRollingBackItsStatusIsStoppedByTheAuditTrailThenByTheRows(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore sealed = w.store(KEY);
            Plan update = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = qty + 10 WHERE id = 1");
            Plan delete = w.propose(sealed, POLICY, KEY, "assistant", "DELETE FROM orders WHERE id = 2");
            for (Plan p : new Plan[] {update, delete}) {
                new Approver(sealed, false).approve(p.id(), "alice");
                sealedApplier(w, sealed).apply(p.id(), "bob");
                // A genuine approval, replayed: both seals still verify, and the audit trail says it was applied.
                set(w, p.id(), "status", "approved");
                refused(() -> sealedApplier(w, sealed).apply(p.id(), "bob"),
                        Refusal.PLAN_CLOSED, "records 'apply applied' by bob");
                // A writer who deletes that record too is stopped by the rows.
                w.db.execute("DELETE FROM llmsafe_audit WHERE plan_id = '" + p.id() + "' AND action = 'apply'");
            }
            refused(() -> sealedApplier(w, sealed).apply(update.id(), "bob"),
                    Refusal.ROW_CHANGED, "qty is now 11, the card showed 1");
            refused(() -> sealedApplier(w, sealed).apply(delete.id(), "bob"),
                    Refusal.ROWS_MOVED, "1 shown rows no longer match");
            assertThat(w.snapshot("orders")).containsExactly("[1, packed, null, 11, t1]");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_A11_aRejectedOrFailedPlanMovedBackToApprovedInTheStoreIsRefusedByItsAuditTrail(Engine engine)
            throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore sealed = w.store(KEY);
            Plan rejected = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = 20 WHERE id = 1");
            new Approver(sealed, false).approve(rejected.id(), "alice");
            new Approver(sealed, false).reject(rejected.id(), "carol", "not this week");
            Plan failed = w.propose(sealed, POLICY, KEY, "assistant", "UPDATE orders SET qty = 30 WHERE id = 2");
            new Approver(sealed, false).approve(failed.id(), "alice");
            w.db.execute("UPDATE orders SET qty = 99 WHERE id = 2");
            refused(() -> sealedApplier(w, sealed).apply(failed.id(), "bob"),
                    Refusal.ROW_CHANGED, "qty is now 99");
            // The row is put back, and a store writer moves both plans back to approved: both seals verify.
            w.db.execute("UPDATE orders SET qty = 2 WHERE id = 2");
            List<String> before = w.snapshot("orders");
            set(w, rejected.id(), "status", "approved");
            set(w, failed.id(), "status", "approved");
            refused(() -> sealedApplier(w, sealed).apply(rejected.id(), "bob"),
                    Refusal.PLAN_CLOSED, "records 'reject done' by carol");
            refused(() -> sealedApplier(w, sealed).apply(failed.id(), "bob"),
                    Refusal.PLAN_CLOSED, "records 'apply failed' by bob");
            assertThat(w.snapshot("orders")).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A11_aPlanOlderThanItsAgeExpires(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore store = w.store(null);
            Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            w.clock.advance(Duration.ofHours(25));
            refused(() -> new Approver(store, false).approve(plan.id(), "alice"), Refusal.PLAN_EXPIRED,
                    "is older than 24 hours");
            refused(() -> new Approver(store, false).approve(plan.id(), "alice"), Refusal.PLAN_CLOSED, "is expired");
            assertThat(store.list(Optional.of(PlanStatus.EXPIRED)).plans()).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A1_aRejectedPlanCanNeverBeApplied(Engine engine) throws Exception {
        try (Workflow w = fresh(engine)) {
            PlanStore store = w.store(null);
            Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 5 WHERE id = 1");
            new Approver(store, false).approve(plan.id(), "alice");
            new Approver(store, false).reject(plan.id(), "carol", "wrong customer");
            refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.PLAN_CLOSED,
                    "is rejected (rejected by carol: wrong customer)");
            try (Connection c = w.db.connect()) {
                assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]");
            }
        }
    }
}
