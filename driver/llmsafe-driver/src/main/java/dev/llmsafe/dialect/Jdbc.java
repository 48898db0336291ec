package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Small helpers for the dialects' own catalog queries. */
final class Jdbc {

    private Jdbc() {
    }

    /** Maps one row. */
    interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    static <T> List<T> query(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        }
    }

    static String string(Connection c, String sql, Object... params) throws SQLException {
        List<String> r = query(c, sql, rs -> rs.getString(1), params);
        return r.isEmpty() ? null : r.get(0);
    }

    /** Work on a connection. */
    interface Work {
        void run() throws SQLException;
    }

    /**
     * Runs session settings in auto-commit mode and restores the caller's mode: a setting made inside
     * an open transaction would not cover that transaction on PostgreSQL and MySQL. Ending auto-commit
     * first commits the transaction that was open, as JDBC says; callers use it on connections that
     * have only read.
     */
    static void inAutoCommit(Connection c, Work work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        if (!autoCommit) {
            c.setAutoCommit(true);
        }
        try {
            work.run();
        } finally {
            if (!autoCommit) {
                c.setAutoCommit(false);
            }
        }
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
