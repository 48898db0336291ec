package dev.llmsafe.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.spring.jpa.JpaApplication;
import dev.llmsafe.spring.jpa.Order;
import dev.llmsafe.spring.jpa.Orders;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A whole Spring Boot application (every auto-configuration on the class path, Spring Data JPA with
 * Hibernate on Boot's primary DataSource) started with the starter on PostgreSQL, MariaDB and SQLite: the
 * application's JPA insert commits through its own DataSource, while the same table's UPDATE through
 * {@code llmsafeDataSource} becomes a plan and changes nothing.
 */
class JpaBesideTheGuardTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aJpaInsertCommitsWhileAnUpdateThroughTheGuardBecomesAPlan(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed')");
        String json = LlmSafeAutoConfigurationTest.configFor(db, engine);
        LlmSafeAutoConfigurationTest.migrateStore(db, json);
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, json);
        List<String> properties = new ArrayList<>(List.of("spring.datasource.url=" + db.url(),
                "llmsafe.config=file:" + file, "llmsafe.proposer=order-agent",
                "spring.jpa.hibernate.ddl-auto=none", "spring.jpa.open-in-view=false",
                // The test class path holds Spring AI's model auto-configuration, which wants a chat model.
                "spring.autoconfigure.exclude=org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration"));
        if (db.user() != null) {
            properties.add("spring.datasource.username=" + db.user());
        }
        if (db.password() != null) {
            properties.add("spring.datasource.password=" + db.password());
        }
        if (engine == Engine.SQLITE) {
            properties.add("spring.jpa.database-platform=org.hibernate.community.dialect.SQLiteDialect");
        }
        if (engine == Engine.POSTGRES) {
            properties.add("spring.jpa.properties.hibernate.default_schema=" + db.name());
        }
        if (engine == Engine.MYSQL && db.isMariadb() && !db.announcedAsMysql55()) {
            // MariaDB 11 announces its own version, and Connector/J's getSQLKeywords then asks
            // information_schema.KEYWORDS for MySQL 8's RESERVED column, which MariaDB has not ("Unknown column
            // 'RESERVED'", seen on 11.4.5 in .ci/matrix): Hibernate cannot read the metadata it picks a dialect by.
            // The application's own DataSource, not llmsafe's; named, Hibernate asks no keywords.
            properties.add("spring.jpa.database-platform=org.hibernate.dialect.MariaDBDialect");
        }
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(JpaApplication.class)
                .web(WebApplicationType.NONE).properties(properties.toArray(String[]::new)).run()) {
            Orders orders = ctx.getBean(Orders.class);
            orders.saveAndFlush(new Order(2, "new"));
            assertThat(db.snapshot("orders")).hasSize(2);
            assertThat(orders.findById(2)).map(Order::status).contains("new");
            List<String> before = db.snapshot("orders");

            LlmSafeDataSource guarded = ctx.getBean(LlmSafeAutoConfiguration.DATA_SOURCE_BEAN, LlmSafeDataSource.class);
            PlanPendingException pending = catchThrowableOfType(PlanPendingException.class, () -> {
                try (Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2");
                }
            });
            assertThat((Object) pending).as("UPDATE through llmsafeDataSource on " + engine).isNotNull();
            assertThat(pending.getMessage()).contains("status: 'new' -> 'shipped'").contains("order-agent");
            assertThat(db.snapshot("orders")).isEqualTo(before);
            // JPA keeps working after the guard's dry run borrowed from the same pool.
            orders.saveAndFlush(new Order(3, "new"));
            assertThat(orders.count()).isEqualTo(3);
        }
    }
}
