package dev.llmsafe.assembly;

import dev.llmsafe.dialect.Connections;
import dev.llmsafe.dialect.SessionReset;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * The application's data source lent to the dry run and the store ({@code jdbc.LlmSafeDataSource}, and
 * {@code jdbc.LlmSafeGuard} without a planning connection; the plan status of {@code tools.DatabaseTools} over
 * an application's pool): every connection goes back to the application's pool
 * with the session settings it was lent with (R8). The dry run sets its own on the connection it takes
 * (isolation and time zone, its bounds, PostgreSQL's search path, SQLite's foreign keys and busy timeout), and
 * a trigger of the statement may set more (a MySQL trigger's SET outlasts the rollback); none of it may reach
 * the application's next use of that connection. What cannot be put back takes the connection out of the
 * pool. The cost, a snapshot when lent and a read when given back, is this mode's only: the engine's own
 * pools (the driver's, a configured planning connection) are never the application's.
 */
public final class BorrowedConnections extends DelegatingDataSource {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(BorrowedConnections.class);

    /** What is set on a connection as it is lent, after its settings are taken (put back with them). */
    public interface OnLend {
        /**
         * @param c the connection being lent, its settings already taken
         * @throws SQLException when it cannot be prepared: the connection leaves the pool
         */
        void prepare(Connection c) throws SQLException;
    }

    private final DataSource target;
    private final SessionReset reset;
    private final OnLend onLend;

    /**
     * @param target the application's data source
     * @param reset takes and puts back the session settings
     * @param onLend set on each connection as it is lent (the store's pinned schema), or null
     */
    public BorrowedConnections(DataSource target, SessionReset reset, OnLend onLend) {
        super(target);
        this.target = target;
        this.reset = reset;
        this.onLend = onLend;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c = Connections.lease(target);
        SessionReset.Snapshot lent;
        try {
            lent = reset.take(c);
            if (onLend != null) {
                onLend.prepare(c);
            }
        } catch (SQLException | RuntimeException e) {
            Connections.discard(target, c);
            throw e;
        }
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "close" -> giveBack(c, lent);
                    case "abort" -> discard(c); // a connection in an unknown state (Connections.discard)
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "borrowed " + c;
                    default -> call(m, c, args);
                });
    }

    /** Puts back what the dry run changed, then returns the connection; a setting that will not go back discards it. */
    private Object giveBack(Connection c, SessionReset.Snapshot lent) throws SQLException {
        if (c.isClosed()) {
            return null;
        }
        try {
            if (!c.getAutoCommit()) {
                // What is put back must outlast the pool's rollback on return: a transaction the borrower left open
                // is ended first, and the settings are set outside it (PostgreSQL's set_config in a transaction is
                // undone by ROLLBACK: the store's pinned schema had stayed on the application's connection).
                c.rollback();
                c.setAutoCommit(true);
            }
            List<String> changed = reset.restore(c, lent);
            if (!changed.isEmpty()) {
                LOG.debug("put back on the application's connection: {}", changed);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("a connection of the application's pool could not be given its session settings back; it is"
                    + " taken out of the pool", e);
            Connections.discard(target, c);
        }
        c.close();
        return null;
    }

    private Object discard(Connection c) {
        Connections.discard(target, c);
        return null;
    }

    private static Object call(Method m, Connection c, Object[] args) throws Throwable {
        try {
            return m.invoke(c, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the dry run borrows the application's connections as they are lent");
    }
}
