package dev.llmsafe.conformance;

import dev.llmsafe.conformance.Sql.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * D4: why a dry run never nests in a caller's transaction. Whether ROLLBACK TO SAVEPOINT gives back
 * the row locks the dry run took, and whether DDL silently commits the transaction around it, are
 * observed from a second session that tries to write the same row under a short lock wait bound.
 */
final class TransactionFacts {

    private TransactionFacts() {
    }

    static String locksAfterRollbackToSavepointWhenTheCallerWroteFirst(Scratch db, ServerId server)
            throws SQLException {
        return locksAfterRollbackToSavepoint(db, server, "f06", true);
    }

    static String locksAfterRollbackToSavepointWhenTheSavepointCameFirst(Scratch db, ServerId server)
            throws SQLException {
        return locksAfterRollbackToSavepoint(db, server, "f07", false);
    }

    /**
     * Session A writes row 2 after a savepoint and rolls back to it, as a dry run nested in the
     * caller's transaction would; "the caller wrote first" means A wrote row 1 before the savepoint.
     * Session B then updates row 2 with a one-second lock wait: if it waits and fails, A still holds
     * the lock.
     */
    private static String locksAfterRollbackToSavepoint(Scratch db, ServerId server, String table,
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

    static String ddlInsideATransaction(Scratch db, ServerId server) throws SQLException {
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

}
