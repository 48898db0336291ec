package dev.llmsafe.dialect;

import dev.llmsafe.value.ArrayValue;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.IntervalValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TimeValue;
import dev.llmsafe.value.TimestampTzValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.Value;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's text forms, parsed exactly. These are what pgjdbc's getString returns in the text
 * transfer mode and, for the types it receives in binary, what it formats itself; both are handled
 * (measured with pgjdbc 42.7.14 on PostgreSQL 15.20, see {@link PostgresValueReader}).
 */
final class PgText {

    private static final Pattern POSTGRES_INTERVAL = Pattern.compile(
            "(?:(-?\\d+) years?)? ?(?:([+-]?\\d+) mons?)? ?(?:([+-]?\\d+) days?)? ?"
                    + "(?:([+-]?)(\\d+):(\\d{2}):(\\d{2})(?:\\.(\\d{1,6}))?)?");
    private static final Pattern ISO_INTERVAL = Pattern.compile(
            "P(?:(-?\\d+)Y)?(?:(-?\\d+)M)?(?:(-?\\d+)D)?(?:T(?:(-?\\d+)H)?(?:(-?\\d+)M)?(?:(-?\\d+(?:\\.\\d{1,6})?)S)?)?");
    private static final Pattern DIMENSION = Pattern.compile("\\[(-?\\d+):(-?\\d+)]");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");

    private PgText() {
    }

    /** {@code numeric}: exact, scale kept; NaN and the infinities are {@link OtherValue}s. */
    static Value numeric(String text) {
        if (text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity")) {
            return new OtherValue("numeric", text);
        }
        // In binary transfer pgjdbc formats with BigDecimal.toString ("1E-20" where the server says
        // "0.00000000000000000001"); both parse to the same unscaled value and scale.
        return new DecimalValue(new BigDecimal(text));
    }

    /** {@code date}: {@code 2024-05-01}, {@code 0044-03-15 BC}, {@code infinity}. */
    static Value date(String text) {
        if (text.endsWith("infinity")) {
            return new OtherValue("date", text);
        }
        boolean bc = text.endsWith(" BC");
        DateValue d = TemporalText.date(bc ? text.substring(0, text.length() - 3) : text);
        return bc ? new DateValue(1 - d.year(), d.month(), d.day()) : d;
    }

    /** {@code time}: {@code 12:34:56.123456}, up to {@code 24:00:00}. */
    static Value time(String text) {
        return TimeValue.of(TemporalText.clock(text));
    }

    /** {@code timetz}: a time with the offset it was stored with. */
    static Value timetz(String text) {
        int at = TemporalText.offsetStart(text);
        if (at < 0) {
            throw new IllegalArgumentException("not a time with time zone: " + text);
        }
        return new TimeValue(TemporalText.clock(text.substring(0, at)),
                Optional.of(TemporalText.offset(text.substring(at))));
    }

    /** {@code timestamp}: {@code 2024-05-01 12:34:56.123456}, {@code ... BC}, {@code infinity}. */
    static Value timestamp(String text) {
        if (text.endsWith("infinity")) {
            return new OtherValue("timestamp", text);
        }
        boolean bc = text.endsWith(" BC");
        TimestampValue t = TemporalText.timestamp(bc ? text.substring(0, text.length() - 3) : text);
        return bc ? new TimestampValue(new DateValue(1 - t.date().year(), t.date().month(), t.date().day()),
                t.microOfDay()) : t;
    }

    /** {@code timestamptz}: {@code 2024-05-01 12:34:56.123456+02}, offsets with seconds, BC, infinity. */
    static Value timestamptz(String text) {
        if (text.endsWith("infinity")) {
            return new OtherValue("timestamptz", text);
        }
        boolean bc = text.endsWith(" BC");
        String body = bc ? text.substring(0, text.length() - 3) : text;
        int at = TemporalText.offsetStart(body);
        if (at < 0) {
            throw new IllegalArgumentException("not a timestamp with time zone: " + text);
        }
        ZoneOffset offset = TemporalText.offset(body.substring(at));
        TimestampValue local = (TimestampValue) timestamp(body.substring(0, at) + (bc ? " BC" : ""));
        LocalDateTime t = local.date().toLocalDate()
                .orElseThrow(() -> new IllegalArgumentException("not a date: " + text))
                .atStartOfDay().plusNanos(local.microOfDay() * 1000);
        return new TimestampTzValue(t.toInstant(offset), offset);
    }

    /**
     * {@code interval} in IntervalStyle {@code postgres} (the default) or {@code iso_8601}. The other
     * two styles do not parse, so a session set to them makes the reader refuse rather than misread;
     * pgjdbc's own PGInterval silently drops years, months and days in {@code sql_standard}
     * (measured: {@code +1-2 -3 +4:05:06.000007} became 4 hours 5 mins 6.000007 secs).
     */
    static Value interval(String text) {
        Matcher m = POSTGRES_INTERVAL.matcher(text);
        if (!text.isEmpty() && !text.startsWith(" ") && !text.endsWith(" ") && m.matches()
                && !text.contains("  ")) {
            long months = 12 * parse(m.group(1)) + parse(m.group(2));
            long micros = 0;
            if (m.group(5) != null) {
                micros = TemporalText.clock(m.group(5) + ":" + m.group(6) + ":" + m.group(7)
                        + (m.group(8) == null ? "" : "." + m.group(8)));
                micros = m.group(4).equals("-") ? -micros : micros;
            }
            return new IntervalValue(Math.toIntExact(months), Math.toIntExact(parse(m.group(3))), micros);
        }
        m = ISO_INTERVAL.matcher(text);
        if (text.length() > 1 && !text.endsWith("T") && m.matches()) {
            long months = 12 * parse(m.group(1)) + parse(m.group(2));
            BigDecimal seconds = m.group(6) == null ? BigDecimal.ZERO : new BigDecimal(m.group(6));
            long micros = (parse(m.group(4)) * 3600 + parse(m.group(5)) * 60) * 1_000_000
                    + seconds.movePointRight(6).longValueExact();
            return new IntervalValue(Math.toIntExact(months), Math.toIntExact(parse(m.group(3))), micros);
        }
        throw new IllegalArgumentException("not an interval in IntervalStyle postgres or iso_8601: " + text);
    }

    private static long parse(String n) {
        return n == null ? 0 : Long.parseLong(n);
    }

    /** {@code bytea} as an array element: {@code \x00ff} (hex output) or the escape output format. */
    static Value bytea(String text) {
        if (text.startsWith("\\x")) {
            return BinaryValue.of(HexFormat.of().parseHex(text.substring(2)));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.write(c);
            } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < text.length() && text.substring(i + 1, i + 4).matches("[0-3][0-7]{2}")) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                throw new IllegalArgumentException("not a bytea text: " + text);
            }
        }
        return BinaryValue.of(out.toByteArray());
    }

    /**
     * A geometric value ({@code point}, {@code box}, ...) with every number written the one way Java
     * writes a double: pgjdbc sends {@code point} and {@code box} in binary and formats them itself
     * ({@code (1.0,2.0)} where the server says {@code (1,2)}), so without this the same row would read
     * differently before and after pgjdbc switches to binary transfer.
     */
    static Value geometric(String type, String text) {
        Matcher m = NUMBER.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, Double.toString(Double.parseDouble(m.group())));
        }
        m.appendTail(b);
        return new OtherValue(type, b.toString());
    }

    /**
     * An array literal ({@code {1,NULL,"a,b"}}, nested for more dimensions, with explicit bounds
     * {@code [0:1]={5,6}} where the array has them), each element parsed by {@code element}.
     */
    static ArrayValue array(String text, char delimiter, Function<String, Value> element) {
        int[] at = {0};
        List<Integer> bounds = new ArrayList<>();
        if (text.startsWith("[")) {
            Matcher m = DIMENSION.matcher(text);
            while (m.find(at[0]) && m.start() == at[0]) {
                bounds.add(Integer.parseInt(m.group(1)));
                at[0] = m.end();
            }
            expect(text, at, '=');
        }
        ArrayValue a = arrayAt(text, at, delimiter, element);
        if (at[0] != text.length()) {
            throw new IllegalArgumentException("trailing text after array: " + text);
        }
        return withLowerBounds(a, bounds.stream().mapToInt(Integer::intValue).toArray(), 0);
    }

    /** The array with the lower bound of each dimension set, from the outermost in. */
    static ArrayValue withLowerBounds(ArrayValue a, int[] bounds, int depth) {
        if (depth >= bounds.length) {
            return a;
        }
        List<Value> elements = new ArrayList<>();
        for (Value e : a.elements()) {
            elements.add(e instanceof ArrayValue inner ? withLowerBounds(inner, bounds, depth + 1) : e);
        }
        return new ArrayValue(elements, bounds[depth]);
    }

    /**
     * The lower bound of each dimension from pgjdbc's raw bytes of an array, or null when the bytes
     * are the text form. In binary transfer pgjdbc's getString and getArray drop the bounds (measured:
     * {@code [0:1]={5,6}} read back as {@code {"5","6"}}), but getBytes returns the wire bytes: int32
     * dimensions, int32 flags, int32 element type, then per dimension int32 size and int32 lower bound.
     */
    static int[] binaryLowerBounds(byte[] raw) {
        if (raw.length == 0 || raw[0] == '{' || raw[0] == '[') {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        int dimensions = b.getInt();
        if (dimensions < 0 || dimensions > 6 || raw.length < 12 + 8 * dimensions) {
            throw new IllegalArgumentException("not a binary array: " + dimensions + " dimensions");
        }
        b.getInt();
        b.getInt();
        int[] bounds = new int[dimensions];
        for (int d = 0; d < dimensions; d++) {
            b.getInt();
            bounds[d] = b.getInt();
        }
        return bounds;
    }

    private static ArrayValue arrayAt(String s, int[] at, char delimiter, Function<String, Value> element) {
        expect(s, at, '{');
        List<Value> out = new ArrayList<>();
        if (peek(s, at) == '}') {
            at[0]++;
            return new ArrayValue(out);
        }
        while (true) {
            char c = peek(s, at);
            if (c == '{') {
                out.add(arrayAt(s, at, delimiter, element));
            } else if (c == '"') {
                out.add(element.apply(quoted(s, at)));
            } else {
                int start = at[0];
                while (at[0] < s.length() && s.charAt(at[0]) != delimiter && s.charAt(at[0]) != '}') {
                    at[0]++;
                }
                String token = s.substring(start, at[0]);
                out.add(token.equalsIgnoreCase("NULL") ? Value.NULL : element.apply(token));
            }
            char next = peek(s, at);
            at[0]++;
            if (next == '}') {
                return new ArrayValue(out);
            }
            if (next != delimiter) {
                throw new IllegalArgumentException("malformed array at " + at[0] + ": " + s);
            }
        }
    }

    private static String quoted(String s, int[] at) {
        expect(s, at, '"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = peek(s, at);
            at[0]++;
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\') {
                c = peek(s, at);
                at[0]++;
            }
            b.append(c);
        }
    }

    private static char peek(String s, int[] at) {
        if (at[0] >= s.length()) {
            throw new IllegalArgumentException("unterminated array: " + s);
        }
        return s.charAt(at[0]);
    }

    private static void expect(String s, int[] at, char c) {
        if (peek(s, at) != c) {
            throw new IllegalArgumentException("expected " + c + " at " + at[0] + ": " + s);
        }
        at[0]++;
    }
}
