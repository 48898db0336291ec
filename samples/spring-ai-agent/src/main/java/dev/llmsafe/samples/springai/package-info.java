/**
 * A Spring AI agent on llmsafe-spring-boot-starter: the application (its own DataSource unguarded),
 * {@link dev.llmsafe.samples.springai.OrderTools} (plain JDBC and JdbcTemplate on the starter's
 * {@code llmsafeDataSource}) and {@link dev.llmsafe.samples.springai.OrderAgent} (a ChatClient). Uses
 * Spring Boot, Spring AI and JDBC.
 */
package dev.llmsafe.samples.springai;
