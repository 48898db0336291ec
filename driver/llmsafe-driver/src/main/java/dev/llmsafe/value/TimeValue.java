package dev.llmsafe.value;

import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time to the microsecond: PostgreSQL {@code time} (00:00:00 to 24:00:00 inclusive) and
 * {@code timetz} (with the offset it was stored with, which is part of the value), and MySQL
 * {@code TIME}, which is a signed duration from -838:59:59 to 838:59:59. Hence a signed count of
 * microseconds, not a {@link java.time.LocalTime}.
 */
public record TimeValue(long micros, Optional<ZoneOffset> offset) implements Value {

    /** {@value}. */
    public static final String TAG = "time";

    private static final Pattern ISO = Pattern.compile("(-?)(\\d{2,}):(\\d{2}):(\\d{2})\\.(\\d{6})");

    /** @throws NullPointerException for a null offset (use {@link Optional#empty()}) */
    public TimeValue {
        Objects.requireNonNull(offset, "offset");
        if (micros == Long.MIN_VALUE) {
            throw new IllegalArgumentException("time out of range");
        }
    }

    /** A time without time zone. */
    public static TimeValue of(long micros) {
        return new TimeValue(micros, Optional.empty());
    }

    /** Reads the time part of the form {@link #iso()} writes; the offset is given separately. */
    public static TimeValue parseIso(String text, Optional<ZoneOffset> offset) {
        Matcher m = ISO.matcher(text);
        if (!m.matches() || (m.group(2).length() > 2 && m.group(2).startsWith("0"))) {
            throw new IllegalArgumentException("not a time: " + text);
        }
        long minutes = Long.parseLong(m.group(3));
        long seconds = Long.parseLong(m.group(4));
        if (minutes > 59 || seconds > 59) {
            throw new IllegalArgumentException("not a time: " + text);
        }
        long abs = ((Long.parseLong(m.group(2)) * 60 + minutes) * 60 + seconds) * 1_000_000
                + Long.parseLong(m.group(5));
        if (abs == 0 && !m.group(1).isEmpty()) {
            throw new IllegalArgumentException("not a time: " + text);
        }
        return new TimeValue(m.group(1).isEmpty() ? abs : -abs, offset);
    }

    /**
     * {@code [-]HH:MM:SS.ffffff}, always six fraction digits, hours past 24 as they are
     * ({@code -838:59:59.000000}); the offset is not included (see {@link #text()}).
     */
    public String iso() {
        return (micros < 0 ? "-" : "") + clock(Math.abs(micros));
    }

    /** {@link #iso()} followed by the offset, if any, as {@code +05:30}. */
    public String text() {
        return iso() + offset.map(TimeValue::offsetText).orElse("");
    }

    static String clock(long micros) {
        long seconds = micros / 1_000_000;
        return DateValue.two((int) (seconds / 3600)) + ":"
                + DateValue.two((int) (seconds / 60 % 60)) + ":" + DateValue.two((int) (seconds % 60)) + "."
                + String.format("%06d", micros % 1_000_000);
    }

    /** {@code +HH:MM} or {@code +HH:MM:SS}, never {@code Z}. */
    static String offsetText(ZoneOffset offset) {
        return offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId();
    }

    @Override
    public String tag() {
        return TAG;
    }
}
