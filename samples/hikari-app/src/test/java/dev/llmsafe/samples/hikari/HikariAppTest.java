package dev.llmsafe.samples.hikari;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.jdbc.PlanPendingException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The unchanged application on a pool over {@code jdbc:llmsafe:}: reads work (capped, and the cap says so),
 * an UPDATE becomes a plan whose card the caller gets and which the approver finds in the plan store, the
 * table stays as it was until another person approves the plan and an applier applies it, and HikariCP
 * keeps its one connection through plans and refusals. The table is checked on the plain
 * {@code jdbc:sqlite:} URL, around the guard. The plan store is created once, as a user would, with
 * {@code llmsafe migrate} on the sample's own {@code llmsafe.json}; approve, apply and show are the same
 * command line, run in-process.
 */
class HikariAppTest {

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    /** The sample's configuration, as the command line is given it (Maven runs tests in the module's directory). */
    static final String CONFIG = "src/main/resources/llmsafe.json";

    static String plainUrl;
    static HikariDataSource pool;
    static OrderService orders;
    /** Connections HikariCP opened: a pool that evicted one would open another. */
    static final AtomicInteger opened = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        // More orders than the policy's read.maxRows (50), so that the cap shows.
        plainUrl = OrdersDatabase.create(Path.of("target/orders.db"), 60);
        // Once per database, before the first UPDATE: without the store an UPDATE is refused as STORE_MISSING.
        Cli migrate = llmsafe("migrate");
        assertThat(migrate.status()).as(migrate.err()).isEqualTo(Main.OK);
        assertThat(migrate.out()).startsWith("The plan store is at version ");
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
        // The approver finds the plan in the store, with the card the caller was given, waiting.
        Cli show = llmsafe("show", pending.planId().toString());
        assertThat(show.status()).as(show.err()).isEqualTo(Main.OK);
        assertThat(show.out()).startsWith(card).contains("\nStatus: proposed\n").contains("  assistant  propose  done");
        assertThat(table()).isEqualTo(before).contains("2|Grace|packed");
    }

    @Test
    void approvedByAnotherPersonAndAppliedThePlanChangesTheRowExactlyAsTheCardSaid() throws SQLException {
        // Order 4, which no other test reads or proposes to change: the tests run in any order.
        List<String> before = table();
        assertThat(before.get(3)).isEqualTo("4|Grace|packed");

        PlanPendingException pending = catchThrowableOfType(PlanPendingException.class, () -> orders.markShipped(4));
        String id = pending.planId().toString();
        assertThat(pending.getMessage()).contains("1 row would change, in 1 column: status")
                .contains("id = 4\n    status: 'packed' -> 'shipped'");
        assertThat(table()).isEqualTo(before);

        Cli approve = llmsafe("approve", id, "--as", "alice@example.com");
        assertThat(approve.status()).as(approve.err()).isEqualTo(Main.OK);
        assertThat(approve.out()).startsWith("Plan " + id + " is approved by alice@example.com.");
        // An approval alone changes nothing.
        assertThat(table()).isEqualTo(before);

        Cli apply = llmsafe("apply", id, "--as", "bob@example.com");
        assertThat(apply.status()).as(apply.err()).isEqualTo(Main.OK);
        assertThat(apply.out()).startsWith("Plan " + id + " is applied: ").contains("exactly as the card showed");

        // Exactly the card's change: order 4's status, and nothing else in the table.
        List<String> after = new ArrayList<>(before);
        after.set(3, "4|Grace|shipped");
        assertThat(table()).isEqualTo(after);
        Cli show = llmsafe("show", id);
        assertThat(show.out()).contains("\nStatus: applied (approved by alice@example.com)")
                .contains("  bob@example.com  apply  applied");
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

    /** What the command line printed, and its exit status. */
    record Cli(int status, String out, String err) {
    }

    /** {@code llmsafe ARGS --config src/main/resources/llmsafe.json}, in-process. */
    static Cli llmsafe(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] withConfig = Arrays.copyOf(args, args.length + 2);
        withConfig[args.length] = "--config";
        withConfig[args.length + 1] = CONFIG;
        int status = Main.run(new Main(), new PrintWriter(out, true), new PrintWriter(err, true), withConfig);
        return new Cli(status, out.toString(), err.toString());
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
