package dev.llmsafe.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The auto-configuration's conditions with the real framework (Boot's own DataSource and JdbcTemplate
 * auto-configuration, a real database): no llmsafe.config, no bean; a broken one, the start fails with the
 * located message; the primary DataSource stays the one injected by type; llmsafe.datasource.url, a pool of
 * the guard's own; and on PostgreSQL, MariaDB and SQLite an INSERT through the primary commits while an
 * UPDATE through llmsafeDataSource becomes a plan and changes nothing.
 */
class LlmSafeAutoConfigurationTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    static final AutoConfigurations BOOT = AutoConfigurations.of(DataSourceAutoConfiguration.class,
            JdbcTemplateAutoConfiguration.class, LlmSafeAutoConfiguration.class);

    ApplicationContextRunner runner() {
        return new ApplicationContextRunner().withConfiguration(BOOT);
    }

    /** A configuration file in the test's directory; returns its llmsafe.config location. */
    String config(String json) throws Exception {
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, json);
        return "file:" + file;
    }

    /** Creates the plan store in the scratch database with the configuration's own settings (llmsafe migrate). */
    static void migrateStore(ScratchDatabase db, String json) throws Exception {
        try (HikariDataSource migrate = new HikariDataSource()) {
            migrate.setJdbcUrl(db.url());
            migrate.setUsername(db.user());
            migrate.setPassword(db.password());
            Assembly.store(migrate, Optional.of(LlmSafeConfig.parse(json, "test", name -> null)), Clock.systemUTC())
                    .migrate();
        }
    }

    static String configFor(ScratchDatabase db, Engine engine) throws Exception {
        ObjectMapper json = new ObjectMapper();
        String conn = "{\"url\": " + json.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + json.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + json.writeValueAsString(db.password())) + "}";
        return "{\"connection\": " + conn + ","
                + (engine == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Changing an order moves money.\"}}}";
    }

    @Test
    void withoutLlmsafeConfigThereIsNoBeanAndTheApplicationsDataSourceIsBootsOwn() {
        runner().withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("a.db"))
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(LlmSafeDataSource.class);
                    assertThat(ctx).doesNotHaveBean(LlmSafeDatabase.class);
                    assertThat(ctx).hasSingleBean(DataSource.class);
                });
    }

    @Test
    void aBrokenConfigurationFailsTheStartWithTheLocatedMessage() throws Exception {
        String location = config("{\n  \"connection\": {\"url\": \"jdbc:sqlite:x.db\"},\n"
                + "  \"policy\": {\"allow\": [\"orders\"], \"maxUpdateRow\": 5}\n}\n");
        runner().withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("a.db"), "llmsafe.config=" + location)
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    IllegalStateException e = findCause(ctx.getStartupFailure(), IllegalStateException.class);
                    assertThat(e.getMessage()).startsWith("llmsafe cannot use its configuration (llmsafe.config=" + location + "): ")
                            .contains(dir.resolve("llmsafe.json") + ":3:")
                            .contains("policy.maxUpdateRow: unknown key");
                });
    }

    @Test
    void aMissingConfigurationFailsTheStartNamingTheLocation() {
        runner().withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("a.db"),
                "llmsafe.config=classpath:no-such-llmsafe.json")
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(findCause(ctx.getStartupFailure(), IllegalStateException.class).getMessage())
                            .isEqualTo("llmsafe cannot use its configuration: llmsafe.config=classpath:no-such-llmsafe.json:"
                                    + " no such resource; create one with `llmsafe init` and point llmsafe.config to it");
                });
    }

    /** An application bean that takes a DataSource by type, with no qualifier, as repositories do. */
    record Repository(DataSource dataSource) {
    }

    /** An application bean that asks for the guarded one. */
    record Agent(LlmSafeDataSource dataSource) {
    }

    @Configuration(proxyBeanMethods = false)
    static class Application {
        @Bean
        Repository repository(DataSource dataSource) {
            return new Repository(dataSource);
        }

        @Bean
        Agent agent(@Qualifier("llmsafeDataSource") LlmSafeDataSource dataSource) {
            return new Agent(dataSource);
        }
    }

    @Test
    void thePrimaryDataSourceIsUnchangedAndStillTheOneInjectedByType() throws Exception {
        String location = config("{\"connection\": {\"url\": \"jdbc:sqlite:x.db\"}, \"policy\": {\"allow\": [\"orders\"]}}");
        runner().withUserConfiguration(Application.class)
                .withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("a.db"), "llmsafe.config=" + location)
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    DataSource primary = ctx.getBean("dataSource", DataSource.class);
                    assertThat(primary).isInstanceOf(HikariDataSource.class);
                    assertThat(ctx.getBean(DataSource.class)).isSameAs(primary);
                    assertThat(ctx.getBean(Repository.class).dataSource()).isSameAs(primary);
                    assertThat(ctx.getBean(JdbcTemplate.class).getDataSource()).isSameAs(primary);
                    assertThat(ctx.getBean(LlmSafeAutoConfiguration.DATA_SOURCE_BEAN)).isInstanceOf(LlmSafeDataSource.class)
                            .isSameAs(ctx.getBean(Agent.class).dataSource());
                    assertThat(ctx.getBeanFactory().getBeanDefinition(LlmSafeAutoConfiguration.DATA_SOURCE_BEAN).isPrimary()).isFalse();
                    assertThat(ctx.getBean(LlmSafeDatabase.class).hasOwnPool()).isFalse();
                });
    }

    @Test
    void llmsafeDatasourceUrlGivesTheGuardAPoolOfItsOwn() throws Exception {
        Path guardedFile = dir.resolve("guarded.db");
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + guardedFile); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)");
            s.execute("INSERT INTO orders VALUES (1, 'packed')");
        }
        String location = config("{\"connection\": {\"url\": \"jdbc:sqlite:guarded.db\"}, \"policy\": {\"allow\": [\"orders\"]}}");
        runner().withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("a.db"), "llmsafe.config=" + location,
                        "llmsafe.datasource.url=jdbc:sqlite:" + guardedFile)
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx.getBean(LlmSafeDatabase.class).hasOwnPool()).isTrue();
                    // The guard reads its own database, where orders is, not the application's empty one.
                    try (Connection c = ctx.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement();
                            var rs = s.executeQuery("SELECT status FROM orders WHERE id = 1")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo("packed");
                    }
                    assertThat(ctx.getBean(JdbcTemplate.class).queryForObject(
                            "SELECT count(*) FROM sqlite_master WHERE name = 'orders'", Integer.class)).isZero();
                });
    }

    static HikariDataSource sqlitePool(Path file) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl("jdbc:sqlite:" + file);
        return pool;
    }

    /** Two DataSources of the application's, one of them @Primary. */
    @Configuration(proxyBeanMethods = false)
    static class PrimaryAndReporting {
        static Path dir;

        @Bean
        @org.springframework.context.annotation.Primary
        HikariDataSource appPool() {
            return sqlitePool(dir.resolve("app.db"));
        }

        @Bean
        HikariDataSource reportingPool() {
            return sqlitePool(dir.resolve("reporting.db"));
        }
    }

    /** Two DataSources of the application's, neither @Primary. */
    @Configuration(proxyBeanMethods = false)
    static class TwoWithoutPrimary {
        static Path dir;

        @Bean
        HikariDataSource appPool() {
            return sqlitePool(dir.resolve("app.db"));
        }

        @Bean
        HikariDataSource reportingPool() {
            return sqlitePool(dir.resolve("reporting.db"));
        }
    }

    @Test
    void withASecondDataSourceTheGuardWrapsThePrimaryAndWithoutOneItSaysWhatToDo() throws Exception {
        PrimaryAndReporting.dir = dir;
        TwoWithoutPrimary.dir = dir;
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("app.db"));
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)");
            s.execute("INSERT INTO orders VALUES (1, 'in app.db')");
        }
        String location = config("{\"connection\": {\"url\": \"jdbc:sqlite:app.db\"}, \"policy\": {\"allow\": [\"orders\"]}}");
        runner().withUserConfiguration(PrimaryAndReporting.class).withPropertyValues("llmsafe.config=" + location)
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    try (Connection c = ctx.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement();
                            var rs = s.executeQuery("SELECT status FROM orders WHERE id = 1")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo("in app.db");
                    }
                });
        runner().withUserConfiguration(TwoWithoutPrimary.class).withPropertyValues("llmsafe.config=" + location)
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(findCause(ctx.getStartupFailure(), IllegalStateException.class).getMessage())
                            .contains("several and none is @Primary").contains("llmsafe.datasource.url");
                });
    }

    @Test
    void theConfigurationMetadataListsTheProperties() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("spring-configuration-metadata.json").isNotNull();
            List<String> names = new ObjectMapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .get("properties").findValuesAsText("name");
            assertThat(names).contains("llmsafe.config", "llmsafe.proposer", "llmsafe.datasource.url",
                    "llmsafe.datasource.username", "llmsafe.datasource.password");
        }
    }

    /** The application's pool on a scratch database, as a user bean the auto-configuration finds as primary. */
    @Configuration(proxyBeanMethods = false)
    static class ScratchPool {
        static ScratchDatabase db;

        @Bean
        HikariDataSource dataSource() {
            HikariDataSource pool = new HikariDataSource();
            pool.setJdbcUrl(db.url());
            pool.setUsername(db.user());
            pool.setPassword(db.password());
            pool.setMaximumPoolSize(3);
            return pool;
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anInsertThroughThePrimaryCommitsWhileAnUpdateThroughLlmsafeDataSourceBecomesAPlan(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')");
        String json = configFor(db, engine);
        migrateStore(db, json);
        ScratchPool.db = db;
        String location = config(json);
        runner().withUserConfiguration(ScratchPool.class).withPropertyValues("llmsafe.config=" + location)
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
                    jdbc.update("INSERT INTO orders VALUES (3, 'packed')");
                    assertThat(db.snapshot("orders")).hasSize(3);
                    List<String> before = db.snapshot("orders");

                    LlmSafeDataSource guarded = ctx.getBean(LlmSafeDataSource.class);
                    PlanPendingException pending = catchThrowableOfType(PlanPendingException.class, () -> {
                        try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                            s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2");
                        }
                    });
                    assertThat((Object) pending).as("UPDATE through llmsafeDataSource on " + engine).isNotNull();
                    assertThat(pending.getMessage()).contains("is proposed, not applied")
                            .contains("status: 'packed' -> 'shipped'").contains("Changing an order moves money.");
                    assertThat(db.snapshot("orders")).isEqualTo(before);
                });
        assertThat(db.snapshot("orders")).hasSize(3);
    }

    static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + t, t);
    }
}
