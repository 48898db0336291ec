package dev.llmsafe.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.store.AuditAction;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.AuditOutcome;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Approve and apply on every dialect: what was approved is exactly what commits, or nothing does. */
class ApplyTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Workflow> FLOWS = new EnumMap<>(Engine.class);

    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact("Changing an order moves money."))
            .secret("api_token", "a bearer token"));

    static Workflow flow(Engine engine) throws SQLException {
        Workflow w = FLOWS.get(engine);
        if (w == null) {
            w = new Workflow(dbs.get(engine));
            FLOWS.put(engine, w);
        }
        return w;
    }

    @AfterAll
    static void close() {
        FLOWS.values().forEach(Workflow::close);
        FLOWS.clear();
    }

    /** A fresh orders table for every test. */
    static Workflow fresh(Engine engine) throws SQLException {
        Workflow w = flow(engine);
        w.db.execute("DROP TABLE IF EXISTS orders",
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(100), qty INT NOT NULL,"
                        + " api_token VARCHAR(20))",
                "INSERT INTO orders VALUES (1, 'packed', NULL, 1, 't1'), (2, 'packed', 'fragile', 2, 't2'),"
                        + " (3, 'open', NULL, 3, 't3')");
        return w;
    }

    static long number(Workflow w, String sql) throws SQLException {
        try (Statement s = w.db.admin().createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void refused(ThrowingCallable call, Refusal code, String text) {
        assertThatThrownBy(call).isInstanceOf(RefusedException.class)
                .satisfies(e -> assertThat(((RefusedException) e).code()).as(e.getMessage()).isEqualTo(code))
                .hasMessageContaining(text);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A1_planApproveByAnotherActorAndApplyChangesExactlyWhatTheCardShowed(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = ? WHERE status = 'packed'", "shipped");
        assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]", "[2, packed, fragile, 2, t2]");
        new Approver(store, false).approve(plan.id(), "alice@example.com");
        ApplyResult result = w.applier(store, POLICY).apply(plan.id(), "bob@example.com");
        assertThat(result.rows()).containsExactly(2L);
        assertThat(result.warnings()).isEmpty();
        assertThat(w.snapshot("orders")).containsExactly("[1, shipped, null, 1, t1]", "[2, shipped, fragile, 2, t2]",
                "[3, open, null, 3, t3]");
        StoredPlan done = store.load(plan.id());
        assertThat(done.status()).isEqualTo(PlanStatus.APPLIED);
        assertThat(done.approvedBy()).contains("alice@example.com");
        assertThat(done.history()).extracting(AuditEntry::actor, AuditEntry::action, AuditEntry::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("assistant", AuditAction.PROPOSE, AuditOutcome.DONE),
                org.assertj.core.groups.Tuple.tuple("alice@example.com", AuditAction.APPROVE, AuditOutcome.DONE),
                org.assertj.core.groups.Tuple.tuple("bob@example.com", AuditAction.APPLY, AuditOutcome.ATTEMPTING),
                org.assertj.core.groups.Tuple.tuple("bob@example.com", AuditAction.APPLY, AuditOutcome.APPLIED));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T3_A1_theProposerCannotApproveOrApplyUnlessAllowedAndTheAuditTellsTheTruth(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "Kenji", "UPDATE orders SET qty = 10 WHERE id = 1");
        // Names are compared trimmed and without case, and recorded as given.
        refused(() -> new Approver(store, false).approve(plan.id(), "  kenji "), Refusal.SELF_APPROVAL,
                "cannot also approve it");
        assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.PROPOSED);
        new Approver(store, true).approve(plan.id(), "kenji");
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "KENJI"), Refusal.SELF_APPROVAL, "cannot also apply it");
        w.applier(store, POLICY, null, true, Bounds.DEFAULT).apply(plan.id(), "kenji");
        assertThat(store.load(plan.id()).history()).extracting(AuditEntry::actor, AuditEntry::action, AuditEntry::outcome)
                .contains(org.assertj.core.groups.Tuple.tuple("  kenji ", AuditAction.APPROVE, AuditOutcome.REFUSED),
                        org.assertj.core.groups.Tuple.tuple("kenji", AuditAction.APPROVE, AuditOutcome.SELF_APPROVED),
                        org.assertj.core.groups.Tuple.tuple("kenji", AuditAction.APPLY, AuditOutcome.APPLIED));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A1_aPlanMustBeApprovedBeforeItIsApplied(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 10 WHERE id = 1");
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.NOT_APPROVED, "must approve it first");
        new Approver(store, false).approve(plan.id(), "alice");
        refused(() -> new Approver(store, false).approve(plan.id(), "carol"), Refusal.ALREADY_APPROVED, "by alice");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_anEditToAnUnrelatedColumnIsNotAConflict(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'shipped' WHERE id = 1");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("UPDATE orders SET note = 'call first', qty = 5 WHERE id = 1");
        w.applier(store, POLICY).apply(plan.id(), "bob");
        assertThat(w.snapshot("orders")).contains("[1, shipped, call first, 5, t1]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_anEditToAnApprovedColumnIsRowChangedAndNothingIsApplied(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'shipped', qty = qty + 1 WHERE id < 3");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("UPDATE orders SET qty = 20 WHERE id = 2");
        List<String> before = w.snapshot("orders");
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.ROW_CHANGED,
                "id = 2 changed: qty is now 20, the card showed 2");
        assertThat(w.snapshot("orders")).isEqualTo(before);
        StoredPlan failed = store.load(plan.id());
        assertThat(failed.status()).isEqualTo(PlanStatus.FAILED);
        assertThat(failed.outcome()).hasValueSatisfying(o -> assertThat(o).startsWith("ROW_CHANGED"));
        // A11: a failed apply is final.
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.PLAN_CLOSED, "is failed");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_anAssignedUnchangedColumnAndARowTheCardCallsAlreadyCorrectAreComparedBeforeTheWrite(Engine engine)
            throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        // Row 1 already holds status 'packed' (already correct); row 2 keeps its status and changes its qty.
        Plan correct = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'packed' WHERE id IN (1, 3)");
        Plan assigned = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'packed', qty = 7 WHERE id = 2");
        assertThat(correct.card()).contains("  id = 1\n    (matched, but no value changes)\n    status: 'packed'   (already"
                + " this value)\n  id = 3\n    status: 'open' -> 'packed'\n");
        assertThat(assigned.card()).contains("  id = 2\n    qty: 2 -> 7\n    status: 'packed'   (already this value)\n");
        assertThat(assigned.toJson()).contains("\"unchanged\":[{\"column\":\"status\",\"value\":{\"t\":\"text\","
                + "\"v\":\"packed\"}}]");
        assertThat(Plan.fromJson(assigned.toJson())).isEqualTo(assigned);
        new Approver(store, false).approve(correct.id(), "alice");
        new Approver(store, false).approve(assigned.id(), "alice");
        w.db.execute("UPDATE orders SET status = 'lost' WHERE id IN (1, 2)");
        List<String> before = w.snapshot("orders");
        // Refused as ROW_CHANGED, which is only ever decided before the statement runs (RESULT_MISMATCH after).
        refused(() -> w.applier(store, POLICY).apply(correct.id(), "bob"), Refusal.ROW_CHANGED,
                "id = 1 changed: status is now 'lost', the card showed 'packed'");
        refused(() -> w.applier(store, POLICY).apply(assigned.id(), "bob"), Refusal.ROW_CHANGED,
                "id = 2 changed: status is now 'lost', the card showed 'packed'");
        assertThat(w.snapshot("orders")).isEqualTo(before);

        // Untouched, the same plan applies, and the rows are the card's.
        w.db.execute("UPDATE orders SET status = 'packed' WHERE id IN (1, 2)");
        Plan again = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'packed', qty = 7 WHERE id = 2");
        new Approver(store, false).approve(again.id(), "alice");
        w.applier(store, POLICY).apply(again.id(), "bob");
        assertThat(w.snapshot("orders")).contains("[2, packed, fragile, 7, t2]");
    }

    /**
     * D8: a column a trigger maintains (declared) and, on MariaDB, an ON UPDATE column (the catalog's) are
     * not changes of the statement: the card says the database maintains them and shows no value (the dry
     * run's clock is not the apply's), apply writes the database's value and does not compare it. W13:
     * assigning one is refused.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void D8_W13_columnsTheDatabaseMaintainsAreItsOwnOnTheCardAndAtApply(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        if (engine == Engine.POSTGRES) {
            w.db.execute("ALTER TABLE orders ADD touched TIMESTAMPTZ NOT NULL DEFAULT '2020-01-01 00:00:00+00'",
                    "CREATE OR REPLACE FUNCTION d8_touch() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN NEW.touched := clock_timestamp(); RETURN NEW; END $$",
                    "CREATE TRIGGER d8_touch BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION d8_touch()");
        } else {
            w.db.execute("ALTER TABLE orders ADD touched DATETIME(6) NOT NULL DEFAULT '2020-01-01 00:00:00'",
                    "ALTER TABLE orders ADD updated_at TIMESTAMP(6) NOT NULL DEFAULT '2020-01-01 00:00:00'"
                            + " ON UPDATE CURRENT_TIMESTAMP(6)",
                    "CREATE TRIGGER d8_touch BEFORE UPDATE ON orders FOR EACH ROW SET NEW.touched = NOW(6)");
        }
        String maintained = engine == Engine.POSTGRES ? "touched" : "touched, updated_at";
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.")
                .autoColumns("touched")));
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, policy, "assistant", "UPDATE orders SET qty = 9 WHERE id = 1");
        assertThat(plan.card()).contains("  1 row would change, in 1 column: qty\n  Maintained by the database, not set"
                + " by this statement: " + maintained + ". The database sets " + (engine == Engine.POSTGRES ? "it" : "them")
                + " again at apply; the value is not shown here and not checked.\n")
                .contains("  id = 1\n    qty: 1 -> 9\n\n")
                .doesNotContain("touched:").doesNotContain("updated_at:").doesNotContain("set by the database;");
        var s = plan.statements().get(0);
        assertThat(s.changedColumns()).containsExactly("qty");
        assertThat(s.autoColumns()).containsExactly(maintained.split(", "));
        assertThat(s.rows().get(0).columns()).extracting(dev.llmsafe.plan.ColumnChange::column).containsExactly("qty");
        assertThat(plan.toJson()).contains("\"changedColumns\":[\"qty\"],\"autoColumns\":[\""
                + maintained.replace(", ", "\",\"") + "\"]");
        new Approver(store, false).approve(plan.id(), "alice");
        w.applier(store, policy).apply(plan.id(), "bob");
        // The rows are the card's, and the database set what it maintains.
        assertThat(number(w, "SELECT COUNT(*) FROM orders WHERE id = 1 AND qty = 9 AND status = 'packed'"
                + " AND note IS NULL AND touched > '2020-01-02'" + (engine == Engine.MYSQL ? " AND updated_at > '2020-01-02'"
                : ""))).isEqualTo(1);
        // With its offset on PostgreSQL: a timestamptz literal without one is read in the session's time zone,
        // which is the JVM's at connect (an earlier test class may have changed it; seen in .ci/matrix).
        assertThat(number(w, "SELECT COUNT(*) FROM orders WHERE id <> 1 AND touched = '2020-01-01 00:00:00"
                + (engine == Engine.POSTGRES ? "+00'" : "'"))).isEqualTo(2);

        List<String> before = w.snapshot("orders");
        refused(() -> w.propose(store, policy, "assistant", "UPDATE orders SET touched = '2021-01-01 00:00:00', qty = 2"
                + " WHERE id = 2"), Refusal.MAINTAINED_COLUMN, ".touched is maintained by the database itself"
                + " (policy.autoColumns declares that a trigger sets it)");
        if (engine == Engine.MYSQL) {
            refused(() -> w.propose(store, policy, "assistant", "UPDATE orders SET updated_at = '2021-01-01 00:00:00'"
                    + " WHERE id = 2"), Refusal.MAINTAINED_COLUMN, ".updated_at is maintained by the database itself"
                    + " (the catalog says ON UPDATE)");
        }
        assertThat(w.snapshot("orders")).isEqualTo(before);
    }

    /**
     * D12: a DELETE (and an UPDATE) on a table whose primary key is a secret column: the card shows each key
     * withheld, as a keyed hash; the value is only in the store's sealed plan, which apply reads to find the
     * row. Without a seal key to key the hash with, it is refused.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D12_aTableWhoseKeyIsSecretIsPlannedWithTheKeyWithheldAndApplied(Engine engine) throws SQLException {
        Workflow w = flow(engine);
        w.db.execute("DROP TABLE IF EXISTS tokens", "CREATE TABLE tokens (api_token VARCHAR(40) PRIMARY KEY,"
                + " owner VARCHAR(20) NOT NULL, uses INT NOT NULL)", "INSERT INTO tokens VALUES ('tok-alpha-1', 'bob', 1),"
                + " ('tok-beta-2', 'bob', 2), ('tok-gamma-3', 'carol', 3)");
        Policy policy = Policy.define(p -> p.table("tokens", t -> t.impact("A token lets its owner call the API."))
                .secret("api_token", "a bearer token"));
        byte[] key = "a seal key of thirty-two bytes!!".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        refused(() -> w.propose(w.store(null), policy, "assistant", "DELETE FROM tokens WHERE owner = 'bob'"),
                Refusal.DENIED_IDENTIFIER, "no seal key is configured");
        PlanStore store = w.store(key);
        Plan plan = w.propose(store, policy, key, "assistant", "DELETE FROM tokens WHERE owner = 'bob'");
        String hash = ((dev.llmsafe.value.MaskedValue) new dev.llmsafe.value.TextValue("tok-alpha-1").masked(key)).hash();
        assertThat(plan.card()).contains("  api_token = <withheld, hmac-sha256 " + hash.substring(0, 16) + ">  (deleted)\n"
                + "    api_token: <masked>\n    owner: 'bob'\n    uses: 1\n")
                .doesNotContain("tok-alpha").doesNotContain("tok-beta");
        assertThat(plan.toJson()).doesNotContain("tok-alpha").doesNotContain("withheldKey");
        assertThat(plan.withoutWithheld().toJson()).isEqualTo(plan.toJson());
        assertThat(plan.toStoredJson()).contains("\"withheldKey\":{\"api_token\":{\"t\":\"text\",\"v\":\"tok-alpha-1\"}}");
        StoredPlan stored = store.load(plan.id());
        assertThat(stored.plan().statements().get(0).rows()).extracting(r -> r.keyValues().get(0).render())
                .containsExactly("'tok-alpha-1'", "'tok-beta-2'");
        new Approver(store, false).approve(plan.id(), "alice");
        w.applier(store, policy, key, false, Bounds.DEFAULT).apply(plan.id(), "bob");
        assertThat(w.snapshot("tokens")).containsExactly("[tok-gamma-3, carol, 3]");

        Plan update = w.propose(store, policy, key, "assistant", "UPDATE tokens SET uses = 30 WHERE owner = 'carol'");
        assertThat(update.card()).contains("  api_token = <withheld, hmac-sha256 ").contains("    uses: 3 -> 30\n")
                .doesNotContain("tok-gamma");
        new Approver(store, false).approve(update.id(), "alice");
        w.applier(store, policy, key, false, Bounds.DEFAULT).apply(update.id(), "bob");
        assertThat(w.snapshot("tokens")).containsExactly("[tok-gamma-3, carol, 30]");
    }

    /** D14, D8: SQLite's AFTER UPDATE trigger writing the row again is planned, applied, and the rows are the card's. */
    @Test
    void D14_D8_onSqliteATriggerThatWritesTheSameRowIsAppliedAsTheCardShowed() throws SQLException {
        Workflow w = fresh(Engine.SQLITE);
        w.db.execute("CREATE TRIGGER orders_touch AFTER UPDATE OF qty ON orders BEGIN"
                + " UPDATE orders SET note = 'touched ' || NEW.qty WHERE id = NEW.id; END");
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.")
                .autoColumns("note")));
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, policy, "assistant", "UPDATE orders SET qty = qty * 10 WHERE id IN (1, 2)");
        assertThat(plan.card()).contains("2 rows would change, in 1 column: qty\n  Maintained by the database, not set by"
                + " this statement: note.").contains("  id = 1\n    qty: 1 -> 10\n  id = 2\n    qty: 2 -> 20\n");
        new Approver(store, false).approve(plan.id(), "alice");
        assertThat(w.applier(store, policy).apply(plan.id(), "bob").rows()).containsExactly(2L);
        assertThat(w.snapshot("orders")).containsExactly("[1, packed, touched 10, 10, t1]",
                "[2, packed, touched 20, 20, t2]", "[3, open, null, 3, t3]");
    }

    /**
     * A4 before the write, proven by a sequence: nextval is not rolled back, so a statement that ran (and
     * was rolled back for a mismatch found after it) would have moved it. PostgreSQL only (sequences).
     */
    @Test
    void A4_aRowTheCardCallsAlreadyCorrectIsComparedBeforeTheStatementRuns() throws SQLException {
        Workflow w = fresh(Engine.POSTGRES);
        w.db.execute("DROP SEQUENCE IF EXISTS a4_runs", "CREATE SEQUENCE a4_runs",
                "CREATE OR REPLACE FUNCTION a4_count() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$ BEGIN PERFORM nextval('a4_runs'); RETURN NEW; END $$",
                "CREATE TRIGGER a4_count BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION a4_count()");
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.").autoColumns()));
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, policy, "assistant", "UPDATE orders SET status = 'packed' WHERE id IN (1, 3)");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("UPDATE orders SET status = 'lost' WHERE id = 1");
        long runs = number(w, "SELECT last_value FROM a4_runs");
        refused(() -> w.applier(store, policy).apply(plan.id(), "bob"), Refusal.ROW_CHANGED, "status is now 'lost'");
        assertThat(number(w, "SELECT last_value FROM a4_runs")).as("the UPDATE never ran at apply").isEqualTo(runs);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_D11_aDeleteComparesEveryColumnEvenOneThatWasNull(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "DELETE FROM orders WHERE id = 1");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("UPDATE orders SET note = 'now it has a note' WHERE id = 1");
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.ROW_CHANGED, "note is now 'now it has a note'");
        assertThat(w.snapshot("orders")).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_D12_aSecretColumnIsComparedByItsHash(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "DELETE FROM orders WHERE id = 3");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("UPDATE orders SET api_token = 'rotated' WHERE id = 3");
        refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.ROW_CHANGED, "api_token is now <masked>, the card showed <masked>");
        assertThat(w.snapshot("orders")).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A3_aRowThatNowMatchesOrNoLongerExistsIsRowsMoved(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan more = w.propose(store, POLICY, "assistant", "UPDATE orders SET status = 'shipped' WHERE status = 'packed'");
        Plan gone = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 9 WHERE id IN (1, 3)");
        new Approver(store, false).approve(more.id(), "alice");
        new Approver(store, false).approve(gone.id(), "alice");
        w.db.execute("INSERT INTO orders VALUES (4, 'packed', NULL, 4, 't4')", "DELETE FROM orders WHERE id = 3");
        List<String> before = w.snapshot("orders");
        refused(() -> w.applier(store, POLICY).apply(more.id(), "bob"), Refusal.ROWS_MOVED,
                "0 shown rows no longer match, 1 other rows now do");
        refused(() -> w.applier(store, POLICY).apply(gone.id(), "bob"), Refusal.ROWS_MOVED,
                "1 shown rows no longer match, 0 other rows now do");
        assertThat(w.snapshot("orders")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A2_theStoredStatementIsRevalidatedUnderTheCurrentPolicy(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET note = 'x' WHERE id = 1");
        new Approver(store, false).approve(plan.id(), "alice");
        Policy narrowed = Policy.define(p -> p.table("orders", t -> t.impact("x").denyWrite("note", "frozen for the audit")));
        refused(() -> w.applier(store, narrowed).apply(plan.id(), "bob"), Refusal.DENIED_WRITE_COLUMN, "frozen for the audit");
        assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void A6_aTriggerThatChangesTheApprovedValueAtApplyIsCaughtBeforeCommit(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Policy declared = Policy.define(p -> p.table("orders", t -> t.impact("x").autoColumns("note")));
        Plan plan = w.propose(store, declared, "assistant", "UPDATE orders SET qty = 7 WHERE id = 1");
        new Approver(store, false).approve(plan.id(), "alice");
        // A trigger that appears after the dry run changes the approved column on its way in.
        if (engine == Engine.POSTGRES) {
            w.db.execute("CREATE OR REPLACE FUNCTION orders_double() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.qty := NEW.qty * 2; RETURN NEW; END $$",
                    "CREATE TRIGGER orders_double BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_double()");
        } else {
            w.db.execute("CREATE TRIGGER orders_double BEFORE UPDATE ON orders FOR EACH ROW SET NEW.qty = NEW.qty * 2");
        }
        try {
            refused(() -> w.applier(store, declared).apply(plan.id(), "bob"), Refusal.RESULT_MISMATCH,
                    "qty became 14, the card showed 7");
            assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]");
        } finally {
            w.db.execute("DROP TRIGGER orders_double" + (engine == Engine.POSTGRES ? " ON orders" : ""));
        }
    }

    @Test
    void A5_aStatementThatAffectsAnotherNumberOfRowsAtApplyIsRolledBack() throws SQLException {
        // A PostgreSQL rule can turn the approved UPDATE into nothing without an error.
        Workflow w = fresh(Engine.POSTGRES);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 8 WHERE id = 2");
        new Approver(store, false).approve(plan.id(), "alice");
        w.db.execute("CREATE RULE orders_nothing AS ON UPDATE TO orders DO INSTEAD NOTHING");
        try {
            refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.RESULT_MISMATCH,
                    "the database reports 0 rows affected, the card showed 1");
            assertThat(w.snapshot("orders")).contains("[2, packed, fragile, 2, t2]");
        } finally {
            w.db.execute("DROP RULE orders_nothing ON orders");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_noAttemptingAuditNoApply_andALostOutcomeIsAWarning(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 11 WHERE id = 1");
        new Approver(store, false).approve(plan.id(), "alice");
        blockAudit(w, engine, "attempting");
        try {
            refused(() -> w.applier(store, POLICY).apply(plan.id(), "bob"), Refusal.AUDIT_FAILED, "nothing was applied");
            assertThat(w.snapshot("orders")).contains("[1, packed, null, 1, t1]");
            assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.APPROVED);
        } finally {
            unblockAudit(w, engine);
        }
        blockAudit(w, engine, "applied");
        try {
            ApplyResult r = w.applier(store, POLICY).apply(plan.id(), "bob");
            assertThat(r.warnings()).singleElement().satisfies(x -> assertThat(x).contains("audit trail"));
            assertThat(w.snapshot("orders")).contains("[1, packed, null, 11, t1]");
            assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.APPLIED);
        } finally {
            unblockAudit(w, engine);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_anApprovalIsWrittenWithItsAuditRowOrNotAtAll(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 12 WHERE id = 1");
        blockAudit(w, engine, "done");
        try {
            assertThatThrownBy(() -> new Approver(store, false).approve(plan.id(), "alice"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("audit disabled");
        } finally {
            unblockAudit(w, engine);
        }
        StoredPlan still = store.load(plan.id());
        assertThat(still.status()).isEqualTo(PlanStatus.PROPOSED);
        assertThat(still.approvedBy()).isEmpty();
        assertThat(still.history()).extracting(AuditEntry::action).containsExactly(AuditAction.PROPOSE);
        StoredPlan approved = new Approver(store, false).approve(plan.id(), "alice");
        // What approve returns is what the store now holds.
        assertThat(approved).isEqualTo(store.load(plan.id()));
        assertThat(approved.history()).extracting(AuditEntry::actor, AuditEntry::action, AuditEntry::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("assistant", AuditAction.PROPOSE, AuditOutcome.DONE),
                org.assertj.core.groups.Tuple.tuple("alice", AuditAction.APPROVE, AuditOutcome.DONE));
    }

    private static void blockAudit(Workflow w, Engine engine, String outcome) throws SQLException {
        switch (engine) {
            case POSTGRES -> w.db.execute("CREATE OR REPLACE FUNCTION block_audit() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN IF NEW.outcome = '" + outcome + "' THEN RAISE EXCEPTION 'audit disabled'; END IF;"
                    + " RETURN NEW; END $$",
                    "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW EXECUTE FUNCTION block_audit()");
            case MYSQL -> w.db.execute("CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW"
                    + " BEGIN IF NEW.outcome = '" + outcome + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT ="
                    + " 'audit disabled'; END IF; END");
            case SQLITE -> w.db.execute("CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit WHEN NEW.outcome = '"
                    + outcome + "' BEGIN SELECT RAISE(ABORT, 'audit disabled'); END");
        }
    }

    private static void unblockAudit(Workflow w, Engine engine) throws SQLException {
        w.db.execute("DROP TRIGGER block_audit" + (engine == Engine.POSTGRES ? " ON llmsafe_audit" : ""));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A8_eightAppliersRaceAndExactlyOneCommits(Engine engine) throws Exception {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = qty + 1 WHERE id = 2");
        new Approver(store, false).approve(plan.id(), "alice");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                Callable<String> task = () -> {
                    start.await();
                    try {
                        w.applier(store, POLICY).apply(plan.id(), "applier-" + n);
                        return "applied";
                    } catch (RefusedException e) {
                        return e.code().name();
                    }
                };
                results.add(pool.submit(task));
            }
            start.countDown();
            List<String> outcomes = new ArrayList<>();
            for (Future<String> f : results) {
                outcomes.add(f.get());
            }
            assertThat(outcomes).filteredOn("applied"::equals).hasSize(1);
            assertThat(outcomes).filteredOn("ALREADY_APPLIED"::equals).hasSize(7);
        } finally {
            pool.shutdownNow();
        }
        assertThat(w.snapshot("orders")).contains("[2, packed, fragile, 3, t2]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A9_aRowLockedAtApplyEndsWithinTheBoundAndThePlanFails(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        PlanStore store = w.store(null);
        Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 12 WHERE id = 3");
        new Approver(store, false).approve(plan.id(), "alice");
        try (Connection other = w.db.connect()) {
            other.setAutoCommit(false);
            try (Statement s = other.createStatement()) {
                s.executeUpdate("UPDATE orders SET note = 'held' WHERE id = 3");
            }
            long start = System.nanoTime();
            // On SQLite the store shares the locked database file: not even the attempt can be recorded.
            refused(() -> w.applier(store, POLICY, null, false, new Bounds(700, 5000)).apply(plan.id(), "bob"),
                    engine == Engine.SQLITE ? Refusal.AUDIT_FAILED : Refusal.LOCK_TIMEOUT, "nothing was applied");
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(6_000);
            other.rollback();
        }
        assertThat(store.load(plan.id()).status())
                .isEqualTo(engine == Engine.SQLITE ? PlanStatus.APPROVED : PlanStatus.FAILED);
        assertThat(w.snapshot("orders")).contains("[3, open, null, 3, t3]");
    }

    /**
     * A9, E3: a statement that runs past the apply's bound is stopped and nothing is committed, also where
     * the server does not stop it itself: MySQL's max_execution_time bounds SELECT only, and the client's
     * cancel ends the UPDATE there, which Connector/J reports without an error code (measured on MySQL
     * 8.0.31). MariaDB's max_statement_time stops it on the server.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL"})
    void A9_aStatementThatRunsPastTheBoundAtApplyIsStoppedAndNothingIsCommitted(Engine engine) throws SQLException {
        Workflow w = fresh(engine);
        w.db.execute("DROP TABLE IF EXISTS digits", "CREATE TABLE digits (d INT PRIMARY KEY)",
                "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money."))
                .table("digits"));
        PlanStore store = w.store(null);
        // About 3 s of work on this machine: past the apply's bound (300 ms, cancelled at 800 ms), well inside
        // the dry run's 10 s.
        String slow = slowCount(w.db, 3_000);
        Plan plan = w.propose(store, policy, "assistant", "UPDATE orders SET qty = 12 + " + slow + " WHERE id = 3");
        assertThat(plan.card()).contains("qty: 3 -> 12");
        new Approver(store, false).approve(plan.id(), "alice");
        long start = System.nanoTime();
        refused(() -> w.applier(store, policy, null, false, new Bounds(700, 300)).apply(plan.id(), "bob"),
                Refusal.STATEMENT_TIMEOUT, "");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
        assertThat(store.load(plan.id()).status()).isEqualTo(PlanStatus.FAILED);
        assertThat(w.snapshot("orders")).contains("[3, open, null, 3, t3]");
    }

    /**
     * A scalar subquery over the digits table that takes about {@code targetMs} here: the number of rows of
     * a cross join is measured until one takes a tenth of the target or more, and its last factor is cut
     * to the fraction that makes up the rest.
     */
    private static String slowCount(ScratchDatabase db, long targetMs) throws SQLException {
        for (int tables = 4; ; tables++) {
            long t0 = System.nanoTime();
            db.execute("SELECT " + crossCount(tables, 10));
            long ms = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
            if (ms * 10 >= targetMs || tables == 9) {
                return crossCount(tables + 1, (int) Math.max(1, Math.min(10, targetMs / ms)));
            }
        }
    }

    private static String crossCount(int tables, int lastDigits) {
        StringBuilder from = new StringBuilder();
        StringBuilder sum = new StringBuilder();
        for (int i = 0; i < tables; i++) {
            from.append(i == 0 ? "" : ", ").append("digits t").append(i);
            sum.append(i == 0 ? "" : " + ").append("t").append(i).append(".d");
        }
        // A condition on every table, never true: no join order can stop before the whole product.
        return "(SELECT COUNT(*) FROM " + from + " WHERE t" + (tables - 1) + ".d < " + lastDigits + " AND " + sum
                + " < 0)";
    }

    /**
     * A microsecond timestamp as a parameter and as a primary key. Connector/J 26.10 takes MariaDB 10.11
     * for a 5.5 server and drops the fraction of a second of a LocalDateTime it sends (measured): the
     * application's own statement then matches no row, and so does its dry run (D16: the parameter is
     * sent as the application bound it); bound as text, it keeps the microsecond. Keys read back from
     * the database are bound by llmsafe as text to the microsecond.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void D13_D16_microsecondTimestampsAreBoundExactlyAsParametersAndAsKeys(Engine engine) throws SQLException {
        Workflow w = flow(engine);
        String type = engine == Engine.POSTGRES ? "TIMESTAMP(6)" : "DATETIME(6)";
        w.db.execute("DROP TABLE IF EXISTS readings", "CREATE TABLE readings (at " + type + " PRIMARY KEY, seen " + type
                + ", note VARCHAR(20))", "INSERT INTO readings VALUES ('2024-02-29 13:45:56.123456', NULL, 'a'),"
                + " ('2024-02-29 13:45:56.123457', NULL, 'b')");
        Policy policy = Policy.define(p -> p.table("readings", t -> t.impact("Readings are evidence.")));
        PlanStore store = w.store(null);
        Object seen = LocalDateTime.parse("2025-01-02T03:04:05.654321");
        Object at = LocalDateTime.parse("2024-02-29T13:45:56.123456");
        if (w.db.announcedAsMysql55()) {
            // Connector/J drops the microseconds of a LocalDateTime for what it takes for MySQL 5.5.
            Object[] lost = {seen, at};
            assertThatThrownBy(() -> w.propose(store, policy, "assistant", "UPDATE readings SET seen = ? WHERE at = ?", lost))
                    .isInstanceOf(RefusedException.class).hasMessageContaining("no row")
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.NO_ROWS));
            seen = "2025-01-02 03:04:05.654321";
            at = "2024-02-29 13:45:56.123456";
        }
        Plan update = w.propose(store, policy, "assistant", "UPDATE readings SET seen = ? WHERE at = ?", seen, at);
        assertThat(update.card()).contains("seen: NULL -> 2025-01-02T03:04:05.654321");
        new Approver(store, false).approve(update.id(), "alice");
        w.applier(store, policy).apply(update.id(), "bob");
        Plan delete = w.propose(store, policy, "assistant", "DELETE FROM readings WHERE note = 'b'");
        new Approver(store, false).approve(delete.id(), "alice");
        w.applier(store, policy).apply(delete.id(), "bob");
        try (Statement s = w.db.admin().createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT at, seen FROM readings")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("2024-02-29 13:45:56.123456");
            assertThat(rs.getString(2)).isEqualTo("2025-01-02 03:04:05.654321");
            assertThat(rs.next()).as("the row with the other microsecond was deleted").isFalse();
        }
    }

    /**
     * On SQLite the apply waits for another writer at BEGIN IMMEDIATE, before any statement: that wait is
     * bounded too, and ends as LOCK_TIMEOUT with the plan failed, not as a driver error. The store is a
     * file of its own here, as a deployment has it, so the attempt is recorded.
     */
    @Test
    void A9_onSqliteAnotherWriterHoldingTheDatabaseAtApplyIsALockTimeoutAndThePlanFails(@TempDir Path dir)
            throws SQLException {
        Workflow w = fresh(Engine.SQLITE);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("store.db"));
        config.setMaximumPoolSize(2);
        try (HikariDataSource storePool = new HikariDataSource(config)) {
            PlanStore store = new PlanStore(storePool, null, Duration.ofHours(24), w.clock);
            store.migrate();
            Plan plan = w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 12 WHERE id = 3");
            new Approver(store, false).approve(plan.id(), "alice");
            try (Connection other = w.db.connect()) {
                other.setAutoCommit(false);
                try (Statement s = other.createStatement()) {
                    s.executeUpdate("UPDATE orders SET note = 'held' WHERE id = 1");
                }
                long start = System.nanoTime();
                refused(() -> w.applier(store, POLICY, null, false, new Bounds(700, 5000)).apply(plan.id(), "bob"),
                        Refusal.LOCK_TIMEOUT, "nothing was applied");
                assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(6_000);
                other.rollback();
            }
            // The connection whose BEGIN failed left the pool: the next plan gets a clean one.
            assertThat(w.propose(store, POLICY, "assistant", "UPDATE orders SET qty = 13 WHERE id = 3").rowCount())
                    .isEqualTo(1);
            StoredPlan failed = store.load(plan.id());
            assertThat(failed.status()).isEqualTo(PlanStatus.FAILED);
            assertThat(failed.history()).extracting(AuditEntry::outcome).contains(AuditOutcome.ATTEMPTING,
                    AuditOutcome.FAILED);
            assertThat(failed.outcome()).hasValueSatisfying(o -> assertThat(o).startsWith("LOCK_TIMEOUT"));
        }
        assertThat(w.snapshot("orders")).contains("[3, open, null, 3, t3]");
    }
}
