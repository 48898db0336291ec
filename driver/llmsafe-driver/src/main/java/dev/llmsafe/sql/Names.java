package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import java.util.ArrayList;
import java.util.List;

/** Turns names as the parser prints them ({@code public."Orders"}, {@code `x`}, {@code [x]}) into names. */
final class Names {

    private Names() {
    }

    static QualifiedName of(String raw, SqlDialect dialect, int maxParts) throws RefusedException {
        List<Identifier> parts = new ArrayList<>();
        int i = 0;
        int n = raw.length();
        while (i < n) {
            char c = raw.charAt(i);
            char close = c == '"' ? '"' : c == '`' ? '`' : (c == '[' && dialect == SqlDialect.SQLITE) ? ']' : 0;
            if (close != 0) {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                while (j < n) {
                    char d = raw.charAt(j);
                    if (d == close && close != ']' && j + 1 < n && raw.charAt(j + 1) == close) {
                        sb.append(close);
                        j += 2;
                    } else if (d == close) {
                        break;
                    } else {
                        sb.append(d);
                        j++;
                    }
                }
                parts.add(identifier(sb.toString(), true));
                i = j + 1;
            } else {
                int j = raw.indexOf('.', i);
                j = j < 0 ? n : j;
                parts.add(identifier(raw.substring(i, j), false));
                i = j;
            }
            if (i < n && raw.charAt(i) == '.') {
                i++;
            }
        }
        if (parts.isEmpty() || parts.size() > maxParts) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the name " + raw + " has "
                    + parts.size() + " parts; name tables as table or schema.table.");
        }
        return new QualifiedName(parts);
    }

    static Identifier identifier(String text, boolean quoted) throws RefusedException {
        try {
            return new Identifier(text, quoted);
        } catch (IllegalArgumentException e) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the name " + text + " is not a plain"
                    + " identifier; write it in quotes.");
        }
    }
}
