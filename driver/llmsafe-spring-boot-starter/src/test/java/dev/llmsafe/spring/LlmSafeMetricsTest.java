package dev.llmsafe.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * J12 through the starter, with Boot's own Micrometer auto-configuration and a real database: the meters
 * count a read, a plan and refusals by code; the health indicator is UP over a migrated store and DOWN,
 * saying what to run, without one; and without Actuator or Micrometer on the class path there are neither.
 */
class LlmSafeMetricsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    static final AutoConfigurations BOOT = AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
            LlmSafeAutoConfiguration.class, LlmSafeObservabilityAutoConfiguration.class);

    /** A scratch database with orders, its llmsafe.json in the test's directory, and the store migrated when asked. */
    String deployed(Engine engine, boolean migrated) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')");
        String json = LlmSafeAutoConfigurationTest.configFor(db, engine);
        if (migrated) {
            LlmSafeAutoConfigurationTest.migrateStore(db, json);
        }
        LlmSafeAutoConfigurationTest.ScratchPool.db = db;
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, json);
        return "file:" + file;
    }

    ApplicationContextRunner runner(String location) {
        return new ApplicationContextRunner().withConfiguration(BOOT)
                .withUserConfiguration(LlmSafeAutoConfigurationTest.ScratchPool.class)
                .withPropertyValues("llmsafe.config=" + location);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J12_theMetersCountAReadAPlanAndRefusalsByCodeAndTheHealthIsUp(Engine engine) throws Exception {
        runner(deployed(engine, true)).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            try (Connection c = ctx.getBean(LlmSafeDataSource.class).getConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT status FROM orders WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                }
                assertThatThrownBy(() -> s.executeQuery("SELECT * FROM customers")).isInstanceOf(RefusedException.class);
                assertThatThrownBy(() -> s.executeQuery("DROP TABLE orders")).isInstanceOf(RefusedException.class);
                assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2"))
                        .isInstanceOf(PlanPendingException.class);
            }
            assertThat(registry.get("llmsafe.reads").timer().count()).isEqualTo(1);
            assertThat(registry.get("llmsafe.plans").timer().count()).isEqualTo(1);
            assertThat(registry.get("llmsafe.plans").timer().totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("llmsafe.refusals").tag("code", "TABLE_NOT_ALLOWED").counter().count()).isEqualTo(1);
            assertThat(registry.get("llmsafe.refusals").tag("code", "DDL").counter().count()).isEqualTo(1);
            assertThat(registry.get("llmsafe.refusals").tag("code", "DENIED_IDENTIFIER").counter().count()).isZero();

            Health health = ctx.getBean("llmsafeHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void withoutAMigratedStoreTheHealthIsDownAndSaysWhatToRun() throws Exception {
        runner(deployed(Engine.SQLITE, false)).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            Health health = ctx.getBean("llmsafeHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("code", "STORE_MISSING");
            assertThat(String.valueOf(health.getDetails().get("reason"))).contains("llmsafe migrate");
        });
    }

    @Test
    void withoutActuatorOrMicrometerThereIsNeitherAndTheGuardStillWorks() throws Exception {
        // An application without Actuator has neither Boot's metrics auto-configuration nor these classes.
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LlmSafeAutoConfiguration.class,
                        LlmSafeObservabilityAutoConfiguration.class))
                .withUserConfiguration(LlmSafeAutoConfigurationTest.ScratchPool.class)
                .withPropertyValues("llmsafe.config=" + deployed(Engine.SQLITE, true))
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class, MeterRegistry.class))
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(LlmSafeHealthIndicator.class);
                    assertThat(ctx).doesNotHaveBean(LlmSafeMetrics.class);
                    assertThat(ctx).hasSingleBean(LlmSafeDataSource.class);
                });
    }
}
