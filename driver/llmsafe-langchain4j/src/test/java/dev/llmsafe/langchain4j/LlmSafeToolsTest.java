package dev.llmsafe.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.tools.DatabaseTools;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link LlmSafeTools} driven by LangChain4j's own tool-calling loop ({@code AiServices}) with a scripted
 * chat model, on PostgreSQL, MariaDB and SQLite: what the model is shown for an UPDATE (the card and the
 * plan id, as an ordinary result, and the plan waits in the store), a read (the rows), a refused read (the
 * refusal), and that the database holds what it held before. Tables are read around the guard.
 */
class LlmSafeToolsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    /** The AI service the tests build, as an application would. */
    interface Agent {
        String chat(String request);
    }

    /** An application's pool on the scratch database, over a data source that counts physical connections. */
    record App(ScratchDatabase db, HikariDataSource pool, AtomicInteger physical, LlmSafeConfig config) implements AutoCloseable {
        @Override
        public void close() {
            pool.close();
        }
    }

    static App app(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                "CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, password_hash VARCHAR(60))",
                "INSERT INTO members VALUES (7, 'Ann', 'x')");
        ObjectMapper json = new ObjectMapper();
        String conn = "{\"url\": " + json.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + json.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + json.writeValueAsString(db.password())) + "}";
        LlmSafeConfig config = LlmSafeConfig.parse("{\"connection\": " + conn + ","
                + (engine == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\", \"members\"],"
                + " \"impact\": {\"orders\": \"Changing an order moves money.\"},"
                + " \"denyIdentifiers\": {\"password_hash\": \"a stored credential\"}}}", "test", name -> null);
        AtomicInteger physical = new AtomicInteger();
        HikariConfig hc = new HikariConfig();
        hc.setDataSource(new Counting(db, physical));
        hc.setMaximumPoolSize(3);
        hc.setMinimumIdle(0);
        HikariDataSource pool = new HikariDataSource(hc);
        // The plan store, once per database (llmsafe migrate).
        Assembly.store(pool, Optional.of(config), Clock.systemUTC()).migrate();
        return new App(db, pool, physical, config);
    }

    /** What the model was shown after asking for one tool call, through AiServices. */
    static ToolExecutionResultMessage ask(LlmSafeTools tools, String tool, String arguments) {
        ScriptedChatModel model = new ScriptedChatModel(tool, arguments);
        Agent agent = AiServices.builder(Agent.class).chatModel(model).tools(tools).build();
        String answer = agent.chat("Please do it.");
        assertThat(model.shown()).hasSize(1);
        ToolExecutionResultMessage shown = model.shown().get(0);
        assertThat(answer).isEqualTo(shown.text());
        // An ordinary result: nothing was thrown to LangChain4j, so it logged no failure and no stack trace.
        assertThat(shown.isError()).as(shown.text()).isNotEqualTo(Boolean.TRUE);
        return shown;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void askedForAnUpdateTheModelIsShownTheCardAndThePlanIdAndNothingChanges(Engine engine) throws Exception {
        try (App app = app(engine); LlmSafeTools tools = new LlmSafeTools(app.pool(), app.config(), "order-agent")) {
            List<String> before = app.db().snapshot("orders");

            ToolExecutionResultMessage shown = ask(tools, "sql_plan",
                    "{\"sql\": \"UPDATE orders SET status = 'shipped' WHERE id = 2\"}");

            Matcher m = Pattern.compile("^Plan ([0-9a-f-]{36}) is proposed, not applied\\. Nothing in the database has"
                    + " changed\\.").matcher(shown.text());
            assertThat(m.find()).as(shown.text()).isTrue();
            String id = m.group(1);
            assertThat(shown.text()).contains("UPDATE orders SET status = 'shipped' WHERE id = 2")
                    .contains("Changing an order moves money.")
                    .contains("status: 'packed' -> 'shipped'")
                    .contains("order-agent")
                    .contains("llmsafe approve " + id);
            assertThat(app.db().snapshot("orders")).isEqualTo(before);

            // The plan waits in the store, and the status tool says so.
            ToolExecutionResultMessage status = ask(tools, "sql_plan_status", "{\"planId\": \"" + id + "\"}");
            assertThat(status.text()).startsWith("Plan " + id + " is proposed.").contains("order-agent");
            assertThat(app.db().snapshot("orders")).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRefusedReadReachesTheModelAsTheRefusalText(Engine engine) throws Exception {
        try (App app = app(engine); LlmSafeTools tools = new LlmSafeTools(app.pool(), app.config())) {
            List<String> before = app.db().snapshot("members");
            String sql = "SELECT name, password_hash FROM members";

            ToolExecutionResultMessage shown = ask(tools, "sql_read", "{\"sql\": \"" + sql + "\"}");

            // Exactly the refusal the guard gives the same read, outside LangChain4j.
            String direct;
            try (DatabaseTools raw = DatabaseTools.over(app.pool(), app.config())) {
                raw.read(sql);
                throw new AssertionError("the read of a secret column was not refused");
            } catch (RefusedException e) {
                direct = e.getMessage();
            }
            assertThat(shown.text()).isEqualTo(direct).startsWith("Refused (").contains("password_hash");
            assertThat(app.db().snapshot("members")).isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriteSentToTheReadToolIsRefusedThereAndNeverBecomesAPlan(Engine engine) throws Exception {
        try (App app = app(engine); LlmSafeTools tools = new LlmSafeTools(app.pool(), app.config())) {
            List<String> before = app.db().snapshot("orders");

            ToolExecutionResultMessage shown = ask(tools, "sql_read", "{\"sql\": \"DELETE FROM orders WHERE id = 1\"}");

            assertThat(shown.text()).startsWith("Refused (UNSUPPORTED_STATEMENT): ").contains("sql_plan");
            assertThat(app.db().snapshot("orders")).isEqualTo(before);
            assertThat(app.db().snapshot("llmsafe_plans")).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aReadShowsTheRowsAndTheSchemaTheTablesWithoutSecrets(Engine engine) throws Exception {
        try (App app = app(engine); LlmSafeTools tools = new LlmSafeTools(app.pool(), app.config())) {
            ToolExecutionResultMessage rows = ask(tools, "sql_read",
                    "{\"sql\": \"SELECT id, status FROM orders WHERE status = 'packed' ORDER BY id\"}");
            assertThat(rows.text()).contains("\"rows\":[[1,\"packed\"],[2,\"packed\"]]")
                    .contains("\"rowCount\":2").contains("\"truncated\":false");

            ToolExecutionResultMessage schema = ask(tools, "sql_schema", "{}");
            assertThat(schema.text()).contains("Table: orders").contains("Changing an order moves money.")
                    .contains("Table: members").doesNotContain("password_hash");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void manyCallsReuseThePoolsConnections(Engine engine) throws Exception {
        try (App app = app(engine); LlmSafeTools tools = new LlmSafeTools(app.pool(), app.config())) {
            int afterMigrate = app.physical().get();
            for (int i = 0; i < 10; i++) {
                assertThat(tools.read("SELECT id FROM orders WHERE id = 1")).contains("\"rows\":[[1]]");
                assertThat(tools.plan("UPDATE orders SET qty = qty + 1 WHERE id = 1")).startsWith("Plan ");
                assertThat(tools.schema()).contains("Table: orders");
            }
            // 30 calls, each borrowing one or two connections: the pool's three, never one per call.
            assertThat(app.physical().get()).isLessThanOrEqualTo(Math.max(afterMigrate, 3));
        }
    }

    /** The scratch database as an unpooled data source, counting the physical connections it opens. */
    static final class Counting implements DataSource {
        private final ScratchDatabase db;
        private final AtomicInteger opened;

        Counting(ScratchDatabase db, AtomicInteger opened) {
            this.db = db;
            this.opened = opened;
        }

        @Override
        public Connection getConnection() throws SQLException {
            opened.incrementAndGet();
            return db.connect();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
