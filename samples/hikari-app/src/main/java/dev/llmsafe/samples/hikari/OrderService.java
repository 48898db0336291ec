package dev.llmsafe.samples.hikari;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The application's data access, as it was before llmsafe: plain JDBC on a pooled {@link DataSource}.
 * Nothing here knows about llmsafe. Given a pool over {@code jdbc:llmsafe:}, {@link #list()} still
 * returns rows, while {@link #markShipped} and {@link #cancel} throw
 * {@code dev.llmsafe.jdbc.PlanPendingException} (a {@link SQLException} whose message is the
 * confirmation card) instead of changing anything, or a {@code dev.llmsafe.RefusedException}.
 */
public final class OrderService {

    private final DataSource dataSource;

    /** @param dataSource the application's pool */
    public OrderService(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Every order, by id (through llmsafe: at most the policy's {@code read.maxRows}). */
    public List<Order> list() throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT id, customer, status FROM orders ORDER BY id");
                ResultSet rs = ps.executeQuery()) {
            List<Order> orders = new ArrayList<>();
            while (rs.next()) {
                orders.add(new Order(rs.getLong("id"), rs.getString("customer"), rs.getString("status")));
            }
            return orders;
        }
    }

    /**
     * Marks a packed order shipped.
     *
     * @return the rows changed
     */
    public int markShipped(long orderId) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'")) {
            ps.setLong(1, orderId);
            return ps.executeUpdate();
        }
    }

    /**
     * Cancels an order that has not shipped.
     *
     * @return the rows changed
     */
    public int cancel(long orderId) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE orders SET status = 'cancelled' WHERE id = ? AND status <> 'shipped'")) {
            ps.setLong(1, orderId);
            return ps.executeUpdate();
        }
    }
}
