package dev.llmsafe.jdbc;

import java.sql.SQLException;

/** What every wrapper does alike: unwrap only to itself (J1), and throw once closed. */
final class Wrappers {

    private Wrappers() {
    }

    /**
     * J1: {@code unwrap} hands out the wrapper itself for every interface it implements, and nothing
     * else: the vendor's object would reach the database around the guard ({@code PGConnection}'s
     * CopyManager and large objects, an updatable vendor result set, the raw connection).
     */
    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface != null && iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw Guard.forbidden("unwrap(" + (iface == null ? "null" : iface.getName() + ".class") + ")", "llmsafe hands out"
                + " only its own JDBC objects, because the vendor driver's would reach the database around the guard."
                + " Use the java.sql interfaces.");
    }

    /** J1: true only for what {@link #unwrap} hands out. */
    static boolean isWrapperFor(Object self, Class<?> iface) {
        return iface != null && iface.isInstance(self);
    }

    /** The error of a wrapper used after close: it never reaches the vendor object again. */
    static SQLException closed(String what) {
        // 08003 for a connection, as the drivers say it; 55000 (object not in prerequisite state) otherwise,
        // which pools do not take for a broken connection.
        return new SQLException("this " + what + " is closed", what.equals("connection") ? "08003" : "55000");
    }
}
