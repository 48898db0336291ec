package dev.llmsafe.spring;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With Actuator's health module on the class path, the health indicator {@code llmsafe}
 * ({@link LlmSafeHealthIndicator}); with Micrometer and a {@link MeterRegistry} (Boot's own, or the
 * application's), the meters of {@link LlmSafeMetrics}, set as the guarded data source's listener.
 * Each part is skipped when its library is absent.
 */
@AutoConfiguration(after = LlmSafeAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnBean(LlmSafeDatabase.class)
public class LlmSafeObservabilityAutoConfiguration {

    /** The health indicator, when Actuator's health module is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class HealthPart {
        @Bean
        @ConditionalOnMissingBean(name = "llmsafeHealthIndicator")
        LlmSafeHealthIndicator llmsafeHealthIndicator(LlmSafeDatabase database) {
            return new LlmSafeHealthIndicator(database.tools());
        }
    }

    /** The meters, when Micrometer and a registry are present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MeterPart {
        @Bean
        @ConditionalOnMissingBean
        LlmSafeMetrics llmsafeMetrics(LlmSafeDatabase database, MeterRegistry registry) {
            LlmSafeMetrics metrics = new LlmSafeMetrics(registry);
            database.guarded().setListener(metrics);
            return metrics;
        }
    }
}
