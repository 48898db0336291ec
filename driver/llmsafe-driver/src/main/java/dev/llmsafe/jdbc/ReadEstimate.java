package dev.llmsafe.jdbc;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the database estimates a read costs (R5), from its plain EXPLAIN. The units differ per database
 * (PostgreSQL's planner cost units, MySQL's query cost, rows examined elsewhere), which is why
 * {@code policy.read.maxCost} is set for one database at a time.
 *
 * @param estimate the estimate
 * @param unit what it counts, in words
 * @param bound {@code policy.read.maxCost}, when the policy sets one
 */
public record ReadEstimate(double estimate, String unit, OptionalDouble bound) {

    /** The unit and the bound are required. */
    public ReadEstimate {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(bound, "bound");
    }

    /** Whether the cost gate lets the read run: there is no bound, or the estimate is within it. */
    public boolean allowed() {
        return bound.isEmpty() || estimate <= bound.getAsDouble();
    }
}
