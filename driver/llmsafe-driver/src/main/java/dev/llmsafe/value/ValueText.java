package dev.llmsafe.value;

import java.util.ArrayList;
import java.util.List;

/**
 * How values look on a card (C1). Every value renders to one line that cannot be mistaken for another
 * value of the same column:
 *
 * <ul>
 *   <li>NULL is {@code NULL}; text is single-quoted, so the text {@code 'NULL'} is not NULL;
 *   <li>in text, {@code '} is doubled and {@code \} is doubled, so that {@code \n}, {@code \r},
 *       {@code \t} and <code>&#92;u{202E}</code> can only mean the control or invisible character they show
 *       (C5: which characters, and why, is {@link Visible}'s to decide);
 *   <li>numbers as written ({@code 1.10} keeps its zero); JSON as JSON; binary as
 *       {@code 0x} + its first bytes, its size and the start of its SHA-256; dates and times in ISO
 *       8601 with six fraction digits; a masked value as {@code <masked>};
 *   <li>a value longer than {@value #MAX_CHARS} characters is elided in the middle with its total
 *       length: {@code 'abcdefgh…(1200 chars)…wxyz'}.
 * </ul>
 *
 * Elision can make two long values look alike; {@link #renderChange} then shows where they differ.
 */
public final class ValueText {

    /** The longest rendering of a text before it is elided. */
    public static final int MAX_CHARS = 120;
    private static final int HEAD = 80;
    private static final int TAIL = 24;
    private static final int MAX_ELEMENTS = 20;
    private static final int WINDOW = 30;

    private ValueText() {
    }

    /** A before and after, rendered so that they differ whenever the values differ. */
    public record RenderedChange(String before, String after) {
    }

    /** The card form of a value. */
    public static String render(Value v) {
        return render(v, true);
    }

    /**
     * The card forms of a changed value. When the elided forms of two different values coincide (a
     * one-character change in the middle of a long text), both are shown around the first
     * difference instead, with its position in the full rendering: {@code …aaaabaaaa…(at char 2502 of 5002)}.
     */
    public static RenderedChange renderChange(Value before, Value after) {
        String b = render(before);
        String a = render(after);
        if (!b.equals(a) || before.equals(after)) {
            return new RenderedChange(b, a);
        }
        if (before instanceof MaskedValue && after instanceof MaskedValue) {
            return new RenderedChange(b, "<masked, different>");
        }
        String fb = render(before, false);
        String fa = render(after, false);
        int at = 0;
        while (at < fb.length() && at < fa.length() && fb.charAt(at) == fa.charAt(at)) {
            at++;
        }
        return new RenderedChange(window(fb, at), window(fa, at));
    }

    private static String window(String full, int at) {
        int from = Math.max(0, at - WINDOW);
        int to = Math.min(full.length(), at + WINDOW);
        if (from > 0 && Character.isLowSurrogate(full.charAt(from))) {
            from--;
        }
        if (to < full.length() && Character.isLowSurrogate(full.charAt(to))) {
            to++;
        }
        // Nor is an escape cut in two (C5).
        from = escapeStart(full, from);
        int open = escapeStart(full, to);
        if (open < to) {
            to = full.indexOf('}', open) + 1;
        }
        return (from > 0 ? "…" : "") + full.substring(from, to) + (to < full.length() ? "…" : "")
                + "(at char " + (at + 1) + " of " + full.length() + ")";
    }

    /** The start (the backslash) of the escape that {@code at} falls inside, else {@code at}. */
    private static int escapeStart(String full, int at) {
        int open = full.lastIndexOf("\\u{", at - 1);
        if (open < 0 || full.indexOf('}', open) < at) {
            return at;
        }
        return open;
    }

    private static String render(Value v, boolean elide) {
        if (v instanceof NullValue) {
            return "NULL";
        } else if (v instanceof IntegerValue x) {
            return x.value().toString();
        } else if (v instanceof DecimalValue x) {
            return x.value().toPlainString();
        } else if (v instanceof FloatValue x) {
            return x.text();
        } else if (v instanceof BooleanValue x) {
            return Boolean.toString(x.value());
        } else if (v instanceof TextValue x) {
            return quoted(x.value(), elide);
        } else if (v instanceof BinaryValue x) {
            return binary(x, elide);
        } else if (v instanceof DateValue x) {
            return x.iso();
        } else if (v instanceof TimeValue x) {
            return x.text();
        } else if (v instanceof TimestampValue x) {
            return x.iso();
        } else if (v instanceof TimestampTzValue x) {
            return x.iso();
        } else if (v instanceof IntervalValue x) {
            return x.postgresText();
        } else if (v instanceof UuidValue x) {
            return x.value().toString();
        } else if (v instanceof EnumValue x) {
            return quoted(x.label(), elide);
        } else if (v instanceof SetValue x) {
            return quoted(x.text(), elide);
        } else if (v instanceof JsonValue x) {
            return json(x.text(), elide);
        } else if (v instanceof JsonbValue x) {
            return json(x.text(), elide);
        } else if (v instanceof ArrayValue x) {
            return array(x, elide);
        } else if (v instanceof OtherValue x) {
            return Visible.text(x.type()) + " " + quoted(x.text(), elide);
        } else if (v instanceof MaskedValue) {
            return "<masked>";
        }
        throw new IllegalStateException("no rendering for " + v.getClass());
    }

    private static String quoted(String s, boolean elide) {
        if (elide && s.codePointCount(0, s.length()) > MAX_CHARS) {
            int n = s.codePointCount(0, s.length());
            String head = s.substring(0, s.offsetByCodePoints(0, HEAD));
            String tail = s.substring(s.offsetByCodePoints(0, n - TAIL));
            return "'" + Visible.quotedBody(head) + "…(" + n + " chars)…" + Visible.quotedBody(tail) + "'";
        }
        return Visible.quoted(s);
    }

    /** JSON text, elided before it is escaped so that no escape is cut in two. */
    private static String json(String s, boolean elide) {
        int n = s.codePointCount(0, s.length());
        if (!elide || n <= MAX_CHARS) {
            return Visible.json(s);
        }
        return Visible.json(s.substring(0, s.offsetByCodePoints(0, HEAD))) + "…(" + n + " chars)…"
                + Visible.json(s.substring(s.offsetByCodePoints(0, n - TAIL)));
    }

    private static String binary(BinaryValue x, boolean elide) {
        if (x.complete()) {
            return "0x" + x.head() + " (" + bytes(x.length()) + ")";
        }
        return "0x" + x.head() + "… (" + bytes(x.length()) + ", sha256 "
                + (elide ? x.sha256().substring(0, 12) : x.sha256()) + ")";
    }

    private static String bytes(long n) {
        return n == 1 ? "1 byte" : n + " bytes";
    }

    /** PostgreSQL's form: {@code {1, NULL, 'a'}}, {@code [0:1]={5, 6}} with explicit bounds. */
    private static String array(ArrayValue x, boolean elide) {
        return (x.explicitBounds() ? x.bounds() + "=" : "") + elements(x, elide);
    }

    private static String elements(ArrayValue x, boolean elide) {
        List<Value> e = x.elements();
        List<String> parts = new ArrayList<>();
        boolean cut = elide && e.size() > MAX_ELEMENTS;
        for (int i = 0; i < e.size(); i++) {
            if (cut && i == MAX_ELEMENTS - 5) {
                parts.add("…(" + e.size() + " elements)…");
                i = e.size() - 5;
            }
            parts.add(e.get(i) instanceof ArrayValue inner ? elements(inner, elide) : render(e.get(i), elide));
        }
        return "{" + String.join(", ", parts) + "}";
    }
}
