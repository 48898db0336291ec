package dev.llmsafe.value;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A date and time without time zone, to the microsecond: PostgreSQL {@code timestamp}, MySQL
 * {@code DATETIME}, and MySQL's zero {@code TIMESTAMP}. The date may be a MySQL zero date
 * ({@code 0000-00-00 00:00:00} is kept as what it is). No time zone is involved anywhere, so neither the
 * JVM's nor the session's can shift it.
 */
public record TimestampValue(DateValue date, long microOfDay) implements Value {

    /** {@value}. */
    public static final String TAG = "ts";

    static final long MICROS_PER_DAY = 86_400_000_000L;

    /** @throws IllegalArgumentException for a time of day outside 00:00:00 to 23:59:59.999999 */
    public TimestampValue {
        Objects.requireNonNull(date, "date");
        if (microOfDay < 0 || microOfDay >= MICROS_PER_DAY) {
            throw new IllegalArgumentException("not a time of day: " + microOfDay + " us");
        }
    }

    /** The timestamp of a {@link LocalDateTime}. */
    public static TimestampValue of(LocalDateTime t) {
        if (t.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("finer than a microsecond: " + t);
        }
        return new TimestampValue(DateValue.of(t.toLocalDate()), t.toLocalTime().toNanoOfDay() / 1000);
    }

    /** Reads the form {@link #iso()} writes. */
    public static TimestampValue parseIso(String text) {
        int t = text.indexOf('T');
        if (t < 0) {
            throw new IllegalArgumentException("not an ISO timestamp: " + text);
        }
        TimeValue time = TimeValue.parseIso(text.substring(t + 1), java.util.Optional.empty());
        return new TimestampValue(DateValue.parseIso(text.substring(0, t)), time.micros());
    }

    /** {@code YYYY-MM-DDTHH:MM:SS.ffffff}, always six fraction digits. */
    public String iso() {
        return date.iso() + "T" + TimeValue.clock(microOfDay);
    }

    @Override
    public String tag() {
        return TAG;
    }
}
