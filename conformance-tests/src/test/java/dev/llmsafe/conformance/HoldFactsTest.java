package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R11 and R12: what a read holds and what a database hands out, as {@link HoldFacts} measures it,
 * asserted per server: the answers the code relies on. The probes live in the main code, where the
 * harness runs them on a user's server.
 */
class HoldFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F32_aReadsOpenTransactionMakesSchemaChangesWait(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F32, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "UPDATE of the row read: ran · ALTER TABLE: waited, error 55P03 · TRUNCATE: waited, error 55P03";
            case MARIADB, MYSQL -> "UPDATE of the row read: ran · ALTER TABLE: waited, error 1205 (40001) · TRUNCATE:"
                    + " waited, error 1205 (40001)";
            case SQLITE -> "UPDATE of the row read: waited, SQLITE_BUSY · ALTER TABLE: waited, SQLITE_BUSY · DELETE:"
                    + " waited, SQLITE_BUSY";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F33_serializableReadsLockRowsOnInnoDbOnly(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F33, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "UPDATE of the row read: ran · ALTER TABLE: waited, error 55P03 · TRUNCATE: waited, error 55P03";
            case MARIADB, MYSQL -> "UPDATE of the row read: waited, error 1205 (40001) · ALTER TABLE: waited, error"
                    + " 1205 (40001) · TRUNCATE: waited, error 1205 (40001)";
            case SQLITE -> "n/a (one isolation level: F32)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F34_theServerEndsAnIdleTransactionByClosingTheConnection(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F34, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "next statement: error 25P03 · then: error 08003 · connection: closed";
            case MARIADB -> "next statement: error 08S01 · then: error 08003 · connection: closed";
            case MYSQL -> "no such setting";
            case SQLITE -> "n/a (no server)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F35_anOpenResultSetHoldsOnlySqlitesLock(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F35, dbs.get(engine));
        assertThat(a.text()).isEqualTo(a.flavor() == ServerId.Flavor.SQLITE
                ? "another session's UPDATE waited, SQLITE_BUSY" : "another session's UPDATE ran");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F36_onlyMariaDbBoundsAValueItComputes(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F36, dbs.get(engine));
        // MariaDB's default max_allowed_packet is 16 MiB; MySQL's is 64 MiB (8.0, 9.7), above this value.
        assertThat(a.text()).isEqualTo(a.flavor() == ServerId.Flavor.MARIADB
                ? "NULL, warning 1301" : "20000000 characters");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F37_pgjdbcAndSqliteStopAValuePastTheirOwnLimit(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F37, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 08S01, connection closed";
            case MARIADB, MYSQL -> "n/a (no such limit in Connector/J; the server's max_allowed_packet: F36)";
            case SQLITE -> "stopped with SQLITE_TOOBIG, connection open";
        });
    }
}
