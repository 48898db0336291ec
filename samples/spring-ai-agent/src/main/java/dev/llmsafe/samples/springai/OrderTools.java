package dev.llmsafe.samples.springai;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The agent's tools, on the starter's guarded {@code llmsafeDataSource} (the application's own DataSource
 * stays unguarded). They catch nothing: an UPDATE becomes {@code PlanPendingException} and a refused
 * statement {@code RefusedException}, and the starter's {@code LlmSafeToolExceptionProcessor} turns either
 * into what the model is shown.
 */
@Component
public class OrderTools {

    private final JdbcTemplate jdbc;
    private final DataSource dataSource;

    /** @param dataSource the starter's guarded data source (a qualifier: it is not injected by type alone) */
    public OrderTools(@Qualifier("llmsafeDataSource") DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** A read with JdbcTemplate. */
    @Tool(description = "Lists the shop's orders that have a given status")
    public List<Order> findOrders(@ToolParam(description = "packed, shipped or cancelled") String status) {
        return jdbc.query("SELECT id, customer, status FROM orders WHERE status = ? ORDER BY id",
                (rs, n) -> new Order(rs.getLong("id"), rs.getString("customer"), rs.getString("status")), status);
    }

    /**
     * A write with JdbcTemplate: llmsafe's PlanPendingException arrives wrapped in Spring's
     * DataAccessException, which the exception processor unwraps.
     */
    @Tool(description = "Marks a packed order as shipped")
    public String markShipped(@ToolParam(description = "the order's id") long orderId) {
        int changed = jdbc.update("UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'", orderId);
        return changed + " order(s) marked shipped";
    }

    /**
     * Any statement, with plain JDBC: llmsafe's exceptions arrive as they are, checked {@link SQLException}s,
     * which Spring AI's default processor would not show the model.
     */
    @Tool(description = "Runs one SQL statement on the shop's database (SQLite) and returns its result")
    public List<Map<String, Object>> runSql(@ToolParam(description = "one SQL statement") String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int i = 1; i <= columns; i++) {
                            row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                        }
                        rows.add(row);
                    }
                }
            } else {
                rows.add(Map.of("rowsChanged", s.getUpdateCount()));
            }
            return rows;
        }
    }
}
