package com.acme.shop.assistant;

import com.acme.shop.ShopApp;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The assistant's tools, in the agent's scope: the same UPDATE as the application's, on the same pool. */
public final class OrderTools {

    private OrderTools() {
    }

    public static String ship(DataSource ds, int id) throws SQLException {
        return ship(ShopApp.Source.of(ds), id);
    }

    public static String ship(ShopApp.Source source, int id) throws SQLException {
        try (Connection c = source.open(); Statement s = c.createStatement()) {
            String connection = " connection=" + c.getClass().getName();
            try {
                return "rows=" + s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = " + id) + connection;
            } catch (SQLException e) {
                return ShopApp.describe(e) + connection;
            }
        }
    }

    public static String status(DataSource ds, int id) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT status FROM orders WHERE id = " + id)) {
            return (rs.next() ? rs.getString(1) : "no row") + " connection=" + c.getClass().getName();
        }
    }
}
