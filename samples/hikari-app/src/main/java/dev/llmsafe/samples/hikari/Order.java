package dev.llmsafe.samples.hikari;

/**
 * One row of {@code orders}.
 *
 * @param id the key
 * @param customer who ordered
 * @param status packed, shipped or cancelled
 */
public record Order(long id, String customer, String status) {
}
