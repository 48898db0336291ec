package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D14: whether the side-effect measures count trigger and cascade writes, as {@link SideEffectFacts}
 * measures it, asserted per server: the answers the code relies on. The probes live in the main code,
 * where the harness runs them on a user's server.
 */
class SideEffectFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    // ---- facts --------------------------------------------------------------------------------
    // MySQL answers are MariaDB's; no MySQL server has measured them for this project yet (MySQL has
    // no Handler_tmp_* counters, and may count internal temporary tables in Handler_write).

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F22_theMeasureCountsATriggersWrite(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F22, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // The trigger's INSERT runs with the planning role's privileges: without INSERT on the audit
            // table the dry run fails (a refusal, but a false one).
            case POSTGRES -> "admin: reported 1, measured accounts 1 updated + audit 1 inserted"
                    + " · planning: statement failed: error 42501"
                    + " · least-privilege role: reported 1, measured accounts 1 updated + audit 1 inserted";
            // The session's own counters need no privilege; the trigger runs as its definer.
            case MARIADB, MYSQL -> "admin: reported 1, measured Handler_write 1 + Handler_update 1"
                    + " · planning: reported 1, measured Handler_write 1 + Handler_update 1"
                    + " · least-privilege role: reported 1, measured Handler_write 1 + Handler_update 1";
            // sqlite-jdbc's update count already includes the trigger's row; changes() does not.
            case SQLITE -> "reported 2 (changes() 1), measured 2 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F23_theMeasureCountsAnOnDeleteCascade(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F23, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "admin: reported 1, measured child 2 deleted + parent 1 deleted"
                    + " · planning: reported 1, measured child 2 deleted + parent 1 deleted"
                    + " · least-privilege role: reported 1, measured child 2 deleted + parent 1 deleted";
            // InnoDB deletes the children itself: the session's counters do not see them (D15 refuses).
            // MySQL 9 runs foreign key actions above InnoDB, and counts them (9.7.4).
            case MARIADB, MYSQL -> countsForeignKeyActions(a) ? "admin: reported 1, measured Handler_delete 3"
                    + " · planning: reported 1, measured Handler_delete 3"
                    + " · least-privilege role: reported 1, measured Handler_delete 3"
                    : "admin: reported 1, measured Handler_delete 1"
                    + " · planning: reported 1, measured Handler_delete 1"
                    + " · least-privilege role: reported 1, measured Handler_delete 1";
            case SQLITE -> "reported 3 (changes() 1), measured 3 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F24_theMeasureCountsAnOnUpdateCascade(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F24, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "admin: reported 1, measured child 2 updated + parent 1 updated"
                    + " · planning: reported 1, measured child 2 updated + parent 1 updated"
                    + " · least-privilege role: reported 1, measured child 2 updated + parent 1 updated";
            case MARIADB, MYSQL -> countsForeignKeyActions(a) ? "admin: reported 1, measured Handler_update 3"
                    + " · planning: reported 1, measured Handler_update 3"
                    + " · least-privilege role: reported 1, measured Handler_update 3"
                    : "admin: reported 1, measured Handler_update 1"
                    + " · planning: reported 1, measured Handler_update 1"
                    + " · least-privilege role: reported 1, measured Handler_update 1";
            case SQLITE -> "reported 3 (changes() 1), measured 3 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F25_aPrimaryKeyUpdateCountsOnce(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F25, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "reported 1, measured accounts 1 updated";
            // (INNODB_TRX, the measure before, counted it twice: a delete-mark and an insert.)
            case MARIADB, MYSQL -> "reported 1, measured Handler_update 1";
            case SQLITE -> "reported 1 (changes() 1), measured 1 change";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F26_theMeasureIsNotZeroAtTheStartOfATransaction(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F26, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // PostgreSQL 15 keeps a session's counts pending until it flushes them (at most once a
            // second, when idle), and pg_stat_xact_* shows the pending counts, earlier transactions
            // included: only a difference taken inside the transaction measures the statement.
            case POSTGRES -> "1 update counted at BEGIN";
            // The session's counters count since the connection opened.
            case MARIADB, MYSQL -> "1 update counted at BEGIN";
            case SQLITE -> "1 change counted at BEGIN";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F27_theMeasureIsUpToDateRightAfterTheStatement(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F27, dbs.get(engine));
        assertThat(a.text()).isEqualTo("read at once: up to date");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F28_sqliteJdbcLeavesForeignKeyActionsOff(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F28, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "always on, DELETE of the parent cascades";
            case MARIADB, MYSQL -> "foreign_key_checks 1, DELETE of the parent cascades";
            case SQLITE -> "foreign_keys 0, DELETE of the parent leaves the children";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F38_sqlitesUpdateHookTellsATriggersSecondWriteOfTheSameRowFromAnotherRow(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F38, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "same row: reported 1, measured same 2 updated · another row: reported 1, measured other 2"
                    + " updated";
            case MARIADB, MYSQL -> "same row: statement failed: error 1442 (HY000) · another row: statement failed:"
                    + " error 1442 (HY000)";
            case SQLITE -> "same row: reported 2 (changes() 1), measured 2 changes, update hook: rowids 1 and 1"
                    + " · another row: reported 2 (changes() 1), measured 2 changes, update hook: rowids 1 and 2";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F39_theMeasureOfPlainStatements(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F39, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "UPDATE of 3: reported 3, measured plain 3 updated"
                    + " · the same UPDATE again: reported 3, measured plain 3 updated"
                    + " · SET v = v: reported 3, measured plain 3 updated"
                    + " · DELETE of 3: reported 3, measured plain 3 deleted · no row: reported 0, measured nothing";
            // Rows left as they were count when the server hands them to InnoDB without comparing (a
            // constant SET), and not when it compares them first (SET v = v): D14 allows for both.
            case MARIADB -> "UPDATE of 3: reported 3, measured Handler_update 3"
                    + " · the same UPDATE again: reported 3, measured Handler_update 3"
                    + " · SET v = v: reported 3, measured nothing"
                    + " · DELETE of 3: reported 3, measured Handler_delete 3 · no row: reported 0, measured nothing";
            // MySQL compares before it writes in both shapes: an unchanged row is never counted.
            case MYSQL -> "UPDATE of 3: reported 3, measured Handler_update 3"
                    + " · the same UPDATE again: reported 3, measured nothing"
                    + " · SET v = v: reported 3, measured nothing"
                    + " · DELETE of 3: reported 3, measured Handler_delete 3 · no row: reported 0, measured nothing";
            case SQLITE -> "UPDATE of 3: reported 3 (changes() 3), measured 3 changes"
                    + " · the same UPDATE again: reported 3 (changes() 3), measured 3 changes"
                    + " · SET v = v: reported 3 (changes() 3), measured 3 changes"
                    + " · DELETE of 3: reported 3 (changes() 3), measured 3 changes"
                    + " · no row: reported 0 (changes() 0), measured 0 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F40_theMeasureOfSetNullForeignKeys(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F40, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "ON UPDATE SET NULL: reported 1, measured child 2 updated + parent 1 updated"
                    + " · ON DELETE SET NULL: reported 1, measured child 4 updated + parent 1 deleted";
            // Each of the two foreign keys sets its column in both children: 4 updates of the 2 rows (PostgreSQL).
            // As for CASCADE (F23, F24): InnoDB writes the children itself, unseen; D15 refuses from the catalog.
            case MARIADB, MYSQL -> countsForeignKeyActions(a) ? "ON UPDATE SET NULL: reported 1, measured Handler_update 3"
                    + " · ON DELETE SET NULL: reported 1, measured Handler_update 4 + Handler_delete 1"
                    : "ON UPDATE SET NULL: reported 1, measured Handler_update 1"
                    + " · ON DELETE SET NULL: reported 1, measured Handler_delete 1";
            case SQLITE -> "ON UPDATE SET NULL: reported 3 (changes() 1), measured 3 changes"
                    + " · ON DELETE SET NULL: reported 5 (changes() 1), measured 5 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F41_theMeasureCountsWritingRoutines(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F41, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "trigger calling a procedure: reported 1, measured fired 1 updated + log 1 inserted"
                    + " · function in SET: reported 1, measured log 1 inserted + t 1 updated"
                    + " · function in WHERE: reported 1, measured log 2 inserted + t 1 updated";
            // The function in WHERE runs twice for one row; every one of its rows is counted.
            case MARIADB, MYSQL -> "trigger calling a procedure: reported 1, measured Handler_write 1 + Handler_update 1"
                    + " · function in SET: reported 1, measured Handler_write 1 + Handler_update 1"
                    + " · function in WHERE: reported 1, measured Handler_write 2 + Handler_update 1";
            case SQLITE -> "n/a (no stored procedures or functions)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F42_theMeasureLeavesInternalTemporaryTablesApart(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F42, dbs.get(engine));
        // MariaDB counts internal temporary tables in Handler_tmp_*, which the measure does not read; how
        // many rows the server's plan writes there is its own (7 on 10.11.19, 10 on 11.8.9, measured).
        // MySQL has no Handler_tmp_* and counts them in Handler_write, with the session's real writes
        // (7 on 8.0.31): a plan whose statement materialises is refused as SIDE_EFFECTS there.
        assertThat(a.text()).matches(switch (a.flavor()) {
            case POSTGRES -> "reported 3, measured t 3 updated";
            case MARIADB -> "reported 3, measured Handler_update 3 \\(apart: Handler_tmp_write [1-9][0-9]*\\)";
            case MYSQL -> "reported 3, measured Handler_write [1-9][0-9]* \\+ Handler_update 3";
            case SQLITE -> "reported 3 \\(changes\\(\\) 3\\), measured 3 changes";
        });
    }

    /**
     * Whether the server counts what a foreign key's action writes in the session's Handler counters:
     * MySQL from 9 (measured on 9.7.4, where the actions run above InnoDB), not MySQL 8.0 nor MariaDB.
     */
    private static boolean countsForeignKeyActions(Answer a) {
        return a.flavor() == ServerId.Flavor.MYSQL && Integer.parseInt(a.server().version().split("\\.")[0]) >= 9;
    }
}
