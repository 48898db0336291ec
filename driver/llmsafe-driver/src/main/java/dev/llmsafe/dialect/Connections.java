package dev.llmsafe.dialect;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the dry run and the apply do with a connection whose state they no longer know (a failed ROLLBACK, a
 * transaction that could not begin, session settings that could not be put back): it leaves its pool, so
 * that no later caller gets it.
 */
public final class Connections {

    private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

    private Connections() {
    }

    /**
     * Takes a connection in an unknown state out of its pool: evicted from a HikariCP pool, aborted when the
     * pool is another (an application's data source), so that it is never handed out again.
     *
     * @param pool the pool the connection came from
     * @param c the connection
     */
    public static void discard(DataSource pool, Connection c) {
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
}
