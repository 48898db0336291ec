package dev.llmsafe.policy;

import java.util.OptionalDouble;

/**
 * Bounds on every guarded read.
 *
 * @param maxRows rows returned at most; one more is fetched so that truncation is reported (R4)
 * @param maxCost the planner's estimated cost above which a read is refused (R5); empty turns the
 *     EXPLAIN gate off
 * @param timeoutMs the statement timeout the database enforces on a read, in milliseconds
 * @param holdMs how long the model's connection may hold a transaction or an open result set, in
 *     milliseconds (R11): the locks a read takes queue the next migration and everything behind it
 * @param maxBytes the bytes of values a read may return (R12), so that a few huge rows cannot exhaust
 *     the application's memory
 */
public record ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs, int holdMs, int maxBytes) {

    /** The longest bound of time, in milliseconds: an hour. */
    static final int MAX_MS = 3_600_000;

    /** How much longer than a read may run its transaction may be held, when holdMs is not set. */
    static final int HOLD_BEYOND_TIMEOUT_MS = 5000;

    /** The default of maxBytes: 16 MiB. */
    public static final int DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

    /** The smallest and largest maxBytes: 1 KiB and 1 GiB. */
    static final int MIN_BYTES = 1024;
    static final int MAX_BYTES = 1 << 30;

    /** The limits a policy has when it names none. */
    public static final ReadLimits DEFAULT = new ReadLimits(1000, OptionalDouble.empty(), 5000);

    /** Checks the ranges. */
    public ReadLimits {
        Policy.checkRange("maxRows", maxRows, 1, 1_000_000);
        Policy.checkRange("timeoutMs", timeoutMs, 1, MAX_MS);
        Policy.checkRange("holdMs", holdMs, 1, MAX_MS);
        Policy.checkRange("maxBytes", maxBytes, MIN_BYTES, MAX_BYTES);
        if (maxCost.isPresent() && !(maxCost.getAsDouble() > 0 && Double.isFinite(maxCost.getAsDouble()))) {
            throw new IllegalArgumentException("must be a positive number, was " + maxCost.getAsDouble());
        }
    }

    /** The bounds with holdMs and maxBytes at their defaults. */
    public ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs) {
        this(maxRows, maxCost, timeoutMs, defaultHoldMs(timeoutMs), DEFAULT_MAX_BYTES);
    }

    /** holdMs when it is not set: a few seconds beyond the longest a read may run. */
    public static int defaultHoldMs(int timeoutMs) {
        return (int) Math.min(MAX_MS, (long) timeoutMs + HOLD_BEYOND_TIMEOUT_MS);
    }
}
