package dev.llmsafe.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A dotted name such as {@code orders}, {@code public.orders} or {@code orders.total_cents}, kept as
 * written. Each part is a bare identifier or a double-quoted one ({@code "Order Lines"}).
 *
 * @param parts one or more identifiers, outermost first
 */
public record QualifiedName(List<Identifier> parts) {

    /** Copies the parts; there must be at least one. */
    public QualifiedName {
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a name needs at least one part");
        }
    }

    /**
     * Parses a dotted name of at most {@code maxParts} parts.
     *
     * @throws IllegalArgumentException when the text is not such a name
     */
    public static QualifiedName parse(String text, int maxParts) {
        List<Identifier> parts = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (true) {
            if (i < n && text.charAt(i) == '"') {
                StringBuilder sb = new StringBuilder();
                i++;
                boolean closed = false;
                while (i < n) {
                    char c = text.charAt(i++);
                    if (c == '"') {
                        if (i < n && text.charAt(i) == '"') {
                            sb.append('"');
                            i++;
                        } else {
                            closed = true;
                            break;
                        }
                    } else {
                        sb.append(c);
                    }
                }
                if (!closed) {
                    throw new IllegalArgumentException("unterminated quoted name: " + text);
                }
                parts.add(new Identifier(sb.toString(), true));
            } else {
                int start = i;
                while (i < n && text.charAt(i) != '.') {
                    i++;
                }
                parts.add(new Identifier(text.substring(start, i), false));
            }
            if (i == n) {
                break;
            }
            if (text.charAt(i) != '.') {
                throw new IllegalArgumentException("unexpected text after a quoted name: " + text);
            }
            i++;
        }
        if (parts.size() > maxParts) {
            throw new IllegalArgumentException("too many parts: " + text);
        }
        return new QualifiedName(parts);
    }

    /** The last part: the table of a table name, the column of a column name. */
    public Identifier last() {
        return parts.get(parts.size() - 1);
    }

    /** All parts but the last, or null when there is only one part. */
    public QualifiedName qualifier() {
        return parts.size() == 1 ? null : new QualifiedName(parts.subList(0, parts.size() - 1));
    }

    /** The name as written, parts joined by dots. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Identifier part : parts) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(part);
        }
        return sb.toString();
    }
}
