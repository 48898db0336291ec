package dev.llmsafe.policy;

import java.util.OptionalDouble;

/**
 * Bounds on every guarded read.
 *
 * @param maxRows rows returned at most; one more is fetched so that truncation is reported (R4)
 * @param maxCost the planner's estimated cost above which a read is refused (R5); empty turns the
 *     EXPLAIN gate off
 * @param timeoutMs the statement timeout the database enforces on a read, in milliseconds
 */
public record ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs) {

    /** The limits a policy has when it names none. */
    public static final ReadLimits DEFAULT = new ReadLimits(1000, OptionalDouble.empty(), 5000);

    /** Checks the ranges. */
    public ReadLimits {
        Policy.checkRange("maxRows", maxRows, 1, 1_000_000);
        Policy.checkRange("timeoutMs", timeoutMs, 1, 3_600_000);
        if (maxCost.isPresent() && !(maxCost.getAsDouble() > 0 && Double.isFinite(maxCost.getAsDouble()))) {
            throw new IllegalArgumentException("must be a positive number, was " + maxCost.getAsDouble());
        }
    }
}
