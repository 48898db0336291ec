package dev.llmsafe.samples.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.spring.LlmSafeToolExceptionProcessor;
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
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Spring Boot application, booted with a scripted chat model: what the model is shown for a write
 * (the card with the plan id, through JdbcTemplate, which the approver then finds in the plan store), a
 * read (the rows), a refused statement (the refusal, through plain JDBC), and that any other tool error
 * fails the call instead; and that the database holds what it held before. The table is read on the plain
 * {@code jdbc:sqlite:} URL, around the guard. The plan store is created once, as a user would, with
 * {@code llmsafe migrate} on the sample's own {@code llmsafe.json}; the store is read with
 * {@code llmsafe show}, the same command line, in-process.
 */
class OrderAgentTest {

    static final String FILE = "target/orders.db";
    static final String PLAIN_URL = "jdbc:sqlite:" + FILE;
    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";
    /** The sample's configuration, as the command line is given it (Maven runs tests in the module's directory). */
    static final String CONFIG = "src/main/resources/llmsafe.json";

    /** The model, as a bean: the application's ChatClient.Builder picks it up. */
    @Configuration(proxyBeanMethods = false)
    static class ScriptedModel {
        @Bean
        ScriptedChatModel chatModel() {
            return new ScriptedChatModel();
        }
    }

    static ConfigurableApplicationContext context;
    static ScriptedChatModel model;
    static OrderAgent agent;

    @BeforeAll
    static void boot() throws Exception {
        // In this order: the database before the pool opens it, hence the context is started here, not by
        // @SpringBootTest; the plan store (once per database) before the first UPDATE, which without it is
        // refused as STORE_MISSING.
        migrate();
        Cli store = llmsafe("migrate");
        assertThat(store.status()).as(store.err()).isEqualTo(Main.OK);
        assertThat(store.out()).startsWith("The plan store is at version ");
        context = new SpringApplicationBuilder(OrderAgentApplication.class, ScriptedModel.class)
                .web(WebApplicationType.NONE)
                .run();
        model = context.getBean(ScriptedChatModel.class);
        agent = context.getBean(OrderAgent.class);
    }

    @AfterAll
    static void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void theApplicationsOwnDataSourceIsUnguardedAndTheToolsHaveTheStartersGuardedOne() throws SQLException {
        DataSource ds = context.getBean(DataSource.class);
        assertThat(ds).isInstanceOf(HikariDataSource.class);
        assertThat(((HikariDataSource) ds).getJdbcUrl()).isEqualTo(PLAIN_URL);
        assertThat(context.getBean("llmsafeDataSource")).isInstanceOf(LlmSafeDataSource.class);
        // The application's own INSERT through its JdbcTemplate commits, as it did before llmsafe.
        context.getBean(JdbcTemplate.class).update("INSERT INTO customers VALUES (3, 'Linus', 'linus@example.com')");
        try (Connection c = DriverManager.getConnection(PLAIN_URL); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM customers WHERE id = 3")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("Linus");
        }
    }

    @Test
    void askedToShipAnOrderTheModelIsShownTheCardWithThePlanId() throws SQLException {
        List<String> before = table();
        model.willCall("markShipped", "{\"orderId\": 2}");

        String answer = agent.ask("Order 2 went out this morning, please mark it shipped.");

        String shown = onlyShown();
        System.out.println("The model was shown:\n" + shown);
        String id = planId(shown);
        assertThat(shown)
                .startsWith("Plan " + id + " is proposed, not applied. Nothing in the database has changed.")
                .contains("UPDATE orders SET status = 'shipped' WHERE id = ? AND status = 'packed'")
                .contains(IMPACT)
                .contains("status: 'packed' -> 'shipped'")
                .contains("the proposer (assistant)")
                .contains("llmsafe approve " + id);
        assertThat(answer).isEqualTo(shown);
        // JdbcTemplate wrapped the PlanPendingException in a DataAccessException; the model sees the card only,
        // exactly as the approver finds it in the store, proposed by the default proposer of LlmSafeDataSource.getConnection().
        Cli show = llmsafe("show", id);
        assertThat(show.status()).as(show.err()).isEqualTo(Main.OK);
        assertThat(show.out()).startsWith(shown).contains("\nStatus: proposed\n")
                .contains("  assistant  propose  done");
        assertThat(table()).isEqualTo(before).contains("2|Grace|packed");
    }

    @Test
    void aReadToolShowsTheModelTheRows() {
        model.willCall("findOrders", "{\"status\": \"shipped\"}");

        agent.ask("Which orders have shipped?");

        assertThat(onlyShown()).isEqualTo("[{\"id\":3,\"customer\":\"Ada\",\"status\":\"shipped\"},"
                + "{\"id\":6,\"customer\":\"Grace\",\"status\":\"shipped\"}]");
    }

    @Test
    void aRefusedStatementShowsTheModelTheRefusal() throws SQLException {
        List<String> before = table();
        model.willCall("runSql", "{\"sql\": \"DELETE FROM orders\"}");

        agent.ask("Clear out the old orders.");

        String shown = onlyShown();
        System.out.println("The model was shown:\n" + shown);
        // The same statement on the application's DataSource, outside the agent: the model saw exactly the
        // refusal's message.
        RefusedException direct = catchThrowableOfType(RefusedException.class, () -> {
            try (Connection c = context.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement()) {
                s.execute("DELETE FROM orders");
            }
        });
        assertThat(shown).isEqualTo(direct.getMessage()).startsWith("Refused (NO_WHERE): ");
        assertThat(table()).isEqualTo(before);
    }

    @Test
    void anyOtherToolErrorFailsTheCallAndIsNotShown() {
        // SQLite's own error (no such column), not llmsafe's: the application sees it, not the model.
        model.willCall("runSql", "{\"sql\": \"SELECT id FROM orders WHERE shipped_on IS NULL\"}");

        assertThatThrownBy(() -> agent.ask("Which orders are packed?"))
                .isInstanceOf(ToolExecutionException.class)
                .satisfies(e -> assertThat(e.getCause()).isInstanceOf(SQLException.class)
                        .isNotInstanceOf(RefusedException.class));
        assertThat(model.shown()).isEmpty();
    }

    @Test
    void withoutTheAdapterSpringAiWouldFailTheChatOnAPlainJdbcPlan() throws SQLException {
        PlanPendingException pending = catchThrowableOfType(PlanPendingException.class, () -> {
            try (Connection c = context.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE orders SET status = 'cancelled' WHERE id = 4");
            }
        });
        ToolExecutionException thrown = new ToolExecutionException(
                DefaultToolDefinition.builder().name("runSql").description("d").inputSchema("{}").build(), pending);

        // Spring AI's default rethrows a checked exception: the chat call fails and the model sees nothing.
        assertThatThrownBy(() -> DefaultToolExecutionExceptionProcessor.builder().build().process(thrown))
                .isSameAs(thrown);
        assertThat(new LlmSafeToolExceptionProcessor().process(thrown)).isEqualTo(pending.getMessage());
    }

    private static String onlyShown() {
        assertThat(model.shown()).hasSize(1);
        ToolResponseMessage.ToolResponse response = model.shown().get(0);
        return response.responseData();
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

    /** The application's own migration, on the plain URL: the model's connection cannot write. */
    static void migrate() throws Exception {
        Files.createDirectories(Path.of("target"));
        Files.deleteIfExists(Path.of(FILE));
        try (Connection c = DriverManager.getConnection(PLAIN_URL); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL)");
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL)");
            s.execute("INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com'), (2, 'Grace', 'grace@example.com')");
            s.execute("INSERT INTO orders VALUES (1, 'Ada', 'packed'), (2, 'Grace', 'packed'), (3, 'Ada', 'shipped'),"
                    + " (4, 'Grace', 'packed'), (5, 'Ada', 'packed'), (6, 'Grace', 'shipped')");
        }
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
