package dev.llmsafe.jdbc;

import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Wrapper;

/**
 * J1: the one funnel for objects a result set hands back. Plain values (numbers, text, dates, bytes,
 * the vendor's value classes such as PGobject) pass; arrays and LOBs are wrapped, read-only (a pgjdbc
 * Blob is a large object in the database, which {@code setBytes} writes; the result set makes its LOBs
 * of the column's own value instead, {@link Lobs}); anything else that is a JDBC
 * object is refused, failing closed: a PostgreSQL refcursor comes back as a result set over rows no
 * check has seen, a Ref or a Struct can write.
 */
final class Values {

    private Values() {
    }

    static Object value(Object v) throws SQLException {
        if (v == null || v instanceof ReadOnlyBlob || v instanceof ReadOnlyClob || v instanceof GuardedArray) {
            return v;
        }
        if (v instanceof Array a) {
            return new GuardedArray(a);
        }
        if (v instanceof NClob c) {
            return new ReadOnlyNClob(c);
        }
        if (v instanceof Clob c) {
            return new ReadOnlyClob(c);
        }
        if (v instanceof Blob b) {
            return new ReadOnlyBlob(b);
        }
        if (v instanceof Ref) {
            throw refRefused();
        }
        if (v instanceof ResultSet || v instanceof Statement || v instanceof Connection || v instanceof DatabaseMetaData
                || v instanceof Struct || v instanceof Wrapper) {
            throw Guard.forbidden("a value of type " + v.getClass().getName(), "it is a JDBC object of the vendor"
                    + " driver (a cursor, a structure), which reaches the database around the guard (J1). Select"
                    + " plain values.");
        }
        return v;
    }

    /** A value that must also be of the type the caller asked for; a vendor type is refused. */
    static <T> T value(Object v, Class<T> type) throws SQLException {
        Object w = value(v);
        if (w == null) {
            return null;
        }
        if (!type.isInstance(w)) {
            throw Guard.forbidden("reading a value as " + type.getName(), "llmsafe hands out only java.sql types and"
                    + " plain values, never the vendor driver's classes (J1).");
        }
        return type.cast(w);
    }

    /** llmsafe's own wrappers, unwrapped before a parameter reaches the vendor driver (it knows only its own). */
    @SuppressWarnings("unchecked")
    static <T> T parameter(T x) {
        if (x instanceof GuardedArray a) {
            return (T) a.delegate();
        }
        if (x instanceof ReadOnlyClob c) {
            return (T) c.delegate();
        }
        if (x instanceof ReadOnlyBlob b) {
            return (T) b.delegate();
        }
        return x;
    }

    static SQLException refRefused() {
        return Guard.forbidden("getRef", "a Ref can set the value it references, which is a write (J1, J3). Select"
                + " the value itself.");
    }
}
