package dev.llmsafe.dialect;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels a statement that runs past its bound, from another thread. Session settings bound
 * statements on PostgreSQL and MariaDB; SQLite has none (sqlite-jdbc's query timeout only limits lock
 * waits, measured) and MySQL bounds only SELECT, so the engine cancels from the client as well, a
 * little after the session's own bound; the guarded read path uses it the same way for reads (R5).
 * Its one thread ends when idle. Thread-safe.
 */
public final class Watchdog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);

    private final ScheduledThreadPoolExecutor timer;
    private final long delayMs;

    /** @param delayMs how long a statement may run before it is cancelled */
    public Watchdog(long delayMs) {
        this.delayMs = delayMs;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "llmsafe-statement-watchdog");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
    }

    /** Watches one statement until the returned handle is closed. */
    public Watch watch(Statement s) {
        AtomicBoolean fired = new AtomicBoolean();
        ScheduledFuture<?> f = timer.schedule(() -> {
            fired.set(true);
            try {
                s.cancel();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("could not cancel a statement that ran past its bound", e);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return new Watch() {
            @Override
            public boolean fired() {
                return fired.get();
            }

            @Override
            public void close() {
                f.cancel(false);
            }
        };
    }

    /** How long a statement may run before it is cancelled. */
    public long delayMs() {
        return delayMs;
    }

    /** Stops the thread now; statements being watched are no longer cancelled. */
    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** A watch in progress; closing it ends the watch. */
    public interface Watch extends AutoCloseable {
        /**
         * Whether the statement ran past its bound and was cancelled. A cancelled statement may still
         * return normally: MySQL's KILL QUERY ends a SLEEP() early with the value 1, and the statement
         * goes on (measured on MySQL 8.0.31), so a statement that returns is not one that ran in time.
         */
        boolean fired();

        @Override
        void close();
    }
}
