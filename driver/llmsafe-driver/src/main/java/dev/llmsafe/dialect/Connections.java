package dev.llmsafe.dialect;

import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the dry run, the store and the apply do with a connection whose state they no longer know (a failed
 * ROLLBACK, a transaction that could not begin, session settings that could not be put back): it leaves its
 * pool, so that no later caller gets it.
 *
 * <p>On HikariCP the eviction ends the lease. HikariCP 7.1.0 closes an evicted connection that is still borrowed at
 * once, on its close executor; the borrower's {@code close()} afterwards rolls back and resets the same physical
 * connection meanwhile (measured with a connection left in a transaction: a NullPointerException out of
 * resetConnectionState on MariaDB 10.11 and SQLite, a rollback racing the executor's close on PostgreSQL 15), then
 * hands HikariCP the removed entry again ("Attempt to remove an object from the bag that was not borrowed or
 * reserved ... REMOVED"), and a close executor still busy with that connection is what the pool's shutdown waits
 * for, up to 10 s (seen in E3 on MySQL 8.0.31). The planner also discarded twice (its rollback, then its session
 * restore). So a connection the engine may discard is taken with {@link #lease}: discarded once however many
 * paths discard it, never touched again, and its {@code close()} is then no second return.
 */
public final class Connections {

    private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

    private Connections() {
    }

    /**
     * A connection of {@code pool} that {@link #discard} can end: after a discard, {@code isClosed()} is true,
     * {@code close()} gives nothing back to a HikariCP pool (the eviction did), and every other call is refused.
     *
     * @param pool the pool to borrow from
     */
    public static Connection lease(DataSource pool) throws SQLException {
        Connection c = pool.getConnection();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Lease(pool, c));
    }

    /**
     * Takes a connection in an unknown state out of its pool: evicted from a HikariCP pool, aborted when the
     * pool is another (an application's data source), so that it is never handed out again. A {@link #lease}
     * is discarded once, however often this is called on it.
     *
     * @param pool the pool the connection came from
     * @param c the connection
     */
    public static void discard(DataSource pool, Connection c) {
        if (Proxy.isProxyClass(c.getClass()) && Proxy.getInvocationHandler(c) instanceof Lease lease) {
            lease.discard();
        } else {
            end(pool, c);
        }
    }

    private static void end(DataSource pool, Connection c) {
        if (pool instanceof HikariDataSource h) {
            h.evictConnection(c);
        } else {
            try {
                c.abort(Runnable::run);
            } catch (SQLException e) {
                LOG.warn("could not discard a connection in an unknown state", e);
            }
        }
    }

    /** One borrowed connection, and whether it was discarded. */
    private static final class Lease implements InvocationHandler {
        private final DataSource pool;
        private final Connection c;
        private boolean discarded;

        Lease(DataSource pool, Connection c) {
            this.pool = pool;
            this.c = c;
        }

        synchronized void discard() {
            if (!discarded) {
                discarded = true;
                end(pool, c);
            }
        }

        private synchronized boolean discarded() {
            return discarded;
        }

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            switch (m.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "leased " + c;
                case "abort":
                    discard();
                    return null;
                case "isClosed":
                    if (discarded()) {
                        return true;
                    }
                    break;
                case "close":
                    if (discarded() && pool instanceof HikariDataSource) {
                        return null; // evicted: HikariCP closes it, a close here would return it a second time
                    }
                    break;
                default:
                    if (discarded()) {
                        throw new SQLException("this connection was discarded: its state is unknown", "08003");
                    }
            }
            try {
                return m.invoke(c, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
