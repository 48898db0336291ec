package dev.llmsafe.dialect;

import dev.llmsafe.value.ArrayValue;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.BooleanValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.IntervalValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.JsonbValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.TimeValue;
import dev.llmsafe.value.TimestampTzValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * A value as PostgreSQL's own text input reads it back to the same value: the reverse of
 * {@link PgText}. A primary key is bound in this form with no type of its own (pgjdbc's
 * {@code Types.OTHER}), so that the server reads it as the key column's type, whatever that type is
 * (an enum, a domain, an array, {@code timetz}, {@code numeric} NaN, a BC date). Every form here is one
 * that the input functions accept in any DateStyle and IntervalStyle: ISO dates with an explicit era,
 * offsets written out, intervals in the postgres style (which every style reads).
 */
final class PgLiteral {

    private PgLiteral() {
    }

    /** The text, or empty for a value that has no exact text here (binary known only by its hash, NULL). */
    static Optional<String> text(Value v) {
        if (v instanceof IntegerValue i) {
            return Optional.of(i.value().toString());
        }
        if (v instanceof DecimalValue d) {
            return Optional.of(d.value().toPlainString());
        }
        if (v instanceof FloatValue f) {
            // Java's Double.toString and Float.toString read back to the same bits, and so does the
            // server's correctly rounded input; NaN, Infinity and -Infinity are spelled as it spells them.
            return Optional.of(f.text());
        }
        if (v instanceof BooleanValue b) {
            return Optional.of(b.value() ? "true" : "false");
        }
        if (v instanceof TextValue t) {
            return Optional.of(t.value());
        }
        if (v instanceof BinaryValue b) {
            return b.complete() ? Optional.of("\\x" + b.head()) : Optional.empty();
        }
        if (v instanceof DateValue d) {
            return Optional.of(date(d));
        }
        if (v instanceof TimestampValue t) {
            return Optional.of(timestamp(t));
        }
        if (v instanceof TimestampTzValue t) {
            TimestampValue utc = TimestampValue.of(LocalDateTime.ofInstant(t.instant(), ZoneOffset.UTC));
            String s = timestamp(utc);
            // The offset goes before the era: "0044-03-15 12:00:00+00 BC".
            return Optional.of(s.endsWith(" BC") ? s.substring(0, s.length() - 3) + "+00 BC" : s + "+00");
        }
        if (v instanceof TimeValue t) {
            return Optional.of(t.text());
        }
        if (v instanceof IntervalValue i) {
            return Optional.of(i.postgresText());
        }
        if (v instanceof UuidValue u) {
            return Optional.of(u.value().toString());
        }
        if (v instanceof EnumValue e) {
            return Optional.of(e.label());
        }
        if (v instanceof JsonValue j) {
            return Optional.of(j.text());
        }
        if (v instanceof JsonbValue j) {
            return Optional.of(j.text());
        }
        if (v instanceof OtherValue o) {
            return Optional.of(o.text());
        }
        if (v instanceof ArrayValue a) {
            StringBuilder b = new StringBuilder();
            if (a.explicitBounds()) {
                b.append(a.bounds()).append('=');
            }
            return array(a, b) ? Optional.of(b.toString()) : Optional.empty();
        }
        return Optional.empty();
    }

    private static boolean array(ArrayValue a, StringBuilder b) {
        b.append('{');
        for (int i = 0; i < a.elements().size(); i++) {
            Value e = a.elements().get(i);
            if (i > 0) {
                b.append(',');
            }
            if (e instanceof ArrayValue inner) {
                if (!array(inner, b)) {
                    return false;
                }
            } else if (e.isNull()) {
                b.append("NULL");
            } else {
                Optional<String> t = text(e);
                if (t.isEmpty()) {
                    return false;
                }
                // Every element is quoted: array_in reads a quoted element of any type.
                b.append('"').append(t.get().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        }
        b.append('}');
        return true;
    }

    /** ISO year-month-day with an explicit era: the value model's year 0 is 1 BC. */
    static String date(DateValue d) {
        // Years past 9999 as plain digits: the server reads "12345-01-01", not ISO's "+12345-01-01".
        boolean bc = d.year() < 1;
        return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", bc ? 1L - d.year() : d.year(), d.month(), d.day())
                + (bc ? " BC" : "");
    }

    static String timestamp(TimestampValue t) {
        String clock = new TimestampValue(new DateValue(2000, 1, 1), t.microOfDay()).iso().substring(11);
        String date = date(t.date());
        return date.endsWith(" BC") ? date.substring(0, date.length() - 3) + " " + clock + " BC" : date + " " + clock;
    }
}
