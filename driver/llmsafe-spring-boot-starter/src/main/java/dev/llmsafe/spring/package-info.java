/**
 * The Spring Boot starter: {@link dev.llmsafe.spring.LlmSafeAutoConfiguration} adds the guarded
 * {@code llmsafeDataSource} beside the application's own DataSource from the {@code llmsafe.*} properties
 * ({@link dev.llmsafe.spring.LlmSafeProperties}); {@link dev.llmsafe.spring.LlmSafeSpringAiAutoConfiguration},
 * with Spring AI on the class path, adds the four tools as {@code @Tool} methods
 * ({@link dev.llmsafe.spring.LlmSafeSpringAiTools}) and the exception processor that shows the model cards
 * and refusals ({@link dev.llmsafe.spring.LlmSafeToolExceptionProcessor}). Uses Spring Boot, Spring AI
 * (optional), dev.llmsafe.tools and the driver's public types.
 */
package dev.llmsafe.spring;
