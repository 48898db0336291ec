package dev.llmsafe.samples.hikari;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.InMemoryPlans;
import dev.llmsafe.jdbc.PlanPendingException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The unchanged application on a pool over {@code jdbc:llmsafe:}: reads work (capped, and the cap says so),
 * an UPDATE becomes a plan whose card the caller gets, the table stays as it was, and HikariCP keeps its
 * one connection through plans and refusals. The table is checked on the plain {@code jdbc:sqlite:} URL,
 * around the guard.
 */
class HikariAppTest {

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";

    static InMemoryPlans plans;
    static String plainUrl;
    static HikariDataSource pool;
    static OrderService orders;
    /** Connections HikariCP opened: a pool that evicted one would open another. */
    static final AtomicInteger opened = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        plans = InMemoryPlans.install();
        // More orders than the policy's read.maxRows (50), so that the cap shows.
        plainUrl = OrdersDatabase.create(Path.of("target/orders.db"), 60);
        HikariConfig config = HikariApp.config(HikariApp.GUARDED_URL);
        // One connection, so that "the pool kept it" has one meaning.
        config.setMaximumPoolSize(1);
        // HikariCP opens its first connection before it installs the metrics tracker, unless start-up
        // leaves that to its filler; then the tracker counts every connection the pool ever opens.
        config.setInitializationFailTimeout(-1);
        config.setMetricsTrackerFactory((name, stats) -> new IMetricsTracker() {
            @Override
            public void recordConnectionCreatedMillis(long millis) {
                opened.incrementAndGet();
            }
        });
        pool = new HikariDataSource(config);
        orders = new OrderService(pool);
        try (Connection first = pool.getConnection()) {
            assertThat(first.isValid(1)).isTrue();
        }
    }

    @AfterAll
    static void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void readsReturnRowsUpToTheCapAndTheCutIsAWarning() throws SQLException {
        List<Order> listed = orders.list();
        assertThat(listed).hasSize(50);
        assertThat(listed.get(0)).isEqualTo(new Order(1, "Ada", "packed"));
        assertThat(listed.get(2)).isEqualTo(new Order(3, "Ada", "shipped"));

        // The service cannot tell 50 of 60 from 50 of 50; the ResultSet can.
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
            int n = 0;
            while (rs.next()) {
                n++;
            }
            assertThat(n).isEqualTo(50);
            SQLWarning cut = rs.getWarnings();
            assertThat((Throwable) cut).isNotNull();
            assertThat(cut.getSQLState()).isEqualTo("01L01");
            assertThat(cut.getMessage()).contains("cut at 50 rows");
        }
    }

    @Test
    void anUpdateBecomesAPlanWhoseCardTheCallerGetsAndNothingChanges() throws SQLException {
        List<String> before = table();

        PlanPendingException pending = catchThrowableOfType(PlanPendingException.class, () -> orders.markShipped(2));

        String card = pending.getMessage();
        System.out.println("markShipped(2) threw PlanPendingException, SQLState " + pending.getSQLState()
                + "; its message, the card:\n" + card);
        assertThat(pending.getSQLState()).isEqualTo("25L01");
        assertThat(card)
                .startsWith("Plan " + pending.planId() + " is proposed, not applied. Nothing in the database has changed.")
                .contains("UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'")
                .contains(IMPACT)
                .contains("1 row would change, in 1 column: status")
                .contains("status: 'packed' -> 'shipped'")
                .contains("llmsafe approve " + pending.planId());
        assertThat(plans.last()).hasValueSatisfying(p -> assertThat(p.id()).isEqualTo(pending.planId()));
        assertThat(table()).isEqualTo(before).contains("2|Grace|packed");
    }

    @Test
    void aCancelThatMatchesNoRowIsRefusedAndSaysWhy() throws SQLException {
        List<String> before = table();

        // Order 3 has shipped: the dry run finds no row to change.
        RefusedException refused = catchThrowableOfType(RefusedException.class, () -> orders.cancel(3));

        System.out.println("cancel(3) was refused: " + refused.getMessage());
        assertThat(refused.code()).isEqualTo(Refusal.NO_ROWS);
        assertThat(table()).isEqualTo(before);
    }

    @Test
    void plansAndRefusalsDoNotCostThePoolItsConnection() throws SQLException {
        catchThrowableOfType(PlanPendingException.class, () -> orders.cancel(1));
        RefusedException notAllowed = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT email FROM customers");
            }
        });
        assertThat(notAllowed.code()).isEqualTo(Refusal.TABLE_NOT_ALLOWED);
        catchThrowableOfType(RefusedException.class, () -> orders.cancel(3));

        // HikariCP evicts a connection whose SQLException it takes for a broken connection; none was.
        assertThat(orders.list()).hasSize(50);
        assertThat(opened.get()).isEqualTo(1);
        assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
        assertThat(pool.getHikariPoolMXBean().getIdleConnections()).isEqualTo(1);
    }

    /** Every row of orders, read on the plain URL: what the database holds. */
    static List<String> table() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(plainUrl); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, customer, status FROM orders ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            }
        }
        return rows;
    }
}
