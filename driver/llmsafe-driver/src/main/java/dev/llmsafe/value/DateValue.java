package dev.llmsafe.value;

import java.time.LocalDate;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A calendar date as the database holds it, in the proleptic Gregorian calendar with ISO year
 * numbering (year 0 is 1 BC, PostgreSQL's {@code 0044-03-15 BC} is year -43). A month or day of 0 is
 * a MySQL zero part: {@code 0000-00-00} and {@code 2024-00-15} are kept as what they are, not turned
 * into NULL, an error or another date. MySQL's ALLOW_INVALID_DATES can store a day the month does not
 * have, so only the ranges are checked. PostgreSQL's {@code infinity} is an {@link OtherValue}.
 */
public record DateValue(int year, int month, int day) implements Value {

    /** {@value}. */
    public static final String TAG = "date";

    private static final Pattern ISO = Pattern.compile("([+-]?\\d{4,9})-(\\d{2})-(\\d{2})");

    /** @throws IllegalArgumentException for a month outside 0..12 or a day outside 0..31 */
    public DateValue {
        if (month < 0 || month > 12 || day < 0 || day > 31) {
            throw new IllegalArgumentException("no such date: " + year + "-" + month + "-" + day);
        }
    }

    /** The date of a {@link LocalDate}. */
    public static DateValue of(LocalDate date) {
        return new DateValue(date.getYear(), date.getMonthValue(), date.getDayOfMonth());
    }

    /** Reads the form {@link #iso()} writes. */
    public static DateValue parseIso(String text) {
        Matcher m = ISO.matcher(text);
        if (!m.matches() || !canonicalYear(m.group(1))) {
            throw new IllegalArgumentException("not an ISO date: " + text);
        }
        return new DateValue(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)));
    }

    /** The date, when it is one a {@link LocalDate} can hold (no zero part, a day the month has). */
    public Optional<LocalDate> toLocalDate() {
        if (month == 0 || day == 0 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return Optional.empty();
        }
        return Optional.of(LocalDate.of(year, month, day));
    }

    /**
     * {@code YYYY-MM-DD}; years outside 0000..9999 carry a sign and at least four digits, as in ISO
     * 8601 ({@code -0043-03-15}, {@code +12345-01-01}).
     */
    public String iso() {
        return year(year) + "-" + two(month) + "-" + two(day);
    }

    static String year(int year) {
        if (year >= 0 && year <= 9999) {
            return String.format("%04d", year);
        }
        return (year < 0 ? "-" : "+") + String.format("%04d", Math.abs((long) year));
    }

    private static boolean canonicalYear(String text) {
        boolean signed = text.startsWith("+") || text.startsWith("-");
        int digits = signed ? text.length() - 1 : text.length();
        long y = Long.parseLong(text);
        boolean plain = y >= 0 && y <= 9999;
        return plain ? !signed && digits == 4 : signed && (digits == 4 || text.charAt(1) != '0');
    }

    static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }

    @Override
    public String tag() {
        return TAG;
    }
}
