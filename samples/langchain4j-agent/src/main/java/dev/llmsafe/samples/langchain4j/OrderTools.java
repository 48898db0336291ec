package dev.llmsafe.samples.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The agent's tools: plain JDBC over a {@code jdbc:llmsafe:} URL, with no llmsafe type named and no
 * exception caught. When llmsafe turns an UPDATE into a plan it throws
 * {@code dev.llmsafe.jdbc.PlanPendingException}, whose message is the confirmation card; LangChain4j
 * hands a failed tool's {@code getMessage()} to the model as the tool's result, so the model is shown the
 * card and the plan id, and nothing changes in the database. A refusal reaches the model the same way,
 * saying why and what to do instead.
 */
public final class OrderTools {

    private final String jdbcUrl;

    /** @param jdbcUrl a {@code jdbc:llmsafe:} URL: the model's connection */
    public OrderTools(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    /** A read with a parameter: the rows come back as text. */
    @Tool("Lists the shop's orders that have a given status")
    public String findOrders(@P("packed, shipped or cancelled") String status) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT id, customer, status FROM orders WHERE status = ? ORDER BY id")) {
            ps.setString(1, status);
            try (ResultSet rs = ps.executeQuery()) {
                return Rows.text(rs);
            }
        }
    }

    /** A write: through llmsafe it is measured, rolled back and proposed, never done. */
    @Tool("Marks a packed order as shipped")
    public String markShipped(@P("the order's id") long orderId) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'")) {
            ps.setLong(1, orderId);
            return ps.executeUpdate() + " order(s) marked shipped";
        }
    }

    /** The tool agents are usually given: any statement. llmsafe decides what it may do. */
    @Tool("Runs one SQL statement on the shop's database (SQLite) and returns its result")
    public String runSql(@P("one SQL statement") String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    return Rows.text(rs);
                }
            }
            return s.getUpdateCount() + " row(s) changed";
        }
    }
}
