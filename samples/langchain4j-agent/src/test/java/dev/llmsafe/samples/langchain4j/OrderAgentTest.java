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
 * A LangChain4j agent given llmsafe-langchain4j's tools over the application's own pool, driven by a
 * scripted model: what the model is shown for a write (the card with the plan id, which the approver then
 * finds in the plan store), a read (the rows) and a refused statement (the refusal), and that the database
 * holds what it held before; beside it, the application's own INSERT through the same pool commits. The
 * table is read on the plain {@code jdbc:sqlite:} URL, around the guard. The plan store is created once,
 * as a user would, with {@code llmsafe migrate} on the sample's own {@code llmsafe.json}; the store is read
 * with {@code llmsafe show}, the same command line, in-process.
 */
class OrderAgentTest {

    static final String FILE = "target/orders.db";
    /** The same database through the driver, for the same statement outside the agent. */
    static final String GUARDED_URL = "jdbc:llmsafe:sqlite:" + FILE + "?llmsafe.proposer=order-agent";
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
    void askedToShipAnOrderTheModelIsShownTheCardWithThePlanId() throws Exception {
        List<String> before = table();
        ScriptedChatModel model = new ScriptedChatModel("sql_plan",
                "{\"sql\": \"UPDATE orders SET status = 'shipped' WHERE id = 2 AND status = 'packed'\"}");

        String answer;
        try (Shop shop = new Shop(PLAIN_URL)) {
            answer = shop.agent(model).chat("Order 2 went out this morning, please mark it shipped.");
        }

        ToolExecutionResultMessage shown = only(model);
        System.out.println("The model was shown:\n" + shown.text());
        String id = planId(shown.text());
        assertThat(shown.text())
                .startsWith("Plan " + id + " is proposed, not applied. Nothing in the database has changed.")
                .contains("UPDATE orders SET status = 'shipped' WHERE id = 2 AND status = 'packed'")
                .contains(IMPACT)
                .contains("status: 'packed' -> 'shipped'")
                .contains("the proposer (order-agent)")
                .contains("llmsafe approve " + id);
        // An ordinary tool result, not a failure: LangChain4j logged no warning and no stack trace for it.
        assertThat(shown.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(answer).isEqualTo(shown.text());
        // The card the approver finds in the store, proposed by the agent.
        Cli show = llmsafe("show", id);
        assertThat(show.status()).as(show.err()).isEqualTo(Main.OK);
        assertThat(show.out()).startsWith(shown.text()).contains("\nStatus: proposed\n")
                .contains("  order-agent  propose  done");
        assertThat(table()).isEqualTo(before).contains("2|Grace|packed");
    }

    @Test
    void theApplicationsOwnInsertThroughTheSamePoolCommits() throws Exception {
        List<String> before = table();
        long id;
        try (Shop shop = new Shop(PLAIN_URL)) {
            id = shop.placeOrder("Linus");
            // The agent's tools over the same pool still guard: its UPDATE is a plan, not a change.
            ScriptedChatModel model = new ScriptedChatModel("sql_plan",
                    "{\"sql\": \"UPDATE orders SET status = 'cancelled' WHERE id = " + id + "\"}");
            shop.agent(model).chat("Cancel the new order.");
            assertThat(only(model).text()).startsWith("Plan ");
        }
        // Read around both, on the plain URL: the INSERT committed, the UPDATE did not happen.
        List<String> after = table();
        assertThat(after).hasSize(before.size() + 1).containsAll(before).contains(id + "|Linus|packed");
    }

    @Test
    void aReadToolShowsTheModelTheRows() throws Exception {
        ScriptedChatModel model = new ScriptedChatModel("sql_read",
                "{\"sql\": \"SELECT id, customer, status FROM orders WHERE status = 'shipped' ORDER BY id\"}");

        try (Shop shop = new Shop(PLAIN_URL)) {
            shop.agent(model).chat("Which orders have shipped?");
        }

        ToolExecutionResultMessage shown = only(model);
        assertThat(shown.text()).isEqualTo("{\"columns\":[{\"name\":\"id\",\"type\":\"INTEGER\"},"
                + "{\"name\":\"customer\",\"type\":\"TEXT\"},{\"name\":\"status\",\"type\":\"TEXT\"}],"
                + "\"rows\":[[3,\"Ada\",\"shipped\"],[6,\"Grace\",\"shipped\"]],\"rowCount\":2,\"truncated\":false}");
        assertThat(shown.isError()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void aRefusedStatementShowsTheModelTheRefusal() throws Exception {
        List<String> before = table();
        ScriptedChatModel model = new ScriptedChatModel("sql_plan", "{\"sql\": \"DELETE FROM orders\"}");

        try (Shop shop = new Shop(PLAIN_URL)) {
            shop.agent(model).chat("Clear out the old orders.");
        }

        ToolExecutionResultMessage shown = only(model);
        System.out.println("The model was shown:\n" + shown.text());
        // The same statement through the driver, outside the agent: the model saw exactly the refusal's message.
        RefusedException direct = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = DriverManager.getConnection(GUARDED_URL); Statement s = c.createStatement()) {
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
