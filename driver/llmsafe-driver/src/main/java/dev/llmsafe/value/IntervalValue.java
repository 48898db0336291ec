package dev.llmsafe.value;

/**
 * A PostgreSQL {@code interval} as PostgreSQL stores it: months, days and microseconds, each with its
 * own sign. {@code 1 mon} and {@code 30 days} are different values here (PostgreSQL's {@code =} calls
 * them equal, but it stores and shows them differently, and they add differently to a date).
 */
public record IntervalValue(int months, int days, long micros) implements Value {

    /** {@value}. */
    public static final String TAG = "interval";

    /** @throws IllegalArgumentException for {@code Long.MIN_VALUE} microseconds, which has no magnitude */
    public IntervalValue {
        if (micros == Long.MIN_VALUE) {
            throw new IllegalArgumentException("interval out of range");
        }
    }

    /**
     * PostgreSQL's own output form (IntervalStyle {@code postgres}):
     * {@code 1 year 2 mons -3 days +04:05:06.000007}, {@code 00:00:00} for zero.
     */
    public String postgresText() {
        // The rules of PostgreSQL's EncodeInterval: a '+' marks a positive part after a negative one.
        StringBuilder b = new StringBuilder();
        boolean[] before = {false};
        part(b, months / 12, "year", before);
        part(b, months % 12, "mon", before);
        part(b, days, "day", before);
        if (micros != 0 || b.length() == 0) {
            b.append(b.length() == 0 ? "" : " ").append(micros < 0 ? "-" : before[0] ? "+" : "");
            b.append(TimeValue.clock(Math.abs(micros)).replaceFirst("\\.?0+$", ""));
        }
        return b.toString();
    }

    private static void part(StringBuilder b, int n, String unit, boolean[] before) {
        if (n == 0) {
            return;
        }
        b.append(b.length() == 0 ? "" : " ").append(before[0] && n > 0 ? "+" : "")
                .append(n).append(' ').append(unit).append(n == 1 ? "" : "s");
        before[0] = n < 0;
    }

    @Override
    public String tag() {
        return TAG;
    }
}
