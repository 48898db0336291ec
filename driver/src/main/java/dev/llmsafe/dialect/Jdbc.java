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

    static void execute(Connection c, String sql) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
