package dev.llmsafe.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * R5 where the server has no statement timeout (SQLite, whose query timeout bounds only lock waits,
 * measured): cancels a read that runs past its bound, from another thread. Its one thread ends when
 * idle.
 */
final class ReadWatchdog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReadWatchdog.class);

    private final ScheduledThreadPoolExecutor timer;
    private final long delayMs;

    ReadWatchdog(long delayMs) {
        this.delayMs = delayMs;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "llmsafe-read-watchdog");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
    }

    /** Watches one statement until the returned handle is closed. */
    Watch watch(Statement s) {
        ScheduledFuture<?> f = timer.schedule(() -> {
            try {
                s.cancel();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("could not cancel a read that ran past its bound", e);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    /** A watch in progress. */
    interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
