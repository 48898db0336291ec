package dev.llmsafe.policy;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

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
 * @param allowFunctions functions (and types, for casts) a read may use beyond the dialect's built-in
 *     allowlist (R7), in lower case: an application's own routines that compute from their arguments
 *     alone. Empty by default.
 */
public record ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs, int holdMs, int maxBytes,
        Set<String> allowFunctions) {

    /** An unquoted name, optionally qualified by a schema: what {@code allowFunctions} holds. */
    private static final Pattern FUNCTION_NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_$]*\\.)?[A-Za-z_][A-Za-z0-9_$]*");

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
        allowFunctions = Set.copyOf(functionNames(allowFunctions));
        if (maxCost.isPresent() && !(maxCost.getAsDouble() > 0 && Double.isFinite(maxCost.getAsDouble()))) {
            throw new IllegalArgumentException("must be a positive number, was " + maxCost.getAsDouble());
        }
    }

    /** The bounds with holdMs and maxBytes at their defaults. */
    public ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs) {
        this(maxRows, maxCost, timeoutMs, defaultHoldMs(timeoutMs), DEFAULT_MAX_BYTES);
    }

    /** The bounds with no functions beyond the built-in allowlist. */
    public ReadLimits(int maxRows, OptionalDouble maxCost, int timeoutMs, int holdMs, int maxBytes) {
        this(maxRows, maxCost, timeoutMs, holdMs, maxBytes, Set.of());
    }

    /**
     * R7: the names, checked (an unquoted name, or schema.name) and in lower case, sorted.
     *
     * @throws IllegalArgumentException naming the first name that is not one
     */
    static Set<String> functionNames(Iterable<String> names) {
        Set<String> out = new TreeSet<>();
        for (String n : names) {
            if (n == null || !FUNCTION_NAME.matcher(n).matches()) {
                throw new IllegalArgumentException("allowFunctions takes names of functions such as \"my_discount\""
                        + " or \"app.my_discount\", without parentheses or arguments; \"" + n + "\" is not one");
            }
            out.add(n.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** holdMs when it is not set: a few seconds beyond the longest a read may run. */
    public static int defaultHoldMs(int timeoutMs) {
        return (int) Math.min(MAX_MS, (long) timeoutMs + HOLD_BEYOND_TIMEOUT_MS);
    }
}
