package dev.llmsafe.samples.hikari;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The application's migration: creates the SQLite file with {@code orders} (and {@code customers}, which
 * the policy keeps from the model). It runs on the plain {@code jdbc:sqlite:} URL, as migrations run with
 * the application's own credential, never through the model's {@code jdbc:llmsafe:} connection, which
 * cannot write.
 */
public final class OrdersDatabase {

    private OrdersDatabase() {
    }

    /**
     * Creates the file afresh with {@code orderCount} orders: ids 1 to n, every third one shipped, the rest
     * packed.
     *
     * @return the plain URL of the file, {@code jdbc:sqlite:<path>}
     */
    public static String create(Path file, int orderCount) throws SQLException, IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        String url = "jdbc:sqlite:" + file;
        try (Connection c = DriverManager.getConnection(url)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL)");
                s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL)");
                s.execute("INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com'), (2, 'Grace', 'grace@example.com')");
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)")) {
                for (int id = 1; id <= orderCount; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, id % 2 == 0 ? "Grace" : "Ada");
                    ps.setString(3, id % 3 == 0 ? "shipped" : "packed");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
        return url;
    }
}
