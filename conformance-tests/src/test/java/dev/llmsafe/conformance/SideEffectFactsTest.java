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
    // MySQL answers are InnoDB's as measured on MariaDB; no MySQL server has measured them for this
    // project yet.

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
            case MARIADB, MYSQL -> "admin: reported 1, measured 2 rows modified"
                    + " · planning: reported 1, measure unreadable: error 1227 (42000)"
                    + " · least-privilege role: reported 1, measured 2 rows modified";
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
            case MARIADB, MYSQL -> "admin: reported 1, measured 3 rows modified"
                    + " · planning: reported 1, measure unreadable: error 1227 (42000)"
                    + " · least-privilege role: reported 1, measured 3 rows modified";
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
            case MARIADB, MYSQL -> "admin: reported 1, measured 3 rows modified"
                    + " · planning: reported 1, measure unreadable: error 1227 (42000)"
                    + " · least-privilege role: reported 1, measured 3 rows modified";
            case SQLITE -> "reported 3 (changes() 1), measured 3 changes";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F25_innodbCountsAPrimaryKeyUpdateTwice(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F25, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "reported 1, measured accounts 1 updated";
            // A new key is a delete-mark and an insert in the clustered index: two modifications.
            case MARIADB, MYSQL -> "reported 1, measured 2 rows modified";
            case SQLITE -> "reported 1 (changes() 1), measured 1 change";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F26_theMeasureIsNotZeroAtTheStartOfATransactionOnPostgresAndSqlite(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F26, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // PostgreSQL 15 keeps a session's counts pending until it flushes them (at most once a
            // second, when idle), and pg_stat_xact_* shows the pending counts, earlier transactions
            // included: only a difference taken inside the transaction measures the statement.
            case POSTGRES -> "1 update counted at BEGIN";
            case MARIADB, MYSQL -> "no row for the transaction until it touches InnoDB";
            case SQLITE -> "1 change counted at BEGIN";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F27_innodbTrxReadTooSoonIsStaleAndSaysSo(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F27, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case MARIADB, MYSQL -> "read at once: behind, stale snapshot (trx_query is not the reading query)"
                    + " · read 0.12 s after the last read: up to date";
            default -> "read at once: up to date";
        });
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
}
