package dev.llmsafe.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/** A savepoint of a guarded connection (J1): the vendor's is handed back to the vendor only. */
final class GuardedSavepoint implements Savepoint {

    private final Savepoint d;

    GuardedSavepoint(Savepoint delegate) {
        this.d = delegate;
    }

    /** The vendor's savepoint behind one of ours; any other is refused (the vendor would not know it). */
    static Savepoint delegate(Savepoint s) throws SQLException {
        if (s instanceof GuardedSavepoint g) {
            return g.d;
        }
        throw new SQLException("not a savepoint of this connection", "3B001");
    }

    @Override
    public int getSavepointId() throws SQLException {
        return d.getSavepointId();
    }

    @Override
    public String getSavepointName() throws SQLException {
        return d.getSavepointName();
    }
}
