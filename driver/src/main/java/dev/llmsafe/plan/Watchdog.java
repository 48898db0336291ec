package dev.llmsafe.plan;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
        ScheduledFuture<?> f = timer.schedule(() -> {
            try {
                s.cancel();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("could not cancel a statement that ran past its bound", e);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    /** Stops the thread now; statements being watched are no longer cancelled. */
    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** A watch in progress; closing it ends the watch. */
    public interface Watch extends AutoCloseable {
        @Override
        void close();
    }
}
