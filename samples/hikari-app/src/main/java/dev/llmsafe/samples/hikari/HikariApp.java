package dev.llmsafe.samples.hikari;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * The application's start-up: a HikariCP pool from a JDBC URL, and the {@link OrderService} on it. Giving
 * the application to a model changes one string, the URL: {@code jdbc:sqlite:target/orders.db} becomes
 * {@code jdbc:llmsafe:sqlite:target/orders.db}, and {@code llmsafe.json} on the class path says what the
 * model may touch. HikariCP is given only the URL: it finds the llmsafe driver through
 * {@link java.sql.DriverManager}.
 */
public final class HikariApp {

    /** The URL the application used before. */
    public static final String PLAIN_URL = "jdbc:sqlite:target/orders.db";
    /** The only change: {@code llmsafe:} after {@code jdbc:}. */
    public static final String GUARDED_URL = "jdbc:llmsafe:sqlite:target/orders.db";

    private HikariApp() {
    }

    /** The application's pool settings, as it always made them: HikariCP is given only the URL. */
    public static HikariConfig config(String jdbcUrl) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("orders");
        // SQLite is one file: a small pool, as the application had.
        config.setMaximumPoolSize(2);
        return config;
    }

    /** The application's pool. */
    public static HikariDataSource pool(String jdbcUrl) {
        return new HikariDataSource(config(jdbcUrl));
    }

    /**
     * Creates a sample database unless there is one, lists the orders and tries to ship one, printing what
     * happens. Run it from {@code samples/hikari-app} (the URL is relative to the working directory). The
     * database is kept from one run to the next, as an application keeps its data: so is the plan store that
     * {@code llmsafe migrate} creates in it, and the plans waiting there.
     */
    public static void main(String[] args) throws Exception {
        Path file = Path.of("target/orders.db");
        if (!Files.exists(file)) {
            OrdersDatabase.create(file, 6);
        }
        try (HikariDataSource pool = pool(GUARDED_URL)) {
            OrderService orders = new OrderService(pool);
            orders.list().forEach(System.out::println);
            try {
                orders.markShipped(2);
            } catch (SQLException e) {
                // A PlanPendingException's message is the card; a refusal's says why and what to do instead.
                System.out.println(e.getMessage());
            }
        }
    }
}
