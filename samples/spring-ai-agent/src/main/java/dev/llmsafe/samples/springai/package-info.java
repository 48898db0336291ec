/**
 * A Spring AI agent over {@code jdbc:llmsafe:}: the application (its DataSource is the model's
 * connection), {@link dev.llmsafe.samples.springai.OrderTools} (plain JDBC and JdbcTemplate),
 * {@link dev.llmsafe.samples.springai.OrderAgent} (a ChatClient) and
 * {@link dev.llmsafe.samples.springai.LlmSafeToolExceptionProcessor}, the adapter that shows the model
 * llmsafe's cards and refusals. Uses Spring Boot, Spring AI and JDBC, and llmsafe's two exception types.
 */
package dev.llmsafe.samples.springai;
