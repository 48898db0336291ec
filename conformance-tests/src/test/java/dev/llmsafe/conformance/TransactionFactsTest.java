package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Sql.Outcome;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D4: why a dry run never nests in a caller's transaction. Whether ROLLBACK TO SAVEPOINT gives back
 * the row locks the dry run took, and whether DDL silently commits the transaction around it, are
 * observed from a second session that tries to write the same row under a short lock wait bound.
 */
class TransactionFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    // ---- probes -------------------------------------------------------------------------------

    static String locksAfterRollbackToSavepointWhenTheCallerWroteFirst(ScratchDatabase db, ServerId server)
            throws SQLException {
        return locksAfterRollbackToSavepoint(db, server, "f06", true);
    }

    static String locksAfterRollbackToSavepointWhenTheSavepointCameFirst(ScratchDatabase db, ServerId server)
            throws SQLException {
        return locksAfterRollbackToSavepoint(db, server, "f07", false);
    }

    /**
     * Session A writes row 2 after a savepoint and rolls back to it, as a dry run nested in the
     * caller's transaction would; "the caller wrote first" means A wrote row 1 before the savepoint.
     * Session B then updates row 2 with a one-second lock wait: if it waits and fails, A still holds
     * the lock.
     */
    private static String locksAfterRollbackToSavepoint(ScratchDatabase db, ServerId server, String table,
                                                        boolean callerWritesFirst) throws SQLException {
        db.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
        try (Connection a = db.connect(); Connection b = db.connect()) {
            Sql.exec(b, LockWait.oneSecond(server));
            a.setAutoCommit(false);
            try {
                if (callerWritesFirst) {
                    Sql.exec(a, "UPDATE " + table + " SET v = 1 WHERE id = 1");
                }
                Savepoint s = a.setSavepoint("llmsafe_dry_run");
                Sql.exec(a, "UPDATE " + table + " SET v = 1 WHERE id = 2");
                a.rollback(s);
                Outcome o = Sql.update(b, "UPDATE " + table + " SET v = 2 WHERE id = 2");
                if (o.failed()) {
                    return "kept: the other session waited and got " + o.describe();
                }
                return "released: the other session updated the row";
            } finally {
                a.rollback();
            }
        }
    }

    static String ddlInsideATransaction(ScratchDatabase db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f08 (id INT PRIMARY KEY)");
        try (Connection a = db.connect()) {
            a.setAutoCommit(false);
            Sql.exec(a, "INSERT INTO f08 VALUES (1)", "CREATE TABLE f08_created (id INT PRIMARY KEY)");
            a.rollback();
        }
        boolean insertKept = Sql.count(db.admin(), "SELECT count(*) FROM f08") == 1;
        boolean tableKept = !Sql.query(db.admin(), "SELECT count(*) FROM f08_created").failed();
        if (tableKept) {
            db.execute("DROP TABLE f08_created");
        }
        return new Answer.Parts()
                .put("INSERT before it", insertKept ? "committed" : "rolled back")
                .put("CREATE TABLE", tableKept ? "committed" : "rolled back")
                .toString();
    }

    // ---- facts --------------------------------------------------------------------------------

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
