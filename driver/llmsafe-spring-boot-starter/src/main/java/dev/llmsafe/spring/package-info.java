/**
 * The Spring Boot starter: {@link dev.llmsafe.spring.LlmSafeAutoConfiguration} adds the guarded
 * {@code llmsafeDataSource} beside the application's own DataSource from the {@code llmsafe.*} properties
 * ({@link dev.llmsafe.spring.LlmSafeProperties}); {@link dev.llmsafe.spring.LlmSafeSpringAiAutoConfiguration},
 * with Spring AI on the class path, adds the four tools as {@code @Tool} methods
 * ({@link dev.llmsafe.spring.LlmSafeSpringAiTools}) and the exception processor that shows the model cards
 * and refusals ({@link dev.llmsafe.spring.LlmSafeToolExceptionProcessor});
 * {@link dev.llmsafe.spring.LlmSafeObservabilityAutoConfiguration}, with Actuator's health module or
 * Micrometer present, adds the health indicator ({@link dev.llmsafe.spring.LlmSafeHealthIndicator}) and the
 * meters ({@link dev.llmsafe.spring.LlmSafeMetrics}, the guarded data source's {@code GuardListener}). Uses
 * Spring Boot, Spring AI, Boot's health module and Micrometer (each optional), dev.llmsafe.tools and the
 * driver's public types.
 */
package dev.llmsafe.spring;
