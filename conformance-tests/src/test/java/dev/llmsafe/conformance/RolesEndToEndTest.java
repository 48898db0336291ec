package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.PlanPendingException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The product driven as a user drives it, with the least-privilege roles of samples/roles: the whole
 * role script run on a scratch database, a configuration file whose four connections are the four
 * roles (the store in a schema or database of its own), and the command line in-process for migrate,
 * check, plan, approve and apply; then each role is tried at what it must not do, and the database
 * refuses it. SQLite runs the same story without roles.
 * The application's own way in is driven the same way: {@code jdbc:llmsafe:} with the planning role's
 * credential reads as the read role and proposes into the store role's store.
 */
class RolesEndToEndTest {

    private static final List<String> ALLOW = List.of("orders", "members");
    private static final List<String> WRITTEN = List.of("orders");

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> List.of(
            "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
            "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3), (4, 'cancelled', 1)",
            "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
            "INSERT INTO members VALUES (7, 'Ann')",
            // Not in policy.allow: no role of samples/roles gets anything on it.
            "CREATE TABLE payroll (id INT PRIMARY KEY, salary INT NOT NULL)",
            "INSERT INTO payroll VALUES (7, 5000)"), ALLOW, WRITTEN, List.of(), """
              "policy": {
                "allow": ["orders", "members"],
                "impact": {"orders": "Changing an order moves money: the ship date decides the payment month."}
              }
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    static Deployed deployed(Engine engine) throws Exception {
        return e2e.deployed(engine);
    }

    // ---- the story ----------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A2_E2_E7_E8_T1_T3_migrateCheckPlanApproveApplyAsFourSeparateRoles(Engine engine) throws Exception {
        Deployed d = deployed(engine);

        Run migrate = d.llmsafe("migrate");
        assertThat(migrate.status()).as(migrate.err()).isEqualTo(Main.OK);
        assertThat(migrate.out()).startsWith("The plan store is at version 1 in ")
                .contains(engine == Engine.SQLITE ? "store.db" : d.roles().login(Role.STORE).name() + " at ");

        Run check = d.llmsafe("check");
        assertThat(check.status()).as(check.out() + check.err()).isEqualTo(Main.OK);
        assertThat(check.out()).contains("orders: ready", "members: read only", "Ready: yes")
                .contains("a dry run on one real row ran, was rolled back, and the rollback was proven")
                // E7: the read connection is proven read-only by the database itself.
                .contains("a credential the database itself refuses writes from (probed on ");
        // T3: names are not the boundary; the apply credential is.
        assertThat(check.out()).contains("Actor names (--as) are taken at their word");
        if (d.flavor() == Flavor.MARIADB || d.flavor() == Flavor.MYSQL) {
            // E2, probed through the planning role's own connection.
            assertThat(check.out()).contains("Rows affected are rows matched on the engine's connections");
        }
        String guards = check.out().substring(check.out().indexOf("Where the guards actually sit"));
        if (engine == Engine.SQLITE) {
            // No credentials in a file: check says so rather than claiming a separation.
            assertThat(guards).contains("the SAME credential as plan");
        } else {
            // E8: four credentials, none shared; apply is its own.
            for (Role r : Role.values()) {
                assertThat(guards).contains(r.key() + " ").contains(d.roles().login(r).name() + " at ");
            }
            assertThat(guards).contains("commits approved plans").contains("holds plans and the audit trail")
                    .doesNotContain("same credential as").doesNotContain("SAME credential")
                    .doesNotContain("not configured");
        }

        Map<Integer, String> rows = orders(d);
        // A2: apply commits on the apply role's connection. Without UPDATE for the planning role, the
        // apply still commits: it never used that credential to write.
        Cycle update = proposeApproveApply(d, () -> {
            assertThat(orders(d)).as("the dry run was rolled back").isEqualTo(rows);
            revokeFromPlanningRole(d, "UPDATE");
        }, () -> grantToPlanningRole(d, "UPDATE"), "UPDATE orders SET status = 'shipped' WHERE status = 'packed'");
        assertThat(update.plan().out()).contains("is proposed, not applied. Nothing in the database has changed.")
                .contains("2 rows would change, in 1 column: status");
        Map<Integer, String[]> card = cardRows(update.plan().out());
        assertThat(card).containsOnlyKeys(1, 2);
        assertThat(update.apply().status()).as(update.apply().err()).isEqualTo(Main.OK);
        assertThat(update.apply().out()).contains("is applied: 2 rows committed, exactly as the card showed.");
        // The rows end exactly as the card said: its "after" on the rows it showed, nothing else changed.
        card.forEach((key, change) -> {
            assertThat(rows.get(key)).isEqualTo(change[0]);
            rows.put(key, change[1]);
        });
        assertThat(orders(d)).isEqualTo(rows);

        Cycle delete = proposeApproveApply(d, () -> { }, () -> { }, "DELETE FROM orders WHERE id = ?", "--param", "4");
        assertThat(delete.plan().out()).contains("1 row would be deleted outright").contains("id = 4  (deleted)");
        assertThat(delete.apply().status()).as(delete.apply().err()).isEqualTo(Main.OK);
        rows.remove(4);
        assertThat(orders(d)).isEqualTo(rows);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R3_J7_theLlmsafeUrlReadsAsTheReadRoleAndProposesIntoTheStoreRolesStore(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.connect()) {
            Map<Integer, String> read = new LinkedHashMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, status FROM orders ORDER BY id")) {
                while (rs.next()) {
                    read.put(rs.getInt(1), rs.getString(2));
                }
            }
            assertThat(read).isEqualTo(orders(d));
            if (d.roles() != null) {
                String who = d.flavor() == Flavor.POSTGRES ? "SELECT current_user" : "SELECT CURRENT_USER()";
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(who)) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).startsWith(d.roles().login(Role.READ).name());
                }
            }
            RefusedException payroll = catchThrowableOfType(RefusedException.class, () -> c.createStatement()
                    .executeQuery("SELECT salary FROM payroll"));
            assertThat(payroll.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        }

        Map<Integer, Integer> before = quantities(d);
        PlanPendingException pending;
        try (Connection c = d.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE orders SET qty = qty + 10 WHERE id = 3");
            throw new AssertionError("the UPDATE ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            pending = e;
        }
        assertThat(quantities(d)).isEqualTo(before);
        String id = pending.planId().toString();
        Run show = d.llmsafe("show", id);
        assertThat(show.status()).as(show.err()).isEqualTo(Main.OK);
        assertThat(show.out()).contains("Status: proposed").contains("assistant  propose  done");
        assertThat(d.llmsafe("approve", id, "--as", "alice").status()).isEqualTo(Main.OK);
        Run apply = d.llmsafe("apply", id, "--as", "bob");
        assertThat(apply.status()).as(apply.err()).isEqualTo(Main.OK);
        before.computeIfPresent(3, (k, q) -> q + 10);
        assertThat(quantities(d)).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R3_theReadCommandReadsThroughTheGuardAndTheDatabaseRefusesWhatThePolicyDoes(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        Run csv = d.llmsafe("read", "SELECT id, status FROM orders ORDER BY id", "--format", "csv");
        assertThat(csv.status()).as(csv.err()).isEqualTo(Main.OK);
        StringBuilder expected = new StringBuilder("id,status\r\n");
        orders(d).forEach((k, v) -> expected.append(k).append(',').append(v).append("\r\n"));
        assertThat(csv.out()).isEqualTo(expected.toString());

        Run payroll = d.llmsafe("read", "SELECT salary FROM payroll");
        assertThat(payroll.status()).isEqualTo(Main.REFUSED);
        assertThat(payroll.err()).startsWith("Refused (TABLE_NOT_ALLOWED)");
        if (d.roles() != null) {
            Run who = d.llmsafe("read", d.flavor() == Flavor.POSTGRES ? "SELECT current_user AS who"
                    : "SELECT CURRENT_USER() AS who", "--json");
            assertThat(who.out()).contains("\"" + d.roles().login(Role.READ).name());
            // And asked directly, the database refuses the read role too.
            try (Connection c = d.roles().connect(Role.READ)) {
                assertRefusedByTheDatabase(d, c, "SELECT salary FROM payroll");
            }
        }
    }

    /**
     * On MariaDB the applying role needs the planning role's catalog grant, not only its table grants:
     * apply re-reads the catalog as the dry run does. Without REFERENCES (the cascade rules), apply
     * refuses and commits nothing. (The side-effect measure, the session's own counters, needs no grant.)
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void A2_theApplyRoleNeedsThePlanningRolesCatalogGrants(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        assertThat(d.llmsafe("migrate").status()).isEqualTo(Main.OK);
        String apply = "'" + d.roles().login(Role.APPLY).name() + "'@'%'";
        Map<String, String> missing = new LinkedHashMap<>();
        if (d.flavor() == Flavor.MARIADB) {
            missing.put("REFERENCES ON " + d.app().name() + ".*", "CASCADES_UNKNOWN");
        }
        for (var grant : missing.entrySet()) {
            Map<Integer, Integer> before = quantities(d);
            Cycle c = proposeApproveApply(d, () -> d.app().execute("REVOKE " + grant.getKey() + " FROM " + apply),
                    () -> d.app().execute("GRANT " + grant.getKey() + " TO " + apply),
                    "UPDATE orders SET qty = qty + 1 WHERE id = 3");
            assertThat(c.apply().status()).as(grant.getKey() + ": " + c.apply().out()).isEqualTo(Main.REFUSED);
            assertThat(c.apply().err()).as(grant.getKey()).startsWith("Refused (" + grant.getValue() + ")");
            assertThat(quantities(d)).isEqualTo(before);
        }
    }

    // ---- what each role must not be able to do --------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E7_theReadRoleCannotWriteAnything(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        try (Connection c = d.roles().connect(Role.READ)) {
            assertThat(Sql.count(c, "SELECT count(*) FROM orders")).isPositive();
            for (String write : List.of("UPDATE orders SET status = 'lost' WHERE id = 1", "DELETE FROM orders WHERE id = 1",
                    "INSERT INTO orders VALUES (9, 'new', 1)", "UPDATE members SET name = 'Bob' WHERE id = 7",
                    "DELETE FROM payroll WHERE id = 7", "CREATE TABLE read_role_table (id INT PRIMARY KEY)")) {
                assertRefusedByTheDatabase(d, c, write);
            }
            // Reads too are limited to the allowlist.
            assertRefusedByTheDatabase(d, c, "SELECT salary FROM payroll");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void theStoreRoleCannotTouchTheApplicationsTables(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        String orders = d.app().name() + ".orders";
        try (Connection c = d.roles().connect(Role.STORE)) {
            for (String sql : List.of("SELECT * FROM " + orders, "UPDATE " + orders + " SET status = 'lost' WHERE id = 1",
                    "DELETE FROM " + orders + " WHERE id = 1", "INSERT INTO " + orders + " VALUES (9, 'new', 1)")) {
                assertRefusedByTheDatabase(d, c, sql);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void thePlanningApplyingAndReadingRolesCannotReadOrWriteTheStore(Engine engine) throws Exception {
        Deployed d = deployed(engine);
        assertThat(d.llmsafe("migrate").status()).isEqualTo(Main.OK);
        String plans = d.roles().store() + ".llmsafe_plans";
        String audit = d.roles().store() + ".llmsafe_audit";
        for (Role role : List.of(Role.PLAN, Role.APPLY, Role.READ)) {
            try (Connection c = d.roles().connect(role)) {
                for (String sql : List.of("SELECT * FROM " + plans, "UPDATE " + plans + " SET status = 'approved'",
                        "DELETE FROM " + audit, "INSERT INTO " + audit + " (plan_id, at, actor, action, outcome)"
                                + " VALUES ('x', 'now', 'me', 'approve', 'approved')")) {
                    assertRefusedByTheDatabase(d, c, role + ": " + sql);
                }
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** A step around the apply, on the database. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** A plan that was proposed and approved, and what its apply said. */
    record Cycle(Run plan, Run apply) {
    }

    /**
     * {@code llmsafe plan} (its arguments given), {@code approve} as another person, then the step
     * before, {@code apply} as a third, and the step after. The plan must be proposed.
     */
    private static Cycle proposeApproveApply(Deployed d, Step before, Step after, String... planArgs) throws Exception {
        String[] args = new String[planArgs.length + 3];
        args[0] = "plan";
        System.arraycopy(planArgs, 0, args, 1, planArgs.length);
        args[args.length - 2] = "--as";
        args[args.length - 1] = "assistant";
        Run plan = d.llmsafe(args);
        assertThat(plan.status()).as(plan.err()).isEqualTo(Main.OK);
        String id = EndToEnd.planId(plan);
        assertThat(d.llmsafe("approve", id, "--as", "alice").status()).isEqualTo(Main.OK);
        before.run();
        Run apply;
        try {
            apply = d.llmsafe("apply", id, "--as", "bob");
        } finally {
            after.run();
        }
        return new Cycle(plan, apply);
    }


    /** The database itself refuses the statement (the label before ": " is for the message only). */
    private static void assertRefusedByTheDatabase(Deployed d, Connection c, String labelledSql) {
        EndToEnd.assertRefusedByTheDatabase(d.flavor(), c, labelledSql.replaceFirst("^[A-Z]+: ", ""));
    }

    private static void revokeFromPlanningRole(Deployed d, String privilege) throws SQLException {
        if (d.roles() != null) {
            d.app().execute("REVOKE " + privilege + " ON " + d.app().name() + ".orders FROM " + planningRole(d));
        }
    }

    private static void grantToPlanningRole(Deployed d, String privilege) throws SQLException {
        if (d.roles() != null) {
            d.app().execute("GRANT " + privilege + " ON " + d.app().name() + ".orders TO " + planningRole(d));
        }
    }

    private static String planningRole(Deployed d) {
        String name = d.roles().login(Role.PLAN).name();
        return d.flavor() == Flavor.POSTGRES ? name : "'" + name + "'@'%'";
    }

    /** id to status of every order, read as the administrator. */
    private static Map<Integer, String> orders(Deployed d) throws SQLException {
        Map<Integer, String> out = new LinkedHashMap<>();
        try (Statement s = d.app().admin().createStatement();
             ResultSet rs = s.executeQuery("SELECT id, status FROM orders ORDER BY id")) {
            while (rs.next()) {
                out.put(rs.getInt(1), rs.getString(2));
            }
        }
        return out;
    }

    /** id to qty of every order, read as the administrator. */
    private static Map<Integer, Integer> quantities(Deployed d) throws SQLException {
        Map<Integer, Integer> out = new LinkedHashMap<>();
        try (Statement s = d.app().admin().createStatement();
             ResultSet rs = s.executeQuery("SELECT id, qty FROM orders ORDER BY id")) {
            while (rs.next()) {
                out.put(rs.getInt(1), rs.getInt(2));
            }
        }
        return out;
    }


    /** The rows of an UPDATE card: key to {before, after} of the status column. */
    private static Map<Integer, String[]> cardRows(String card) {
        Map<Integer, String[]> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^  id = (\\d+)\\R    status: '([^']*)' -> '([^']*)'$").matcher(card);
        while (m.find()) {
            out.put(Integer.parseInt(m.group(1)), new String[] {m.group(2), m.group(3)});
        }
        return out;
    }
}
