package dev.llmsafe.jdbc;

import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * What the connection, statement and result set wrappers do alike: hold the vendor object and hand it to
 * their own methods until closed, then throw instead of reaching it; and unwrap only to themselves (J1).
 *
 * @param <D> the vendor object's type
 */
abstract class JdbcWrapper<D> implements Wrapper {

    private final D delegate;
    private volatile boolean closed;

    JdbcWrapper(D delegate) {
        this.delegate = delegate;
    }

    /** The vendor object, or {@link #closedError()} once this one is closed. */
    final D d() throws SQLException {
        if (closed) {
            throw closedError();
        }
        return delegate;
    }

    /** What every method throws once this is closed. */
    abstract SQLException closedError();

    /** Marks this closed; true the first time. */
    final boolean markClosed() {
        boolean was = closed;
        closed = true;
        return !was;
    }

    final boolean closed() {
        return closed;
    }

    /** The vendor object even when closed, to close it. */
    final D delegateForClose() {
        return delegate;
    }

    /** J1: this wrapper for every interface it implements, and nothing else ({@link Wrappers#unwrap}). */
    @Override
    public final <T> T unwrap(Class<T> iface) throws SQLException {
        d();
        return Wrappers.unwrap(this, iface);
    }

    /** J1: true only for what {@link #unwrap} hands out. */
    @Override
    public final boolean isWrapperFor(Class<?> iface) throws SQLException {
        d();
        return Wrappers.isWrapperFor(this, iface);
    }
}
