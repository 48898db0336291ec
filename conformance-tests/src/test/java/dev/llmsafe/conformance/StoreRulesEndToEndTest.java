package dev.llmsafe.conformance;

import static dev.llmsafe.conformance.PlanCommands.apply;
import static dev.llmsafe.conformance.PlanCommands.approved;
import static dev.llmsafe.conformance.PlanCommands.history;
import static dev.llmsafe.conformance.PlanCommands.ok;
import static dev.llmsafe.conformance.PlanCommands.plan;
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
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The plan store and how far it is trusted (T1 to T3), driven as a user drives it: {@code migrate},
 * {@code plan}, {@code approve}, {@code apply}, {@code show}, {@code list} and {@code check} on the
 * command line of the four-role deployment of {@link EndToEnd}, plans also proposed through the
 * application's {@code jdbc:llmsafe:} URL; the store edited behind llmsafe's back by the administrator
 * of its database, as a person who can write it would; configurations with and without a seal key.
 *
 * <p>Every test works on orders of its own (a block of ids), so that the order of the tests does not
 * matter.
 */
class StoreRulesEndToEndTest {

    private static final String SEAL_KEY = "e2e-seal-key-0123456789abcdef";

    /** Every test's own orders: a block of ids (see {@link PlanCommands#orders}). */
    private static final int T1 = 10;
    private static final int T2 = 20;
    private static final int T2_SEALS = 30;
    private static final int T3 = 50;

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> PlanCommands.orders(List.of(T1, T2, T2_SEALS, T3)),
            List.of("orders"), List.of("orders"), List.of(), """
              "policy": {
                "allow": ["orders"],
                "impact": {"orders": "Changing an order moves money."}
              }
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    private static Deployed deployed(Engine engine) throws Exception {
        return e2e.deployed(engine);
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
        String admin = Matcher.quoteReplacement("\"storeConnection\": " + StoreAdmin.adminConnection(d));
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
        assertThat(check.status()).as(check.all()).isEqualTo(Main.NOT_READY);
        assertThat(check.out()).contains("missing: run `llmsafe migrate` to create it").contains("Ready: no");
        assertThat(d.rows("orders")).isEqualTo(before);
        assertThat(status(d, id)).isEqualTo("approved");
    }

    /**
     * A store at another version than this llmsafe's says what to do: an older one is upgraded by
     * migrate, a newer one needs a newer llmsafe, and migrate does not touch it.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void T1_aStoreAtAnotherVersionSaysWhatToDo(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String id = approved(d, "UPDATE orders SET qty = 6 WHERE id = " + (T1 + 2));
        try {
            StoreAdmin.execute(d, "UPDATE llmsafe_schema_version SET version = 2");
            String newer = "the plan store is at version 2, newer than this llmsafe (1). Upgrade llmsafe.";
            refused(d.llmsafe("migrate"), Refusal.STORE_MISSING, newer);
            refused(d.llmsafe("show", id), Refusal.STORE_MISSING, newer);
            refused(d.llmsafe("apply", id, "--as", "bob"), Refusal.STORE_MISSING, newer);
            StoreAdmin.execute(d, "UPDATE llmsafe_schema_version SET version = 0");
            String older = "the plan store is at version 0 and this llmsafe needs 1. Run `llmsafe migrate` to upgrade it.";
            refused(d.llmsafe("list"), Refusal.STORE_MISSING, older);
            refused(d.llmsafe("approve", id, "--as", "carol"), Refusal.STORE_MISSING, older);
        } finally {
            StoreAdmin.execute(d, "UPDATE llmsafe_schema_version SET version = 1");
        }
        assertThat(status(d, id)).isEqualTo("approved");
        ok(d.llmsafe("reject", id, "--as", "carol"));
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
            StoreAdmin.editPlan(d, edited, "qty = 5", "qty = 500", false);
            String tampered = "plan " + edited + " was changed after it was stored: the plan's text does not match its"
                    + " checksum. It will not be approved or applied";
            refused(d.llmsafe("show", edited), Refusal.PLAN_TAMPERED, tampered);
            refused(d.llmsafe("approve", edited, "--as", "alice"), Refusal.PLAN_TAMPERED, tampered);
            // Every plan is checked on its way out of the store, listed ones too: the edited one is named and
            // the status says so, and the others are still listed.
            String intact = made(made, proposed(d.plan("UPDATE orders SET qty = 6 WHERE id = " + T2)));
            Run list = d.llmsafe("list");
            refused(list, Refusal.PLAN_TAMPERED, tampered);
            assertThat(list.out()).contains(intact).doesNotContain(edited);

            // With a seal key, an edit whose checksum was recomputed is caught before anything runs.
            String sealedPlan = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 7 WHERE id = "
                    + (T2 + 1))));
            StoreAdmin.editPlan(d, sealedPlan, "qty = 7", "qty = 700", true);
            refused(d.llmsafe("show", sealedPlan, "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the plan's seal does not match it");
            refused(d.llmsafe("approve", sealedPlan, "--as", "alice", "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the plan's seal does not match it");

            // The proposer's name in its column, the one self-approval is checked against, follows the plan.
            String renamed = made(made, proposed(d.plan("UPDATE orders SET qty = 6 WHERE id = " + (T2 + 4))));
            StoreAdmin.set(d, renamed, "proposer", "someone-else");
            refused(d.llmsafe("approve", renamed, "--as", "assistant"), Refusal.PLAN_TAMPERED,
                    "the plan's id or proposer differs from the row that holds it");

            // A status moved to approved with no approval; with a seal key, an approval whose approver was changed.
            String forged = made(made, proposed(d.plan("UPDATE orders SET qty = 8 WHERE id = " + (T2 + 2))));
            StoreAdmin.set(d, forged, "status", "approved");
            refused(d.llmsafe("apply", forged, "--as", "bob"), Refusal.PLAN_TAMPERED,
                    "it is marked approved but no approval is recorded");
            String reassigned = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 9 WHERE id = "
                    + (T2 + 3))));
            ok(d.llmsafe("approve", reassigned, "--as", "alice", "--config", sealed));
            StoreAdmin.set(d, reassigned, "approved_by", "the-ceo");
            refused(d.llmsafe("apply", reassigned, "--as", "bob", "--config", sealed), Refusal.PLAN_TAMPERED,
                    "the approval's seal does not match it");
            assertThat(d.rows("orders")).isEqualTo(before);
        } finally {
            StoreAdmin.remove(d, made);
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
        List<String> before = d.rows("orders");
        String id = proposed(d.plan("UPDATE orders SET qty = 6 WHERE id = " + row));
        StoreAdmin.editPlan(d, id, "qty = 6", "qty = 600", true);
        ok(d.llmsafe("approve", id, "--as", "alice"));
        refused(apply(d, id, "--as", "bob"), Refusal.RESULT_MISMATCH, "qty became 600, the card showed 6");
        assertThat(d.rows("orders")).isEqualTo(before);
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

            List<String> now = d.rows("orders");
            String both = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = 7 WHERE id = "
                    + (T2_SEALS + 2))));
            ok(d.llmsafe("approve", both, "--as", "alice", "--config", sealed));
            ok(apply(d, both, "--as", "bob", "--config", sealed));
            assertThat(d.rows("orders")).isEqualTo(replaced(now, T2_SEALS + 2, "[" + (T2_SEALS + 2) + ", open, null, 7]"));
            assertThat(history(d, both, "--config", sealed)).containsExactly("assistant propose done",
                    "alice approve done", "bob apply attempting", "bob apply applied");
        } finally {
            StoreAdmin.remove(d, made);
        }
    }

    /**
     * A genuine approval replayed after the apply, by moving the status back to approved: both seals
     * still verify, and the rows stop it (the update's row has its new value, the deleted row is gone).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_A8_replayingAnAppliedPlanByMovingItsStatusBackIsStoppedByTheAuditTrailThenByTheRows(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String sealed = variant(d, "sealed", top("\"sealKey\": \"" + SEAL_KEY + "\""));
        List<String> made = new ArrayList<>();
        try {
            List<String> before = d.rows("orders");
            List<String> plans = new ArrayList<>();
            for (String sql : List.of("UPDATE orders SET qty = qty + 10 WHERE id = " + (T2_SEALS + 3),
                    "DELETE FROM orders WHERE id = " + (T2_SEALS + 4))) {
                String id = made(made, proposed(d.plan("--config", sealed, sql)));
                ok(d.llmsafe("approve", id, "--as", "alice", "--config", sealed));
                ok(apply(d, id, "--as", "bob", "--config", sealed));
                plans.add(id);
            }
            List<String> applied = replaced(before, T2_SEALS + 3, "[" + (T2_SEALS + 3) + ", open, null, 14]");
            assertThat(applied.remove("[" + (T2_SEALS + 4) + ", packed, null, 5]")).isTrue();
            assertThat(d.rows("orders")).isEqualTo(applied);
            for (String id : plans) {
                StoreAdmin.set(d, id, "status", "approved");
                // Both seals still verify; the audit trail says the plan was applied.
                refused(d.llmsafe("apply", id, "--as", "bob", "--config", sealed), Refusal.PLAN_CLOSED,
                        "records 'apply applied' by bob");
                // A store writer who deletes that record too is stopped by the rows.
                StoreAdmin.execute(d, "DELETE FROM llmsafe_audit WHERE plan_id = '" + id + "' AND action = 'apply'");
            }
            refused(d.llmsafe("apply", plans.get(0), "--as", "bob", "--config", sealed), Refusal.ROW_CHANGED,
                    "qty is now 14, the card showed 4");
            refused(d.llmsafe("apply", plans.get(1), "--as", "bob", "--config", sealed), Refusal.ROWS_MOVED,
                    "1 shown rows no longer match");
            assertThat(d.rows("orders")).isEqualTo(applied);
        } finally {
            StoreAdmin.remove(d, made);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T2_A11_aRejectedPlanMovedBackToApprovedInTheStoreIsRefusedByItsAuditTrail(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String sealed = variant(d, "sealed", top("\"sealKey\": \"" + SEAL_KEY + "\""));
        List<String> made = new ArrayList<>();
        try {
            List<String> before = d.rows("orders");
            String id = made(made, proposed(d.plan("--config", sealed, "UPDATE orders SET qty = qty + 20 WHERE id = "
                    + (T2_SEALS + 3))));
            ok(d.llmsafe("approve", id, "--as", "alice", "--config", sealed));
            ok(d.llmsafe("reject", id, "--as", "carol", "--config", sealed));
            StoreAdmin.set(d, id, "status", "approved");
            refused(d.llmsafe("apply", id, "--as", "bob", "--config", sealed), Refusal.PLAN_CLOSED,
                    "records 'reject done' by carol");
            assertThat(d.rows("orders")).isEqualTo(before);
        } finally {
            StoreAdmin.remove(d, made);
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

        // Through the application's URL the proposer is the connection's llmsafe.proposer, taken as given too.
        String viaUrl = proposeAs(d, "Kenji Sato (orders app)", "UPDATE orders SET qty = 5 WHERE id = " + (T3 + 1));
        refused(d.llmsafe("approve", viaUrl, "--as", "KENJI SATO (ORDERS APP)"), Refusal.SELF_APPROVAL,
                "KENJI SATO (ORDERS APP) proposed plan " + viaUrl + " and cannot also approve it");
        assertThat(show(d, viaUrl).get("history").get(0).get("actor").asText()).isEqualTo("Kenji Sato (orders app)");
        ok(d.llmsafe("reject", viaUrl, "--as", "Ana María <ana@example.com>"));
    }

    /**
     * Through {@code jdbc:llmsafe:} with the planning role's credential, as the application connects,
     * naming the proposer in the URL; the statement must become a plan.
     */
    private static String proposeAs(Deployed d, String proposer, String sql) throws Exception {
        Properties credential = new Properties();
        if (d.roles() != null) {
            credential.setProperty("user", d.roles().login(Role.PLAN).name());
            credential.setProperty("password", d.roles().login(Role.PLAN).password());
        }
        String url = d.url() + "&llmsafe.proposer=" + URLEncoder.encode(proposer, StandardCharsets.UTF_8).replace("+", "%20");
        List<String> before = d.rows("orders");
        try (Connection c = DriverManager.getConnection(url, credential); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
            throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            assertThat(e.plan().proposer()).isEqualTo(proposer);
            assertThat(d.rows("orders")).isEqualTo(before);
            return e.planId().toString();
        }
    }
}
