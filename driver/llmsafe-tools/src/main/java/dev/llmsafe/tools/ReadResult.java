package dev.llmsafe.tools;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The result of a guarded read, in values that JSON can carry without a converter: each value is a
 * {@link String}, a {@link Boolean}, {@code null}, a number ({@link Integer}, {@link Long},
 * {@link Short}, {@link Byte}, {@link BigInteger}, {@link BigDecimal}, or a finite {@link Double} or
 * {@link Float}), or {@link Bytes} for binary. A value the engine can only render as text (a timestamp,
 * a UUID, an interval, NaN) is given as its text. Numbers are written exactly as given; a JavaScript
 * client reads a JSON number as a double, so the engine may choose to give integers beyond 2^53 as text.
 * Binary is never text (R13): a driver's text of bytes is lossy (SPEC.md F19).
 *
 * <p>Immutable; the constructor checks the shape and the value types, so a mistake in the engine is
 * an exception here and not a malformed tool result.
 *
 * @param columns the result columns, in order
 * @param rows each row, one value per column
 * @param truncated whether more rows matched than the read cap returns (R4)
 */
public record ReadResult(List<Column> columns, List<List<Object>> rows, boolean truncated) {

    private static final Set<Class<?>> NUMBERS = Set.of(Integer.class, Long.class, Short.class, Byte.class,
            BigInteger.class, BigDecimal.class, Double.class, Float.class);

    /** Copies the lists (rows may hold nulls, so not with {@link List#copyOf}) and checks every value. */
    public ReadResult {
        columns = List.copyOf(columns);
        List<List<Object>> copied = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row " + copied.size() + " has " + row.size()
                        + " values for " + columns.size() + " columns");
            }
            List<Object> values = new ArrayList<>(row);
            for (Object v : values) {
                check(v, copied.size());
            }
            copied.add(Collections.unmodifiableList(values));
        }
        rows = Collections.unmodifiableList(copied);
    }

    private static void check(Object v, int row) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Bytes) {
            return;
        }
        if (!NUMBERS.contains(v.getClass())) {
            throw new IllegalArgumentException("row " + row + ": a " + v.getClass().getName()
                    + " is not a JSON value; give it as a string");
        }
        if ((v instanceof Double d && !Double.isFinite(d)) || (v instanceof Float f && !Float.isFinite(f))) {
            // JSON has no NaN or infinity; Jackson would write them as strings anyway, silently.
            throw new IllegalArgumentException("row " + row + ": " + v + " is not a JSON number; give it as a string");
        }
    }

    /**
     * RFC 4180: a header line, then one line per row, each ended by CR LF; NULL is an empty field, or
     * {@code nullText} when it is given. With {@code neutralise} (the default of the command line and the
     * console, R13), a text field, header or value, beginning with {@code =}, {@code +}, {@code -},
     * {@code @}, a tab or a carriage return gets a leading {@code '}, OWASP's advice against CSV
     * injection: a spreadsheet shows it as text instead of running it (=HYPERLINK(...), =cmd|...).
     * Numbers are never prefixed: a number column's -5 is a number, not a formula.
     *
     * @param neutralise whether texts a spreadsheet would run are prefixed
     * @param nullText how NULL is written, or null for an empty field
     */
    public String csv(boolean neutralise, String nullText) {
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        for (Column c : columns) {
            header.add(csvField(neutralise ? inert(c.name()) : c.name()));
        }
        out.append(String.join(",", header)).append("\r\n");
        for (List<Object> row : rows) {
            List<String> fields = new ArrayList<>(row.size());
            for (Object v : row) {
                fields.add(v == null ? (nullText == null ? "" : csvField(nullText))
                        : csvField(neutralise && v instanceof String s ? inert(s) : v.toString()));
            }
            out.append(String.join(",", fields)).append("\r\n");
        }
        return out.toString();
    }

    /** A text that a spreadsheet will not run as a formula: OWASP's leading quote where one could start. */
    private static String inert(String s) {
        return !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    }

    /** A field quoted when it holds a comma, a quote or a line break, with its quotes doubled. */
    private static String csvField(String s) {
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /** The first {@code n} rows, flagged as truncated. */
    public ReadResult firstRows(int n) {
        return new ReadResult(columns, rows.subList(0, n), true);
    }

    /**
     * Binary, exactly (R13): in JSON {@code {"t": "bin", "len": 2, "hex": "00ff"}}, the value model's tag
     * and length ({@code dev.llmsafe.value.BinaryValue}) with every byte in lower-case hex where a plan
     * keeps only the head and a hash; as text {@code \x00ff}, PostgreSQL's bytea form.
     *
     * @param hex the bytes in lower-case hex
     */
    public record Bytes(String hex) {

        /** The JSON form's tag, the value model's. */
        public static final String TAG = "bin";

        /** Checks the hex. */
        public Bytes {
            if (!hex.matches("([0-9a-f]{2})*")) {
                throw new IllegalArgumentException("not lower-case hex bytes: " + hex);
            }
        }

        /** These bytes. */
        public static Bytes of(byte[] bytes) {
            return new Bytes(java.util.HexFormat.of().formatHex(bytes));
        }

        /** How many bytes. */
        public int length() {
            return hex.length() / 2;
        }

        /** The JSON form, in its field order. */
        public java.util.Map<String, Object> json() {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("t", TAG);
            m.put("len", length());
            m.put("hex", hex);
            return m;
        }

        /** PostgreSQL's text form, {@code \x00ff}. */
        @Override
        public String toString() {
            return "\\x" + hex;
        }
    }

    /**
     * One result column.
     *
     * @param name the column's label as the database reports it (two columns may share one)
     * @param type the database's name for its type, for example {@code int8} or {@code varchar}
     */
    public record Column(String name, String type) {

        /** Both are required. */
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }
}
