/**
 * The Spring Boot starter: {@link dev.llmsafe.spring.LlmSafeAutoConfiguration} adds the guarded
 * {@code llmsafeDataSource} beside the application's own DataSource from the {@code llmsafe.*} properties
 * ({@link dev.llmsafe.spring.LlmSafeProperties}). Uses Spring Boot, dev.llmsafe.tools and the driver's
 * public types.
 */
package dev.llmsafe.spring;
