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
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.testing.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * W1-W12, the shape of a write, end to end: each write is sent through the application's
 * {@code jdbc:llmsafe:} URL with the planning role's credential, or through {@code llmsafe plan}, on
 * all three engines with the least-privilege roles. A refusal changes nothing; a write that is
 * accepted becomes a plan, and where the plan is the point (a composite key, a subquery on an
 * allowlisted table, RETURNING) it is approved and applied with the command line and the rows are read
 * back. Tests that apply work on rows of their own (named in their comments), so order does not matter.
 */
class WriteRulesEndToEndTest {

    /** Granted SELECT (the read, plan and apply roles); all but ledger are in policy.allow. */
    private static final List<String> GRANTED = List.of("orders", "items", "lookup", "nokey", "pairs", "gen", "folded",
            "ledger", "kept");
    private static final List<String> WRITTEN = List.of("orders", "items", "nokey", "pairs", "gen", "folded", "kept");
    private static final String TOTAL_DENIED = "recomputed by billing; change the order lines instead";

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL,"
                        + " total_cents INT NOT NULL, touched VARCHAR(40))",
                "INSERT INTO orders (id, status, qty, total_cents) VALUES (1, 'packed', 1, 100), (2, 'packed', 2, 200),"
                        + " (3, 'shipped', 3, 300), (4, 'cancelled', 1, 50), (5, 'packed', 5, 500), (6, 'packed', 1, 10)",
                "CREATE TABLE items (id INT PRIMARY KEY, order_id INT NOT NULL, sku VARCHAR(10) NOT NULL)",
                "INSERT INTO items VALUES (10, 1, 'a'), (11, 2, 'b'), (12, 3, 'a')",
                // Allowlisted, with no impact sentence: readable, never writable (W11).
                "CREATE TABLE lookup (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO lookup VALUES (1, 7)",
                "CREATE TABLE nokey (id INT, v INT)",
                "INSERT INTO nokey VALUES (1, 1), (2, 2)",
                "CREATE TABLE pairs (a INT, b VARCHAR(5), v INT NOT NULL, PRIMARY KEY (b, a))",
                "INSERT INTO pairs VALUES (1, 'x', 1), (2, 'x', 1), (1, 'y', 1), (2, 'y', 5)",
                "CREATE TABLE gen (id INT PRIMARY KEY, v INT NOT NULL, " + switch (engine) {
                    case POSTGRES -> "double_v INT GENERATED ALWAYS AS (v * 2) STORED)";
                    case MYSQL -> "double_v INT AS (v * 2) VIRTUAL)";
                    case SQLITE -> "double_v INT GENERATED ALWAYS AS (v * 2) VIRTUAL)";
                },
                "INSERT INTO gen (id, v) VALUES (1, 1)",
                // Allowlisted as FOLDED: the database decides whether that names this table.
                "CREATE TABLE folded (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO folded VALUES (1, 1)",
                // Granted to the roles, but not in policy.allow: the policy is a guard of its own.
                "CREATE TABLE ledger (id INT PRIMARY KEY, amount INT NOT NULL)",
                "INSERT INTO ledger VALUES (1, 900)",
                // Neither granted nor allowlisted.
                "CREATE TABLE payroll (id INT PRIMARY KEY, salary INT NOT NULL)",
                "INSERT INTO payroll VALUES (7, 5000)",
                // W13: stamp is maintained by a trigger (declared); on MariaDB auto_at by ON UPDATE (the catalog).
                "CREATE TABLE kept (id INT PRIMARY KEY, v INT NOT NULL, stamp VARCHAR(20)"
                        + (engine == Engine.MYSQL ? ", auto_at TIMESTAMP(6) NOT NULL DEFAULT '2020-01-01 00:00:00'"
                                + " ON UPDATE CURRENT_TIMESTAMP(6))" : ")"),
                "INSERT INTO kept (id, v, stamp) VALUES (1, 1, 'v1')"));
        sql.addAll(switch (engine) {
            case POSTGRES -> List.of("CREATE FUNCTION kept_stamp() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.stamp := 'v' || NEW.v; RETURN NEW; END $$",
                    "CREATE TRIGGER kept_stamp BEFORE UPDATE ON kept FOR EACH ROW EXECUTE FUNCTION kept_stamp()");
            case MYSQL -> List.of("CREATE TRIGGER kept_stamp BEFORE UPDATE ON kept FOR EACH ROW SET NEW.stamp = CONCAT('v', NEW.v)");
            case SQLITE -> List.of("CREATE TRIGGER kept_stamp AFTER UPDATE OF v ON kept BEGIN"
                    + " UPDATE kept SET stamp = 'v' || NEW.v WHERE id = NEW.id; END");
        });
        switch (engine) {
            case POSTGRES -> sql.add("CREATE FUNCTION bump(i int) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT i + 1'");
            case MYSQL -> sql.add("CREATE FUNCTION bump(i INT) RETURNS INT NOT DETERMINISTIC NO SQL RETURN i + 1");
            case SQLITE -> { }
        }
        return sql;
    }, GRANTED, WRITTEN, List.of(), """
              "policy": {
                "allow": ["orders", "items", "lookup", "nokey", "pairs", "gen", "FOLDED", "kept"],
                "impact": {
                  "orders": "Changing an order moves money: the ship date decides the payment month.",
                  "items": "An item is what the warehouse picks.",
                  "nokey": "A row of the legacy import.",
                  "pairs": "A pair decides which shelf a product goes to.",
                  "gen": "A generated figure for the report.",
                  "FOLDED": "A folded value.",
                  "kept": "A kept value, stamped by the database."
                },
                "autoColumns": {"kept": ["stamp"]},
                "denyWrite": {"orders.total_cents": "%s"}
              }
            """.formatted(TOTAL_DENIED));

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    // ---- W1 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W1_aWriteTouchesOneTableAndSubqueriesThatOnlyReadAreAllowed(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> multi = new ArrayList<>(List.of("UPDATE orders SET items.sku = 'c' WHERE id = 1"));
        switch (engine) {
            case POSTGRES -> multi.addAll(List.of("UPDATE orders SET qty = 1 FROM items WHERE items.order_id = orders.id",
                    "DELETE FROM orders USING items WHERE items.order_id = orders.id"));
            case MYSQL -> multi.addAll(List.of("UPDATE orders, items SET orders.qty = 1 WHERE items.order_id = orders.id",
                    "UPDATE orders JOIN items ON items.order_id = orders.id SET orders.qty = 1 WHERE items.id = 10",
                    "DELETE orders FROM orders JOIN items ON orders.id = items.order_id WHERE items.id = 10",
                    "DELETE orders, items FROM orders, items WHERE orders.id = items.order_id"));
            case SQLITE -> multi.add("UPDATE orders SET qty = 1 FROM items WHERE items.order_id = orders.id");
        }
        for (String sql : multi) {
            List<String> items = d.rows("items");
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.MULTI_TABLE);
            assertThat(e.getMessage()).as(sql).contains("involves more than one table");
            assertThat(d.rows("items")).isEqualTo(items);
        }
        refusedByPlan(d, multi.get(multi.size() - 1), Refusal.MULTI_TABLE);

        // Subqueries that only read: one table is written, the card shows exactly its rows.
        String in = "UPDATE orders SET qty = 9 WHERE id IN (SELECT order_id FROM items WHERE sku = 'a')";
        if (d.flavor() == Flavor.MYSQL) {
            // MySQL materialises the subquery and counts its internal temporary table's rows among the rows
            // written (F42): a false refusal, never a wrong plan, which every MySQL card declares.
            List<String> orders = d.rows("orders");
            RefusedException e = d.refused(in, "orders");
            assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.SIDE_EFFECTS);
            assertThat(e.getMessage()).contains("inserted").contains("where the card shows 2 updated");
            assertThat(d.rows("orders")).isEqualTo(orders);
        } else {
            PlanPendingException planned = d.propose(in, "orders");
            assertThat(planned.getMessage()).contains("2 rows would change, in 1 column: qty")
                    .contains("id = 1\n    qty: 1 -> 9\n").contains("id = 3\n    qty: 3 -> 9\n");
        }
        PlanPendingException exists = d.propose("DELETE FROM orders WHERE status = 'cancelled' AND NOT EXISTS"
                + " (SELECT 1 FROM items WHERE items.order_id = orders.id)", "orders");
        assertThat(exists.getMessage()).contains("1 row would be deleted outright").contains("id = 4  (deleted)");
    }

    // ---- W2 ---------------------------------------------------------------------------------------

    /** PostgreSQL's grammar has no ORDER BY or LIMIT on a write, and llmsafe refuses it there the same way. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void W2_noOrderByOrLimitOnAWrite(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> sqls = new ArrayList<>(List.of("UPDATE orders SET qty = 1 WHERE qty > 1 ORDER BY id LIMIT 1",
                "UPDATE orders SET qty = 1 WHERE qty > 1 LIMIT 1", "DELETE FROM orders WHERE qty > 1 ORDER BY id LIMIT 1"));
        if (engine == Engine.MYSQL) {
            sqls.add("DELETE FROM orders WHERE qty > 1 LIMIT 1");
        }
        for (String sql : sqls) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.ORDER_OR_LIMIT);
            assertThat(e.getMessage()).as(sql).contains("has ORDER BY or LIMIT");
        }
        refusedByPlan(d, "DELETE FROM orders WHERE qty > 1 ORDER BY id LIMIT 1", Refusal.ORDER_OR_LIMIT);
        // In a subquery that only reads, ORDER BY and LIMIT choose values, not which rows the write may take.
        // (MariaDB does not run LIMIT inside IN.)
        if (!d.mysql()) {
            PlanPendingException p = d.propose("UPDATE orders SET qty = 11 WHERE id IN"
                    + " (SELECT order_id FROM items ORDER BY id LIMIT 1)", "orders");
            assertThat(p.getMessage()).contains("1 row would change, in 1 column: qty").contains("id = 1\n    qty: 1 -> 11\n");
        }
    }

    // ---- W3 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W3_aWriteWithoutWhereIsRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("UPDATE orders SET status = 'shipped'", "DELETE FROM orders",
                "DELETE FROM orders -- WHERE id = 1", "/* first */ DELETE FROM orders",
                "UPDATE orders SET qty = (SELECT v FROM lookup WHERE id = 1)")) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.NO_WHERE);
            assertThat(e.getMessage()).as(sql).contains("has no WHERE clause");
        }
        refusedByPlan(d, "DELETE FROM orders", Refusal.NO_WHERE);
        // For programs: the code and the message as JSON on stdout.
        Run json = d.plan("DELETE FROM orders", "--json");
        assertThat(json.status()).as(json.all()).isEqualTo(Main.REFUSED);
        JsonNode error = new ObjectMapper().readTree(json.out()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("NO_WHERE");
        assertThat(error.get("message").asText()).startsWith("Refused (NO_WHERE): the DELETE has no WHERE clause");
    }

    /** A WHERE with nothing after it is a write without a condition, and is refused as one, not as a syntax error. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void W3_anEmptyWhereIsNoWhereAndSaysSo(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("UPDATE orders SET qty = 1 WHERE", "DELETE FROM orders WHERE /* id = 1 */",
                "UPDATE orders SET qty = 1 WHERE;;")) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.NO_WHERE);
            assertThat(e.getMessage()).as(sql).contains("clause of the " + sql.substring(0, 6) + " is empty");
        }
        assertThat(refusedByPlan(d, "DELETE FROM orders WHERE", Refusal.NO_WHERE))
                .contains("the WHERE clause of the DELETE is empty, so it names no rows");
    }

    // ---- W4 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W4_onlyAllowlistedTablesMayBeWrittenDefaultDeny(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // Granted by the database, but not in the policy.
        RefusedException ledger = d.refused("UPDATE ledger SET amount = 0 WHERE id = 1", "ledger");
        assertThat(ledger.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        assertThat(ledger.getMessage()).contains("ledger is not in the policy's allowlist (policy.allow)");
        assertThat(refusedByPlan(d, "DELETE FROM ledger WHERE id = 1", Refusal.TABLE_NOT_ALLOWED, "ledger"))
                .contains("is not in the policy's allowlist");
        // Neither granted nor allowed (on MariaDB the planning role sees it through REFERENCES ON db.*).
        RefusedException payroll = d.refused("UPDATE payroll SET salary = 1 WHERE id = 7", "payroll");
        assertThat(payroll.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        assertThat(payroll.getMessage()).contains("payroll is not in the policy's allowlist");
        assertThat(d.refused("DELETE FROM nowhere WHERE id = 1", "orders").getMessage())
                .contains("nowhere is not a table this connection can see");
    }

    /** Order 2 (applied). */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void W4_aTableAWriteOnlyReadsInASubqueryMustBeAllowlistedToo(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // Its value would reach the card; the rows that match would answer a question about it.
        for (String sql : List.of("UPDATE orders SET qty = (SELECT amount FROM ledger WHERE id = 1) WHERE id = 2",
                "DELETE FROM orders WHERE id IN (SELECT id FROM ledger WHERE amount > 10)",
                "UPDATE orders SET qty = 0 WHERE EXISTS (SELECT 1 FROM ledger l WHERE l.amount > 800) AND id = 2")) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            assertThat(e.getMessage()).as(sql).contains("ledger is read by this " + sql.substring(0, 6))
                    .contains("but is not in the policy's allowlist (policy.allow)");
        }
        // However the table is spelt, nested or wrapped, the database's name for it is what is compared.
        List<String> spelt = new ArrayList<>(List.of(
                "UPDATE orders SET qty = coalesce((SELECT amount FROM ledger WHERE id = 1), 0) WHERE id = 2",
                "UPDATE orders SET qty = 0 WHERE id IN (SELECT x.id FROM (SELECT id FROM ledger) x)",
                "UPDATE orders SET qty = 0 WHERE (id, qty) IN (SELECT id, amount FROM ledger)",
                "DELETE FROM orders WHERE id = 2 AND 1 = (SELECT count(*) FROM ledger l WHERE l.amount > 800)",
                "UPDATE orders SET qty = 0 WHERE id = 2 AND EXISTS (SELECT 1 FROM items WHERE items.order_id IN"
                        + " (SELECT id FROM ledger))"));
        spelt.add(d.mysql() ? "UPDATE orders SET qty = (SELECT amount FROM `ledger` WHERE id = 1) WHERE id = 2"
                : "UPDATE orders SET qty = (SELECT amount FROM \"ledger\" WHERE id = 1) WHERE id = 2");
        if (!d.mysql()) {
            spelt.add("UPDATE orders SET qty = (SELECT amount FROM LEDGER WHERE id = 1) WHERE id = 2");
        }
        for (String sql : spelt) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            assertThat(e.getMessage()).as(sql).contains("ledger is read by this ");
        }
        // A table the credential has no privilege on is refused all the same.
        RefusedException payroll = d.refused("UPDATE orders SET qty = 0 WHERE id IN (SELECT id FROM payroll"
                + " WHERE salary > 4000)", "orders");
        assertThat(payroll.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        assertThat(payroll.getMessage()).contains("payroll is read by this UPDATE");
        refusedByPlan(d, "UPDATE orders SET qty = (SELECT amount FROM ledger WHERE id = 1) WHERE id = 2",
                Refusal.TABLE_NOT_ALLOWED, "orders");

        // An allowlisted table may be read by a write, even one that may not be written (lookup has no impact).
        PlanPendingException pending = proposeApproveApply(d,
                "UPDATE orders SET qty = (SELECT v FROM lookup WHERE id = 1) WHERE id = 2", "orders");
        assertThat(pending.getMessage()).contains("id = 2\n    qty: 2 -> 7\n");
        assertThat(d.rows("orders")).contains("[2, packed, 7, 200, null]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W4_namesAreMatchedAsTheDatabaseResolvesThemNeverAsRawText(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        TableRef orders = d.propose("UPDATE orders SET qty = 8 WHERE id = 3", "orders").plan().statements().get(0).table();
        List<String> same = new ArrayList<>();
        // Schema-qualified names are in W4_aTableOfTheSameNameInAnotherSchemaIsNotTheAllowlistedOne: the scratch
        // schema's (PostgreSQL) and database's (MariaDB) names begin with llmsafe_, and the analysis refuses any
        // name beginning with llmsafe_ as ENGINE_TABLE (W5), a qualifier included.
        switch (engine) {
            case POSTGRES -> same.addAll(List.of("UPDATE ORDERS SET qty = 8 WHERE id = 3",
                    "UPDATE \"orders\" SET qty = 8 WHERE id = 3", "UPDATE Orders SET qty = 8 WHERE Orders.id = 3"));
            case MYSQL -> same.add("UPDATE `orders` SET qty = 8 WHERE `orders`.id = 3");
            // SQLite ignores the case of names, quoted or not.
            case SQLITE -> same.addAll(List.of("UPDATE ORDERS SET qty = 8 WHERE id = 3",
                    "UPDATE \"ORDERS\" SET qty = 8 WHERE id = 3", "UPDATE [Orders] SET qty = 8 WHERE id = 3",
                    "UPDATE main.orders SET qty = 8 WHERE id = 3"));
        }
        for (String sql : same) {
            PlanPendingException p = d.propose(sql, "orders");
            assertThat(p.plan().statements().get(0).table()).as(sql).isEqualTo(orders);
            assertThat(p.getMessage()).as(sql).contains("  " + orders + ": Changing an order moves money")
                    .contains("id = 3\n    qty: 3 -> 8\n");
        }
        // Names the database resolves to no table are refused, whatever they look like as text.
        List<String> other = switch (engine) {
            // Quoted, a PostgreSQL name keeps its case, and "ORDERS" is not orders.
            case POSTGRES -> List.of("UPDATE \"ORDERS\" SET qty = 8 WHERE id = 3", "UPDATE \"Orders\" SET qty = 8 WHERE id = 3");
            // MariaDB on Linux keeps table names' case (lower_case_table_names = 0).
            case MYSQL -> List.of("UPDATE ORDERS SET qty = 8 WHERE id = 3", "UPDATE `Orders` SET qty = 8 WHERE id = 3");
            // SQLite: every spelling of orders is orders (above).
            case SQLITE -> List.of("UPDATE \"orders \" SET qty = 8 WHERE id = 3");
        };
        for (String sql : other) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            assertThat(e.getMessage()).as(sql).contains("is not a table this connection can see");
        }

        // The policy's name is resolved by the database too: FOLDED is folded's name on PostgreSQL (unquoted
        // names fold) and on SQLite (names ignore case), and names no table on MariaDB.
        if (engine == Engine.MYSQL) {
            RefusedException e = d.refused("UPDATE folded SET v = 2 WHERE id = 1", "folded");
            assertThat(e.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            assertThat(e.getMessage()).contains("folded is not in the policy's allowlist");
        } else {
            PlanPendingException p = d.propose("UPDATE folded SET v = 2 WHERE id = 1", "folded");
            assertThat(p.getMessage()).contains("A folded value.").contains("id = 1\n    v: 1 -> 2\n");
        }
    }

    /**
     * A table named orders in another schema (PostgreSQL) or database (MariaDB), which the database even
     * grants the planning role, is not the allowlisted orders: the name is resolved by the database, and
     * then compared. SQLite has one schema per file (and temp, a system catalog to llmsafe).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void W4_aTableOfTheSameNameInAnotherSchemaIsNotTheAllowlistedOne(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String other = "w4_other_" + Long.toHexString(System.nanoTime());
        String plan = d.flavor() == Flavor.POSTGRES ? d.roles().login(Role.PLAN).name()
                : "'" + d.roles().login(Role.PLAN).name() + "'@'%'";
        d.admin(d.flavor() == Flavor.POSTGRES ? "CREATE SCHEMA " + other : "CREATE DATABASE " + other);
        try {
            d.admin("CREATE TABLE " + other + ".orders (id INT PRIMARY KEY, qty INT NOT NULL)",
                    "INSERT INTO " + other + ".orders VALUES (3, 3)",
                    "GRANT SELECT, UPDATE, DELETE ON " + other + ".orders TO " + plan);
            if (d.flavor() == Flavor.POSTGRES) {
                d.admin("GRANT USAGE ON SCHEMA " + other + " TO " + plan);
            }
            List<String> elsewhere = d.rows(other + ".orders");
            for (String sql : List.of("UPDATE " + other + ".orders SET qty = 8 WHERE id = 3",
                    "DELETE FROM " + other + ".orders WHERE id = 3")) {
                RefusedException e = d.refused(sql, "orders");
                assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
                assertThat(e.getMessage()).as(sql).contains(other + ".orders is not in the policy's allowlist");
            }
            RefusedException read = d.refused("UPDATE orders SET qty = (SELECT qty FROM " + other + ".orders WHERE id = 3)"
                    + " WHERE id = 3", "orders");
            assertThat(read.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
            assertThat(read.getMessage()).contains(other + ".orders is read by this UPDATE");
            assertThat(d.rows(other + ".orders")).isEqualTo(elsewhere);
        } finally {
            d.admin(d.flavor() == Flavor.POSTGRES ? "DROP SCHEMA " + other + " CASCADE" : "DROP DATABASE " + other);
        }
    }

    // ---- W5 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W5_theLibrarysOwnPlanAndAuditTablesAreRefusedInEveryConfiguration(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // A real plan in the store, which a write to the store would approve.
        String id = d.propose("UPDATE orders SET qty = 4 WHERE id = 6", "orders").planId().toString();
        Run before = d.llmsafe("list", "--json");
        assertThat(before.out()).contains(id);
        List<String> sqls = new ArrayList<>(List.of("UPDATE llmsafe_plans SET status = 'approved' WHERE id = '" + id + "'",
                "DELETE FROM LLMSAFE_AUDIT WHERE plan_id = '" + id + "'",
                "UPDATE orders SET qty = 5 WHERE id IN (SELECT 6 FROM llmsafe_plans)",
                "SELECT * FROM llmsafe_audit"));
        if (d.roles() != null) {
            sqls.add("UPDATE " + d.roles().store() + ".llmsafe_plans SET status = 'approved' WHERE id = '" + id + "'");
        }
        sqls.add(d.mysql() ? "UPDATE `llmsafe_plans` SET status = 'approved' WHERE id = '" + id + "'"
                : "UPDATE \"llmsafe_plans\" SET status = 'approved' WHERE id = '" + id + "'");
        for (String sql : sqls) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.ENGINE_TABLE);
            assertThat(e.getMessage()).as(sql).contains("belongs to llmsafe's own plan and");
        }
        refusedByPlan(d, "UPDATE llmsafe_plans SET status = 'approved' WHERE id = '" + id + "'", Refusal.ENGINE_TABLE,
                "orders");
        Run read = d.llmsafe("read", "SELECT * FROM llmsafe_plans");
        assertThat(read.status()).as(read.all()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).startsWith("Refused (ENGINE_TABLE)");

        // Even a configuration that allowlists them, with an impact sentence, cannot reach them.
        String config = Files.readString(d.home().resolve("llmsafe.json"))
                .replace("\"allow\": [", "\"allow\": [\"llmsafe_plans\", \"llmsafe_audit\", ")
                .replace("\"impact\": {", "\"impact\": {\"llmsafe_plans\": \"The plans.\", ");
        Path careless = Files.writeString(d.home().resolve("careless-llmsafe.json"), config);
        Run plan = d.llmsafe("plan", "UPDATE llmsafe_plans SET status = 'approved' WHERE id = '" + id + "'",
                "--as", "assistant", "--config", careless.toString());
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).startsWith("Refused (ENGINE_TABLE)");
        Run carelessRead = d.llmsafe("read", "SELECT * FROM llmsafe_audit", "--config", careless.toString());
        assertThat(carelessRead.status()).as(carelessRead.all()).isEqualTo(Main.REFUSED);
        assertThat(carelessRead.err()).startsWith("Refused (ENGINE_TABLE)");

        assertThat(d.llmsafe("list", "--json").out()).isEqualTo(before.out());
        Run show = d.llmsafe("show", id);
        assertThat(show.out()).as(show.all()).contains("Status: proposed");
    }

    // ---- W6 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W6_aTableWithoutAPrimaryKeyCannotBePlanned(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("UPDATE nokey SET v = 9 WHERE id = 1", "DELETE FROM nokey WHERE id = 2")) {
            RefusedException e = d.refused(sql, "nokey");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.NO_PRIMARY_KEY);
            assertThat(e.getMessage()).as(sql).contains("nokey has no primary key, so its rows cannot be shown one by one");
        }
        refusedByPlan(d, "UPDATE nokey SET v = 9 WHERE id = 1", Refusal.NO_PRIMARY_KEY, "nokey");
    }

    /** The pairs table. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void W6_aCompositeKeyFromTheCatalogIsPlannedApprovedAndApplied(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        PlanPendingException update = proposeApproveApply(d, "UPDATE pairs SET v = 2 WHERE v = 1", "pairs");
        PlannedStatement s = update.plan().statements().get(0);
        // The key in the catalog's order, (b, a), not the columns' order.
        assertThat(s.keyColumns()).containsExactly("b", "a");
        assertThat(update.getMessage()).contains("3 rows would change, in 1 column: v")
                .contains("  b = 'x', a = 1\n    v: 1 -> 2\n").contains("  b = 'x', a = 2\n    v: 1 -> 2\n")
                .contains("  b = 'y', a = 1\n    v: 1 -> 2\n").doesNotContain("b = 'y', a = 2");
        assertThat(d.rows("pairs")).containsExactlyInAnyOrder("[1, x, 2]", "[2, x, 2]", "[1, y, 2]", "[2, y, 5]");

        // A DELETE of one row by its whole key, with parameters, through the command line.
        Run plan = d.plan("DELETE FROM pairs WHERE b = ? AND a = ?", "--param", "y", "--param", "2");
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        assertThat(plan.out()).contains("  b = 'y', a = 2  (deleted)\n    a: 2\n    b: 'y'\n    v: 5\n");
        Run apply = d.approveAndApply(EndToEnd.planId(plan));
        assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
        assertThat(d.rows("pairs")).containsExactlyInAnyOrder("[1, x, 2]", "[2, x, 2]", "[1, y, 2]");
    }

    // ---- W7 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W7_setColumnsMustExistAndNotBeWriteDenied(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("UPDATE orders SET total_cents = 0 WHERE id = 1",
                "UPDATE orders SET qty = 2, TOTAL_CENTS = 0 WHERE id = 1")) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.DENIED_WRITE_COLUMN);
            assertThat(e.getMessage()).as(sql).contains("orders.total_cents may not be written here: " + TOTAL_DENIED + ".");
        }
        assertThat(refusedByPlan(d, "UPDATE orders SET total_cents = ? WHERE id = ?", Refusal.DENIED_WRITE_COLUMN, "orders",
                "--param", "0", "--param", "1")).contains("may not be written here: " + TOTAL_DENIED);
        RefusedException unknown = d.refused("UPDATE orders SET nope = 1 WHERE id = 1", "orders");
        assertThat(unknown.code()).isEqualTo(Refusal.DENIED_WRITE_COLUMN);
        assertThat(unknown.getMessage()).contains("orders has no column nope. Name one of: id, status, qty, total_cents, touched.");
        RefusedException key = d.refused("UPDATE orders SET id = 99 WHERE id = 1", "orders");
        assertThat(key.code()).isEqualTo(Refusal.KEY_CHANGE);
        assertThat(key.getMessage()).contains("the statement changes id, part of the primary key");
        RefusedException generated = d.refused("UPDATE gen SET double_v = 1 WHERE id = 1", "gen");
        assertThat(generated.code()).isEqualTo(Refusal.DENIED_WRITE_COLUMN);
        assertThat(generated.getMessage()).contains("gen.double_v is computed by the database (a generated column)");
        // A generated column follows the column it is computed from, and is shown changing too.
        PlanPendingException gen = d.propose("UPDATE gen SET v = 5 WHERE id = 1", "gen");
        assertThat(gen.plan().statements().get(0).changedColumns()).containsExactly("v", "double_v");
        assertThat(gen.getMessage()).contains("    v: 1 -> 5\n    double_v: 2 -> 10\n");
    }

    // ---- W8 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W8_anAliasedTargetIsRefusedWithHowToWriteItInstead(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> aliased = new ArrayList<>(List.of("UPDATE orders o SET qty = 1 WHERE o.id = 1"));
        switch (engine) {
            case POSTGRES -> aliased.addAll(List.of("UPDATE orders AS o SET qty = 1 WHERE o.id = 1",
                    "DELETE FROM orders o WHERE o.id = 1", "DELETE FROM orders AS o WHERE o.id = 1"));
            case MYSQL -> aliased.add("DELETE FROM orders o WHERE o.id = 1");
            case SQLITE -> aliased.addAll(List.of("UPDATE orders AS o SET qty = 1 WHERE o.id = 1",
                    "DELETE FROM orders AS o WHERE o.id = 1"));
        }
        for (String sql : aliased) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.ALIASED_TARGET);
            assertThat(e.getMessage()).as(sql).contains("the table written is given an alias (")
                    .contains("Write the statement without it, naming columns by the table's own name: "
                            + (sql.startsWith("UPDATE") ? "UPDATE orders" : "DELETE FROM orders") + " ... WHERE orders.id = ?");
        }
        refusedByPlan(d, "UPDATE orders o SET qty = 1 WHERE o.id = ?", Refusal.ALIASED_TARGET, "orders", "--param", "1");
        // Written as the message says, it is a plan.
        PlanPendingException p = d.propose("UPDATE orders SET qty = 2 WHERE orders.id = 1", "orders");
        assertThat(p.getMessage()).contains("id = 1\n    qty: 1 -> 2\n");
    }

    // ---- W9 ---------------------------------------------------------------------------------------

    /**
     * Order 5 (applied). MariaDB has RETURNING on DELETE only; PostgreSQL and SQLite on UPDATE too; MySQL
     * has none, and the server refuses it (order 5 stays). The
     * engine's own queries (the count, the before- and after-images) are built from the WHERE condition;
     * RETURNING leaking into them would break them or widen them.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void W9_returningNeverLeaksIntoTheEnginesOwnQueries(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        if (d.flavor() == Flavor.MYSQL) {
            // MySQL has no RETURNING: the server refuses the statement in the dry run, and nothing changes.
            List<String> before = d.rows("orders");
            RefusedException e = d.refused("DELETE FROM orders WHERE id = 5 RETURNING id, status", "orders");
            assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.UNSUPPORTED_STATEMENT);
            assertThat(e.getMessage()).contains("the database refused the statement during the dry run")
                    .contains("near 'RETURNING id, status'").contains("Nothing was changed");
            assertThat(d.rows("orders")).isEqualTo(before);
            return;
        }
        if (engine == Engine.MYSQL) {
            PlanPendingException p = approvedAndApplied(d,
                    () -> proposeByQuery(d, "DELETE FROM orders WHERE id = 5 RETURNING id, status"));
            assertThat(p.plan().rowCount()).isEqualTo(1);
            assertThat(p.getMessage()).contains("id = 5  (deleted)");
            assertThat(d.rows("orders")).hasSize(5).noneMatch(r -> r.startsWith("[5,"));
            return;
        }
        // RETURNING a table that is not allowed is refused: it is read by the write.
        RefusedException e = d.refused("UPDATE orders SET status = 'held' WHERE id = 5 RETURNING"
                + " (SELECT amount FROM ledger WHERE id = 1)", "orders");
        assertThat(e.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        PlanPendingException p = approvedAndApplied(d,
                () -> proposeByQuery(d, "UPDATE orders SET status = 'held' WHERE id = 5 RETURNING id, status"));
        assertThat(p.plan().rowCount()).isEqualTo(1);
        assertThat(p.getMessage()).contains("1 row would change, in 1 column: status")
                .contains("id = 5\n    status: 'packed' -> 'held'\n");
        assertThat(d.rows("orders")).contains("[5, held, 5, 500, null]");
    }

    // ---- W10 --------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W10_volatileFunctionsInAWriteAreRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> sqls = new ArrayList<>(List.of("UPDATE orders SET touched = CURRENT_TIMESTAMP WHERE id = 1",
                "UPDATE orders SET touched = CURRENT_DATE WHERE id = 1",
                "UPDATE orders SET touched = CURRENT_USER WHERE id = 1",
                "UPDATE orders SET touched = DEFAULT WHERE id = 1"));
        switch (engine) {
            case POSTGRES -> sqls.addAll(List.of("UPDATE orders SET touched = now() WHERE id = 1",
                    "UPDATE orders SET qty = floor(random() * 10) WHERE id = 1",
                    "UPDATE orders SET touched = gen_random_uuid() WHERE id = 1",
                    "UPDATE orders SET touched = clock_timestamp() WHERE id = 1",
                    "UPDATE orders SET touched = 'now'::timestamptz WHERE id = 1",
                    "UPDATE orders SET touched = CAST(' NoW ' AS timestamptz)::text WHERE id = 1",
                    "DELETE FROM orders WHERE id = 1 AND now() > '2000-01-01'"));
            case MYSQL -> sqls.addAll(List.of("UPDATE orders SET touched = now() WHERE id = 1",
                    "UPDATE orders SET qty = floor(rand() * 10) WHERE id = 1",
                    "UPDATE orders SET touched = uuid() WHERE id = 1",
                    "UPDATE orders SET touched = sysdate() WHERE id = 1",
                    "DELETE FROM orders WHERE id = 1 AND unix_timestamp() > 0"));
            case SQLITE -> sqls.addAll(List.of("UPDATE orders SET touched = datetime('now') WHERE id = 1",
                    "UPDATE orders SET qty = random() WHERE id = 1",
                    "UPDATE orders SET touched = hex(randomblob(4)) WHERE id = 1",
                    "UPDATE orders SET touched = 'now' WHERE id = 1",
                    "UPDATE orders SET touched = datetime(\"now\") WHERE id = 1"));
        }
        for (String sql : sqls) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.VOLATILE);
            assertThat(e.getMessage()).as(sql).contains("the value the card would show is not the value");
        }
        refusedByPlan(d, "UPDATE orders SET touched = CURRENT_TIMESTAMP WHERE id = ?", Refusal.VOLATILE, "orders",
                "--param", "1");
        // A deterministic function is fine.
        PlanPendingException p = d.propose("UPDATE orders SET status = upper(status) WHERE id = 4", "orders");
        assertThat(p.getMessage()).contains("status: 'cancelled' -> 'CANCELLED'");
    }

    /** SQLite has no stored functions: only the application's own, which the analysis sees by name. */
    /**
     * A clock function given the value to convert is a conversion (MariaDB's UNIX_TIMESTAMP(ts), SQLite's
     * unixepoch(x) and date(x)), planned with the value the card shows; without one it reads the clock.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL", "SQLITE"})
    void W10_aClockFunctionGivenTheValueToConvertIsPlannedAndWithoutOneIsVolatile(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String convert = d.mysql() ? "UPDATE orders SET touched = UNIX_TIMESTAMP('2024-01-01 00:00:00') WHERE id = 6"
                : "UPDATE orders SET touched = unixepoch('2024-01-01') WHERE id = 6";
        PlanPendingException pending = d.propose(convert, "orders");
        assertThat(pending.getMessage()).contains("touched: NULL -> '1704067200'");
        if (engine == Engine.SQLITE) {
            assertThat(d.propose("UPDATE orders SET touched = date('2024-01-01', '+1 day') WHERE id = 6", "orders")
                    .getMessage()).contains("touched: NULL -> '2024-01-02'");
        }
        List<String> clocks = d.mysql() ? List.of("UPDATE orders SET touched = UNIX_TIMESTAMP() WHERE id = 6",
                "UPDATE orders SET touched = RAND(3) WHERE id = 6")
                : List.of("UPDATE orders SET touched = unixepoch() WHERE id = 6",
                        "UPDATE orders SET touched = date() WHERE id = 6",
                        "UPDATE orders SET touched = strftime('%s') WHERE id = 6");
        for (String sql : clocks) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.VOLATILE);
        }
        refusedByPlan(d, clocks.get(0), Refusal.VOLATILE);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void W10_aFunctionTheCatalogCallsVolatileIsRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        if (d.mysql()) {
            // MariaDB shows a routine only to those who may run it: without EXECUTE the catalog says nothing,
            // and the database refuses to run it in the dry run. Nothing is planned either way.
            RefusedException denied = d.refused("UPDATE orders SET qty = bump(qty) WHERE id = 1", "orders");
            assertThat(denied.code()).as(denied.getMessage()).isEqualTo(Refusal.UNSUPPORTED_STATEMENT);
            assertThat(denied.getMessage()).contains("the database refused the statement during the dry run")
                    .contains("execute command denied").contains("Nothing was changed.");
            d.admin("GRANT EXECUTE ON FUNCTION " + d.app().name() + ".bump TO '" + d.roles().login(Role.PLAN).name() + "'@'%'");
        }
        RefusedException e = d.refused("UPDATE orders SET qty = bump(qty) WHERE id = 1", "orders");
        assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.VOLATILE);
        assertThat(e.getMessage()).contains("the catalog says bump");
    }

    // ---- W11 --------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W11_aTableAllowlistedWithoutAnImpactSentenceCanBeReadButNotWritten(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("UPDATE lookup SET v = 8 WHERE id = 1", "DELETE FROM lookup WHERE id = 1")) {
            RefusedException e = d.refused(sql, "lookup");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.IMPACT_UNDECLARED);
            assertThat(e.getMessage()).as(sql).contains("lookup has no declared business consequence (policy.impact)")
                    .contains("until then it can be read but not written");
        }
        refusedByPlan(d, "UPDATE lookup SET v = 8 WHERE id = 1", Refusal.IMPACT_UNDECLARED, "lookup");
        try (Connection c = d.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT v FROM lookup WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(7);
        }
    }

    // ---- W12 --------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W12_ddlIsRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> ddl = new ArrayList<>(List.of("CREATE TABLE evil (id INT PRIMARY KEY)",
                "ALTER TABLE orders ADD COLUMN evil INT", "DROP TABLE orders", "TRUNCATE TABLE orders",
                "CREATE INDEX evil_qty ON orders (qty)", "CREATE VIEW evil AS SELECT * FROM orders"));
        switch (engine) {
            case POSTGRES -> ddl.addAll(List.of("TRUNCATE orders", "COMMENT ON TABLE orders IS 'x'", "DROP SCHEMA "
                    + d.app().name() + " CASCADE", "CREATE FUNCTION evil() RETURNS int AS 'select 1' LANGUAGE sql"));
            case MYSQL -> ddl.addAll(List.of("RENAME TABLE orders TO evil", "DROP DATABASE " + d.app().name()));
            case SQLITE -> ddl.add("VACUUM");
        }
        for (String sql : ddl) {
            RefusedException e = d.refused(sql, "orders");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.DDL);
            assertThat(e.getMessage()).as(sql).contains("changes the schema or its storage; schema changes are out of scope");
        }
        refusedByPlan(d, "DROP TABLE orders", Refusal.DDL, "orders");
        Run read = d.llmsafe("read", "TRUNCATE TABLE orders");
        assertThat(read.status()).as(read.all()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).startsWith("Refused (DDL)");
        // Nothing was created, and orders has its columns still.
        try (Connection c = d.app().connect()) {
            assertThat(tableExists(c, "evil")).isFalse();
            assertThat(tableExists(c, "orders")).isTrue();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM orders WHERE id = 1")) {
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(5);
            }
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static boolean tableExists(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT 1 FROM " + name + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** {@code executeQuery} of a write with RETURNING becomes a plan too; nothing changed. */
    private static PlanPendingException proposeByQuery(Deployed d, String sql) throws Exception {
        List<String> before = d.rows("orders");
        try (Connection c = d.connect(); Statement s = c.createStatement()) {
            s.executeQuery(sql).close();
            throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
        } catch (PlanPendingException e) {
            assertThat(d.rows("orders")).isEqualTo(before);
            return e;
        }
    }

    /**
     * The statement through the URL becomes a plan, which {@code alice} approves and {@code bob} applies
     * with the command line.
     */
    private static PlanPendingException proposeApproveApply(Deployed d, String sql, String table) throws Exception {
        return StatementRulesEndToEndTest.proposeApproveApply(d, sql, table);
    }

    /** A way of proposing a plan. */
    @FunctionalInterface
    private interface Proposer {
        PlanPendingException propose() throws Exception;
    }

    /** As {@link #proposeApproveApply}, for a plan proposed another way. */
    private static PlanPendingException approvedAndApplied(Deployed d, Proposer proposer) throws Exception {
        PlanPendingException pending = proposer.propose();
        Run apply = d.approveAndApply(pending.planId().toString());
        assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
        return pending;
    }

    /**
     * {@code llmsafe plan SQL [ARGS] --as assistant} is refused with the code, and the table is unchanged.
     * The message.
     */
    // ---- W13 --------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W13_aColumnTheDatabaseMaintainsCannotBeAssigned(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> kept = d.rows("kept");
        RefusedException e = d.refused("UPDATE kept SET stamp = 'mine', v = 2 WHERE id = 1", "kept");
        assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.MAINTAINED_COLUMN);
        assertThat(e.getMessage()).contains(".stamp is maintained by the database itself (policy.autoColumns declares"
                + " that a trigger sets it), so the statement may not set it").contains("Leave it out of SET");
        assertThat(refusedByPlan(d, "UPDATE kept SET stamp = ? WHERE id = 1", Refusal.MAINTAINED_COLUMN, "kept",
                "--param", "mine")).contains(".stamp is maintained by the database itself");
        if (engine == Engine.MYSQL) {
            RefusedException onUpdate = d.refused("UPDATE kept SET auto_at = '2021-01-01 00:00:00' WHERE id = 1", "kept");
            assertThat(onUpdate.code()).as(onUpdate.getMessage()).isEqualTo(Refusal.MAINTAINED_COLUMN);
            assertThat(onUpdate.getMessage()).contains(".auto_at is maintained by the database itself (the catalog says"
                    + " ON UPDATE)");
        }
        // Left to the database, the same column is what the card says the database maintains.
        PlanPendingException plan = d.propose("UPDATE kept SET v = 2 WHERE id = 1", "kept");
        assertThat(plan.getMessage()).contains("1 row would change, in 1 column: v\n  Maintained by the database, not set"
                + " by this statement: " + (engine == Engine.MYSQL ? "stamp, auto_at." : "stamp."));
        assertThat(d.rows("kept")).isEqualTo(kept);
    }

    private static String refusedByPlan(Deployed d, String sql, Refusal code, String table, String... args) throws Exception {
        List<String> before = d.rows(table);
        List<String> all = new ArrayList<>(List.of(sql));
        all.addAll(List.of(args));
        Run plan = d.plan(all.toArray(String[]::new));
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).as(sql).startsWith("Refused (" + code + ")");
        assertThat(plan.out()).isEmpty();
        assertThat(d.rows(table)).isEqualTo(before);
        return plan.err();
    }

    private static String refusedByPlan(Deployed d, String sql, Refusal code) throws Exception {
        return refusedByPlan(d, sql, code, "orders");
    }
}
