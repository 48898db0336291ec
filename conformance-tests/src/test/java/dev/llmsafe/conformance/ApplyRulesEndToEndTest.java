package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Approving and applying (A1 to A11) and the plan store's trust (T1 to T3), driven as a user drives
 * them: a plan proposed through the application's {@code jdbc:llmsafe:} URL or {@code llmsafe plan},
 * then {@code approve}, {@code apply}, {@code reject}, {@code show} and {@code list} on the command
 * line, on the four-role deployment of {@link EndToEnd}. Where a rule is about what someone does
 * behind llmsafe's back (a row edited after approval, a trigger added, a stored plan edited), the
 * administrator does it on the database directly, as such a person would.
 *
 * <p>Every test works on rows of its own (a block of ten order ids, or a table of its own), so that
 * the order of the tests does not matter.
 */
class ApplyRulesEndToEndTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String SEAL_KEY = "e2e-seal-key-0123456789abcdef";

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

    /**
     * Every test's own orders: ids from its block, five rows each (block + 0 to block + 4): packed,
     * packed and fragile, open, open, packed.
     */
    private static final int A1 = 10;
    private static final int A2_ROLES = 20;
    private static final int A2_POLICY = 30;
    private static final int A3 = 40;
    private static final int A4 = 50;
    private static final int A7 = 70;
    private static final int A8 = 80;
    private static final int A9 = 90;
    private static final int A11 = 110;
    private static final int T1 = 210;
    private static final int T2 = 220;
    private static final int T2_SEALS = 230;
    private static final int T3 = 250;
    private static final List<Integer> BLOCKS = List.of(A1, A2_ROLES, A2_POLICY, A3, A4, A7, A8, A9, A11, T1, T2, T2_SEALS, T3);

    private static final String STALE = "did not show this transaction in a fresh INNODB_TRX";

    @TempDir
    static Path dir;

    private static EndToEnd e2e;

    @BeforeAll
    static void deploy() {
        e2e = new EndToEnd(dbs, dir, SETUP);
    }

    @AfterAll
    static void dropRoles() throws SQLException {
        e2e.close();
    }

    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(100), qty INT NOT NULL)",
                // A5, A6: a table whose triggers and rules come and go.
                "CREATE TABLE gauges (id INT PRIMARY KEY, note VARCHAR(100), qty INT NOT NULL)",
                "INSERT INTO gauges VALUES (1, NULL, 1), (2, NULL, 2), (3, NULL, 3)"));
        List<String> rows = new ArrayList<>();
        for (int b : BLOCKS) {
            rows.add("(" + b + ", 'packed', NULL, 1), (" + (b + 1) + ", 'packed', 'fragile', 2), (" + (b + 2)
                    + ", 'open', NULL, 3), (" + (b + 3) + ", 'open', NULL, 4), (" + (b + 4) + ", 'packed', NULL, 5)");
        }
        sql.add("INSERT INTO orders VALUES " + String.join(", ", rows));
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
        again(() -> {
            List<String> before = d.rows("orders");
            String id = proposed(d.plan("UPDATE orders SET qty = 5 WHERE id = " + A1));

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
        });
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
        again(() -> {
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
        });

        List<String> before = d.rows("orders");
        String id = approved(d, "UPDATE orders SET status = 'shipped' WHERE id = " + (A2_ROLES + 1));
        privilege(d, "REVOKE", Role.APPLY);
        Run apply;
        try {
            apply = d.llmsafe("apply", id, "--as", "bob");
        } finally {
            privilege(d, "GRANT", Role.APPLY);
        }
        assertThat(apply.status()).as(apply.all()).isEqualTo(Main.ERROR);
        assertThat(apply.err()).startsWith("the database could not be used: ").contains(d.flavor() == Flavor.POSTGRES
                ? "permission denied for table orders" : "UPDATE command denied to user '" + d.roles().login(Role.APPLY).name());
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("failed");
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
        refused(d.llmsafe("apply", qty, "--as", "bob", "--config", noImpact), Refusal.IMPACT_UNDECLARED, "orders");

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
        again(() -> {
            List<String> before = d.rows("orders");
            String id = approved(d, "UPDATE orders SET status = 'shipped' WHERE id = " + row);
            d.admin("UPDATE orders SET note = 'call first', qty = 7 WHERE id = " + row);
            ok(apply(d, id, "--as", "bob"));
            assertThat(d.rows("orders")).isEqualTo(replaced(before, row, "[" + row + ", shipped, call first, 7]"));
        });
    }

    // ---- A5, A6 ------------------------------------------------------------------------------------

    /**
     * The database reports another number of affected rows at apply than the card showed: a PostgreSQL
     * rule that turns the UPDATE into nothing, a SQLite trigger that skips the row (RAISE(IGNORE)),
     * both added after approval. MariaDB and MySQL have neither rules nor a way for a trigger to skip a
     * row without an error.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "SQLITE"})
    void A5_anotherNumberOfAffectedRowsAtApplyIsResultMismatchAndEverythingRollsBack(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        again(() -> {
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
        });
    }

    /**
     * A trigger added after approval changes the approved value on its way in: the rows read back
     * before COMMIT differ from the card, and nothing is committed. SQLite triggers cannot change the
     * row being written (only write it again, which D14 measures as a side effect).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void A5_A6_aTriggerAddedAfterApprovalThatChangesTheApprovedValueIsCaughtBeforeCommit(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        again(() -> {
            List<String> before = d.rows("gauges");
            String id = approved(d, "UPDATE gauges SET qty = 7 WHERE id = 1");
            if (d.flavor() == Flavor.POSTGRES) {
                d.admin("CREATE OR REPLACE FUNCTION gauges_double() RETURNS trigger LANGUAGE plpgsql AS"
                                + " $$ BEGIN NEW.qty := NEW.qty * 2; RETURN NEW; END $$",
                        "CREATE TRIGGER gauges_double BEFORE UPDATE ON gauges FOR EACH ROW EXECUTE FUNCTION gauges_double()");
            } else {
                d.admin("CREATE TRIGGER gauges_double BEFORE UPDATE ON gauges FOR EACH ROW SET NEW.qty = NEW.qty * 2");
            }
            try {
                refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH, "qty became 14, the card showed 7");
            } finally {
                d.admin("DROP TRIGGER gauges_double" + (d.flavor() == Flavor.POSTGRES ? " ON gauges" : ""));
            }
            assertThat(d.rows("gauges")).isEqualTo(before);
            assertThat(outcome(d, id)).startsWith("RESULT_MISMATCH");
        });
    }

    // ---- A7 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_theAttemptIsAuditedBeforeTheApplyAndTheOutcomeAfter(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        again(() -> {
            List<String> before = d.rows("orders");
            String id = approved(d, "UPDATE orders SET qty = 11 WHERE id = " + A7);
            ok(apply(d, id, "--as", "bob"));
            assertThat(history(d, id)).containsExactly("assistant propose done", "alice approve done",
                    "bob apply attempting", "bob apply applied");
            JsonNode history = show(d, id).get("history");
            assertThat(history.get(3).get("detail").asText()).isEqualTo("1 row committed");
            assertThat(history.get(2).get("at").asText()).isLessThanOrEqualTo(history.get(3).get("at").asText());
            assertThat(d.rows("orders")).isEqualTo(replaced(before, A7, "[" + A7 + ", packed, null, 11]"));
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A7_noAttemptingAuditNoApply_andAnOutcomeThatCannotBeWrittenIsAWarning(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = A7 + 1;
        again(() -> {
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
        });
    }

    // ---- A8 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A8_aPlanIsAppliedOnce_theSecondApplyIsAlreadyApplied(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        again(() -> {
            List<String> before = d.rows("orders");
            String id = approved(d, "UPDATE orders SET qty = qty + 1 WHERE id = " + A8);
            ok(apply(d, id, "--as", "bob"));
            List<String> after = replaced(before, A8, "[" + A8 + ", packed, null, 2]");
            assertThat(d.rows("orders")).isEqualTo(after);
            refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.ALREADY_APPLIED, "it can be applied only once");
            refused(d.llmsafe("apply", id, "--as", "carol"), Refusal.ALREADY_APPLIED, "it can be applied only once");
            assertThat(d.rows("orders")).isEqualTo(after);
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A8_ofFourAppliersRacingExactlyOneCommits(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = A8 + 1;
        again(() -> {
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
            for (Run r : runs) {
                stale(r);
            }
            assertThat(runs).filteredOn(r -> r.status() == Main.OK).hasSize(1);
            assertThat(runs).filteredOn(r -> r.status() == Main.REFUSED && r.err().startsWith("Refused (ALREADY_APPLIED)"))
                    .as(runs.toString()).hasSize(3);
            assertThat(d.rows("orders")).isEqualTo(replaced(before, row, "[" + row + ", packed, fragile, 3]"));
            assertThat(history(d, id)).filteredOn(h -> h.endsWith(" apply applied")).hasSize(1);
        });
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
        refused(apply, Refusal.LOCK_TIMEOUT, "the apply waited or ran past its bound (700 ms for a lock");
        assertThat(apply.err()).contains("nothing was applied");
        // MariaDB counts its lock wait in whole seconds: 700 ms is 1 s there.
        assertThat(millis).isLessThan(6_000);
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("failed");
        assertThat(outcome(d, id)).startsWith("LOCK_TIMEOUT");
        assertThat(history(d, id)).containsExactly("assistant propose done", "alice approve done", "bob apply attempting",
                "bob apply failed");
    }

    // ---- A10 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A10_valuesOfEveryKindRoundTripThroughTheStoreAndTheApplyWritesExactlyThem(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Kinds kinds = Kinds.of(engine);
        List<String> before = d.rows("kinds");
        // Parameters of several JDBC types, as the application binds them (D16), and literals of the rest.
        again(() -> roundTrip(d, proposePrepared(d, kinds.update(), kinds.parameters()),
                "1 row would change, in " + kinds.changed() + " columns: "));
        // A DELETE is compared column by column, at apply, with what came back out of the store (A4).
        again(() -> roundTrip(d, d.propose("DELETE FROM kinds WHERE id IN (2, 3)", "kinds"),
                "2 rows would be deleted outright"));
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
    private static void roundTrip(Deployed d, PlanPendingException pending, String summary) throws Exception {
        assertThat(pending.getMessage()).contains(summary);
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
     * A plan past planExpiryHours (24 by default) is expired. The plan is aged by editing its stored
     * date, which the administrator can do here because no seal key is set (T2): the checksum alone is
     * recomputed by whoever can write the store.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void A11_aPlanOlderThanPlanExpiryHoursIsExpired(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        List<String> before = d.rows("orders");
        String approved = approved(d, "UPDATE orders SET qty = 9 WHERE id = " + (A11 + 1));
        String proposed = proposed(d.plan("UPDATE orders SET qty = 9 WHERE id = " + (A11 + 2)));
        for (String id : List.of(approved, proposed)) {
            Store.age(d, id, 25);
        }
        refused(d.llmsafe("apply", approved, "--as", "bob"), Refusal.PLAN_EXPIRED, "is older than 24 hours");
        refused(d.llmsafe("approve", proposed, "--as", "alice"), Refusal.PLAN_EXPIRED, "is older than 24 hours");
        refused(d.llmsafe("apply", approved, "--as", "bob"), Refusal.PLAN_CLOSED, "is expired");
        refused(d.llmsafe("approve", proposed, "--as", "alice"), Refusal.PLAN_CLOSED, "is expired");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(ok(d.llmsafe("list", "--status", "expired")).out()).contains(approved + "  expired")
                .contains(proposed + "  expired");
        assertThat(history(d, approved)).endsWith("llmsafe expire done");
        // A plan of the right age is not touched by the others' expiry.
        String young = approved(d, "UPDATE orders SET qty = 9 WHERE id = " + (A11 + 3));
        assertThat(status(d, young)).isEqualTo("approved");
        ok(d.llmsafe("reject", young, "--as", "alice"));
    }

    // ---- T1 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T1_migrateTwiceChangesNothing_andEveryCommandOnAStoreNeverMigratedSaysStoreMissing(Engine engine)
            throws Exception {
        Deployed d = deployed(engine);
        String id = approved(d, "UPDATE orders SET qty = 3 WHERE id = " + T1);
        String plans = ok(d.llmsafe("list", "--json")).out();
        for (int i = 0; i < 2; i++) {
            Run migrate = ok(d.llmsafe("migrate"));
            assertThat(migrate.out()).startsWith("The plan store is at version 1 in ");
        }
        assertThat(ok(d.llmsafe("list", "--json")).out()).isEqualTo(plans);
        assertThat(status(d, id)).isEqualTo("approved");

        // A deployment whose store connection points at a database where migrate never ran: the
        // application's own, as the administrator, which holds no llmsafe table.
        String admin = Matcher.quoteReplacement("\"storeConnection\": " + adminConnection(d));
        String empty = variant(d, "no-store", t -> t.replaceFirst("\"storeConnection\": \\{[^\\n]*\\}", admin));
        List<String> before = d.rows("orders");
        String missing = "Run `llmsafe migrate` to create it.";
        refused(plan(d, "assistant", "--config", empty, "UPDATE orders SET qty = 4 WHERE id = " + (T1 + 1)),
                Refusal.STORE_MISSING, missing);
        for (String[] command : List.of(new String[] {"list"}, new String[] {"show", id}, new String[] {"approve", id, "--as",
                "alice"}, new String[] {"apply", id, "--as", "bob"}, new String[] {"reject", id, "--as", "carol"})) {
            List<String> args = new ArrayList<>(List.of(command));
            args.addAll(List.of("--config", empty));
            Run r = d.llmsafe(args.toArray(String[]::new));
            refused(r, Refusal.STORE_MISSING, "the plan store does not exist in this database yet. " + missing);
        }
        Run json = d.llmsafe("list", "--json", "--config", empty);
        assertThat(json.status()).isEqualTo(Main.REFUSED);
        assertThat(new ObjectMapper().readTree(json.out()).get("error").get("code").asText()).isEqualTo("STORE_MISSING");
        Run check = d.llmsafe("check", "--config", empty);
        for (int attempt = 1; attempt < EndToEnd.ATTEMPTS && EndToEnd.staleInnodbTrx(check.out(), attempt); attempt++) {
            check = d.llmsafe("check", "--config", empty);
        }
        assertThat(check.status()).as(check.all()).isEqualTo(Main.NOT_READY);
        assertThat(check.out()).contains("missing: run `llmsafe migrate` to create it").contains("Ready: no");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("approved");
    }

    // ---- T2 ----------------------------------------------------------------------------------------

    /**
     * The plans this test leaves in the store cannot be read with the deployment's own configuration, and
     * every command that lists plans checks each one as it reads it: they are removed at the end.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_anEditedPlanIsCaughtByItsChecksum_andWithASealKeyByItsSeal(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String sealed = variant(d, "sealed", top("\"sealKey\": \"" + SEAL_KEY + "\""));
        List<String> before = d.rows("orders");
        List<String> made = new ArrayList<>();
        try {
            String edited = made(made, proposed(d.plan("UPDATE orders SET qty = 5 WHERE id = " + T2)));
            Store.editPlan(d, edited, "qty = 5", "qty = 500", false);
            String tampered = "plan " + edited + " was changed after it was stored: the plan's text does not match its"
                    + " checksum. It will not be approved or applied";
            refused(d.llmsafe("show", edited), Refusal.PLAN_TAMPERED, tampered);
            refused(d.llmsafe("approve", edited, "--as", "alice"), Refusal.PLAN_TAMPERED, tampered);
            // Every plan is checked on its way out of the store, listed ones too.
            refused(d.llmsafe("list"), Refusal.PLAN_TAMPERED, tampered);

            // With a seal key, an edit whose checksum was recomputed is caught before anything runs.
            String sealedPlan = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 7 WHERE id = "
                    + (T2 + 1))));
            Store.editPlan(d, sealedPlan, "qty = 7", "qty = 700", true);
            refused(d.llmsafe("show", sealedPlan, "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the plan's seal does not match it");
            refused(d.llmsafe("approve", sealedPlan, "--as", "alice", "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the plan's seal does not match it");

            // A status moved to approved with no approval; with a seal key, an approval whose approver was changed.
            String forged = made(made, proposed(d.plan("UPDATE orders SET qty = 8 WHERE id = " + (T2 + 2))));
            Store.set(d, forged, "status", "approved");
            refused(d.llmsafe("apply", forged, "--as", "bob"), Refusal.PLAN_TAMPERED,
                    "it is marked approved but no approval is recorded");
            String reassigned = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 9 WHERE id = "
                    + (T2 + 3))));
            ok(d.llmsafe("approve", reassigned, "--as", "alice", "--config", sealed));
            Store.set(d, reassigned, "approved_by", "the-ceo");
            refused(d.llmsafe("apply", reassigned, "--as", "bob", "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the approval's seal does not match it");
            assertThat(d.rows("orders")).isEqualTo(before);
        } finally {
            Store.remove(d, made);
        }
    }

    /**
     * Without a seal key, whoever can write the store can recompute the checksum of an edited plan, as
     * check warns: the apply still compares what the statement does with the card, and rolls back.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_withoutASealKeyAnEditWithItsChecksumRecomputedIsStillStoppedByTheRows(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        int row = T2 + 4;
        again(() -> {
            List<String> before = d.rows("orders");
            String id = proposed(d.plan("UPDATE orders SET qty = 6 WHERE id = " + row));
            Store.editPlan(d, id, "qty = 6", "qty = 600", true);
            ok(d.llmsafe("approve", id, "--as", "alice"));
            refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH, "qty became 600, the card showed 6");
            assertThat(d.rows("orders")).isEqualTo(before);
        });
    }

    /** The sealed plans cannot be read with the deployment's own configuration: they are removed at the end. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_aSealKeyOnOneSideOnlyRefusesEveryPlan_andOnBothSidesThePlanApplies(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String sealed = variant(d, "sealed", top("\"sealKey\": \"" + SEAL_KEY + "\""));
        List<String> before = d.rows("orders");
        List<String> made = new ArrayList<>();
        try {
            String sealedPlan = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 5 WHERE id = "
                    + T2_SEALS)));
            String unsealed = "plan " + sealedPlan + "'s plan is sealed, but no seal key is set here: the seal key must be"
                    + " set on both the planning and the applying side, or on neither";
            refused(d.llmsafe("show", sealedPlan), Refusal.PLAN_UNSEALED, unsealed);
            refused(d.llmsafe("approve", sealedPlan, "--as", "alice"), Refusal.PLAN_UNSEALED, unsealed);

            // Proposed through the application's URL, whose configuration has no seal key.
            String plain = made(made, d.propose("UPDATE orders SET qty = 6 WHERE id = " + (T2_SEALS + 1), "orders")
                    .planId().toString());
            refused(d.llmsafe("approve", plain, "--as", "alice", "--config", sealed), Refusal.PLAN_UNSEALED,
                    "plan " + plain + "'s plan carries no seal, but a seal key is set here");
            refused(d.llmsafe("show", plain, "--config", sealed), Refusal.PLAN_UNSEALED, "carries no seal");
            assertThat(d.rows("orders")).isEqualTo(before);
            assertThat(d.llmsafe("check", "--config", sealed).out()).contains("A seal key is set here.");

            again(() -> {
                List<String> now = d.rows("orders");
                String both = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 7 WHERE id = "
                        + (T2_SEALS + 2))));
                ok(d.llmsafe("approve", both, "--as", "alice", "--config", sealed));
                ok(apply(d, both, "--as", "bob", "--config", sealed));
                assertThat(d.rows("orders")).isEqualTo(replaced(now, T2_SEALS + 2, "[" + (T2_SEALS + 2) + ", open, null, 7]"));
                assertThat(history(d, both, "--config", sealed)).containsExactly("assistant propose done",
                        "alice approve done", "bob apply attempting", "bob apply applied");
            });
        } finally {
            Store.remove(d, made);
        }
    }

    private static String made(List<String> made, String id) {
        made.add(id);
        return id;
    }

    // ---- T3 ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T3_actorNamesAreRecordedAsGiven_notAnAuthorisationBoundary_andCheckSaysSo(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Run check = d.llmsafe("check");
        for (int attempt = 1; attempt < EndToEnd.ATTEMPTS && EndToEnd.staleInnodbTrx(check.out(), attempt); attempt++) {
            check = d.llmsafe("check");
        }
        assertThat(check.out()).contains("Actor names (--as) are taken at their word: they are recorded, and the proposer is"
                + " refused as approver, but they are not an authorisation boundary. The boundary is the apply credential.");

        String id = proposed(plan(d, "Kenji Sato", "UPDATE orders SET qty = 4 WHERE id = " + T3));
        // Compared trimmed and without case, so the proposer cannot pass as someone else by spelling.
        refused(d.llmsafe("approve", id, "--as", "  KENJI sato "), Refusal.SELF_APPROVAL, "cannot also approve it");
        ok(d.llmsafe("approve", id, "--as", "Ana María <ana@example.com>"));
        JsonNode shown = show(d, id);
        assertThat(shown.get("approvedBy").asText()).isEqualTo("Ana María <ana@example.com>");
        List<String> actors = new ArrayList<>();
        shown.get("history").forEach(h -> actors.add(h.get("actor").asText()));
        assertThat(actors).containsExactly("Kenji Sato", "  KENJI sato ", "Ana María <ana@example.com>");
        assertThat(ok(d.llmsafe("list", "--status", "approved")).out()).contains(id).contains("Kenji Sato");
        ok(d.llmsafe("reject", id, "--as", "Ana María <ana@example.com>"));
    }

    // ---- helpers: the command line -----------------------------------------------------------------

    /** The scenario is run again when an apply found InnoDB's INNODB_TRX stale (see {@link EndToEnd#staleInnodbTrx}). */
    @FunctionalInterface
    private interface Scenario {
        void run() throws Exception;
    }

    /** An apply that said nothing about the rule under test: another process kept INNODB_TRX stale. */
    private static final class StaleApply extends RuntimeException {
        private final String output;

        StaleApply(String output) {
            super("INNODB_TRX stayed stale: " + output);
            this.output = output;
        }
    }

    /**
     * Runs the scenario, and again, up to {@link EndToEnd#ATTEMPTS} times, when one of its applies was
     * refused because INNODB_TRX stayed stale; such an apply changed nothing, and the scenario starts
     * over with a new plan.
     */
    private static void again(Scenario scenario) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                scenario.run();
                return;
            } catch (StaleApply e) {
                if (attempt >= EndToEnd.ATTEMPTS) {
                    throw e;
                }
                EndToEnd.staleInnodbTrx(e.output, attempt);
            }
        }
    }

    /** {@code llmsafe apply ID ARGS}; a {@link StaleApply} when INNODB_TRX stayed stale. */
    private static Run apply(Deployed d, String id, String... args) {
        List<String> all = new ArrayList<>(List.of("apply", id));
        all.addAll(List.of(args));
        return stale(d.llmsafe(all.toArray(String[]::new)));
    }

    private static Run stale(Run r) {
        if (r.all().contains(STALE)) {
            throw new StaleApply(r.all());
        }
        return r;
    }

    /** {@code llmsafe plan ARGS --as ACTOR}, again when the dry run found INNODB_TRX stale. */
    private static Run plan(Deployed d, String actor, String... args) throws InterruptedException {
        List<String> all = new ArrayList<>(List.of("plan"));
        all.addAll(List.of(args));
        all.addAll(List.of("--as", actor));
        for (int attempt = 1; ; attempt++) {
            Run plan = d.llmsafe(all.toArray(String[]::new));
            if (attempt >= EndToEnd.ATTEMPTS || !EndToEnd.staleInnodbTrx(plan.err(), attempt)) {
                return plan;
            }
        }
    }

    /** The id of a plan the command proposed. */
    private static String proposed(Run plan) {
        ok(plan);
        assertThat(plan.out()).contains("is proposed, not applied. Nothing in the database has changed.");
        return EndToEnd.planId(plan);
    }

    /** {@code llmsafe plan SQL --as assistant}, then {@code approve --as alice}; nothing changed. */
    private static String approved(Deployed d, String sql) throws Exception {
        List<String> before = d.rows("orders");
        String id = proposed(d.plan(sql));
        Run approve = ok(d.llmsafe("approve", id, "--as", "alice"));
        assertThat(approve.out()).isEqualTo("Plan " + id + " is approved by alice. It changes nothing until it is applied:"
                + " llmsafe apply " + id + " --as <applier>" + System.lineSeparator());
        assertThat(d.rows("orders")).isEqualTo(before);
        return id;
    }

    private static Run ok(Run r) {
        assertThat(r.status()).as(r.all()).isEqualTo(Main.OK);
        return r;
    }

    /** The command was refused with the code, its message containing the text. */
    private static void refused(Run r, Refusal code, String text) {
        assertThat(r.status()).as(r.all()).isEqualTo(Main.REFUSED);
        assertThat(r.err()).startsWith("Refused (" + code.name() + "): ").contains(text);
    }

    /** {@code llmsafe show ID --json}. */
    private static JsonNode show(Deployed d, String id, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("show", id, "--json"));
        all.addAll(List.of(args));
        return new ObjectMapper().readTree(ok(d.llmsafe(all.toArray(String[]::new))).out());
    }

    private static String status(Deployed d, String id) throws Exception {
        return show(d, id).get("status").asText();
    }

    private static String outcome(Deployed d, String id) throws Exception {
        return show(d, id).get("outcome").asText();
    }

    /** The plan's history as "actor action outcome" lines, as {@code show --json} gives it. */
    private static List<String> history(Deployed d, String id, String... args) throws Exception {
        List<String> out = new ArrayList<>();
        show(d, id, args).get("history").forEach(h -> out.add(h.get("actor").asText() + " " + h.get("action").asText() + " "
                + h.get("outcome").asText()));
        return out;
    }

    /** The rows with the one whose key is {@code id} replaced. */
    private static List<String> replaced(List<String> rows, int id, String row) {
        List<String> out = new ArrayList<>();
        boolean found = false;
        for (String r : rows) {
            if (r.startsWith("[" + id + ", ")) {
                out.add(row);
                found = true;
            } else {
                out.add(r);
            }
        }
        assertThat(found).as("row %d", id).isTrue();
        return out;
    }

    /** Through the application's URL, a PreparedStatement with parameters; it must become a plan. */
    private static PlanPendingException proposePrepared(Deployed d, String sql, List<Object> parameters) throws Exception {
        List<String> before = d.rows("kinds");
        for (int attempt = 1; ; attempt++) {
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
            } catch (RefusedException e) {
                if (attempt < EndToEnd.ATTEMPTS && EndToEnd.staleInnodbTrx(e.getMessage(), attempt)) {
                    continue;
                }
                throw e;
            }
        }
    }

    // ---- helpers: the configuration file ---------------------------------------------------------

    /**
     * A copy of the deployment's configuration file, edited, next to it; its path, for {@code --config}.
     * The edit must change the text.
     */
    private static String variant(Deployed d, String name, UnaryOperator<String> edit) throws Exception {
        String text = Files.readString(d.home().resolve("llmsafe.json"));
        String edited = edit.apply(text);
        assertThat(edited).as("the edit of %s", name).isNotEqualTo(text);
        return Files.writeString(d.home().resolve(name + ".json"), edited).toString();
    }

    /** An edit that adds a top-level member. */
    private static UnaryOperator<String> top(String member) {
        return t -> t.replaceFirst("^\\{\\n", "{\n  " + member.replace("\\", "\\\\").replace("$", "\\$") + ",\n");
    }

    /** An edit that adds a member to the policy. */
    private static UnaryOperator<String> policy(String member) {
        return t -> t.replace("\"policy\": {", "\"policy\": {\n    " + member + ",");
    }

    /** The administrator's connection to the application's database, as a configuration's connection object. */
    private static String adminConnection(Deployed d) throws Exception {
        ObjectMapper json = new ObjectMapper();
        var node = json.createObjectNode().put("url", d.app().url());
        if (d.app().user() != null) {
            node.put("user", d.app().user());
        }
        if (d.app().password() != null) {
            node.put("password", d.app().password());
        }
        return json.writeValueAsString(node);
    }

    // ---- helpers: the store, edited behind llmsafe's back ------------------------------------------

    /** Blocks the audit entries with this outcome: a trigger on the store's audit table refuses them. */
    private static void blockAudit(Deployed d, String outcome) throws SQLException {
        switch (d.engine()) {
            case POSTGRES -> Store.execute(d, "CREATE OR REPLACE FUNCTION block_audit() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN IF NEW.outcome = '" + outcome + "' THEN RAISE EXCEPTION 'audit disabled'; END IF;"
                            + " RETURN NEW; END $$",
                    "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW EXECUTE FUNCTION block_audit()");
            case MYSQL -> Store.execute(d, "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit FOR EACH ROW"
                    + " BEGIN IF NEW.outcome = '" + outcome + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT ="
                    + " 'audit disabled'; END IF; END");
            case SQLITE -> Store.execute(d, "CREATE TRIGGER block_audit BEFORE INSERT ON llmsafe_audit WHEN NEW.outcome = '"
                    + outcome + "' BEGIN SELECT RAISE(ABORT, 'audit disabled'); END");
        }
    }

    private static void unblockAudit(Deployed d) throws SQLException {
        Store.execute(d, "DROP TRIGGER block_audit" + (d.engine() == Engine.POSTGRES ? " ON llmsafe_audit" : ""));
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
     */
    private record Kinds(List<String> schema, String update, List<Object> parameters, int changed) {

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
            return new Kinds(schema, update, parameters, 8);
        }

        private static String sql(String text) {
            return "'" + text.replace("'", "''") + "'";
        }
    }

    // ---- the store, edited behind llmsafe's back -----------------------------------------------------

    /** The plan store as its database's administrator sees it (SQLite: the store's own file). */
    private static final class Store {

        private Store() {
        }

        static Connection connect(Deployed d) throws SQLException {
            if (d.engine() == Engine.SQLITE) {
                return DriverManager.getConnection("jdbc:sqlite:" + d.home().resolve("store.db"));
            }
            String app = d.app().name();
            String url = d.flavor() == Flavor.POSTGRES
                    ? d.app().url().replace("currentSchema=" + app, "currentSchema=" + d.roles().store())
                    : d.app().url().replace("/" + app, "/" + d.roles().store());
            return d.app().user() == null ? DriverManager.getConnection(url)
                    : DriverManager.getConnection(url, d.app().user(), d.app().password());
        }

        static void execute(Deployed d, String... sql) throws SQLException {
            try (Connection c = connect(d); Statement s = c.createStatement()) {
                for (String q : sql) {
                    s.execute(q);
                }
            }
        }

        static String get(Deployed d, String id, String column) throws SQLException {
            try (Connection c = connect(d);
                 PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM llmsafe_plans WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as("plan %s in the store", id).isTrue();
                    return rs.getString(1);
                }
            }
        }

        static void set(Deployed d, String id, String column, String value) throws SQLException {
            try (Connection c = connect(d);
                 PreparedStatement ps = c.prepareStatement("UPDATE llmsafe_plans SET " + column + " = ? WHERE id = ?")) {
                ps.setString(1, value);
                ps.setString(2, id);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }

        /** Replaces text in the stored plan, recomputing its checksum (SHA-256 of the text) or not. */
        static void editPlan(Deployed d, String id, String from, String to, boolean checksum) throws Exception {
            String json = get(d, id, "plan_json");
            String edited = json.replace(from, to);
            assertThat(edited).as("the edit of plan %s", id).isNotEqualTo(json);
            set(d, id, "plan_json", edited);
            if (checksum) {
                set(d, id, "checksum", sha256(edited));
            }
        }

        /** Makes the stored plan older by some hours, its checksum recomputed. */
        static void age(Deployed d, String id, int hours) throws Exception {
            String json = get(d, id, "plan_json");
            Matcher m = Pattern.compile("\"createdAt\":\"([^\"]+)\"").matcher(json);
            assertThat(m.find()).as(json).isTrue();
            String older = Instant.parse(m.group(1)).minus(Duration.ofHours(hours)).toString();
            editPlan(d, id, m.group(), "\"createdAt\":\"" + older + "\"", true);
            set(d, id, "created_at", older);
        }

        /** Removes plans and their audit trail. */
        static void remove(Deployed d, List<String> ids) throws SQLException {
            try (Connection c = connect(d)) {
                for (String table : List.of("llmsafe_audit WHERE plan_id = ?", "llmsafe_plans WHERE id = ?")) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table)) {
                        for (String id : ids) {
                            ps.setString(1, id);
                            ps.executeUpdate();
                        }
                    }
                }
            }
        }

        private static String sha256(String s) throws Exception {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
