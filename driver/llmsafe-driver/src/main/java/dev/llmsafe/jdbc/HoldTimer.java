package dev.llmsafe.jdbc;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * R11: runs the ends of holds (a transaction rolled back, a result set closed) when their bound has
 * passed, on one daemon thread per engine that ends when idle. Thread-safe.
 */
final class HoldTimer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HoldTimer.class);

    /** A scheduled end; cancelling it after it ran does nothing. */
    interface Scheduled {
        void cancel();
    }

    private final ScheduledThreadPoolExecutor timer;

    HoldTimer() {
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "llmsafe-hold-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
    }

    /** Runs {@code end} after {@code delayMs}, unless cancelled first. */
    Scheduled schedule(Runnable end, long delayMs) {
        ScheduledFuture<?> f = timer.schedule(() -> {
            try {
                end.run();
            } catch (RuntimeException e) {
                LOG.warn("could not end a hold of the model's connection", e);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
