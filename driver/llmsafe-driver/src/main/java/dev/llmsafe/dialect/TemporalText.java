package dev.llmsafe.dialect;

import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.TimestampValue;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The date and time texts PostgreSQL (DateStyle ISO, which pgjdbc enforces) and MySQL send:
 * {@code 2024-05-01}, {@code 12:34:56.123456}, {@code 2024-05-01 12:34:56.123456}, offsets
 * {@code +05:30}, {@code +01}, {@code +00:53:28}. Strict: anything else is an
 * {@link IllegalArgumentException}, never a guess.
 */
final class TemporalText {

    private static final Pattern DATE = Pattern.compile("(\\d{4,})-(\\d{2})-(\\d{2})");
    private static final Pattern CLOCK = Pattern.compile("(-?)(\\d{2,}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,6}))?");
    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{2})(?::(\\d{2}))?(?::(\\d{2}))?");

    private TemporalText() {
    }

    /** {@code YYYY-MM-DD} with zero parts allowed; the year is as written (no era). */
    static DateValue date(String text) {
        Matcher m = DATE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a date: " + text);
        }
        return new DateValue(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** {@code [-]HH:MM:SS[.f]} as signed microseconds; hours may exceed 24 (MySQL TIME). */
    static long clock(String text) {
        Matcher m = CLOCK.matcher(text);
        if (!m.matches() || Integer.parseInt(m.group(3)) > 59 || Integer.parseInt(m.group(4)) > 59) {
            throw new IllegalArgumentException("not a time: " + text);
        }
        String fraction = m.group(5) == null ? "" : m.group(5);
        long micros = ((Long.parseLong(m.group(2)) * 60 + Long.parseLong(m.group(3))) * 60
                + Long.parseLong(m.group(4))) * 1_000_000 + Long.parseLong((fraction + "000000").substring(0, 6));
        return m.group(1).isEmpty() ? micros : -micros;
    }

    /** {@code YYYY-MM-DD HH:MM:SS[.f]}. */
    static TimestampValue timestamp(String text) {
        int space = text.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("not a timestamp: " + text);
        }
        long micros = clock(text.substring(space + 1));
        if (micros < 0 || micros >= 86_400_000_000L) {
            throw new IllegalArgumentException("not a timestamp: " + text);
        }
        return new TimestampValue(date(text.substring(0, space)), micros);
    }

    /**
     * Where the offset at the end of a time or timestamp text starts, or -1 when it has none. A sign
     * before the first colon belongs to the date or to a negative time, not to an offset.
     */
    static int offsetStart(String text) {
        int at = Math.max(text.lastIndexOf('+'), text.lastIndexOf('-'));
        int colon = text.indexOf(':');
        return at > colon && colon >= 0 ? at : -1;
    }

    /** An offset such as {@code +02:00}, {@code +01} or {@code +00:53:28}. */
    static ZoneOffset offset(String text) {
        Matcher m = OFFSET.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not an offset: " + text);
        }
        int seconds = Integer.parseInt(m.group(2)) * 3600
                + (m.group(3) == null ? 0 : Integer.parseInt(m.group(3)) * 60)
                + (m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
        return ZoneOffset.ofTotalSeconds(m.group(1).equals("-") ? -seconds : seconds);
    }
}
