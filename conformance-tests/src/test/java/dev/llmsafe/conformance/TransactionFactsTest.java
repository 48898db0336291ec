package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D4: row locks after a savepoint rollback, and DDL inside a transaction, as {@link TransactionFacts}
 * measures it, asserted per server: the answers the code relies on. The probes live in the main code,
 * where the harness runs them on a user's server.
 */
class TransactionFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F06_rowLocksAfterRollbackToSavepointWhenTheCallerWroteFirst(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F06, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "released: the other session updated the row";
            // InnoDB keeps the row locks taken after a savepoint until the transaction ends.
            case MARIADB, MYSQL -> "kept: the other session waited and got error 1205 (40001)";
            // No row locks: the first write takes the database's write lock for the whole transaction.
            case SQLITE -> "kept: the other session waited and got SQLITE_BUSY";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F07_rowLocksAfterRollbackToSavepointWhenTheSavepointCameFirst(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F07, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // InnoDB gives the locks back only when nothing came before the savepoint: the easy shape
            // to test, and the one a caller's transaction does not have (F06).
            case POSTGRES, MARIADB, MYSQL -> "released: the other session updated the row";
            case SQLITE -> "kept: the other session waited and got SQLITE_BUSY";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F08_ddlInsideATransactionCommitsIt(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F08, dbs.get(engine));
        assertThat(a.text()).isEqualTo(a.flavor() == Flavor.MARIADB || a.flavor() == Flavor.MYSQL
                ? "INSERT before it: committed · CREATE TABLE: committed"
                : "INSERT before it: rolled back · CREATE TABLE: rolled back");
    }
}
