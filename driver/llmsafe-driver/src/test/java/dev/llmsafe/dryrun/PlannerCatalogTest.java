package dev.llmsafe.dryrun;

import static dev.llmsafe.dryrun.PlannerTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.Refusal;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the live catalog decides before a dry run may start, on every dialect. */
class PlannerCatalogTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Planning> PLANNING = new EnumMap<>(Engine.class);

    static Planning planning(Engine engine) throws SQLException {
        Planning p = PLANNING.get(engine);
        if (p == null) {
            p = new Planning(dbs.get(engine));
            PLANNING.put(engine, p);
        }
        return p;
    }

    @AfterAll
    static void closePools() {
        PLANNING.values().forEach(Planning::close);
        PLANNING.clear();
    }

    static Policy allow(String table, String impact) {
        return Policy.define(p -> p.table(table, t -> t.impact(impact)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W4_onlyAllowlistedTablesAsTheDatabaseResolvesThem(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w4 (id INT PRIMARY KEY, v INT)", "INSERT INTO w4 VALUES (1, 1)",
                "CREATE TABLE w4_other (id INT PRIMARY KEY, v INT)", "INSERT INTO w4_other VALUES (1, 1)");
        assertRefused(() -> p.plan(allow("w4", "x"), "UPDATE w4_other SET v = 2 WHERE id = 1"),
                Refusal.TABLE_NOT_ALLOWED, "is not in the policy's allowlist");
        assertRefused(() -> p.plan(allow("w4", "x"), "UPDATE nowhere SET v = 2 WHERE id = 1"),
                Refusal.TABLE_NOT_ALLOWED, "is not a table this connection can see");
        // The policy's name and the statement's name meet where the database resolves them: PostgreSQL
        // folds unquoted names, SQLite ignores case, MariaDB on Linux keeps table names' case.
        if (engine == Engine.MYSQL) {
            assertRefused(() -> p.plan(allow("W4", "x"), "UPDATE w4 SET v = 2 WHERE id = 1"),
                    Refusal.TABLE_NOT_ALLOWED, "is not in the policy's allowlist");
            assertRefused(() -> p.plan(allow("w4", "x"), "UPDATE W4 SET v = 2 WHERE id = 1"),
                    Refusal.TABLE_NOT_ALLOWED, "is not a table this connection can see");
        } else {
            assertThat(p.plan(allow("W4", "x"), "UPDATE w4 SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
            assertThat(p.plan(allow("w4", "x"), "UPDATE W4 SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
        }
        if (engine == Engine.POSTGRES) {
            // Quoted, the name keeps its case, and "W4" is not w4.
            assertRefused(() -> p.plan(allow("\"W4\"", "x"), "UPDATE w4 SET v = 2 WHERE id = 1"),
                    Refusal.TABLE_NOT_ALLOWED, "is not in the policy's allowlist");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W6_aTableWithoutAPrimaryKeyCannotBePlanned(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w6 (id INT, v INT)", "INSERT INTO w6 VALUES (1, 1)");
        assertRefused(() -> p.plan(allow("w6", "x"), "UPDATE w6 SET v = 2 WHERE id = 1"), Refusal.NO_PRIMARY_KEY,
                "has no primary key");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W6_aCompositeKeyWorks(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w6c (a INT, b VARCHAR(5), v INT, PRIMARY KEY (b, a))",
                "INSERT INTO w6c VALUES (1, 'x', 1), (2, 'x', 1), (1, 'y', 1)");
        Plan plan = p.plan(allow("w6c", "x"), "UPDATE w6c SET v = 2 WHERE v = 1");
        assertThat(plan.statements().get(0).keyColumns()).containsExactly("b", "a");
        assertThat(plan.card()).contains("  b = 'x', a = 1\n    v: 1 -> 2\n").contains("  b = 'y', a = 1\n");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W7_setColumnsMustExistAndMayBeWritten(Engine engine) throws SQLException {
        Planning p = planning(engine);
        String generated = engine == Engine.MYSQL ? "double_v INT AS (v * 2) VIRTUAL"
                : "double_v INT GENERATED ALWAYS AS (v * 2) " + (engine == Engine.POSTGRES ? "STORED" : "VIRTUAL");
        p.db.execute("CREATE TABLE w7 (id INT PRIMARY KEY, v INT, total INT, " + generated + ")",
                "INSERT INTO w7 (id, v, total) VALUES (1, 1, 10)");
        Policy policy = Policy.define(x -> x.table("w7", t -> t.impact("x")
                .denyWrite("total", "recomputed by billing; change the order lines instead")));
        assertRefused(() -> p.plan(policy, "UPDATE w7 SET nope = 1 WHERE id = 1"), Refusal.DENIED_WRITE_COLUMN,
                "has no column nope");
        assertRefused(() -> p.plan(policy, "UPDATE w7 SET total = 11 WHERE id = 1"), Refusal.DENIED_WRITE_COLUMN,
                "w7.total may not be written here: recomputed by billing; change the order lines instead.");
        assertRefused(() -> p.plan(policy, "UPDATE w7 SET TOTAL = 11 WHERE id = 1"), Refusal.DENIED_WRITE_COLUMN,
                "may not be written here");
        assertRefused(() -> p.plan(policy, "UPDATE w7 SET id = 2 WHERE id = 1"), Refusal.KEY_CHANGE,
                "part of the primary key");
        // A generated column follows the column it is computed from, and is shown changing too.
        Plan plan = p.plan(policy, "UPDATE w7 SET v = 5 WHERE id = 1");
        assertThat(plan.statements().get(0).changedColumns()).containsExactly("v", "double_v");
        if (engine != Engine.MYSQL) {
            assertRefused(() -> p.plan(policy, "UPDATE w7 SET double_v = 1 WHERE id = 1"), Refusal.DENIED_WRITE_COLUMN,
                    "computed by the database");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W11_aTableWithoutAnImpactSentenceCannotBeWritten(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w11 (id INT PRIMARY KEY, v INT)", "INSERT INTO w11 VALUES (1, 1)");
        assertRefused(() -> p.plan(Policy.define(x -> x.table("w11")), "UPDATE w11 SET v = 2 WHERE id = 1"),
                Refusal.IMPACT_UNDECLARED, "has no declared business consequence");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void W10_aFunctionTheCatalogCallsVolatileIsRefused(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w10 (id INT PRIMARY KEY, v INT)", "INSERT INTO w10 VALUES (1, 1)");
        if (engine == Engine.POSTGRES) {
            p.db.execute("CREATE FUNCTION bump_v(i int) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT i + 1'",
                    "CREATE FUNCTION plus_one(i int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT i + 1'");
        } else {
            p.db.execute("CREATE FUNCTION bump_v(i INT) RETURNS INT NOT DETERMINISTIC NO SQL RETURN i + 1",
                    "CREATE FUNCTION plus_one(i INT) RETURNS INT DETERMINISTIC NO SQL RETURN i + 1");
        }
        assertRefused(() -> p.plan(allow("w10", "x"), "UPDATE w10 SET v = bump_v(v) WHERE id = 1"), Refusal.VOLATILE,
                "the catalog says bump_v");
        // Not volatile, but a routine that could read any table: its result would reach the card (R1).
        assertRefused(() -> p.plan(allow("w10", "x"), "UPDATE w10 SET v = plus_one(v) WHERE id = 1"),
                Refusal.FORBIDDEN_FUNCTION, "plus_one is a stored routine");
        assertThat(p.plan(allow("w10", "x"), "UPDATE w10 SET v = abs(v - 5) WHERE id = 1").rowCount()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void W4_aTableAWriteReadsInASubqueryMustBeAllowlistedToo(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE w4s (id INT PRIMARY KEY, v INT)", "INSERT INTO w4s VALUES (1, 1), (2, 2)",
                "CREATE TABLE w4s_payroll (id INT PRIMARY KEY, salary INT)", "INSERT INTO w4s_payroll VALUES (1, 5000)",
                "CREATE TABLE w4s_limits (id INT PRIMARY KEY, v INT)", "INSERT INTO w4s_limits VALUES (1, 7)");
        Policy policy = Policy.define(x -> x.table("w4s", t -> t.impact("x")).table("w4s_limits"));
        // The value would reach the card; the count of matching rows would answer a question about it.
        for (String leak : List.of("UPDATE w4s SET v = (SELECT salary FROM w4s_payroll WHERE id = 1) WHERE id = 1",
                "DELETE FROM w4s WHERE id IN (SELECT id FROM w4s_payroll WHERE salary > 4000)",
                "UPDATE w4s SET v = 0 WHERE EXISTS (SELECT 1 FROM w4s_payroll p WHERE p.salary > 4000)")) {
            assertRefused(() -> p.plan(policy, leak), Refusal.TABLE_NOT_ALLOWED, "is read by this ");
        }
        assertRefused(() -> p.plan(policy, "UPDATE w4s SET v = 0 WHERE id IN (SELECT id FROM no_such_table)"),
                Refusal.TABLE_NOT_ALLOWED, "no_such_table is not a table this connection can see");
        // An allowlisted table may be read, even one that may not be written.
        Plan plan = p.plan(policy, "UPDATE w4s SET v = (SELECT v FROM w4s_limits WHERE id = 1) WHERE id = 2");
        assertThat(plan.card()).contains("v: 2 -> 7");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D8_W13_aTriggerThatMayChangeColumnsNeedsThemDeclared(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d8 (id INT PRIMARY KEY, v INT, note VARCHAR(20))", "INSERT INTO d8 VALUES (1, 1, 'a')");
        switch (engine) {
            case POSTGRES -> p.db.execute("CREATE FUNCTION d8_touch() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.note := 'touched'; RETURN NEW; END $$",
                    "CREATE TRIGGER d8_touch BEFORE UPDATE ON d8 FOR EACH ROW EXECUTE FUNCTION d8_touch()");
            case MYSQL -> p.db.execute("CREATE TRIGGER d8_touch BEFORE UPDATE ON d8 FOR EACH ROW SET NEW.note = 'touched'");
            case SQLITE -> p.db.execute("CREATE TRIGGER d8_touch AFTER UPDATE OF v ON d8 BEGIN"
                    + " UPDATE d8 SET note = 'touched' WHERE id = NEW.id; END");
        }
        assertRefused(() -> p.plan(allow("d8", "x"), "UPDATE d8 SET v = 2 WHERE id = 1"), Refusal.AUTO_COLUMNS_UNKNOWN,
                "the trigger d8_touch on ");
        // On SQLite the trigger writes the row again with an UPDATE of its own: one row, not a side effect (D14).
        Policy declared = Policy.define(x -> x.table("d8", t -> t.impact("x").autoColumns("note")));
        Plan plan = p.plan(declared, "UPDATE d8 SET v = 2 WHERE id = 1");
        PlannedStatement s = plan.statements().get(0);
        // What the statement sets, and on a line of its own what the database maintains, without a value.
        assertThat(s.changedColumns()).containsExactly("v");
        assertThat(s.autoColumns()).containsExactly("note");
        assertThat(s.rows().get(0).columns()).extracting(ColumnChange::column).containsExactly("v");
        assertThat(plan.card()).contains("1 row would change, in 1 column: v\n  Maintained by the database, not set by"
                + " this statement: note.").contains("  id = 1\n    v: 1 -> 2\n").doesNotContain("touched");
        assertThat(plan.toJson()).contains("\"changedColumns\":[\"v\"],\"autoColumns\":[\"note\"]")
                .doesNotContain("touched");
        assertThat(plan.warnings()).anySatisfy(w -> assertThat(w).contains("The trigger d8_touch"));
        // W13: the statement may not set it.
        assertRefused(() -> p.plan(declared, "UPDATE d8 SET note = 'mine', v = 3 WHERE id = 1"), Refusal.MAINTAINED_COLUMN,
                ".note is maintained by the database itself (policy.autoColumns declares that a trigger sets it)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D8_anEmptyAutoColumnsListDeclaresATriggerThatChangesNoColumn(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d8e (id INT PRIMARY KEY, v INT, note VARCHAR(20))", "INSERT INTO d8e VALUES (1, 1, 'a')");
        switch (engine) {
            case POSTGRES -> p.db.execute("CREATE FUNCTION d8e_check() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN IF NEW.v < 0 THEN RAISE EXCEPTION 'negative'; END IF; RETURN NEW; END $$",
                    "CREATE TRIGGER d8e_check BEFORE UPDATE ON d8e FOR EACH ROW EXECUTE FUNCTION d8e_check()");
            case MYSQL -> p.db.execute("CREATE TRIGGER d8e_check BEFORE UPDATE ON d8e FOR EACH ROW"
                    + " IF NEW.v < 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'negative'; END IF");
            case SQLITE -> p.db.execute("CREATE TRIGGER d8e_check BEFORE UPDATE ON d8e BEGIN"
                    + " SELECT RAISE(ABORT, 'negative') WHERE NEW.v < 0; END");
        }
        String update = "UPDATE d8e SET v = 2 WHERE id = 1";
        assertRefused(() -> p.plan(allow("d8e", "x"), update), Refusal.AUTO_COLUMNS_UNKNOWN,
                "(an empty list if its triggers change no column)");
        Plan plan = p.plan(Policy.define(x -> x.table("d8e", t -> t.impact("x").autoColumns())), update);
        PlannedStatement s = plan.statements().get(0);
        assertThat(s.changedColumns()).containsExactly("v");
        assertThat(s.autoColumns()).isEmpty();
        assertThat(plan.card()).contains("1 row would change, in 1 column: v").contains("    v: 1 -> 2\n")
                .doesNotContain("maintained by the database");
        assertThat(plan.toJson()).contains("\"autoColumns\":[]");
        assertThat(p.db.snapshot("d8e")).containsExactly("[1, 1, a]");
    }

    @Test
    void D8_W13_mysqlOnUpdateColumnsAreReportedByTheCatalog() throws SQLException {
        Planning p = planning(Engine.MYSQL);
        p.db.execute("CREATE TABLE d8m (id INT PRIMARY KEY, v INT, updated_at TIMESTAMP(6) NOT NULL"
                + " DEFAULT '2020-01-01 00:00:00' ON UPDATE CURRENT_TIMESTAMP(6))", "INSERT INTO d8m (id, v) VALUES (1, 1)");
        Plan plan = p.plan(allow("d8m", "x"), "UPDATE d8m SET v = 2 WHERE id = 1");
        assertThat(plan.statements().get(0).autoColumns()).containsExactly("updated_at");
        assertThat(plan.statements().get(0).changedColumns()).containsExactly("v");
        assertThat(plan.card()).contains("Maintained by the database, not set by this statement: updated_at.")
                .doesNotContain("updated_at: ").doesNotContain("2020-01-01");
        assertRefused(() -> p.plan(allow("d8m", "x"), "UPDATE d8m SET updated_at = '2021-01-01 00:00:00' WHERE id = 1"),
                Refusal.MAINTAINED_COLUMN, ".updated_at is maintained by the database itself (the catalog says ON UPDATE)");
    }

    /**
     * D14 on SQLite: total_changes() counts a trigger's second write of the row just updated as a change of
     * its own; the update hook shows it is the same row. A trigger that writes another row of the same table
     * is still a side effect, and so is the same-row trigger in a WITHOUT ROWID table, whose writes the hook
     * does not see (the count of writes stands, strictly).
     */
    @Test
    void D14_onSqliteATriggerWritingTheSameRowAgainIsNotASideEffectButAnotherRowIs() throws SQLException {
        Planning p = planning(Engine.SQLITE);
        p.db.execute("CREATE TABLE d14s (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
                "INSERT INTO d14s VALUES (1, 1, 'a'), (2, 2, 'b')",
                "CREATE TRIGGER d14s_touch AFTER UPDATE OF v ON d14s BEGIN"
                        + " UPDATE d14s SET note = 'touched' WHERE id = NEW.id; END",
                "CREATE TABLE d14o (id INT PRIMARY KEY, v INT, note VARCHAR(20))",
                "INSERT INTO d14o VALUES (1, 1, 'a'), (2, 2, 'b')",
                "CREATE TRIGGER d14o_touch AFTER UPDATE OF v ON d14o BEGIN"
                        + " UPDATE d14o SET note = 'touched' WHERE id <> NEW.id; END",
                "CREATE TABLE d14w (id INT PRIMARY KEY, v INT, note VARCHAR(20)) WITHOUT ROWID",
                "INSERT INTO d14w VALUES (1, 1, 'a')",
                "CREATE TRIGGER d14w_touch AFTER UPDATE OF v ON d14w BEGIN"
                        + " UPDATE d14w SET note = 'touched' WHERE id = NEW.id; END");
        Policy policy = Policy.define(x -> x.table("d14s", t -> t.impact("x").autoColumns("note"))
                .table("d14o", t -> t.impact("x").autoColumns("note")).table("d14w", t -> t.impact("x").autoColumns("note")));
        Plan same = p.plan(policy, "UPDATE d14s SET v = 5 WHERE id IN (1, 2)");
        assertThat(same.statements().get(0).rows()).hasSize(2);
        assertThat(same.card()).contains("2 rows would change, in 1 column: v").contains("  id = 1\n    v: 1 -> 5\n");
        assertRefused(() -> p.plan(policy, "UPDATE d14o SET v = 5 WHERE id = 1"), Refusal.SIDE_EFFECTS,
                "2 rows written where the card shows 1");
        assertRefused(() -> p.plan(policy, "UPDATE d14w SET v = 5 WHERE id = 1"), Refusal.SIDE_EFFECTS,
                "2 rows written where the card shows 1");
        assertThat(p.db.snapshot("d14s")).containsExactly("[1, 1, a]", "[2, 2, b]");
        assertThat(p.db.snapshot("d14o")).containsExactly("[1, 1, a]", "[2, 2, b]");
    }

    @Test
    void D9_theDatabasesOwnCountMustMatchTheRowsShown() throws SQLException {
        Planning p = planning(Engine.POSTGRES);
        p.db.execute("CREATE TABLE d9 (id INT PRIMARY KEY, v INT)", "INSERT INTO d9 VALUES (1, 1)",
                "CREATE RULE d9_nothing AS ON UPDATE TO d9 DO INSTEAD NOTHING");
        assertRefused(() -> p.plan(allow("d9", "x"), "UPDATE d9 SET v = 2 WHERE id = 1"), Refusal.ROW_COUNT_MISMATCH,
                "the database reports 0 rows affected where 1 rows matched");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D14_aTriggerThatWritesElsewhereIsMeasuredAndRefused(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d14 (id INT PRIMARY KEY, v INT)", "INSERT INTO d14 VALUES (1, 1), (2, 2)",
                "CREATE TABLE d14_audit (id INT PRIMARY KEY, what VARCHAR(20))");
        switch (engine) {
            case POSTGRES -> p.db.execute("CREATE FUNCTION d14_log() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN INSERT INTO d14_audit VALUES (OLD.id, 'deleted'); RETURN OLD; END $$",
                    "CREATE TRIGGER d14_log AFTER DELETE ON d14 FOR EACH ROW EXECUTE FUNCTION d14_log()");
            case MYSQL -> p.db.execute("CREATE TRIGGER d14_log AFTER DELETE ON d14 FOR EACH ROW"
                    + " INSERT INTO d14_audit VALUES (OLD.id, 'deleted')");
            case SQLITE -> p.db.execute("CREATE TRIGGER d14_log AFTER DELETE ON d14 BEGIN"
                    + " INSERT INTO d14_audit VALUES (OLD.id, 'deleted'); END");
        }
        List<String> audit = p.snapshot("d14_audit");
        List<String> rows = p.snapshot("d14");
        assertRefused(() -> p.plan(allow("d14", "x"), "DELETE FROM d14 WHERE id IN (1, 2)"), Refusal.SIDE_EFFECTS,
                switch (engine) {
                    case POSTGRES -> "d14_audit: 2 inserted, 0 updated, 0 deleted";
                    case MYSQL -> "the session wrote 2 inserted, 0 updated, 2 deleted where the card shows 2 deleted";
                    case SQLITE -> "4 rows written where the card shows 2";
                });
        assertThat(p.snapshot("d14_audit")).isEqualTo(audit);
        assertThat(p.snapshot("d14")).isEqualTo(rows);
    }

    @Test
    void D14_aPostgresRuleThatWritesElsewhereIsMeasuredAndRefused() throws SQLException {
        Planning p = planning(Engine.POSTGRES);
        p.db.execute("CREATE TABLE d14r (id INT PRIMARY KEY, v INT)", "INSERT INTO d14r VALUES (1, 1)",
                "CREATE TABLE d14r_log (v INT)", "CREATE RULE d14r_also AS ON UPDATE TO d14r DO ALSO INSERT INTO d14r_log VALUES (NEW.v)");
        assertRefused(() -> p.plan(allow("d14r", "x"), "UPDATE d14r SET v = 2 WHERE id = 1"), Refusal.SIDE_EFFECTS,
                "d14r_log: 1 inserted");
    }

    /**
     * D8 on MariaDB and MySQL: "no trigger" is believed only from a role holding TRIGGER on the table (or its
     * database). MariaDB 11.4.5 and MySQL list a trigger only then, 10.11.19 to any role that may write the
     * table (SPEC.md F20), so without it the write is refused on every version, with the grant to add; with
     * it on the table alone, the trigger that sets a column is seen and refused for what it is, and nothing
     * is written either way.
     */
    @Test
    void D8_triggersAreBelievedOnlyFromARoleHoldingTrigger() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE d8t (id INT PRIMARY KEY, v INT, stamp INT)", "INSERT INTO d8t VALUES (1, 1, 0)",
                "CREATE TRIGGER d8t_stamp BEFORE UPDATE ON d8t FOR EACH ROW SET NEW.stamp = NEW.stamp + 1");
        // The database-level grant that shows foreign keys and their rules, without TRIGGER.
        String foreignKeys = db.isMysql() ? "SELECT" : "REFERENCES";
        TestRole without = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.d8t TO {role}",
                "GRANT " + foreignKeys + " ON {db}.* TO {role}");
        try (Planning p = new Planning(db, without)) {
            assertRefused(() -> p.plan(allow("d8t", "x"), "UPDATE d8t SET v = 2 WHERE id = 1"),
                    Refusal.AUTO_COLUMNS_UNKNOWN, "cannot see the triggers");
            assertRefused(() -> p.plan(allow("d8t", "x"), "UPDATE d8t SET v = 2 WHERE id = 1"),
                    Refusal.AUTO_COLUMNS_UNKNOWN, "TRIGGER ON `" + db.name() + "`.");
        }
        TestRole with = db.createRole("GRANT SELECT, UPDATE, DELETE, TRIGGER ON {db}.d8t TO {role}",
                "GRANT " + foreignKeys + " ON {db}.* TO {role}");
        try (Planning p = new Planning(db, with)) {
            assertRefused(() -> p.plan(allow("d8t", "x"), "UPDATE d8t SET v = 2 WHERE id = 1"),
                    Refusal.AUTO_COLUMNS_UNKNOWN, "the trigger d8t_stamp");
            Policy declared = Policy.define(x -> x.table("d8t", t -> t.impact("x").autoColumns("stamp")));
            assertThat(p.plan(declared, "UPDATE d8t SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
        }
        assertThat(db.snapshot("d8t")).containsExactly("[1, 1, 0]");
    }

    /**
     * MariaDB's measure is the session's own Handler counters (SPEC.md F39-F42): a credential with
     * table grants only (no PROCESS) measures, plans a plain UPDATE, and has a trigger's write refused.
     */
    @Test
    void D14_aCredentialWithTableGrantsOnlyMeasuresOnMariadb() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE d14u (id INT PRIMARY KEY, v INT)", "INSERT INTO d14u VALUES (1, 1)",
                "CREATE TABLE d14u_log (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
                "CREATE TABLE d14t (id INT PRIMARY KEY, v INT)", "INSERT INTO d14t VALUES (1, 1)",
                "CREATE TRIGGER d14t_log AFTER DELETE ON d14t FOR EACH ROW INSERT INTO d14u_log (v) VALUES (OLD.v)");
        TestRole role = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.d14u TO {role}",
                "GRANT SELECT, UPDATE, DELETE ON {db}.d14t TO {role}", "GRANT INSERT ON {db}.d14u_log TO {role}",
                "GRANT " + db.catalogPrivilege() + " ON {db}.* TO {role}");
        try (Planning p = new Planning(db, role)) {
            assertThat(p.plan(allow("d14u", "x"), "UPDATE d14u SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
            assertRefused(() -> p.plan(allow("d14t", "x"), "DELETE FROM d14t WHERE id = 1"), Refusal.SIDE_EFFECTS,
                    "the session wrote 1 inserted, 0 updated, 1 deleted where the card shows 1 deleted");
        }
        assertThat(db.snapshot("d14u_log")).isEmpty();
        assertThat(db.snapshot("d14t")).containsExactly("[1, 1]");
    }

    /**
     * A trigger that calls a procedure, which writes: the measure counts the procedure's rows too
     * (MariaDB's session counters, PostgreSQL's per-table counts).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void D14_aTriggerCallingAProcedureThatWritesIsMeasuredAndRefused(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d14p (id INT PRIMARY KEY, v INT)", "INSERT INTO d14p VALUES (1, 1)",
                "CREATE TABLE d14p_log (v INT)");
        if (engine == Engine.POSTGRES) {
            p.db.execute("CREATE PROCEDURE d14p_write(x INT) LANGUAGE plpgsql AS $$ BEGIN"
                            + " UPDATE d14p_log SET v = x; INSERT INTO d14p_log VALUES (x); END $$",
                    "CREATE FUNCTION d14p_fire() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN CALL d14p_write(NEW.v); RETURN NEW; END $$",
                    "CREATE TRIGGER d14p_fire AFTER UPDATE ON d14p FOR EACH ROW EXECUTE FUNCTION d14p_fire()");
        } else {
            p.db.execute("CREATE PROCEDURE d14p_write(x INT) BEGIN INSERT INTO d14p_log VALUES (x); END",
                    "CREATE TRIGGER d14p_fire AFTER UPDATE ON d14p FOR EACH ROW CALL d14p_write(NEW.v)");
        }
        Policy policy = Policy.define(x -> x.table("d14p", t -> t.impact("x").autoColumns()));
        assertRefused(() -> p.plan(policy, "UPDATE d14p SET v = 2 WHERE id = 1"), Refusal.SIDE_EFFECTS,
                engine == Engine.POSTGRES ? "d14p_log: 1 inserted"
                        : "the session wrote 1 inserted, 1 updated, 0 deleted where the card shows 1 updated");
        assertThat(p.snapshot("d14p_log")).isEmpty();
        assertThat(p.snapshot("d14p")).containsExactly("[1, 1]");
    }

    /**
     * Matched rows that already hold the new value: MariaDB counts them as updated when it hands them
     * to InnoDB without comparing (SPEC.md F39), so the count is believed between the changed and the
     * matched rows, and only where no trigger fires, whose updates elsewhere could hide there.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D14_rowsThatAlreadyHoldTheNewValueAreNotASideEffect(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d14v (id INT PRIMARY KEY, v INT)", "INSERT INTO d14v VALUES (1, 0), (2, 5), (3, 0)");
        Plan plan = p.plan(allow("d14v", "x"), "UPDATE d14v SET v = 5 WHERE id IN (1, 2, 3)");
        assertThat(plan.rowCount()).isEqualTo(3);
        assertThat(plan.card()).contains("  id = 1\n    v: 0 -> 5\n");
        if (engine != Engine.MYSQL) {
            return;
        }
        // One row of three changes, and the trigger updates one row elsewhere for it: 2 updates counted,
        // as many as if two of the matched rows had been handed on unchanged.
        p.db.execute("UPDATE d14v SET v = 5 WHERE id = 3",
                "CREATE TABLE d14v_other (id INT PRIMARY KEY, n INT)", "INSERT INTO d14v_other VALUES (1, 0)",
                "CREATE TRIGGER d14v_count AFTER UPDATE ON d14v FOR EACH ROW"
                        + " UPDATE d14v_other SET n = n + 1 WHERE id = 1 AND NEW.v <> OLD.v");
        Policy policy = Policy.define(x -> x.table("d14v", t -> t.impact("x").autoColumns()));
        assertRefused(() -> p.plan(policy, "UPDATE d14v SET v = 5 WHERE id IN (1, 2, 3)"), Refusal.SIDE_EFFECTS_UNKNOWN,
                "a trigger fires on this table, so its writes cannot be told apart from those rows");
        assertThat(p.snapshot("d14v_other")).containsExactly("[1, 0]");
    }

    /** The grant a refusal for an unseen catalog asks for, up to the database name. */
    static String hint(ScratchDatabase db) throws SQLException {
        return "GRANT " + db.catalogPrivilege();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D15_aForeignKeyThatWouldCascadeIsRefused(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d15p (id INT PRIMARY KEY, code VARCHAR(5) NOT NULL UNIQUE, v INT)",
                "INSERT INTO d15p VALUES (1, 'a', 1)",
                "CREATE TABLE d15c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES d15p (id) ON DELETE CASCADE)",
                "INSERT INTO d15c VALUES (10, 1)",
                "CREATE TABLE d15u (id INT PRIMARY KEY, pcode VARCHAR(5), FOREIGN KEY (pcode) REFERENCES d15p (code) ON UPDATE CASCADE)");
        Policy policy = allow("d15p", "x");
        assertRefused(() -> p.plan(policy, "DELETE FROM d15p WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15c (pid) is ON DELETE CASCADE");
        assertRefused(() -> p.plan(policy, "UPDATE d15p SET code = 'b' WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15u (pcode) is ON UPDATE CASCADE");
        // An UPDATE that leaves the referenced columns alone cascades nothing.
        assertThat(p.plan(policy, "UPDATE d15p SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
    }

    /**
     * D17 and issue 21: after a dry run in the application's session the engine's own settings are put
     * back without reading the session first only when no trigger can have run. A MySQL/MariaDB trigger's
     * SET outlasts the ROLLBACK (measured on MariaDB 10.11.19 and MySQL 8.0.31: time_zone stays '+05:00'),
     * so with a trigger the session is read and everything the dry run changed is put back too: here
     * div_precision_increment, which the application's session does not differ in.
     */
    @Test
    void D17_aSessionSettingATriggerChangedInTheDryRunIsPutBackToo() throws SQLException {
        Planning p = planning(Engine.MYSQL);
        p.db.execute("CREATE TABLE d17t (id INT PRIMARY KEY, v INT)", "INSERT INTO d17t VALUES (1, 1)",
                "CREATE TRIGGER d17t_zone BEFORE UPDATE ON d17t FOR EACH ROW SET @@session.div_precision_increment = 9");
        Planner planner = p.planner(Policy.define(x -> x.table("d17t", t -> t.impact("x").autoColumns())));
        dev.llmsafe.dialect.SessionSettings own;
        try (java.sql.Connection c = p.pool.getConnection()) {
            p.dialect.initConnection(c);
            own = p.dialect.session(c);
        }
        assertThat(own.values().get("time_zone")).isEqualTo("+00:00");
        Map<String, String> application = new java.util.LinkedHashMap<>(own.values());
        application.put("time_zone", "+09:00");
        Plan plan = planner.plan(List.of(p.proposal("UPDATE d17t SET v = 2 WHERE id = 1")), "assistant",
                dev.llmsafe.dialect.SessionSettings.of(application));
        assertThat(plan.rowCount()).isEqualTo(1);
        // The pool hands this thread the connection it used last: the one the dry run ran on.
        try (java.sql.Connection c = p.pool.getConnection()) {
            assertThat(p.dialect.session(c).values()).isEqualTo(own.values());
        }
    }

    /**
     * Issue 21: the catalog is asked on every plan, nothing kept from the last. A trigger and a foreign key
     * added between two plans of the same planner, on the same pooled connection, are seen by the second.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D15_aTriggerAndAForeignKeyAddedBetweenTwoPlansAreSeenByTheSecond(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d15a (id INT PRIMARY KEY, v INT, note VARCHAR(20))", "INSERT INTO d15a VALUES (1, 1, 'a')");
        Planner planner = p.planner(allow("d15a", "x"));
        assertThat(p.plan(planner, "UPDATE d15a SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
        assertThat(p.plan(planner, "DELETE FROM d15a WHERE id = 1").rowCount()).isEqualTo(1);
        switch (engine) {
            case POSTGRES -> p.db.execute("CREATE FUNCTION d15a_touch() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.note := 'touched'; RETURN NEW; END $$",
                    "CREATE TRIGGER d15a_touch BEFORE UPDATE ON d15a FOR EACH ROW EXECUTE FUNCTION d15a_touch()");
            case MYSQL -> p.db.execute("CREATE TRIGGER d15a_touch BEFORE UPDATE ON d15a FOR EACH ROW SET NEW.note = 'touched'");
            case SQLITE -> p.db.execute("CREATE TRIGGER d15a_touch AFTER UPDATE OF v ON d15a BEGIN"
                    + " UPDATE d15a SET note = 'touched' WHERE id = NEW.id; END");
        }
        assertRefused(() -> p.plan(planner, "UPDATE d15a SET v = 2 WHERE id = 1"), Refusal.AUTO_COLUMNS_UNKNOWN,
                "the trigger d15a_touch on ");
        p.db.execute("CREATE TABLE d15ac (id INT PRIMARY KEY, aid INT, FOREIGN KEY (aid) REFERENCES d15a (id) ON DELETE CASCADE)",
                "INSERT INTO d15ac VALUES (10, 1)");
        assertRefused(() -> p.plan(planner, "DELETE FROM d15a WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15ac (aid) is ON DELETE CASCADE");
    }

    /**
     * ON UPDATE / ON DELETE SET NULL writes the children as a cascade does, and MariaDB's measure does not
     * count it (SPEC.md F40): refused from the catalog; and a referenced key that a trigger changes, which
     * the catalog check before the statement cannot foresee, is refused from the after-image.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D15_aSetNullForeignKeyAndAKeyATriggerChangesAreRefused(Engine engine) throws SQLException {
        Planning p = planning(engine);
        p.db.execute("CREATE TABLE d15n (id INT PRIMARY KEY, code VARCHAR(5) NOT NULL UNIQUE, v INT)",
                "INSERT INTO d15n VALUES (1, 'a', 1)",
                // Table-level foreign keys: MySQL 8.0 parses a column's REFERENCES and ignores it.
                "CREATE TABLE d15nc (id INT PRIMARY KEY, pid INT, pcode VARCHAR(5),"
                        + " FOREIGN KEY (pid) REFERENCES d15n (id) ON DELETE SET NULL,"
                        + " FOREIGN KEY (pcode) REFERENCES d15n (code) ON UPDATE SET NULL)",
                "INSERT INTO d15nc VALUES (10, 1, 'a')");
        Policy policy = Policy.define(x -> x.table("d15n", t -> t.impact("x").autoColumns("code")));
        assertRefused(() -> p.plan(policy, "DELETE FROM d15n WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS,
                "d15nc (pid) is ON DELETE SET NULL");
        assertRefused(() -> p.plan(allow("d15n", "x"), "UPDATE d15n SET code = 'b' WHERE id = 1"),
                Refusal.CASCADE_SIDE_EFFECTS, "d15nc (pcode) is ON UPDATE SET NULL");
        switch (engine) {
            case POSTGRES -> p.db.execute("CREATE FUNCTION d15n_code() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.code := 'z'; RETURN NEW; END $$",
                    "CREATE TRIGGER d15n_code BEFORE UPDATE ON d15n FOR EACH ROW EXECUTE FUNCTION d15n_code()");
            case MYSQL -> p.db.execute("CREATE TRIGGER d15n_code BEFORE UPDATE ON d15n FOR EACH ROW SET NEW.code = 'z'");
            case SQLITE -> p.db.execute("CREATE TRIGGER d15n_code AFTER UPDATE OF v ON d15n BEGIN"
                    + " UPDATE d15n SET code = 'z' WHERE id = NEW.id; END");
        }
        assertRefused(() -> p.plan(policy, "UPDATE d15n SET v = 2 WHERE id = 1"), Refusal.CASCADE_SIDE_EFFECTS,
                "references ON UPDATE SET NULL (a trigger or an ON UPDATE column set it)");
        assertThat(p.snapshot("d15nc")).containsExactly("[10, 1, a]");
        assertThat(p.snapshot("d15n")).containsExactly("[1, a, 1]");
    }

    @Test
    void D15_aNonTransactionalTableIsRefusedBeforeAnythingRuns() throws SQLException {
        Planning p = planning(Engine.MYSQL);
        p.db.execute("CREATE TABLE d15m (id INT PRIMARY KEY, v INT) ENGINE=MyISAM", "INSERT INTO d15m VALUES (1, 1)");
        assertRefused(() -> p.plan(allow("d15m", "x"), "UPDATE d15m SET v = 2 WHERE id = 1"), Refusal.NOT_TRANSACTIONAL,
                "stored by MyISAM, which a ROLLBACK cannot undo");
        assertThat(p.snapshot("d15m")).containsExactly("[1, 1]");
    }

    @Test
    void D15_aSqliteVirtualTableIsRefused() throws SQLException {
        Planning p = planning(Engine.SQLITE);
        p.db.execute("CREATE VIRTUAL TABLE d15v USING fts5(body)", "INSERT INTO d15v VALUES ('x')");
        assertRefused(() -> p.plan(allow("d15v", "x"), "UPDATE d15v SET body = 'y' WHERE rowid = 1"),
                Refusal.NOT_TRANSACTIONAL, "which a ROLLBACK cannot undo");
    }

    @Test
    void D15_aCatalogTheCredentialCannotFullySeeIsCascadesUnknown() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE d15h (id INT PRIMARY KEY, v INT)", "INSERT INTO d15h VALUES (1, 1)");
        TestRole role = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.d15h TO {role}");
        try (Planning p = new Planning(db, role)) {
            assertRefused(() -> p.plan(allow("d15h", "x"), "UPDATE d15h SET v = 2 WHERE id = 1"),
                    Refusal.CASCADES_UNKNOWN, hint(db) + " ON `" + db.name() + "`.* TO '" + role.name() + "'@'%';");
        }
        TestRole enough = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.d15h TO {role}",
                "GRANT " + db.catalogPrivilege() + " ON {db}.* TO {role}");
        try (Planning p = new Planning(db, enough)) {
            assertThat(p.plan(allow("d15h", "x"), "UPDATE d15h SET v = 2 WHERE id = 1").rowCount()).isEqualTo(1);
        }
    }

    /**
     * A database-level grant on a pattern ({@code app%}, {@code app\_db}) gives the planning role what a
     * grant on the name gives; measured on MariaDB 10.11 with a real role for each form.
     */
    @Test
    void D15_aDatabaseGrantOnAPatternIsMatchedAsTheServerMatchesIt() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE d15g (id INT PRIMARY KEY, v INT)", "INSERT INTO d15g VALUES (1, 1), (2, 2)",
                "CREATE TABLE d15gc (id INT PRIMARY KEY, gid INT, FOREIGN KEY (gid) REFERENCES d15g (id) ON DELETE CASCADE)",
                "INSERT INTO d15gc VALUES (1, 1)");
        String name = db.name();
        String escaped = name.replace("_", "\\_");
        // The name's own prefix, so that the pattern matches no other database.
        String prefix = escaped.substring(0, escaped.length() - 2) + "%";
        String underscore = name.substring(0, name.length() - 1) + "_";
        String notMatching = prefix.toUpperCase(java.util.Locale.ROOT);
        for (String pattern : List.of(prefix, escaped, underscore, name)) {
            TestRole role = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.d15g TO {role}",
                    "GRANT " + db.catalogPrivilege() + " ON `" + pattern + "`.* TO {role}");
            try (Planning p = new Planning(db, role)) {
                assertThat(p.plan(allow("d15g", "x"), "UPDATE d15g SET v = 3 WHERE id = 2").rowCount()).as(pattern)
                        .isEqualTo(1);
                // The rule is really seen: the cascade into the child is refused as what it is.
                assertRefused(() -> p.plan(allow("d15g", "x"), "DELETE FROM d15g WHERE id = 1"),
                        Refusal.CASCADE_SIDE_EFFECTS, "d15gc");
            }
        }
        // A pattern the name does not match (lower_case_table_names is 0 here: case counts), and a grant on
        // the name itself without REFERENCES, which the server picks before any pattern (measured: the
        // rules are hidden then), leave the catalog unseen.
        // On MySQL the grant of SELECT on the name shows the foreign keys, and the triggers stay unseen.
        String seeing = db.catalogPrivilege();
        Map<List<String>, Refusal> unseen = Map.of(
                List.of("GRANT " + seeing + " ON `" + notMatching + "`.* TO {role}"), Refusal.CASCADES_UNKNOWN,
                List.of("GRANT " + seeing + " ON `" + prefix + "`.* TO {role}", "GRANT SELECT ON {db}.* TO {role}"),
                db.isMysql() ? Refusal.AUTO_COLUMNS_UNKNOWN : Refusal.CASCADES_UNKNOWN);
        for (List<String> grants : unseen.keySet()) {
            List<String> all = new java.util.ArrayList<>(List.of("GRANT SELECT, UPDATE, DELETE ON {db}.d15g TO {role}"));
            all.addAll(grants);
            TestRole role = db.createRole(all.toArray(String[]::new));
            try (Planning p = new Planning(db, role)) {
                assertRefused(() -> p.plan(allow("d15g", "x"), "UPDATE d15g SET v = 3 WHERE id = 2"),
                        unseen.get(grants), hint(db) + " ON `" + name + "`.*");
            }
        }
        assertThat(db.snapshot("d15g")).containsExactly("[1, 1]", "[2, 2]");
    }

    @Test
    void D5_rowsWhoseKeysAreNotDistinctCannotBePlanned() throws SQLException {
        Planning p = planning(Engine.SQLITE);
        // SQLite lets a non-INTEGER primary key column hold NULL, several times (a documented quirk).
        p.db.execute("CREATE TABLE d5 (k TEXT PRIMARY KEY, v INT)", "INSERT INTO d5 VALUES (NULL, 1), (NULL, 2)");
        assertRefused(() -> p.plan(allow("d5", "x"), "UPDATE d5 SET v = 3 WHERE k IS NULL"), Refusal.KEY_NOT_UNIQUE,
                "have only 1 distinct keys");
    }
}
