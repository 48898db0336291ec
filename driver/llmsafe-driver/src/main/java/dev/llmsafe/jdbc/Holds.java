package dev.llmsafe.jdbc;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * R11: the model's connection cannot hold the database. A transaction left open after one SELECT
 * keeps locks that make the next ALTER TABLE, TRUNCATE or VACUUM FULL wait, and every session queued
 * behind it (measured, SPEC.md F32 to F35: PostgreSQL's AccessShareLock, InnoDB's metadata lock, and
 * on SQLite the database's read lock, which an unclosed result set holds even in auto-commit mode).
 * So every hold has a bound, {@code policy.read.holdMs}:
 * <ul>
 *   <li>an idle transaction, on the server where it can end one (PostgreSQL's
 *       {@code idle_in_transaction_session_timeout}, which closes the connection: {@link #translate}
 *       turns what the driver then says into a clear SQLException whose SQLState makes a pool drop it);
 *   <li>elsewhere (MySQL, MariaDB, SQLite), by a timer that rolls the transaction back and closes the
 *       result sets that hold (SQLite's, a streaming MySQL one), the next read or commit being told so;
 *   <li>a transaction kept busy so that it is never idle, by its age when the next read starts.
 * </ul>
 * The timer calls the vendor connection from its own thread; Connector/J and sqlite-jdbc serialize
 * calls on a connection (its mutex, the database handle's lock), and this class guards its own state
 * with a lock it never holds while it waits for the caller.
 */
final class Holds {

    private static final Logger LOG = LoggerFactory.getLogger(Holds.class);

    private final Dialect dialect;
    private final Connection exec;
    private final int holdMs;
    private final HoldTimer timer;
    private final boolean serverEndsIdle;
    private final int isolationAsOpened;
    private final Set<GuardedResultSet> open = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    private long started;
    private long generation;
    private HoldTimer.Scheduled transactionEnd;
    private boolean rolledBack;
    private volatile boolean serverEnded;

    private Holds(Dialect dialect, Connection exec, int holdMs, HoldTimer timer, boolean serverEndsIdle,
            int isolationAsOpened) {
        this.dialect = dialect;
        this.exec = exec;
        this.holdMs = holdMs;
        this.timer = timer;
        this.serverEndsIdle = serverEndsIdle;
        this.isolationAsOpened = isolationAsOpened;
    }

    /**
     * Bounds the holds of the read connection: the server's idle bound where it has one, and a session
     * isolation level that does not lock (a MySQL server whose default is SERIALIZABLE).
     */
    static Holds begin(Engine engine, Connection exec) throws SQLException {
        Dialect d = engine.dialect();
        int holdMs = engine.policy().read().holdMs();
        boolean serverEndsIdle = d.boundIdleTransactions(exec, holdMs);
        int level = exec.getTransactionIsolation();
        int capped = d.readIsolation(level);
        if (capped != level) {
            exec.setTransactionIsolation(capped);
        }
        return new Holds(d, exec, holdMs, engine.holdTimer(), serverEndsIdle, level);
    }

    /** Gives a connection that goes back to an application's pool its own settings again. */
    void release() throws SQLException {
        dialect.unboundIdleTransactions(exec);
        if (exec.getTransactionIsolation() != isolationAsOpened) {
            exec.setTransactionIsolation(isolationAsOpened);
        }
    }

    /** The isolation level a caller's request becomes on the read connection. */
    int isolationFor(int requested) {
        return dialect.readIsolation(requested);
    }

    // ---- transactions ----

    /**
     * Before a read: says once that the guard ended the caller's transaction, and ends one that has
     * been open longer than the bound.
     */
    void beforeRead() throws SQLException {
        long heldMs;
        synchronized (lock) {
            if (rolledBack) {
                rolledBack = false;
                throw expired("llmsafe rolled it back at the bound", "this read did not run. Send it again: it runs"
                        + " in a new transaction");
            }
            if (started == 0 || (heldMs = (System.nanoTime() - started) / 1_000_000) <= holdMs) {
                return;
            }
            endLocked();
        }
        try {
            exec.rollback();
        } catch (SQLException e) {
            throw translate(e);
        }
        throw expired("it had been open for " + heldMs + " ms, and llmsafe rolled it back", "this read did not run."
                + " Send it again: it runs in a new transaction");
    }

    /** After a read ran: the caller's transaction, if one is open, is held from now on. */
    void readRan() throws SQLException {
        if (exec.getAutoCommit()) {
            return;
        }
        synchronized (lock) {
            if (started != 0) {
                return;
            }
            started = System.nanoTime();
            long g = ++generation;
            if (!serverEndsIdle) {
                transactionEnd = timer.schedule(() -> endByTimer(g), holdMs);
            }
        }
    }

    /** Before the caller's commit: a transaction the guard rolled back has nothing left to commit. */
    void beforeCommit() throws SQLException {
        synchronized (lock) {
            if (rolledBack) {
                rolledBack = false;
                throw expired("llmsafe rolled it back at the bound", "there was nothing to commit (it only read)."
                        + " The next read runs in a new transaction");
            }
        }
    }

    /** The caller ended the transaction (commit, rollback, auto-commit on). */
    void transactionEnded() {
        synchronized (lock) {
            endLocked();
            rolledBack = false;
        }
    }

    private void endLocked() {
        started = 0;
        generation++;
        if (transactionEnd != null) {
            transactionEnd.cancel();
            transactionEnd = null;
        }
    }

    private void endByTimer(long g) {
        synchronized (lock) {
            if (g != generation || started == 0) {
                return;
            }
            endLocked();
            rolledBack = true;
        }
        // A result set open in the transaction would keep SQLite's read lock through the rollback.
        for (GuardedResultSet rs : List.copyOf(open)) {
            endResult(rs, "its transaction was rolled back at the bound");
        }
        try {
            exec.rollback();
            LOG.info("rolled back the model's transaction after policy.read.holdMs ({} ms)", holdMs);
        } catch (SQLException e) {
            LOG.warn("could not roll back the model's transaction after policy.read.holdMs", e);
        }
    }

    private RefusedException expired(String what, String instead) {
        return new RefusedException(Refusal.HOLD_EXPIRED, "the transaction of the model's connection was open"
                + " longer than policy.read.holdMs (" + holdMs + " ms): " + what + ", because an open transaction"
                + " keeps locks that make other sessions' schema changes, TRUNCATE and VACUUM FULL wait, and every"
                + " session queued behind them (R11). Nothing was changed; " + instead + ", and end transactions on"
                + " this connection (commit or rollback) within " + holdMs + " ms.");
    }

    // ---- result sets ----

    /** A result set was opened; where an open one holds (SQLite, MySQL streaming), it is closed at the bound. */
    void opened(GuardedResultSet rs, Statement vendor) throws SQLException {
        if (serverEndsIdle) {
            // PostgreSQL: pgjdbc reads the whole result in auto-commit mode (measured: nothing held), and
            // a cursor lives only in a transaction, which the server's idle bound ends.
            return;
        }
        open.add(rs);
        if (dialect.resultSetHolds(vendor)) {
            rs.endHoldWith(timer.schedule(() -> endResult(rs, "it was open for " + holdMs + " ms"), holdMs));
        }
    }

    /** A result set was closed. */
    void closed(GuardedResultSet rs) {
        open.remove(rs);
    }

    private void endResult(GuardedResultSet rs, String why) {
        open.remove(rs);
        rs.holdEnded(new RefusedException(Refusal.HOLD_EXPIRED, "the result set was closed by llmsafe: " + why
                + " (policy.read.holdMs (" + holdMs + " ms)), and an open result set keeps the database's read lock (SQLite) or the"
                + " connection's stream (MySQL), which make writers and schema changes wait (R11). Read results"
                + " to the end and close them within " + holdMs + " ms, or run the read again."));
    }

    // ---- the server's own end ----

    /**
     * What the driver says after the server ended an idle transaction by closing the connection
     * (PostgreSQL: 25P03 once, then 08003), as an error that says why; its SQLState (08006) makes a
     * pool drop the connection instead of lending it again.
     */
    SQLException translate(SQLException e) {
        if (e instanceof RefusedException) {
            return e;
        }
        boolean ended = dialect.isIdleTransactionTimeout(e);
        if (!ended && !(serverEnded && e.getSQLState() != null && e.getSQLState().startsWith("08"))) {
            return e;
        }
        serverEnded = true;
        return new SQLNonTransientConnectionException("llmsafe: the database closed this connection because its"
                + " transaction stayed open and idle longer than policy.read.holdMs (" + holdMs + " ms), which the"
                + " read session sets (idle_in_transaction_session_timeout) so that a model's transaction cannot hold"
                + " locks that make other sessions wait (R11). Nothing was changed. Open a new connection, and end"
                + " transactions on it (commit or rollback) within " + holdMs + " ms.", "08006", e);
    }
}
