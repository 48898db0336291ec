package dev.llmsafe.samples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j agent whose tools are plain JDBC over {@code jdbc:llmsafe:}, driven by a scripted model:
 * what the model is shown for a write (the card with the plan id, which the approver then finds in the
 * plan store), a read (the rows) and a refused statement (the refusal), and that the database holds what
 * it held before. The table is read on the plain {@code jdbc:sqlite:} URL, around the guard. The plan
 * store is created once, as a user would, with {@code llmsafe migrate} on the sample's own
 * {@code llmsafe.json}; the store is read with {@code llmsafe show}, the same command line, in-process.
 */
class OrderAgentTest {

    static final String FILE = "target/orders.db";
    /** The agent's URL: the plain one with {@code llmsafe:} after {@code jdbc:}, and who proposes. */
    static final String AGENT_URL = "jdbc:llmsafe:sqlite:" + FILE + "?llmsafe.proposer=order-agent";
    static final String PLAIN_URL = "jdbc:sqlite:" + FILE;
    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    /** The sample's configuration, as the command line is given it (Maven runs tests in the module's directory). */
    static final String CONFIG = "src/main/resources/llmsafe.json";

    @BeforeAll
    static void database() throws Exception {
        Files.createDirectories(Path.of("target"));
        Files.deleteIfExists(Path.of(FILE));
        // The application's own migration, on the plain URL: the model's connection cannot write.
        try (Connection c = DriverManager.getConnection(PLAIN_URL); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL)");
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL)");
            s.execute("INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com'), (2, 'Grace', 'grace@example.com')");
            s.execute("INSERT INTO orders VALUES (1, 'Ada', 'packed'), (2, 'Grace', 'packed'), (3, 'Ada', 'shipped'),"
                    + " (4, 'Grace', 'packed'), (5, 'Ada', 'packed'), (6, 'Grace', 'shipped')");
        }
        // Once per database, before the first UPDATE: without the store an UPDATE is refused as STORE_MISSING.
        Cli migrate = llmsafe("migrate");
        assertThat(migrate.status()).as(migrate.err()).isEqualTo(Main.OK);
        assertThat(migrate.out()).startsWith("The plan store is at version ");
    }

    @Test
    void askedToShipAnOrderTheModelIsShownTheCardWithThePlanId() throws SQLException {
        List<String> before = table();
        ScriptedChatModel model = new ScriptedChatModel("markShipped", "{\"orderId\": 2}");

        String answer = OrderAgent.create(model, AGENT_URL).chat("Order 2 went out this morning, please mark it shipped.");

        ToolExecutionResultMessage shown = only(model);
        System.out.println("The model was shown (isError=" + shown.isError() + "):\n" + shown.text());
        String id = planId(shown.text());
        assertThat(shown.text())
                .startsWith("Plan " + id + " is proposed, not applied. Nothing in the database has changed.")
                .contains("UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'")
                .contains(IMPACT)
                .contains("status: 'packed' -> 'shipped'")
                .contains("the proposer (order-agent)")
                .contains("llmsafe approve " + id);
        assertThat(shown.isError()).isTrue();
        assertThat(answer).isEqualTo(shown.text());
        // LangChain4j hands the model exactly PlanPendingException.getMessage(): the card the approver finds in
        // the store, proposed by the agent's URL's llmsafe.proposer.
        Cli show = llmsafe("show", id);
        assertThat(show.status()).as(show.err()).isEqualTo(Main.OK);
        assertThat(show.out()).startsWith(shown.text()).contains("\nStatus: proposed\n")
                .contains("  order-agent  propose  done");
        assertThat(table()).isEqualTo(before).contains("2|Grace|packed");
    }

    @Test
    void aReadToolShowsTheModelTheRows() throws SQLException {
        ScriptedChatModel model = new ScriptedChatModel("findOrders", "{\"status\": \"shipped\"}");

        OrderAgent.create(model, AGENT_URL).chat("Which orders have shipped?");

        ToolExecutionResultMessage shown = only(model);
        assertThat(shown.text()).isEqualTo("""
                id | customer | status
                3 | Ada | shipped
                6 | Grace | shipped
                (2 rows)""");
        assertThat(shown.isError()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void aRefusedStatementShowsTheModelTheRefusal() throws SQLException {
        List<String> before = table();
        ScriptedChatModel model = new ScriptedChatModel("runSql", "{\"sql\": \"DELETE FROM orders\"}");

        OrderAgent.create(model, AGENT_URL).chat("Clear out the old orders.");

        ToolExecutionResultMessage shown = only(model);
        System.out.println("The model was shown:\n" + shown.text());
        // The same statement on the same URL, outside the agent: the model saw exactly the refusal's message.
        RefusedException direct = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = DriverManager.getConnection(AGENT_URL); Statement s = c.createStatement()) {
                s.execute("DELETE FROM orders");
            }
        });
        assertThat(shown.text()).isEqualTo(direct.getMessage()).startsWith("Refused (NO_WHERE): ");
        assertThat(table()).isEqualTo(before);
    }

    private static ToolExecutionResultMessage only(ScriptedChatModel model) {
        assertThat(model.shown()).hasSize(1);
        return model.shown().get(0);
    }

    /** The plan id a card starts with. */
    private static String planId(String card) {
        Matcher m = Pattern.compile("^Plan ([0-9a-f-]{36}) is proposed").matcher(card);
        assertThat(m.find()).as(card).isTrue();
        return m.group(1);
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
        try (Connection c = DriverManager.getConnection(PLAIN_URL); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, customer, status FROM orders ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            }
        }
        return rows;
    }
}
