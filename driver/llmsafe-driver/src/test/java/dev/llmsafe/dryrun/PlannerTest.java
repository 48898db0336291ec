package dev.llmsafe.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.plan.Setter;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.MaskedValue;
import dev.llmsafe.value.NullValue;
import dev.llmsafe.value.TextValue;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The dry run on every dialect: what it measures, what the card says, and that nothing changes. */
class PlannerTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Planning> PLANNING = new EnumMap<>(Engine.class);

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact(IMPACT))
            .table("members", t -> t.impact("A member's quota and role decide what they may do."))
            .secret("api_token", "a bearer token")
            .maxUpdateRows(3)
            .maxDeleteRows(2));

    static Planning planning(Engine engine) throws SQLException {
        Planning p = PLANNING.get(engine);
        if (p == null) {
            ScratchDatabase db = dbs.get(engine);
            String json = switch (engine) {
                case POSTGRES -> "jsonb";
                case MYSQL -> "json";
                case SQLITE -> "text";
            };
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(200),"
                            + " qty INT, api_token VARCHAR(40))",
                    "INSERT INTO orders VALUES (1, 'packed', NULL, 1, 'tok-1'), (2, 'packed', 'fragile', 2, 'tok-2'),"
                            + " (3, 'shipped', NULL, 3, 'tok-3'), (4, 'open', NULL, 4, 'tok-4'), (5, 'open', NULL, 5, 'tok-5')",
                    "CREATE TABLE members (id INT PRIMARY KEY, quota INT NOT NULL, profile " + json + ")",
                    "INSERT INTO members VALUES (7, 5, '{\"role\":\"user\"}')");
            p = new Planning(db);
            PLANNING.put(engine, p);
        }
        return p;
    }

    @AfterAll
    static void closePools() {
        PLANNING.values().forEach(Planning::close);
        PLANNING.clear();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C1_theCardShowsTheMeasuredChangeAndSaysNothingChanged(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("orders");
        Plan plan = p.plan(POLICY, "UPDATE orders SET status = ? WHERE id = ?", "shipped", 2);
        assertThat(p.snapshot("orders")).isEqualTo(before);

        PlannedStatement s = plan.statements().get(0);
        assertThat(s.rows()).hasSize(1);
        RowChange row = s.rows().get(0);
        assertThat(row.key()).containsExactly(Map.entry("id", new IntegerValue(java.math.BigInteger.TWO)));
        assertThat(row.columns()).extracting(ColumnChange::column).containsExactly("status");
        assertThat(row.columns().get(0).before()).isEqualTo(new TextValue("packed"));
        assertThat(row.columns().get(0).after()).isEqualTo(new TextValue("shipped"));
        assertThat(s.affectedRows()).isEqualTo(1);

        String card = plan.card();
        assertThat(card).startsWith("Plan " + plan.id() + " is proposed, not applied. Nothing in the database has changed.")
                .contains("  UPDATE orders SET status = ? WHERE id = ?      [1: 'shipped' (setString), 2: 2 (setInt)]")
                .contains(IMPACT)
                .contains("1 row would change, in 1 column: status")
                .contains("  id = 2\n    status: 'packed' -> 'shipped'\n")
                .contains("llmsafe approve " + plan.id() + " --as <approver>")
                .contains("llmsafe apply   " + plan.id() + " --as <applier>")
                .contains("the proposer can do neither");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E5_everyGuaranteeTheDialectCannotMakeIsInEveryPlan(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan plan = p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id = 1");
        assertThat(p.dialect.limitations()).isNotEmpty();
        assertThat(plan.limitations()).isEqualTo(p.dialect.limitations());
        assertThat(plan.database()).isEqualTo(p.dialect.product());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C2_everyLimitationOfTheDatabaseIsPrintedOnTheCard(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan plan = p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id = 1");
        assertThat(plan.card()).contains("Limits of this check on " + p.dialect.product());
        for (String limitation : p.dialect.limitations()) {
            assertThat(plan.card()).contains("  - " + limitation);
        }
        if (engine == Engine.SQLITE) {
            assertThat(plan.card()).contains("SQLite has no statement timeout");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C3_theCardSaysWhoApprovesAndAppliesAndThatTheModelCannot(Engine engine) throws SQLException {
        Plan plan = planning(engine).plan(POLICY, "UPDATE orders SET note = 'x' WHERE id = 3");
        assertThat(plan.card()).endsWith("A person other than the proposer (assistant) must approve it, and a separate"
                + " applier commits it; the proposer can do neither:\n"
                + "  llmsafe approve " + plan.id() + " --as <approver>\n"
                + "  llmsafe apply   " + plan.id() + " --as <applier>\n");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C4_thePlanRoundTripsThroughItsJson(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan plan = p.plan(POLICY, "UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}' WHERE id = ?", 7);
        String json = plan.toJson();
        assertThat(json).startsWith("{\"format\":\"llmsafe-plan/2\",\"id\":\"" + plan.id() + "\"");
        assertThat(Plan.fromJson(json)).isEqualTo(plan);
        assertThat(Plan.fromJson(json).card()).isEqualTo(plan.card());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D13_aPrivilegeEscalationRidingOnAQuotaChangeIsShown(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("members");
        Plan plan = p.plan(POLICY, "UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}' WHERE id = 7");
        PlannedStatement s = plan.statements().get(0);
        assertThat(s.changedColumns()).containsExactly("quota", "profile");
        assertThat(plan.card()).contains("quota: 5 -> 15").contains("profile: ").contains("\"role\"").contains("admin");
        assertThat(p.snapshot("members")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D1_matchingRowsAreCountedFirstAndTooManyRefuseBeforeTheStatementRuns(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("orders");
        assertRefused(() -> p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id <= 4"), Refusal.TOO_MANY_ROWS,
                "4 rows of ");
        assertThat(p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id <= 3").rowCount()).isEqualTo(3);
        assertThat(p.snapshot("orders")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D3_updateAndDeleteHaveCeilingsOfTheirOwnAndATableCanLowerThem(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("orders");
        assertRefused(() -> p.plan(POLICY, "DELETE FROM orders WHERE id <= 3"), Refusal.TOO_MANY_ROWS,
                "more than the 2 a single DELETE may delete");
        assertThat(p.plan(POLICY, "DELETE FROM orders WHERE id <= 2").rowCount()).isEqualTo(2);
        Policy perTable = Policy.define(x -> x.table("orders", t -> t.impact(IMPACT).maxUpdateRows(1)).maxUpdateRows(50));
        assertRefused(() -> p.plan(perTable, "UPDATE orders SET note = 'x' WHERE id <= 2"), Refusal.TOO_MANY_ROWS,
                "more than the 1 a single UPDATE");
        assertThat(p.snapshot("orders")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D2_noMatchingRowIsNoRows(Engine engine) throws SQLException {
        Planning p = planning(engine);
        assertRefused(() -> p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id = 99"), Refusal.NO_ROWS,
                "no row of ");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D10_anUpdateThatChangesNothingIsNoChange(Engine engine) throws SQLException {
        Planning p = planning(engine);
        assertRefused(() -> p.plan(POLICY, "UPDATE orders SET status = status WHERE id IN (1, 2)"), Refusal.NO_CHANGE,
                "changes no value");
        assertRefused(() -> p.plan(POLICY, "UPDATE orders SET status = 'packed' WHERE id = 1"), Refusal.NO_CHANGE,
                "changes no value");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D10_rowsThatMatchButDoNotChangeAreShownAsSuch(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan plan = p.plan(POLICY, "UPDATE orders SET status = 'packed' WHERE id IN (1, 4)");
        assertThat(plan.statements().get(0).rows()).hasSize(2);
        assertThat(plan.card()).contains("  id = 1\n    (matched, but no value changes)\n")
                .contains("  id = 4\n    status: 'open' -> 'packed'\n");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D11_D12_aDeleteSnapshotsEveryColumnAndMasksSecrets(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("orders");
        Plan plan = p.plan(POLICY, "DELETE FROM orders WHERE id = 1");
        PlannedStatement s = plan.statements().get(0);
        assertThat(s.kind()).isEqualTo(PlannedStatement.Kind.DELETE);
        RowChange row = s.rows().get(0);
        assertThat(row.columns()).extracting(ColumnChange::column).containsExactly("id", "status", "note", "qty", "api_token");
        assertThat(row.columns()).allSatisfy(c -> assertThat(c.after()).isNull());
        assertThat(row.columns().get(2).before()).isInstanceOf(NullValue.class);
        assertThat(row.columns().get(4).before()).isInstanceOf(MaskedValue.class)
                .isEqualTo(new TextValue("tok-1").masked()).isNotEqualTo(new TextValue("tok-2").masked());
        assertThat(plan.card()).contains("1 row would be deleted outright").contains("  id = 1  (deleted)\n")
                .contains("    note: NULL\n").doesNotContain("tok-1");
        assertThat(p.snapshot("orders")).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C7_aDeleteCardSaysTheRowsCannotBeBroughtBack(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan delete = p.plan(POLICY, "DELETE FROM orders WHERE id IN (1, 2)");
        String sentence = "Deleted rows cannot be brought back by llmsafe: it keeps no copy to restore them from, and"
                + " applying this plan is final. The values shown here are the only record llmsafe keeps of them.";
        assertThat(delete.card()).contains("  2 rows would be deleted outright, with every value shown below\n  "
                + sentence + "\n");
        assertThat(delete.statements().get(0).irreversible()).isTrue();
        assertThat(delete.toJson()).contains("\"irreversible\":true,\"notice\":\"" + sentence + "\"");
        assertThat(Plan.fromJson(delete.toJson())).isEqualTo(delete);
        Plan update = p.plan(POLICY, "UPDATE orders SET note = 'x' WHERE id = 1");
        assertThat(update.card()).doesNotContain("cannot be brought back");
        assertThat(update.toJson()).contains("\"irreversible\":false").doesNotContain("\"notice\"");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_parametersArePartOfThePlanWithTheirTypes(Engine engine) throws SQLException {
        Planning p = planning(engine);
        Plan plan = p.plan(POLICY, "UPDATE orders SET note = ?, qty = ? WHERE id = ? AND status = ?",
                "it's", 40L, 2, "packed");
        PlannedStatement s = plan.statements().get(0);
        assertThat(s.parameters()).containsExactly(Parameter.of(Setter.SET_STRING, "it's"),
                Parameter.of(Setter.SET_LONG, 40L), Parameter.of(Setter.SET_INT, 2), Parameter.of(Setter.SET_STRING, "packed"));
        assertThat(plan.card()).contains("[1: 'it''s' (setString), 2: 40 (setLong), 3: 2 (setInt), 4: 'packed' (setString)]");
        assertThat(Plan.fromJson(plan.toJson()).statements().get(0).parameters()).isEqualTo(s.parameters());
        assertThat(plan.card()).contains("note: 'fragile' -> 'it''s'").contains("qty: 2 -> 40");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D4_aBatchIsPlannedAsOnePlanInOneTransactionOfItsOwn(Engine engine) throws SQLException {
        Planning p = planning(engine);
        List<String> before = p.snapshot("orders");
        Plan plan = p.planner(POLICY).plan(List.of(
                p.proposal("UPDATE orders SET status = 'shipped' WHERE id = ?", 4),
                p.proposal("DELETE FROM orders WHERE id = 4")), "assistant");
        assertThat(plan.statements()).hasSize(2);
        // The DELETE ran after the UPDATE, in the same transaction: it saw the updated row.
        assertThat(plan.statements().get(1).rows().get(0).columns().get(1).before()).isEqualTo(new TextValue("shipped"));
        assertThat(p.snapshot("orders")).isEqualTo(before);
    }

    static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, Refusal code, String text) {
        assertThatThrownBy(call).isInstanceOf(RefusedException.class)
                .satisfies(e -> assertThat(((RefusedException) e).code()).as(e.getMessage()).isEqualTo(code))
                .hasMessageContaining(text);
    }
}
