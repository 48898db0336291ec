package dev.llmsafe.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Spring AI beans driven by Spring AI's own tool-calling loop on PostgreSQL, MariaDB and SQLite (ChatClient, Spring AI's tool-calling
 * auto-configuration) with a scripted chat model, no network: an UPDATE reaches the model as the card and
 * the plan id, a refused read as the refusal text, an application's own JDBC tool's plan as the card (the
 * exception processor); and without Spring AI on the class path, no Spring AI bean.
 */
class LlmSafeSpringAiTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    /** The model, as a bean: Boot's ChatClient.Builder picks it up. */
    @Configuration(proxyBeanMethods = false)
    static class Model {
        @Bean
        ScriptedChatModel chatModel() {
            return new ScriptedChatModel();
        }
    }

    /** An application's own tool with plain JDBC on the guarded data source: its plan is a checked exception. */
    static final class OwnTool {
        private final LlmSafeDataSource guarded;

        OwnTool(LlmSafeDataSource guarded) {
            this.guarded = guarded;
        }

        @Tool(description = "Cancels an order")
        public String cancel(long orderId) throws SQLException {
            try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                return s.executeUpdate("UPDATE orders SET status = 'cancelled' WHERE id = " + orderId) + " cancelled";
            }
        }
    }

    ApplicationContextRunner runner(ScratchDatabase db, Engine engine) throws Exception {
        String json = LlmSafeAutoConfigurationTest.configFor(db, engine);
        LlmSafeAutoConfigurationTest.migrateStore(db, json);
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, json);
        LlmSafeAutoConfigurationTest.ScratchPool.db = db;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, LlmSafeAutoConfiguration.class,
                        LlmSafeSpringAiAutoConfiguration.class, ToolCallingAutoConfiguration.class,
                        ChatClientAutoConfiguration.class))
                .withUserConfiguration(Model.class, LlmSafeAutoConfigurationTest.ScratchPool.class)
                .withPropertyValues("llmsafe.config=file:" + file, "llmsafe.proposer=order-agent");
    }

    ScratchDatabase orders(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')",
                "CREATE TABLE customers (id INT PRIMARY KEY, email VARCHAR(60) NOT NULL)",
                "INSERT INTO customers VALUES (1, 'ada@example.com')");
        return db;
    }

    /** What the model was shown after one scripted tool call through a ChatClient with the given tools. */
    static String ask(ChatClient.Builder builder, ScriptedChatModel model, Object tools, String tool, String arguments) {
        model.willCall(tool, arguments);
        String answer = builder.build().mutate().defaultTools(tools).build().prompt().user("Please do it.").call().content();
        assertThat(model.shown()).hasSize(1);
        String shown = model.shown().get(0).responseData();
        assertThat(answer).isEqualTo(shown);
        return shown;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void askedForAnUpdateTheModelIsShownTheCardAndThePlanIdAndNothingChanges(Engine engine) throws Exception {
        ScratchDatabase db = orders(engine);
        runner(db, engine).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            List<String> before = db.snapshot("orders");
            ScriptedChatModel model = ctx.getBean(ScriptedChatModel.class);
            LlmSafeSpringAiTools tools = ctx.getBean("llmsafeTools", LlmSafeSpringAiTools.class);

            String shown = ask(ctx.getBean(ChatClient.Builder.class), model, tools, "sql_plan",
                    "{\"sql\": \"UPDATE orders SET status = 'shipped' WHERE id = 2\"}");

            Matcher m = Pattern.compile("^Plan ([0-9a-f-]{36}) is proposed, not applied\\.").matcher(shown);
            assertThat(m.find()).as(shown).isTrue();
            // The card as llmsafe wrote it, not a JSON string of it (Spring AI's default result converter).
            assertThat(shown).contains("changed.\n\n  UPDATE orders SET status = 'shipped' WHERE id = 2\n")
                    .contains("status: 'packed' -> 'shipped'").contains("Changing an order moves money.")
                    .contains("order-agent").contains("llmsafe approve " + m.group(1));
            assertThat(db.snapshot("orders")).isEqualTo(before);

            String status = ask(ctx.getBean(ChatClient.Builder.class), model, tools, "sql_plan_status",
                    "{\"planId\": \"" + m.group(1) + "\"}");
            assertThat(status).startsWith("Plan " + m.group(1) + " is proposed.");
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRefusedReadReachesTheModelAsTheRefusalText(Engine engine) throws Exception {
        ScratchDatabase db = orders(engine);
        runner(db, engine).run(ctx -> {
            String shown = ask(ctx.getBean(ChatClient.Builder.class), ctx.getBean(ScriptedChatModel.class),
                    ctx.getBean(LlmSafeSpringAiTools.class), "sql_read", "{\"sql\": \"SELECT email FROM customers\"}");
            RefusedException direct = null;
            try (Connection c = ctx.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT email FROM customers").close();
            } catch (RefusedException e) {
                direct = e;
            }
            assertThat((Object) direct).as("the read of a table outside the allowlist was not refused").isNotNull();
            assertThat(shown).isEqualTo(direct.getMessage()).startsWith("Refused (" + direct.code());
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anApplicationsOwnJdbcToolsPlanReachesTheModelThroughTheExceptionProcessor(Engine engine) throws Exception {
        ScratchDatabase db = orders(engine);
        runner(db, engine).run(ctx -> {
            assertThat(ctx.getBean(ToolExecutionExceptionProcessor.class)).isInstanceOf(LlmSafeToolExceptionProcessor.class);
            List<String> before = db.snapshot("orders");
            String shown = ask(ctx.getBean(ChatClient.Builder.class), ctx.getBean(ScriptedChatModel.class),
                    new OwnTool(ctx.getBean(LlmSafeDataSource.class)), "cancel", "{\"orderId\": 1}");
            PlanPendingException pending = null;
            try (Connection c = ctx.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE orders SET status = 'cancelled' WHERE id = 1");
            } catch (PlanPendingException e) {
                pending = e;
            }
            assertThat((Object) pending).isNotNull();
            assertThat(shown).startsWith("Plan ").contains("is proposed, not applied").contains("status: 'packed' -> 'cancelled'")
                    .contains("order-agent");
            assertThat(db.snapshot("orders")).isEqualTo(before);
        });
    }

    @Test
    void withoutSpringAiOnTheClassPathThereIsNoSpringAiBeanButTheGuardedDataSource() throws Exception {
        ScratchDatabase db = orders(Engine.SQLITE);
        runner(db, Engine.SQLITE).withClassLoader(new FilteredClassLoader(ChatClient.class, ToolCallback.class)).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx).hasSingleBean(LlmSafeDataSource.class);
            assertThat(ctx).doesNotHaveBean(LlmSafeSpringAiTools.class);
            assertThat(ctx).doesNotHaveBean(LlmSafeToolExceptionProcessor.class);
        });
    }
}
