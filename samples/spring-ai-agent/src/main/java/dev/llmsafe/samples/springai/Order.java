package dev.llmsafe.samples.springai;

/**
 * One row of {@code orders}, as a read tool returns it (Spring AI shows the model the JSON of it).
 *
 * @param id the key
 * @param customer who ordered
 * @param status packed, shipped or cancelled
 */
public record Order(long id, String customer, String status) {
}
