package dev.llmsafe.sql;

import dev.llmsafe.sql.Token.Kind;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where JSqlParser 5.4 cannot read a dialect's ordinary syntax, the form it reads instead (S10), as
 * edits of the lexer's tokens for {@link ParserText}. Each rule is measured: the corpus of
 * OrdinarySyntaxTest runs every form on its server, and the rewritten text too, which must mean the
 * same where an edit says so.
 *
 * <ul>
 *   <li>Every dialect: a string in a form the parser reads as one literal ({@link ParserText#literal});
 *       a sign right after a sign ({@code - -3}, MySQL's {@code 5--3}) in parentheses; a number
 *       without its digit separators ({@code 1_000}).</li>
 *   <li>PostgreSQL: U&amp; strings and identifiers decoded ({@code U&"\0061"} is {@code "a"});
 *       {@code ~~*} and {@code !~~*} as ILIKE and NOT ILIKE; {@code ^@} read as {@code =}; the
 *       prefix operators {@code |/}, {@code ||/} and {@code @} read as {@code 0 +}; an array slice
 *       with an omitted bound ({@code arr[2:]}) read with a bound.</li>
 *   <li>MySQL and MariaDB: the operator MOD as {@code %}; {@code --} not followed by white space
 *       (two minus signs there) spaced apart; SOUNDS LIKE read as LIKE; the BINARY operator left
 *       out; double-quoted strings in simple quotes.</li>
 *   <li>SQLite: {@code ==} as {@code =}; {@code IS} and {@code IS NOT} between values as
 *       {@code IS NOT DISTINCT FROM} and {@code IS DISTINCT FROM}; the postfix {@code NOT NULL} as
 *       {@code IS NOT NULL}; GLOB read as LIKE; the collations BINARY and RTRIM read as NOCASE; the
 *       function {@code like()} read as {@code coalesce()}.</li>
 * </ul>
 */
final class ParserRewrites {

    /** Words after which an operand begins: they end no operand themselves. */
    private static final Set<String> NOT_OPERANDS = Set.of(
            "select", "distinct", "all", "any", "some", "where", "and", "or", "not", "xor", "when", "then", "else",
            "case", "on", "having", "set", "by", "in", "like", "ilike", "glob", "regexp", "rlike", "match", "is",
            "between", "returning", "exists", "as", "values", "from", "join", "escape", "collate", "mod", "div",
            "interval", "union", "intersect", "except", "limit", "offset", "with", "into", "update", "delete",
            "using", "over", "partition", "similar", "to", "return", "if", "elseif", "sounds", "binary", "order",
            "group", "window", "array", "row", "at", "zone", "cast", "isnull", "notnull", "unique");

    /** Words that follow IS as part of a form JSqlParser reads. */
    private static final Set<String> AFTER_IS = Set.of("null", "true", "false", "distinct", "unknown");

    private ParserRewrites() {
    }

    static List<ParserText.Edit> edits(Lexed lexed, LexSettings settings) {
        List<Token> t = lexed.tokens();
        ParserText.Builder b = new ParserText.Builder();
        for (int k = 0; k < t.size(); k++) {
            Token token = t.get(k);
            if (token.kind() == Kind.STRING) {
                string(b, token, settings);
            } else if (token.kind() == Kind.NUMBER && token.text().indexOf('_') >= 0) {
                b.replace(token, token.text().replace("_", ""), true);
            } else if (token.kind() == Kind.QUOTED_IDENTIFIER && UnicodeEscapes.isUnicode(token.text())) {
                b.replace(token, '"' + token.identifierText().replace("\"", "\"\"") + '"', true);
            }
        }
        signs(b, t);
        switch (settings.dialect()) {
            case POSTGRESQL -> postgres(b, t);
            case MYSQL -> mysql(b, t);
            case SQLITE -> sqlite(b, t);
        }
        return b.edits();
    }

    private static void string(ParserText.Builder b, Token token, LexSettings settings) {
        String text = token.text();
        if (text.startsWith("$")) {
            return;
        }
        ParserText.Literal replacement;
        if (UnicodeEscapes.isUnicode(text)) {
            replacement = ParserText.literal("", UnicodeEscapes.value(text).replace("'", "''"), '\'', '\'', false);
        } else {
            int open = 0;
            while (text.charAt(open) != '\'' && text.charAt(open) != '"') {
                open++;
            }
            String prefix = text.substring(0, open);
            replacement = ParserText.literal(prefix, text.substring(open + 1, text.length() - 1), text.charAt(open),
                    '\'', Lexer.readsBackslashes(prefix, settings));
        }
        if (!replacement.text().equals(text)) {
            b.replace(token, replacement.text(), replacement.sameValue());
        }
    }

    /**
     * A sign right after another sign applies to the operand after it; JSqlParser reads it only in
     * parentheses. The operand must be one name or value, with nothing binding tighter after it.
     */
    private static void signs(ParserText.Builder b, List<Token> t) {
        for (int k = 1; k + 1 < t.size(); k++) {
            if (!isSign(t.get(k)) || !isSign(t.get(k - 1))) {
                continue;
            }
            int m = k + 1;
            Token operand = t.get(m);
            if (operand.kind() == Kind.WORD || operand.kind() == Kind.QUOTED_IDENTIFIER) {
                if (operand.kind() == Kind.WORD && NOT_OPERANDS.contains(lower(operand))) {
                    continue;
                }
                while (m + 2 < t.size() && t.get(m + 1).isSymbol('.') && (t.get(m + 2).kind() == Kind.WORD
                        || t.get(m + 2).kind() == Kind.QUOTED_IDENTIFIER)) {
                    m += 2;
                }
            } else if (operand.kind() != Kind.NUMBER && operand.kind() != Kind.PARAMETER) {
                continue;
            }
            Token after = m + 1 < t.size() ? t.get(m + 1) : null;
            if (after != null && (after.kind() == Kind.OPEN || after.isSymbol('.') || after.isSymbol('[')
                    || after.isSymbol(':') || after.isWord("collate"))) {
                continue;
            }
            b.insertBefore(t.get(k), " (", true);
            b.insertAfter(t.get(m), ")", true);
        }
    }

    private static void postgres(ParserText.Builder b, List<Token> t) {
        for (int k = 0; k < t.size(); k++) {
            boolean continues = k > 0 && isOperatorSymbol(t.get(k - 1)) && adjacent(t.get(k - 1), t.get(k));
            if (!isOperatorSymbol(t.get(k)) || continues) {
                continue;
            }
            int j = k + 1;
            StringBuilder run = new StringBuilder(t.get(k).text());
            while (j < t.size() && isOperatorSymbol(t.get(j)) && adjacent(t.get(j - 1), t.get(j))) {
                run.append(t.get(j).text());
                j++;
            }
            boolean prefix = k == 0 || !endsOperand(t.get(k - 1));
            String op = run.toString();
            if (op.equals("~~*")) {
                b.replace(t.get(k), t.get(j - 1), " ILIKE ", true);
            } else if (op.equals("!~~*")) {
                b.replace(t.get(k), t.get(j - 1), " NOT ILIKE ", true);
            } else if (op.equals("^@")) {
                b.replace(t.get(k), t.get(j - 1), " = ", false);
            } else if (prefix && (op.equals("|/") || op.equals("||/") || op.equals("@"))) {
                b.replace(t.get(k), t.get(j - 1), " 0 + ", false);
            }
        }
        for (int k = 1; k + 1 < t.size(); k++) {
            Token colon = t.get(k);
            if (!colon.isSymbol(':') || (t.get(k - 1).isSymbol(':') && adjacent(t.get(k - 1), colon))
                    || (t.get(k + 1).isSymbol(':') && adjacent(colon, t.get(k + 1)))) {
                continue;
            }
            if (t.get(k - 1).isSymbol('[')) {
                b.insertBefore(colon, "0", false);
            }
            if (t.get(k + 1).isSymbol(']')) {
                b.insertAfter(colon, "0", false);
            }
        }
    }

    private static void mysql(ParserText.Builder b, List<Token> t) {
        for (int k = 0; k < t.size(); k++) {
            Token token = t.get(k);
            Token previous = k > 0 ? t.get(k - 1) : null;
            Token next = k + 1 < t.size() ? t.get(k + 1) : null;
            if (token.isWord("mod") && previous != null && endsOperand(previous)) {
                b.replace(token, " % ", true);
            } else if (token.isSymbol('-') && next != null && next.isSymbol('-') && adjacent(token, next)) {
                // The lexer read no comment here ("--" needs white space after it on MySQL): two signs.
                b.replace(token, "- ", true);
            } else if (token.isWord("sounds") && next != null && next.isWord("like")) {
                b.replace(token, " ", false);
            } else if (token.isWord("binary") && startsOperand(next) && !(previous != null
                    && (previous.isWord("as") || previous.isWord("set") || previous.isWord("collate")))) {
                b.replace(token, " ", false);
            }
        }
    }

    private static void sqlite(ParserText.Builder b, List<Token> t) {
        for (int k = 0; k < t.size(); k++) {
            Token token = t.get(k);
            Token previous = k > 0 ? t.get(k - 1) : null;
            Token next = k + 1 < t.size() ? t.get(k + 1) : null;
            if (token.isSymbol('=') && next != null && next.isSymbol('=') && adjacent(token, next)
                    && !(previous != null && isOperatorSymbol(previous) && adjacent(previous, token))) {
                b.replace(token, next, " = ", true);
                k++;
            } else if (token.isWord("is") && next != null) {
                if (next.isWord("not")) {
                    Token after = k + 2 < t.size() ? t.get(k + 2) : null;
                    if (after != null && !(after.kind() == Kind.WORD && AFTER_IS.contains(lower(after)))) {
                        b.replace(token, next, "IS DISTINCT FROM", true);
                    }
                } else if (!(next.kind() == Kind.WORD && AFTER_IS.contains(lower(next)))) {
                    b.replace(token, "IS NOT DISTINCT FROM", true);
                }
            } else if (token.isWord("not") && next != null && next.isWord("null") && previous != null
                    && endsOperand(previous)) {
                b.replace(token, "IS NOT", true);
            } else if (token.isWord("glob") && !(next != null && next.kind() == Kind.OPEN) && isBinary(t, k)) {
                b.replace(token, "LIKE", false);
            } else if (token.isWord("collate") && next != null && (next.isWord("binary") || next.isWord("rtrim"))) {
                // Keywords to JSqlParser; a quoted name would be a literal where the server reads a word.
                b.replace(next, "NOCASE", false);
            } else if (token.isWord("like") && next != null && next.kind() == Kind.OPEN && !isBinary(t, k)) {
                b.replace(token, "coalesce", false);
            }
        }
    }

    /** Whether the word at {@code k} stands between two operands (after one, or after NOT after one). */
    private static boolean isBinary(List<Token> t, int k) {
        if (k == 0) {
            return false;
        }
        Token previous = t.get(k - 1);
        return endsOperand(previous) || (previous.isWord("not") && k > 1 && endsOperand(t.get(k - 2)));
    }

    private static boolean endsOperand(Token p) {
        return switch (p.kind()) {
            case NUMBER, STRING, QUOTED_IDENTIFIER, PARAMETER, OTHER_PARAMETER, CLOSE -> true;
            case WORD -> !NOT_OPERANDS.contains(lower(p));
            case SYMBOL -> p.isSymbol(']');
            default -> false;
        };
    }

    private static boolean startsOperand(Token n) {
        return n != null && switch (n.kind()) {
            case NUMBER, STRING, QUOTED_IDENTIFIER, PARAMETER, OPEN, WORD -> true;
            default -> false;
        };
    }

    private static boolean isSign(Token t) {
        return t.isSymbol('-') || t.isSymbol('+');
    }

    private static boolean isOperatorSymbol(Token t) {
        return t.kind() == Kind.SYMBOL && t.text().length() == 1 && "+-*/<>=~!@#%^&|`".indexOf(t.text().charAt(0)) >= 0;
    }

    private static boolean adjacent(Token a, Token b) {
        return a.end() == b.start();
    }

    private static String lower(Token t) {
        return t.text().toLowerCase(Locale.ROOT);
    }
}
