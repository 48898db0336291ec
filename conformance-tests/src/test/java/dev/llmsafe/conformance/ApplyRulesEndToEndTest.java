package dev.llmsafe.conformance;

import static dev.llmsafe.conformance.PlanCommands.apply;
import static dev.llmsafe.conformance.PlanCommands.approved;
import static dev.llmsafe.conformance.PlanCommands.history;
import static dev.llmsafe.conformance.PlanCommands.ok;
import static dev.llmsafe.conformance.PlanCommands.outcome;
import static dev.llmsafe.conformance.PlanCommands.policy;
import static dev.llmsafe.conformance.PlanCommands.proposed;
import static dev.llmsafe.conformance.PlanCommands.refused;
import static dev.llmsafe.conformance.PlanCommands.replaced;
import static dev.llmsafe.conformance.PlanCommands.show;
import static dev.llmsafe.conformance.PlanCommands.status;
import static dev.llmsafe.conformance.PlanCommands.top;
import static dev.llmsafe.conformance.PlanCommands.variant;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Approving and applying (A1 to A11), driven as a user drives them: a plan proposed through the
 * application's {@code jdbc:llmsafe:} URL or {@code llmsafe plan}, then {@code approve}, {@code apply},
 * {@code reject}, {@code show} and {@code list} on the command line, on the four-role deployment of
 * {@link EndToEnd}; the configuration file edited between approval and apply where a rule is about
 * the configuration in force at apply. Where a rule is about what someone does
 * behind llmsafe's back (a row edited after approval, a trigger added, a stored plan edited), the
 * administrator does it on the database directly, as such a person would.
 *
 * <p>Every test works on rows of its own (a block of ten order ids, or a table of its own), so that
 * the order of the tests does not matter.
 */
class ApplyRulesEndToEndTest {

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(ApplyRulesEndToEndTest::schema,
            List.of("orders", "gauges", "kinds"), List.of("orders", "gauges", "kinds"), List.of(), """
              "policy": {
                "allow": ["orders", "gauges", "kinds"],
                "impact": {
                  "orders": "Changing an order moves money.",
                  "gauges": "A gauge reading decides the next refill.",
                  "kinds": "Values of every kind, for the round trip."
                },
                "autoColumns": {"gauges": ["note"]}
              }
            """);

    /** Every test's own orders: a block of ids (see {@link PlanCommands#orders}). */
    private static final int A1 = 10;
    private static final int A2_ROLES = 20;
    private static final int A2_POLICY = 30;
    private static final int A3 = 40;
    private static final int A4 = 50;
    private static final int A6 = 60;
    private static final int A7 = 70;
    private static final int A8 = 80;
    private static final int A9 = 90;
    private static final int A9_ROWS = 100;
    private static final int A11 = 110;
    private static final int A4_SHOWN = 120;
    private static final List<Integer> BLOCKS = List.of(A1, A2_ROLES, A2_POLICY, A3, A4, A6, A7, A8, A9, A9_ROWS, A11, A4_SHOWN);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(PlanCommands.orders(BLOCKS));
        // A5, A6: a table whose triggers and rules come and go.
        sql.add("CREATE TABLE gauges (id INT PRIMARY KEY, note VARCHAR(100), qty INT NOT NULL)");
        sql.add("INSERT INTO gauges VALUES (1, NULL, 1), (2, NULL, 2), (3, NULL, 3)");
        sql.addAll(Kinds.of(engine).schema());
        return sql;
    }

    private static Deployed deployed(Engine engine) throws Exception {
        return e2e.deployed(engine);
    }

    // ---- A1 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A1_theProposerCannotApproveOrApplyItsOwnPlanUnlessAllowed_andThenTheAuditShowsOneActorDoingBoth(Engine engine)
            throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        String id = proposed(d.plan("UPDATE orders SET qty = 5 WHERE id = " + A1));

        // Every act names its actor.
        Run nobody = d.llmsafe("approve", id, "--as", " ");
        assertThat(nobody.status()).as(nobody.all()).isEqualTo(Main.USAGE);
        assertThat(nobody.err()).contains("name the actor (--as NAME): every act is recorded with who did it");
        refused(d.llmsafe("approve", id, "--as", "assistant"), Refusal.SELF_APPROVAL,
                "assistant proposed plan " + id + " and cannot also approve it");
        assertThat(status(d, id)).isEqualTo("proposed");
        refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.NOT_APPROVED, "must approve it first");

        ok(d.llmsafe("approve", id, "--as", "assistant", "--allow-self-approve"));
        refused(d.llmsafe("approve", id, "--as", "carol"), Refusal.ALREADY_APPROVED, "by assistant");
        refused(d.llmsafe("apply", id, "--as", "assistant"), Refusal.SELF_APPROVAL,
                "assistant proposed plan " + id + " and cannot also apply it");
        assertThat(d.rows("orders")).isEqualTo(before);

        Run apply = ok(apply(d, id, "--as", "assistant", "--allow-self-approve"));
        assertThat(apply.out()).contains("is applied: 1 row committed, exactly as the card showed.");
        assertThat(d.rows("orders")).isEqualTo(replaced(before, A1, "[" + A1 + ", packed, null, 5]"));
        Run show = ok(d.llmsafe("show", id));
        assertThat(show.out()).contains("Status: applied (approved by assistant)");
        assertThat(history(d, id)).containsExactly("assistant propose done", "assistant approve refused",
                "assistant approve self-approved", "assistant apply attempting", "assistant apply applied");
        assertThat(show.out()).contains("assistant  approve  self-approved  proposed and approved by the same actor"
                + " (allowSelfApprove)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A1_selfApprovalAllowedInTheConfiguration_andARejectedPlanCanNeverBeApplied(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String selfApprove = variant(d, "self-approve", top("\"allowSelfApprove\": true"));
        List<String> before = d.rows("orders");
        String id = proposed(d.plan("UPDATE orders SET qty = 6 WHERE id = " + (A1 + 1)));
        ok(d.llmsafe("approve", id, "--as", "assistant", "--config", selfApprove));
        assertThat(history(d, id)).containsExactly("assistant propose done", "assistant approve self-approved");

        ok(d.llmsafe("reject", id, "--as", "carol", "--reason", "wrong customer"));
        refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.PLAN_CLOSED,
                "is rejected (rejected by carol: wrong customer); that is final");
        refused(d.llmsafe("approve", id, "--as", "dave"), Refusal.PLAN_CLOSED, "is rejected");
        assertThat(status(d, id)).isEqualTo("rejected");
        assertThat(d.rows("orders")).isEqualTo(before);
    }

    // ---- A2 ----------------------------------------------------------------------------------------

    /**
     * The apply writes with the apply role's credential and no other: without UPDATE for the planning
     * role it still commits; without UPDATE for the apply role it cannot, and nothing changes.
     * SQLite has no roles: whoever opens the file writes it.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void A2_theApplyWritesWithTheApplyRolesCredential(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET status = 'shipped' WHERE id = " + A2_ROLES);
        privilege(d, "REVOKE", Role.PLAN);
        Run apply;
        try {
            apply = apply(d, id, "--as", "bob");
        } finally {
            privilege(d, "GRANT", Role.PLAN);
        }
        ok(apply);
        assertThat(d.rows("orders")).isEqualTo(replaced(before, A2_ROLES, "[" + A2_ROLES + ", shipped, null, 1]"));

        List<String> unchanged = d.rows("orders");
        String refused = approved(d, "UPDATE orders SET status = 'shipped' WHERE id = " + (A2_ROLES + 1));
        privilege(d, "REVOKE", Role.APPLY);
        Run denied;
        try {
            denied = d.llmsafe("apply", refused, "--as", "bob");
        } finally {
            privilege(d, "GRANT", Role.APPLY);
        }
        assertThat(denied.status()).as(denied.all()).isEqualTo(Main.ERROR);
        assertThat(denied.err()).startsWith("the database could not be used: ").contains(d.flavor() == Flavor.POSTGRES
                ? "permission denied for table orders" : "UPDATE command denied to user '" + d.roles().login(Role.APPLY).name())
                .contains("lacks a privilege: grant it as samples/roles shows").doesNotContain("URL, user and password");
        assertThat(d.rows("orders")).isEqualTo(unchanged);
        assertThat(status(d, refused)).isEqualTo("failed");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A2_theStoredStatementIsRevalidatedUnderThePolicyInForceAtApply(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        // The configuration file is edited between approve and apply: the apply reads the policy now in force.
        String frozen = variant(d, "note-frozen", policy("\"denyWrite\": {\"orders.note\": \"frozen for the audit\"}"));
        String noImpact = variant(d, "no-impact", t -> t.replace("\"orders\": \"Changing an order moves money.\",", ""));
        List<String> before = d.rows("orders");

        String note = approved(d, "UPDATE orders SET note = 'x' WHERE id = " + A2_POLICY);
        refused(d.llmsafe("apply", note, "--as", "bob", "--config", frozen), Refusal.DENIED_WRITE_COLUMN,
                "frozen for the audit");
        String qty = approved(d, "UPDATE orders SET qty = 9 WHERE id = " + (A2_POLICY + 1));
        refused(d.llmsafe("apply", qty, "--as", "bob", "--config", noImpact), Refusal.IMPACT_UNDECLARED,
                "orders has no declared business consequence (policy.impact)");

        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, note)).isEqualTo("failed");
        assertThat(status(d, qty)).isEqualTo("failed");
    }

    // ---- A3, A4 ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A3_aRowThatNowMatchesOrNoLongerMatchesIsRowsMovedAndNothingIsApplied(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String more = approved(d, "UPDATE orders SET status = 'shipped' WHERE status = 'packed' AND id BETWEEN " + A3
                + " AND " + (A3 + 9));
        String gone = approved(d, "UPDATE orders SET qty = 9 WHERE id IN (" + A3 + ", " + (A3 + 2) + ")");
        assertThat(ok(d.llmsafe("show", more)).out()).contains("3 rows would change");
        // Another order is packed now, and one of the other plan's rows is gone.
        d.admin("INSERT INTO orders VALUES (" + (A3 + 5) + ", 'packed', NULL, 6)",
                "DELETE FROM orders WHERE id = " + (A3 + 2));
        List<String> before = d.rows("orders");
        refused(d.llmsafe("apply", more, "--as", "bob"), Refusal.ROWS_MOVED, "0 shown rows no longer match, 1 other rows now do");
        refused(d.llmsafe("apply", gone, "--as", "bob"), Refusal.ROWS_MOVED, "1 shown rows no longer match, 0 other rows now do");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(outcome(d, more)).startsWith("ROWS_MOVED");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_anEditToAnApprovedColumnIsRowChanged_andToAnyColumnOfADeletedRow(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String update = approved(d, "UPDATE orders SET status = 'shipped', qty = qty + 1 WHERE id IN (" + A4 + ", "
                + (A4 + 1) + ")");
        String delete = approved(d, "DELETE FROM orders WHERE id = " + (A4 + 3));
        d.admin("UPDATE orders SET qty = 20 WHERE id = " + (A4 + 1),
                "UPDATE orders SET note = 'now it has a note' WHERE id = " + (A4 + 3));
        List<String> before = d.rows("orders");
        refused(d.llmsafe("apply", update, "--as", "bob"), Refusal.ROW_CHANGED,
                "id = " + (A4 + 1) + " changed: qty is now 20, the card showed 2");
        // D11: the note was NULL on the card, and a DELETE compares every column.
        refused(d.llmsafe("apply", delete, "--as", "bob"), Refusal.ROW_CHANGED, "note is now 'now it has a note'");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(outcome(d, update)).startsWith("ROW_CHANGED");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_anEditToAnUnrelatedColumnIsNotAConflict(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = A4 + 2;
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET status = 'shipped' WHERE id = " + row);
        d.admin("UPDATE orders SET note = 'call first', qty = 7 WHERE id = " + row);
        ok(apply(d, id, "--as", "bob"));
        assertThat(d.rows("orders")).isEqualTo(replaced(before, row, "[" + row + ", shipped, call first, 7]"));
    }

    /**
     * Rows 120 (packed, 1) and 124 (packed, 5) already hold status 'packed': the card calls 120 already
     * correct and shows 124's status as assigned but unchanged. An edit of either, after approval, is
     * ROW_CHANGED, decided before the statement runs (it used to be RESULT_MISMATCH, after it ran); left
     * alone, the plan applies and the rows are the card's.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A4_aRowTheCardCallsAlreadyCorrectAndAnAssignedUnchangedColumnAreComparedBeforeTheWrite(Engine engine)
            throws Exception {
        Deployed d = deployed(engine);
        int correct = A4_SHOWN;
        int assigned = A4_SHOWN + 4;
        List<String> before = d.rows("orders");
        Run plan = d.plan("UPDATE orders SET status = 'packed' WHERE id IN (" + correct + ", " + (correct + 2) + ")");
        assertThat(plan.out()).contains("  id = " + correct + "\n    (matched, but no value changes)\n    status:"
                + " 'packed'   (already this value)\n  id = " + (correct + 2) + "\n    status: 'open' -> 'packed'\n");
        String first = proposed(plan);
        ok(d.llmsafe("approve", first, "--as", "alice"));
        String second = approved(d, "UPDATE orders SET status = 'packed', qty = 50 WHERE id = " + assigned);
        assertThat(show(d, second).get("plan").get("statements").get(0).get("rows").get(0).get("unchanged")
                .toString()).isEqualTo("[{\"column\":\"status\",\"value\":{\"t\":\"text\",\"v\":\"packed\"}}]");
        d.admin("UPDATE orders SET status = 'lost' WHERE id IN (" + correct + ", " + assigned + ")");
        try {
            refused(d.llmsafe("apply", first, "--as", "bob"), Refusal.ROW_CHANGED, "id = " + correct
                    + " changed: status is now 'lost', the card showed 'packed'");
            refused(d.llmsafe("apply", second, "--as", "bob"), Refusal.ROW_CHANGED, "id = " + assigned
                    + " changed: status is now 'lost', the card showed 'packed'");
        } finally {
            d.admin("UPDATE orders SET status = 'packed' WHERE id IN (" + correct + ", " + assigned + ")");
        }
        assertThat(d.rows("orders")).isEqualTo(before);
        String third = approved(d, "UPDATE orders SET status = 'packed', qty = 50 WHERE id = " + assigned);
        ok(apply(d, third, "--as", "bob"));
        assertThat(d.rows("orders")).isEqualTo(replaced(before, assigned, "[" + assigned + ", packed, null, 50]"));
        d.admin("UPDATE orders SET qty = 5 WHERE id = " + assigned);
    }

    // ---- A5, A6 ------------------------------------------------------------------------------------

    /**
     * The database reports another number of affected rows at apply than the card showed: a PostgreSQL
     * rule that turns the UPDATE into nothing, a SQLite trigger that skips the row (RAISE(IGNORE)),
     * both added after approval. MariaDB and MySQL have neither rules nor a way for a trigger to skip a
     * row without an error (SIGNAL fails the statement), so the count cannot differ there.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "SQLITE"})
    void A5_anotherNumberOfAffectedRowsAtApplyIsResultMismatchAndEverythingRollsBack(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("gauges");
        String id = approved(d, "UPDATE gauges SET qty = 8 WHERE id = 2");
        if (engine == Engine.POSTGRES) {
            d.admin("CREATE RULE gauges_nothing AS ON UPDATE TO gauges DO INSTEAD NOTHING");
        } else {
            d.admin("CREATE TRIGGER gauges_skip BEFORE UPDATE ON gauges BEGIN SELECT RAISE(IGNORE); END");
        }
        try {
            refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH,
                    "the database reports 0 rows affected, the card showed 1");
        } finally {
            d.admin(engine == Engine.POSTGRES ? "DROP RULE gauges_nothing ON gauges" : "DROP TRIGGER gauges_skip");
        }
        assertThat(d.rows("gauges")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("failed");
    }

    /**
     * A trigger added after approval changes the approved value: the rows read back before COMMIT
     * differ from the card, and nothing is committed. On PostgreSQL and MariaDB the trigger changes the
     * row on its way in (BEFORE UPDATE); a SQLite trigger cannot, and writes the row again after it
     * (AFTER UPDATE), which is caught the same way.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A6_aTriggerAddedAfterApprovalThatChangesTheApprovedValueIsCaughtBeforeCommit(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("gauges");
        String id = approved(d, "UPDATE gauges SET qty = 7 WHERE id = 1");
        switch (engine) {
            case POSTGRES -> d.admin("CREATE OR REPLACE FUNCTION gauges_double() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN NEW.qty := NEW.qty * 2; RETURN NEW; END $$",
                    "CREATE TRIGGER gauges_double BEFORE UPDATE ON gauges FOR EACH ROW EXECUTE FUNCTION gauges_double()");
            case MYSQL -> d.admin("CREATE TRIGGER gauges_double BEFORE UPDATE ON gauges FOR EACH ROW"
                    + " SET NEW.qty = NEW.qty * 2");
            case SQLITE -> d.admin("CREATE TRIGGER gauges_double AFTER UPDATE ON gauges"
                    + " BEGIN UPDATE gauges SET qty = NEW.qty * 2 WHERE id = NEW.id; END");
        }
        try {
            refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH, "qty became 14, the card showed 7");
        } finally {
            d.admin("DROP TRIGGER gauges_double" + (engine == Engine.POSTGRES ? " ON gauges" : ""));
        }
        assertThat(d.rows("gauges")).isEqualTo(before);
        assertThat(outcome(d, id)).startsWith("RESULT_MISMATCH");
    }

    /**
     * The statement reads a column it does not change (SET note = status): an edit of that column after
     * approval is no conflict for A4, which compares the changed columns, but the value written is not
     * the one the card showed, and the after-image comparison stops it.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A6_aValueReadFromAnotherColumnThatChangedAfterApprovalIsCaughtBeforeCommit(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String id = approved(d, "UPDATE orders SET note = status WHERE id = " + A6);
        assertThat(ok(d.llmsafe("show", id)).out()).contains("note: NULL -> 'packed'");
        d.admin("UPDATE orders SET status = 'open' WHERE id = " + A6);
        List<String> before = d.rows("orders");
        try {
            refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH, "note became 'open', the card showed 'packed'");
            assertThat(d.rows("orders")).isEqualTo(before);
        } finally {
            d.admin("UPDATE orders SET status = 'packed' WHERE id = " + A6);
        }
    }

    // ---- A7 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_theAttemptIsAuditedBeforeTheApplyAndTheOutcomeAfter(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET qty = 11 WHERE id = " + A7);
        ok(apply(d, id, "--as", "bob"));
        assertThat(history(d, id)).containsExactly("assistant propose done", "alice approve done",
                "bob apply attempting", "bob apply applied");
        JsonNode history = show(d, id).get("history");
        assertThat(history.get(3).get("detail").asText()).isEqualTo("1 row committed");
        assertThat(history.get(2).get("at").asText()).isLessThanOrEqualTo(history.get(3).get("at").asText());
        assertThat(d.rows("orders")).isEqualTo(replaced(before, A7, "[" + A7 + ", packed, null, 11]"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_noAttemptingAuditNoApply_andAnOutcomeThatCannotBeWrittenIsAWarning(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = A7 + 1;
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET qty = 12 WHERE id = " + row);
        blockAudit(d, "attempting");
        try {
            refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.AUDIT_FAILED, "so nothing was applied");
        } finally {
            unblockAudit(d);
        }
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("approved");

        blockAudit(d, "applied");
        Run apply;
        try {
            apply = apply(d, id, "--as", "bob");
        } finally {
            unblockAudit(d);
        }
        ok(apply);
        assertThat(apply.err()).contains("Warning: the outcome could not be written to the audit trail");
        assertThat(d.rows("orders")).isEqualTo(replaced(before, row, "[" + row + ", packed, fragile, 12]"));
        assertThat(status(d, id)).isEqualTo("applied");
        assertThat(history(d, id)).containsExactly("assistant propose done", "alice approve done",
                "bob apply attempting");
    }

    // ---- A8 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A8_aPlanIsAppliedOnce_theSecondApplyIsAlreadyApplied(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET qty = qty + 1 WHERE id = " + A8);
        ok(apply(d, id, "--as", "bob"));
        List<String> after = replaced(before, A8, "[" + A8 + ", packed, null, 2]");
        assertThat(d.rows("orders")).isEqualTo(after);
        refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.ALREADY_APPLIED, "it can be applied only once");
        refused(d.llmsafe("apply", id, "--as", "carol"), Refusal.ALREADY_APPLIED, "it can be applied only once");
        assertThat(d.rows("orders")).isEqualTo(after);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A8_ofFourAppliersRacingExactlyOneCommits(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = A8 + 1;
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET qty = qty + 1 WHERE id = " + row);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Run> runs = new ArrayList<>();
        try {
            List<Future<Run>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String actor = "applier-" + i;
                Callable<Run> task = () -> {
                    start.await();
                    return d.llmsafe("apply", id, "--as", actor);
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            for (Future<Run> f : futures) {
                runs.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(runs).filteredOn(r -> r.status() == Main.OK).hasSize(1);
        assertThat(runs).filteredOn(r -> r.status() == Main.REFUSED && r.err().startsWith("Refused (ALREADY_APPLIED)"))
                .as(runs.toString()).hasSize(3);
        assertThat(d.rows("orders")).isEqualTo(replaced(before, row, "[" + row + ", packed, fragile, 3]"));
        assertThat(history(d, id)).filteredOn(h -> h.endsWith(" apply applied")).hasSize(1);
    }

    // ---- A9 ----------------------------------------------------------------------------------------

    /**
     * A row locked by another session at apply: the apply waits no longer than the configuration's
     * lockTimeoutMs, ends as LOCK_TIMEOUT, the plan fails and nothing changes. On SQLite the other
     * writer holds the whole database, and the apply waits at BEGIN IMMEDIATE; the store is a file of
     * its own, so the attempt and the failure are recorded.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A9_aRowLockedAtApplyIsALockTimeoutWithinTheConfiguredBound_andThePlanFails(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String bounded = variant(d, "lock-700ms", top("\"lockTimeoutMs\": 700"));
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET qty = 12 WHERE id = " + A9);
        Run apply;
        long millis;
        try (Connection other = d.app().connect()) {
            other.setAutoCommit(false);
            try (Statement s = other.createStatement()) {
                s.executeUpdate("UPDATE orders SET note = 'held' WHERE id = " + A9);
            }
            long start = System.nanoTime();
            apply = d.llmsafe("apply", id, "--as", "bob", "--config", bounded);
            millis = (System.nanoTime() - start) / 1_000_000;
            other.rollback();
        }
        // The bound in force is the configuration's (the default is 2000 ms).
        refused(apply, Refusal.LOCK_TIMEOUT, "the apply waited or ran past its bound (700 ms for a lock");
        assertThat(apply.err()).contains("nothing was applied");
        // MariaDB counts its lock wait in whole seconds: 700 ms is 1 s there.
        assertThat(millis).isBetween(700L, 6_000L);
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("failed");
        assertThat(outcome(d, id)).startsWith("LOCK_TIMEOUT");
        assertThat(history(d, id)).containsExactly("assistant propose done", "alice approve done", "bob apply attempting",
                "bob apply failed");
    }

    /** The row ceiling in force at apply is the one that counts: a plan above a lowered one is not applied. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A9_aPlanAboveTheRowCeilingInForceAtApplyIsNotApplied(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String two = variant(d, "two-rows", policy("\"maxUpdateRows\": 2"));
        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET status = 'shipped' WHERE status = 'packed' AND id BETWEEN " + A9_ROWS
                + " AND " + (A9_ROWS + 9));
        Run apply = d.llmsafe("apply", id, "--as", "bob", "--config", two);
        refused(apply, Refusal.TOO_MANY_ROWS, "the plan changes 3 rows of ");
        assertThat(apply.err()).contains("orders, more than the 2 the policy now allows");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("failed");
    }

    /**
     * A statement that runs longer at apply than statementTimeoutMs (a trigger that sleeps, added after
     * approval) is stopped by the server's statement timeout, and nothing is applied. SQLite has no
     * function that sleeps, so nothing can make a statement slow at apply only.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void A9_aStatementRunningPastStatementTimeoutMsAtApplyIsStoppedAndThePlanFails(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String bounded = variant(d, "statement-500ms", top("\"statementTimeoutMs\": 500"));
        List<String> before = d.rows("gauges");
        String id = approved(d, "UPDATE gauges SET qty = 30 WHERE id = 3");
        if (engine == Engine.POSTGRES) {
            d.admin("CREATE OR REPLACE FUNCTION gauges_slow() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$",
                    "CREATE TRIGGER gauges_slow BEFORE UPDATE ON gauges FOR EACH ROW EXECUTE FUNCTION gauges_slow()");
        } else {
            d.admin("CREATE TRIGGER gauges_slow BEFORE UPDATE ON gauges FOR EACH ROW BEGIN DO SLEEP(3); END");
        }
        Run apply;
        long millis;
        try {
            long start = System.nanoTime();
            apply = d.llmsafe("apply", id, "--as", "bob", "--config", bounded);
            millis = (System.nanoTime() - start) / 1_000_000;
        } finally {
            d.admin("DROP TRIGGER gauges_slow" + (engine == Engine.POSTGRES ? " ON gauges" : ""));
        }
        refused(apply, Refusal.STATEMENT_TIMEOUT, "the apply waited or ran past its bound (2000 ms for a lock, 500 ms a"
                + " statement); nothing was applied");
        if (d.flavor() == Flavor.MYSQL) {
            // MySQL bounds no write (F01), and the watchdog's cancel cannot reach a statement running in a
            // trigger, as the trigger's definer (KILL QUERY: error 1095, measured on 8.0.31 and 9.7.4): it runs
            // its 3 s, then is refused and rolled back. Every MySQL card says so.
            assertThat(millis).isGreaterThanOrEqualTo(3_000);
        } else {
            assertThat(millis).isLessThan(3_000);
        }
        assertThat(d.rows("gauges")).isEqualTo(before);
        assertThat(outcome(d, id)).startsWith("STATEMENT_TIMEOUT");
    }

    // ---- A10 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A10_valuesOfEveryKindRoundTripThroughTheStoreAndTheApplyWritesExactlyThem(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Kinds kinds = Kinds.of(engine);
        List<String> before = d.rows("kinds");
        // Parameters of several JDBC types, as the application binds them (D16), and literals of the rest.
        String label = "'h\u00e9llo ''quoted'' \ud83d\ude00'";
        String newLabel = "'na\u00efve \"x\" ''y'' \ud83d\ude01'";
        roundTrip(d, proposePrepared(d, kinds.update(), kinds.parameters()),
                "1 row would change, in " + kinds.changed() + " columns: ",
                "[1: -9223372036854775808 (setLong), 2: " + kinds.parameters().get(1) + " (setBigDecimal), 3: <5 bytes>"
                        + " (setBytes), 4: " + newLabel + " (setString), 5: false (setBoolean), 6: 1 (setInt)]",
                "  id = 1\n    big: 9223372036854775807 -> -9223372036854775808\n    amount: " + kinds.amount() + " -> "
                        + kinds.parameters().get(1) + "\n",
                "    raw: 0x00ff80275c (5 bytes) -> 0x00fe275c00 (5 bytes)\n    label: " + label + " -> " + newLabel + "\n");
        // A DELETE is compared column by column, at apply, with what came back out of the store (A4).
        roundTrip(d, d.propose("DELETE FROM kinds WHERE id IN (2, 3)", "kinds"),
                "2 rows would be deleted outright", "  id = 2  (deleted)\n    id: 2\n    big: -1\n    amount: NULL\n",
                "  id = 3  (deleted)\n    id: 3\n    big: 9223372036854775807\n    amount: " + kinds.amount() + "\n",
                "    raw: 0x00ff80275c (5 bytes)\n    label: " + label + "\n");
        // Row 1 now holds exactly the values of reference row 9; rows 2 and 3 are gone.
        List<String> after = d.rows("kinds");
        String reference = after.stream().filter(r -> r.startsWith("[9, ")).findFirst().orElseThrow();
        List<String> expected = new ArrayList<>();
        for (String r : before) {
            if (r.startsWith("[1, ")) {
                expected.add("[1, " + reference.substring(4));
            } else if (!r.startsWith("[2, ") && !r.startsWith("[3, ")) {
                expected.add(r);
            }
        }
        assertThat(after).isEqualTo(expected);
    }

    /** The plan comes back out of the store as it was proposed, and is approved and applied. */
    private static void roundTrip(Deployed d, PlanPendingException pending, String... card) throws Exception {
        assertThat(pending.getMessage()).contains(card);
        String id = pending.planId().toString();
        JsonNode shown = show(d, id);
        assertThat(shown.get("plan")).isEqualTo(new ObjectMapper().readTree(pending.planJson()));
        assertThat(shown.get("card").asText()).isEqualTo(pending.getMessage());
        assertThat(ok(d.llmsafe("show", id)).out()).startsWith(pending.getMessage());
        ok(d.llmsafe("approve", id, "--as", "alice"));
        ok(apply(d, id, "--as", "bob"));
    }

    // ---- A11 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A11_aFailedPlanIsFinal(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String id = approved(d, "UPDATE orders SET qty = 9 WHERE id = " + A11);
        d.admin("UPDATE orders SET qty = 21 WHERE id = " + A11);
        refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.ROW_CHANGED, "qty is now 21, the card showed 1");
        List<String> before = d.rows("orders");
        refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.PLAN_CLOSED, "is failed (ROW_CHANGED");
        assertThat(d.llmsafe("apply", id, "--as", "bob").err()).contains("that is final. Propose the change again.");
        refused(d.llmsafe("approve", id, "--as", "carol"), Refusal.PLAN_CLOSED, "is failed");
        refused(d.llmsafe("reject", id, "--as", "carol"), Refusal.PLAN_CLOSED, "is failed");
        assertThat(d.rows("orders")).isEqualTo(before);
        Run list = ok(d.llmsafe("list", "--status", "failed"));
        assertThat(list.out()).contains(id + "  failed");
    }

    /**
     * A plan older than planExpiryHours is expired, whatever step it waits for. The plans are aged by
     * editing their stored date, which the administrator can do here because no seal key is set (T2):
     * the checksum alone is recomputed by whoever can write the store.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A11_aPlanOlderThanPlanExpiryHoursIsExpired(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String oneHour = variant(d, "expiry-1h", top("\"planExpiryHours\": 1"));
        List<String> before = d.rows("orders");
        String approved = approved(d, "UPDATE orders SET qty = 9 WHERE id = " + (A11 + 1));
        String proposed = proposed(d.plan("UPDATE orders SET qty = 9 WHERE id = " + (A11 + 2)));
        for (String id : List.of(approved, proposed)) {
            StoreAdmin.age(d, id, 2);
        }
        // Two hours is within the default 24.
        assertThat(status(d, approved)).isEqualTo("approved");
        assertThat(status(d, proposed)).isEqualTo("proposed");

        refused(d.llmsafe("apply", approved, "--as", "bob", "--config", oneHour), Refusal.PLAN_EXPIRED,
                "and is older than 1 hours. Propose the change again to see the rows as they are now.");
        refused(d.llmsafe("approve", proposed, "--as", "alice", "--config", oneHour), Refusal.PLAN_EXPIRED,
                "and is older than 1 hours");
        // Expired is final, whatever the configuration says now.
        refused(d.llmsafe("apply", approved, "--as", "bob"), Refusal.PLAN_CLOSED, "is expired (older than 1 hours)");
        refused(d.llmsafe("approve", proposed, "--as", "alice"), Refusal.PLAN_CLOSED, "is expired");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(ok(d.llmsafe("list", "--status", "expired")).out()).contains(approved + "  expired")
                .contains(proposed + "  expired");
        assertThat(history(d, approved)).containsExactly("assistant propose done", "alice approve done",
                "llmsafe expire done");
    }

    /** Through the application's URL, a PreparedStatement with parameters; it must become a plan. */
    private static PlanPendingException proposePrepared(Deployed d, String sql, List<Object> parameters) throws Exception {
        List<String> before = d.rows("kinds");
        try (Connection c = d.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                Object p = parameters.get(i);
                if (p instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else if (p instanceof BigDecimal b) {
                    ps.setBigDecimal(i + 1, b);
                } else if (p instanceof byte[] bytes) {
                    ps.setBytes(i + 1, bytes);
                } else if (p instanceof Integer n) {
                    ps.setInt(i + 1, n);
                } else if (p instanceof Boolean b) {
                    ps.setBoolean(i + 1, b);
                } else {
                    ps.setString(i + 1, (String) p);
                }
            }
            ps.executeUpdate();
            throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            assertThat(d.rows("kinds")).as("the dry run changed nothing").isEqualTo(before);
            return e;
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------

    /** Blocks the audit entries with this outcome: a trigger on the store's audit table refuses them. */
    private static void blockAudit(Deployed d, String outcome) throws SQLException {
        switch (d.engine()) {
            case POSTGRES -> StoreAdmin.execute(d, "CREATE OR REPLACE FUNCTION block_audit() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN IF NEW.outcome = '" + outcome + "' THEN RAISE EXCEPTION 'audit disabled'; END IF;"
                            + " RETURN NEW; END $$",
                    "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW EXECUTE FUNCTION block_audit()");
            case MYSQL -> StoreAdmin.execute(d, "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW"
                    + " BEGIN IF NEW.outcome = '" + outcome + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT ="
                    + " 'audit disabled'; END IF; END");
            case SQLITE -> StoreAdmin.execute(d, "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit WHEN NEW.outcome = '"
                    + outcome + "' BEGIN SELECT RAISE(ABORT, 'audit disabled'); END");
        }
    }

    private static void unblockAudit(Deployed d) throws SQLException {
        StoreAdmin.execute(d, "DROP TRIGGER block_audit" + (d.engine() == Engine.POSTGRES ? " ON llmsafe_audit" : ""));
    }

    /** Revokes or grants UPDATE on orders for one of the roles. */
    private static void privilege(Deployed d, String verb, Role role) throws SQLException {
        String name = d.roles().login(role).name();
        String grantee = d.flavor() == Flavor.POSTGRES ? name : "'" + name + "'@'%'";
        d.admin(verb + " UPDATE ON " + d.app().name() + ".orders " + (verb.equals("GRANT") ? "TO " : "FROM ") + grantee);
    }
    // ---- the values of A10 ---------------------------------------------------------------------------

    /**
     * A table with values of many kinds, per engine: row 1 is updated, rows 2 (NULLs) and 3 deleted, and
     * row 9 holds what row 1 must hold after the update.
     *
     * @param changed how many columns the update changes
     * @param amount the amount of rows 1 and 3, as the card shows it
     */
    private record Kinds(List<String> schema, String update, List<Object> parameters, int changed, String amount) {

        static Kinds of(Engine engine) {
            String label = "'h\u00e9llo ''quoted'' \ud83d\ude00'";
            String newLabel = "na\u00efve \"x\" 'y' \ud83d\ude01";
            String json = "'{\"role\":\"user\"}'";
            String newJson = "'{\"role\":\"admin\"}'";
            String at = "'2024-02-29 13:45:56.123456'";
            String newAt = "'2024-02-29 13:45:56.123457'";
            String create;
            String before;
            String after;
            int nulls;
            BigDecimal amount;
            switch (engine) {
                case POSTGRES -> {
                    create = "CREATE TABLE kinds (id INT PRIMARY KEY, big BIGINT NOT NULL, amount NUMERIC(30,10), at TIMESTAMP(6),"
                            + " atz TIMESTAMPTZ(6), day DATE, flag BOOLEAN, doc JSONB, raw BYTEA, label TEXT, uid UUID,"
                            + " tags TEXT[], gap INTERVAL)";
                    String rest = ", 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"a,b\",NULL}', '1 year 2 mons -3 days 04:05:06.000007'";
                    before = "9223372036854775807, 12345678901234567890.0123456789, " + at + ", '2024-02-29 13:45:56.123456+00',"
                            + " '2024-02-29', true, " + json + ", '\\x00ff80275c', " + label + rest;
                    after = "-9223372036854775808, -98765432109876543210.9876543210, " + newAt + ", '2024-02-29 13:45:56.123456+00',"
                            + " '2024-03-01', false, " + newJson + ", '\\x00fe275c00', " + sql(newLabel) + rest;
                    nulls = 11;
                    amount = new BigDecimal("-98765432109876543210.9876543210");
                }
                case MYSQL -> {
                    create = "CREATE TABLE kinds (id INT PRIMARY KEY, big BIGINT NOT NULL, amount DECIMAL(30,10), at DATETIME(6),"
                            + " atz TIMESTAMP(6) NULL DEFAULT NULL, day DATE, flag TINYINT(1), doc JSON, raw VARBINARY(16),"
                            + " label VARCHAR(100), mood ENUM('sad','ok','happy'), tags SET('a','b','c'), gap TIME(6))";
                    String rest = ", 'ok', 'a,c', '-838:59:59.000000'";
                    before = "9223372036854775807, 12345678901234567890.0123456789, " + at + ", " + at + ", '2024-02-29', 1, "
                            + json + ", x'00ff80275c', " + label + rest;
                    after = "-9223372036854775808, -98765432109876543210.9876543210, " + newAt + ", " + at + ", '2024-03-01', 0, "
                            + newJson + ", x'00fe275c00', " + sql(newLabel) + rest;
                    nulls = 11;
                    amount = new BigDecimal("-98765432109876543210.9876543210");
                }
                default -> {
                    // SQLite stores a decimal in a NUMERIC column as a REAL (F13): -2.25 is exact there.
                    create = "CREATE TABLE kinds (id INTEGER PRIMARY KEY, big INTEGER NOT NULL, amount NUMERIC, at DATETIME,"
                            + " atz TEXT, day DATE, flag BOOLEAN, doc JSON, raw BLOB, label TEXT, r REAL)";
                    before = "9223372036854775807, 1.5, " + at + ", '2024-02-29 13:45:56.123456+00:00', '2024-02-29', 1, "
                            + json + ", x'00ff80275c', " + label + ", 0.1";
                    after = "-9223372036854775808, -2.25, " + newAt + ", '2024-02-29 13:45:56.123456+00:00', '2024-03-01', 0, "
                            + newJson + ", x'00fe275c00', " + sql(newLabel) + ", 0.1";
                    nulls = 9;
                    amount = new BigDecimal("-2.25");
                }
            }
            List<String> schema = List.of(create, "INSERT INTO kinds VALUES (1, " + before + "), (2, -1"
                    + ", NULL".repeat(nulls) + "), (3, " + before + "), (9, " + after + ")");
            String update = "UPDATE kinds SET big = ?, amount = ?, raw = ?, label = ?, flag = ?, at = " + newAt
                    + ", day = '2024-03-01', doc = " + newJson + " WHERE id = ?";
            List<Object> parameters = List.of(Long.MIN_VALUE, amount, new byte[] {0, (byte) 0xfe, 0x27, 0x5c, 0}, newLabel,
                    Boolean.FALSE, 1);
            return new Kinds(schema, update, parameters, 8, engine == Engine.SQLITE ? "1.5" : "12345678901234567890.0123456789");
        }

        private static String sql(String text) {
            return "'" + text.replace("'", "''") + "'";
        }
    }
}
