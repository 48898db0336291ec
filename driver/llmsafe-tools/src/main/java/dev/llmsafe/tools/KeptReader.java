package dev.llmsafe.tools;

import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guarded connection the operator's tools read on, kept from one read to the next. Opening a guarded
 * connection puts it in its read-only session (and putting it back ends that session and restores the
 * pool's settings, R8): six statements around every read when each call opens its own, as the MCP server
 * did. Kept, a read sends what the driver's own guarded read sends.
 *
 * <p>One connection is kept. A caller takes it, reads, and gives it back; a caller that finds it taken
 * (a concurrent read) opens one of its own, which is closed afterwards unless nothing is kept then. So
 * concurrent reads never wait for each other and no connection is used by two threads at once.
 *
 * <p>A read that fails in the database (not a refusal, which the guard decides before anything runs)
 * closes the connection, so the next read starts from a fresh session. When the kept connection is
 * broken (the server restarted, the connection was killed), the read is tried once more on a new one:
 * a read writes nothing, so running it again changes nothing. A kept connection goes back to its pool
 * after {@link #MAX_KEPT_NANOS}, so that the pool's own lifetime and health checks still reach it.
 * {@link #close()} closes it.
 */
final class KeptReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KeptReader.class);

    /** How long one connection is kept before it goes back to the pool: 5 minutes. */
    static final long MAX_KEPT_NANOS = TimeUnit.MINUTES.toNanos(5);

    /** What a read does on the guarded connection. */
    @FunctionalInterface
    interface Work<T> {
        T on(Connection guarded) throws SQLException;
    }

    private record Kept(Connection connection, long openedAt) {
    }

    private final LlmSafeDataSource guarded;
    private final boolean keeps;
    private final AtomicReference<Kept> idle = new AtomicReference<>();
    private volatile boolean closed;

    /**
     * @param guarded where guarded connections come from
     * @param keeps whether to keep one between reads; when false, every read opens and closes its own (an
     *     application's pool, whose connections are the application's to lend)
     */
    KeptReader(LlmSafeDataSource guarded, boolean keeps) {
        this.guarded = guarded;
        this.keeps = keeps;
    }

    /** Runs a read on the kept connection, or on a new one when none is kept or it is in use. */
    <T> T run(Work<T> work) throws SQLException {
        if (!keeps) {
            try (Connection c = guarded.getConnection()) {
                return work.on(c);
            }
        }
        Kept kept = idle.getAndSet(null);
        if (kept != null) {
            try {
                return use(kept, work);
            } catch (SQLException e) {
                if (!broken(e)) {
                    throw e;
                }
                LOG.debug("the kept read connection is broken; reading on a new one", e);
            }
        }
        return use(new Kept(guarded.getConnection(), System.nanoTime()), work);
    }

    private <T> T use(Kept kept, Work<T> work) throws SQLException {
        T result;
        try {
            result = work.on(kept.connection());
        } catch (RefusedException e) {
            giveBack(kept);
            throw e;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(kept);
            throw e;
        }
        giveBack(kept);
        return result;
    }

    /** Keeps the connection for the next read, unless one is kept already, it is old, or this is closed. */
    private void giveBack(Kept kept) {
        if (closed || System.nanoTime() - kept.openedAt() > MAX_KEPT_NANOS || !idle.compareAndSet(null, kept)) {
            closeQuietly(kept);
        } else if (closed && idle.compareAndSet(kept, null)) {
            closeQuietly(kept); // close() ran meanwhile and found nothing to close
        }
    }

    /** Whether the failure says the connection itself is gone (SQLState class 08), not the statement. */
    private static boolean broken(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException
                    || t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    private static void closeQuietly(Kept kept) {
        try {
            kept.connection().close();
        } catch (SQLException e) {
            LOG.debug("closing a read connection failed", e);
        }
    }

    /** Closes the kept connection. */
    @Override
    public void close() {
        closed = true;
        Kept kept = idle.getAndSet(null);
        if (kept != null) {
            closeQuietly(kept);
        }
    }
}
