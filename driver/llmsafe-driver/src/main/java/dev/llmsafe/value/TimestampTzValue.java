package dev.llmsafe.value;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A point in time to the microsecond: PostgreSQL {@code timestamptz}, MySQL {@code TIMESTAMP}. Both
 * store only the instant; {@code shown} is the offset the session displayed it in, kept for the card.
 *
 * <p>Equality is by instant only: an applier whose session has another time zone reads the same
 * stored value with another offset, and that is not a change. Two different instants are never
 * equal, including the two instants a DST fall-back shows as the same wall-clock time.
 */
public record TimestampTzValue(Instant instant, ZoneOffset shown) implements Value {

    /** {@value}. */
    public static final String TAG = "tstz";

    /** @throws IllegalArgumentException for an instant finer than a microsecond */
    public TimestampTzValue {
        Objects.requireNonNull(instant, "instant");
        Objects.requireNonNull(shown, "shown");
        if (instant.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("finer than a microsecond: " + instant);
        }
    }

    /** Reads the form {@link #isoUtc()} writes, with the offset to show it in. */
    public static TimestampTzValue parseIsoUtc(String text, ZoneOffset shown) {
        if (!text.endsWith("Z")) {
            throw new IllegalArgumentException("not a UTC timestamp: " + text);
        }
        TimestampValue local = TimestampValue.parseIso(text.substring(0, text.length() - 1));
        LocalDateTime t = local.date().toLocalDate()
                .orElseThrow(() -> new IllegalArgumentException("not a date: " + text))
                .atStartOfDay().plusNanos(local.microOfDay() * 1000);
        return new TimestampTzValue(t.toInstant(ZoneOffset.UTC), shown);
    }

    /** The instant as a UTC timestamp ending in {@code Z}, six fraction digits. */
    public String isoUtc() {
        return local(ZoneOffset.UTC).iso() + "Z";
    }

    /** The instant in the offset it was shown in: {@code 2024-10-27T03:30:00.000001+02:00}. */
    public String iso() {
        return local(shown).iso() + TimeValue.offsetText(shown);
    }

    private TimestampValue local(ZoneOffset offset) {
        return TimestampValue.of(LocalDateTime.ofInstant(instant, offset));
    }

    /** Equal when the instants are equal; the offset it was shown in does not count. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TimestampTzValue t && t.instant.equals(instant);
    }

    @Override
    public int hashCode() {
        return instant.hashCode();
    }

    @Override
    public String tag() {
        return TAG;
    }
}
