package com.acme.shop;

import com.acme.shop.assistant.OrderTools;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A small application the agent tests start in a JVM of their own, with the agent: its assistant package
 * (com.acme.shop.assistant, the agent's scope) and its own code share one pool of one connection, and it
 * also opens connections through DriverManager and through a pool over jdbc:llmsafe:. Each outcome is one
 * line, {@code RESULT name outcome...}, for the test to parse; what the database holds the test reads
 * itself. Arguments: the pool's URL, a URL the agent guards by its url pattern, a jdbc:llmsafe: URL.
 */
public final class ShopApp {

    private ShopApp() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("APP started");
        String poolUrl = args[0];
        try (HikariDataSource pool = pool(poolUrl)) {
            for (int round = 1; round <= 2; round++) {
                String status = "paid" + round;
                result("scoped-update-" + round, () -> OrderTools.ship(pool, 1));
                result("unscoped-update-" + round, () -> Orders.markPaid(pool, 2, status));
            }
            result("scoped-read", () -> OrderTools.status(pool, 1));
            System.out.println("RESULT pool-connections " + pool.getHikariPoolMXBean().getTotalConnections());
        }
        result("url-mode", () -> Orders.markPaid(() -> DriverManager.getConnection(args[1]), 3, "paid-by-url"));
        result("unscoped-driver-manager", () -> Orders.markPaid(() -> DriverManager.getConnection(poolUrl), 3, "paid-dm"));
        result("scoped-driver-manager", () -> OrderTools.ship(() -> DriverManager.getConnection(poolUrl), 3));
        try (HikariDataSource llmsafe = pool(args[2])) {
            result("scoped-llmsafe-url", () -> OrderTools.ship(llmsafe, 1));
        }
        System.out.println("APP done");
    }

    /** Opens a connection: a DataSource, or DriverManager. */
    public interface Source {
        Connection open() throws SQLException;

        static Source of(DataSource ds) {
            return ds::getConnection;
        }
    }

    interface Outcome {
        String run() throws SQLException;
    }

    private static void result(String name, Outcome o) {
        String outcome;
        try {
            outcome = o.run();
        } catch (SQLException e) {
            outcome = describe(e);
        }
        System.out.println("RESULT " + name + " " + outcome);
    }

    /** A PlanPendingException as its class, SQLState and plan id; another error as its class and message. */
    public static String describe(SQLException e) {
        if (e instanceof dev.llmsafe.jdbc.PlanPendingException p) {
            return "PlanPendingException " + p.getSQLState() + " plan=" + p.planId();
        }
        return e.getClass().getSimpleName() + " " + e.getSQLState() + " " + e.getMessage().replace('\n', ' ');
    }

    private static HikariDataSource pool(String url) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(url);
        c.setMaximumPoolSize(1);
        c.setPoolName(url.startsWith("jdbc:llmsafe:") ? "shop-llmsafe" : "shop");
        return new HikariDataSource(c);
    }

    /** The application's own code: an UPDATE that commits, on whatever connection the source gives it. */
    static final class Orders {
        private Orders() {
        }

        static String markPaid(DataSource ds, int id, String status) throws SQLException {
            return markPaid(Source.of(ds), id, status);
        }

        static String markPaid(Source source, int id, String status) throws SQLException {
            try (Connection c = source.open(); Statement s = c.createStatement()) {
                int rows = s.executeUpdate("UPDATE orders SET status = '" + status + "' WHERE id = " + id);
                return "rows=" + rows + " connection=" + c.getClass().getName();
            }
        }
    }
}
