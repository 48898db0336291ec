package dev.llmsafe.assembly;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.io.PrintWriter;
import java.sql.ConnectionBuilder;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.ShardingKeyBuilder;
import java.util.Objects;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The plumbing every data source of llmsafe's shares (the driver's {@code LlmSafeDataSource}, the dry run's
 * borrowed connections, the engine pools' own connections): the log writer, the login timeout and the parent
 * logger are the wrapped data source's; connection and sharding-key builders are refused, because a connection
 * built around {@code getConnection()} would skip what the subclass does there; and {@code unwrap} hands out
 * nothing but the wrapper itself (J1), never the wrapped data source, whose connections are not guarded. A
 * subclass decides only how a connection is obtained.
 *
 * <p>Internal to llmsafe: public because the classes sharing it live in two packages (jdbc, assembly).
 */
public abstract class DelegatingDataSource implements DataSource {

    private final DataSource target;

    /**
     * @param target the data source whose plumbing this one's is
     */
    protected DelegatingDataSource(DataSource target) {
        this.target = Objects.requireNonNull(target, "target");
    }

    @Override
    public final PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public final void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public final void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public final int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public final Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public final ConnectionBuilder createConnectionBuilder() throws SQLException {
        throw new SQLFeatureNotSupportedException("use getConnection()");
    }

    @Override
    public final ShardingKeyBuilder createShardingKeyBuilder() throws SQLException {
        throw new SQLFeatureNotSupportedException("sharding keys would move connections to data that was not checked");
    }

    /**
     * J1: only this. The wrapped data source would hand out connections around the wrapper: unguarded ones
     * for the model's data source, ones without their session put back for the dry run's borrowed ones.
     */
    @Override
    public final <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface != null && iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new RefusedException(Refusal.FORBIDDEN_JDBC, "unwrap(" + (iface == null ? "null" : iface.getName()
                + ".class") + ") is refused: llmsafe's data sources hand out only themselves, because the data source"
                + " they wrap would reach the database around the guard. Use the javax.sql interfaces.");
    }

    /** J1: true only for what {@link #unwrap} hands out. */
    @Override
    public final boolean isWrapperFor(Class<?> iface) {
        return iface != null && iface.isInstance(this);
    }
}
