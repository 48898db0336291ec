package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.sql.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads SQL text exactly as the server of its dialect would (S2, S8): string literals with the
 * session's escaping rules, quoted identifiers, nested (PostgreSQL) or flat comments, MySQL's
 * {@code #} and {@code -- } comments, and the forms that must be refused before anything else
 * (MySQL executable comments and optimizer hints, S6).
 *
 * <p>Comments are removed: each becomes one space, so that {@code DELETE/**}{@code /FROM} still
 * separates its words. The result is the text that is judged, executed and displayed; the server
 * never sees a comment, so no comment can hide text from the analysis.
 */
public final class Lexer {

    private final String in;
    private final LexSettings settings;
    private final SqlDialect dialect;
    private final StringBuilder out;
    private final List<Token> tokens = new ArrayList<>();
    private int i;

    private Lexer(String in, LexSettings settings) {
        this.in = in;
        this.settings = settings;
        this.dialect = settings.dialect();
        this.out = new StringBuilder(in.length());
    }

    /**
     * Lexes one piece of SQL text.
     *
     * @throws RefusedException LEX when the text cannot be read; FORBIDDEN_DIALECT for MySQL
     *     executable comments and optimizer hints
     */
    public static Lexed lex(String sql, LexSettings settings) throws RefusedException {
        Lexer lexer = new Lexer(sql, settings);
        lexer.run();
        lexer.checkUescape();
        return lexer.trimmed();
    }

    /**
     * A UESCAPE right after a U&amp; token was not read as part of it: a comment stands between them.
     * PostgreSQL still applies it to the literal, so the literal would not mean what it seems to.
     */
    private void checkUescape() throws RefusedException {
        for (int k = 1; k < tokens.size(); k++) {
            Token previous = tokens.get(k - 1);
            if (tokens.get(k).isWord("uescape") && (previous.kind() == Kind.STRING
                    || previous.kind() == Kind.QUOTED_IDENTIFIER) && UnicodeEscapes.isUnicode(previous.text())) {
                throw new RefusedException(Refusal.LEX, "the statement cannot be read: UESCAPE is separated from"
                        + " its U& literal " + previous.text() + " by a comment. Write UESCAPE 'c' right after the"
                        + " literal; nothing was run.");
            }
        }
    }

    private void run() throws RefusedException {
        int nul = in.indexOf('\0');
        if (nul >= 0) {
            // Servers and drivers disagree on what a NUL ends; a statement containing one is not read at all.
            throw lexError("a NUL character", nul);
        }
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (isSpace(c)) {
                out.append(c);
                i++;
            } else if (startsLineComment()) {
                skipLineComment();
            } else if (c == '/' && peek(1) == '*') {
                skipBlockComment();
            } else {
                token();
            }
        }
    }

    // ---- comments ----

    private boolean startsLineComment() {
        char c = in.charAt(i);
        if (dialect == SqlDialect.MYSQL) {
            if (c == '#') {
                return true;
            }
            // MySQL: "--" starts a comment only when followed by white space or a control character.
            return c == '-' && peek(1) == '-' && (i + 2 >= in.length() || in.charAt(i + 2) <= ' '
                    || in.charAt(i + 2) == 0x7f);
        }
        return c == '-' && peek(1) == '-';
    }

    private void skipLineComment() {
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            // PostgreSQL ends a line comment at \r too; MySQL and SQLite only at \n.
            if (c == '\n' || (c == '\r' && dialect == SqlDialect.POSTGRESQL)) {
                break;
            }
            i++;
        }
        space();
    }

    private void skipBlockComment() throws RefusedException {
        int start = i;
        if (dialect == SqlDialect.MYSQL) {
            char third = peek(2);
            if (third == '!' || (third == 'M' && peek(3) == '!')) {
                throw new RefusedException(Refusal.FORBIDDEN_DIALECT, "the statement contains a MySQL executable"
                        + " comment (" + excerpt(start) + "); MySQL and MariaDB run the text inside it, so it is not a"
                        + " comment. Write the SQL without /*! ... */ or /*M! ... */.");
            }
            if (third == '+') {
                throw new RefusedException(Refusal.FORBIDDEN_DIALECT, "the statement contains an optimizer hint ("
                        + excerpt(start) + "); hints change how the server runs a statement and are not accepted."
                        + " Remove the /*+ ... */ comment.");
            }
        }
        i += 2;
        int depth = 1;
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (c == '*' && peek(1) == '/') {
                i += 2;
                if (--depth == 0) {
                    space();
                    return;
                }
            } else if (c == '/' && peek(1) == '*' && dialect == SqlDialect.POSTGRESQL) {
                // Only PostgreSQL nests block comments.
                depth++;
                i += 2;
            } else {
                i++;
            }
        }
        throw lexError("an unterminated /* comment", start);
    }

    private void space() {
        if (out.length() > 0 && !isSpace(out.charAt(out.length() - 1))) {
            out.append(' ');
        }
    }

    // ---- tokens ----

    private void token() throws RefusedException {
        char c = in.charAt(i);
        int start = i;
        switch (c) {
            case '\'':
                string(start, start, settings.backslashEscapes());
                return;
            case '"':
                if (dialect == SqlDialect.MYSQL && settings.doubleQuotedStrings()) {
                    string(start, start, settings.backslashEscapes());
                } else {
                    quotedIdentifier(start, '"', '"');
                }
                return;
            case '`':
                if (dialect == SqlDialect.POSTGRESQL) {
                    emit(Kind.SYMBOL, start, i + 1);
                    i++;
                } else {
                    quotedIdentifier(start, '`', '`');
                }
                return;
            case '[':
                if (dialect == SqlDialect.SQLITE) {
                    quotedIdentifier(start, '[', ']');
                } else {
                    emit(Kind.SYMBOL, start, ++i);
                }
                return;
            case '$':
                dollar(start);
                return;
            case '?':
                questionMark(start);
                return;
            case '(':
                emit(Kind.OPEN, start, ++i);
                return;
            case ')':
                emit(Kind.CLOSE, start, ++i);
                return;
            case ';':
                emit(Kind.SEMICOLON, start, ++i);
                return;
            default:
                break;
        }
        if ((c == ':' || c == '@') && dialect == SqlDialect.SQLITE && isIdentifierStart(peek(1))) {
            i++;
            while (i < in.length() && isIdentifierPart(in.charAt(i))) {
                i++;
            }
            emit(Kind.OTHER_PARAMETER, start, i);
        } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
            number(start);
        } else if (isIdentifierStart(c) || (c == '$' && dialect == SqlDialect.MYSQL)) {
            word(start);
        } else {
            emit(Kind.SYMBOL, start, ++i);
        }
    }

    private void word(int start) throws RefusedException {
        i++;
        while (i < in.length() && isIdentifierPart(in.charAt(i))) {
            i++;
        }
        String w = in.substring(start, i);
        char next = peek(0);
        if (next == '\'' && isStringPrefix(w)) {
            string(start, i, readsBackslashes(w, settings));
            return;
        }
        if (dialect == SqlDialect.POSTGRESQL && w.equalsIgnoreCase("U") && next == '&'
                && (peek(1) == '\'' || peek(1) == '"')) {
            unicode(start);
            return;
        }
        emit(Kind.WORD, start, i);
    }

    private boolean isStringPrefix(String w) {
        return switch (dialect) {
            case POSTGRESQL -> w.equalsIgnoreCase("E") || w.equalsIgnoreCase("N") || isBitOrHex(w);
            case MYSQL -> w.equalsIgnoreCase("N") || isBitOrHex(w);
            case SQLITE -> w.equalsIgnoreCase("X");
        };
    }

    /**
     * Whether a backslash escapes the next character in a string with this prefix ("" for none):
     * E'..' (PostgreSQL) reads backslash escapes whatever the session says; N'..' reads them as a
     * plain string does; bit and hex strings hold no escapes, and neither do U&amp;'..' strings.
     */
    static boolean readsBackslashes(String prefix, LexSettings settings) {
        if (prefix.equalsIgnoreCase("E")) {
            return true;
        }
        return !isBitOrHex(prefix) && !UnicodeEscapes.isUnicode(prefix + "'") && settings.backslashEscapes();
    }

    private static boolean isBitOrHex(String w) {
        return w.equalsIgnoreCase("X") || w.equalsIgnoreCase("B");
    }

    /**
     * A quoted string whose quote is at {@code quoteAt}; a prefix (E, N, X, B) starts the token at
     * {@code tokenStart}. {@code backslash}: whether a backslash escapes the next character.
     */
    private void string(int tokenStart, int quoteAt, boolean backslash) throws RefusedException {
        readString(tokenStart, quoteAt, backslash);
        emit(Kind.STRING, tokenStart, i);
    }

    /** Reads a string whose quote is at {@code quoteAt}, leaving {@code i} after its closing quote. */
    private void readString(int tokenStart, int quoteAt, boolean backslash) throws RefusedException {
        char quote = in.charAt(quoteAt);
        i = quoteAt + 1;
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (c == '\\' && backslash) {
                i += 2;
            } else if (c == quote) {
                if (peek(1) == quote) {
                    i += 2;
                } else {
                    i++;
                    return;
                }
            } else {
                i++;
            }
        }
        throw lexError("an unterminated string", tokenStart);
    }

    private void quotedIdentifier(int tokenStart, char open, char close) throws RefusedException {
        readQuotedIdentifier(tokenStart, close);
        emit(Kind.QUOTED_IDENTIFIER, tokenStart, i);
    }

    /** Reads a quoted identifier whose opening quote is at {@code i}, leaving {@code i} after it. */
    private void readQuotedIdentifier(int tokenStart, char close) throws RefusedException {
        int quoteAt = i;
        i = quoteAt + 1;
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (c == close) {
                if (close != ']' && peek(1) == close) {
                    i += 2;
                } else {
                    i++;
                    if (i - quoteAt == 2) {
                        throw lexError("an empty quoted identifier", tokenStart);
                    }
                    return;
                }
            } else {
                i++;
            }
        }
        throw lexError("an unterminated quoted identifier", tokenStart);
    }

    /**
     * A PostgreSQL U&amp;'..' string or U&amp;".." identifier, {@code i} at the &amp;. In it the backslash
     * introduces a code point, never an escaped quote (whatever standard_conforming_strings says,
     * measured on PostgreSQL 15). A {@code UESCAPE 'c'} that follows after white space is part of the
     * token, because it changes what every escape in it means; the token must decode as the server
     * would decode it (see {@link UnicodeEscapes}), or the text is not read at all.
     */
    private void unicode(int start) throws RefusedException {
        i++;
        boolean isString = peek(0) == '\'';
        if (isString) {
            readString(start, i, false);
        } else {
            readQuotedIdentifier(start, '"');
        }
        int j = i;
        while (j < in.length() && isSpace(in.charAt(j))) {
            j++;
        }
        if (in.regionMatches(true, j, "UESCAPE", 0, 7)
                && (j + 7 >= in.length() || !isIdentifierPart(in.charAt(j + 7)))) {
            j += 7;
            while (j < in.length() && isSpace(in.charAt(j))) {
                j++;
            }
            if (j + 2 >= in.length() || in.charAt(j) != '\'' || in.charAt(j + 2) != '\'') {
                throw lexError("a UESCAPE without one character in simple quotes after it", start);
            }
            i = j + 3;
        }
        try {
            UnicodeEscapes.value(in.substring(start, i));
        } catch (IllegalArgumentException e) {
            throw lexError(e.getMessage(), start);
        }
        emit(isString ? Kind.STRING : Kind.QUOTED_IDENTIFIER, start, i);
    }

    private void dollar(int start) throws RefusedException {
        if (dialect == SqlDialect.MYSQL) {
            word(start);
            return;
        }
        if (dialect == SqlDialect.SQLITE) {
            if (isIdentifierStart(peek(1))) {
                i++;
                while (i < in.length() && isIdentifierPart(in.charAt(i))) {
                    i++;
                }
                emit(Kind.OTHER_PARAMETER, start, i);
            } else {
                emit(Kind.SYMBOL, start, ++i);
            }
            return;
        }
        if (isDigit(peek(1))) {
            i++;
            while (i < in.length() && isDigit(in.charAt(i))) {
                i++;
            }
            emit(Kind.OTHER_PARAMETER, start, i);
            return;
        }
        // A dollar quote: $tag$ ... $tag$, where the tag is empty or an identifier without '$'.
        int j = i + 1;
        if (j < in.length() && isDollarTagStart(in.charAt(j))) {
            j++;
            while (j < in.length() && isDollarTagPart(in.charAt(j))) {
                j++;
            }
        }
        if (j < in.length() && in.charAt(j) == '$') {
            String delimiter = in.substring(i, j + 1);
            int close = in.indexOf(delimiter, j + 1);
            if (close < 0) {
                throw lexError("an unterminated dollar quote " + delimiter, start);
            }
            i = close + delimiter.length();
            emit(Kind.STRING, start, i);
            return;
        }
        emit(Kind.SYMBOL, start, ++i);
    }

    private void questionMark(int start) {
        i++;
        if (dialect == SqlDialect.SQLITE && isDigit(peek(0))) {
            while (i < in.length() && isDigit(in.charAt(i))) {
                i++;
            }
            emit(Kind.OTHER_PARAMETER, start, i);
            return;
        }
        emit(Kind.PARAMETER, start, i);
    }

    private void number(int start) {
        int n = in.length();
        if (in.charAt(i) == '0' && (peek(1) == 'x' || peek(1) == 'X') && isHexDigit(peek(2))) {
            i += 2;
            while (i < n && (isHexDigit(in.charAt(i)) || (separator() && isHexDigit(peek(1))))) {
                i++;
            }
        } else {
            digits();
            if (i < n && in.charAt(i) == '.') {
                i++;
                digits();
            }
            if (i < n && (in.charAt(i) == 'e' || in.charAt(i) == 'E')
                    && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
                i += 2;
                digits();
            }
        }
        if (dialect == SqlDialect.MYSQL && i < n && isIdentifierPart(in.charAt(i))) {
            // MySQL identifiers may begin with digits: 1abc is one name.
            while (i < n && isIdentifierPart(in.charAt(i))) {
                i++;
            }
            emit(Kind.WORD, start, i);
            return;
        }
        emit(Kind.NUMBER, start, i);
    }

    private void digits() {
        while (i < in.length() && (isDigit(in.charAt(i)) || (separator() && isDigit(peek(1))))) {
            i++;
        }
    }

    /**
     * A digit separator at {@code i}: SQLite (3.46 and later; sqlite-jdbc 3.54 reads {@code 1_000} as
     * 1000, {@code 0x1_F} as 31) and PostgreSQL (16 and later; 15 refuses the text) allow {@code _}
     * between two digits.
     */
    private boolean separator() {
        return in.charAt(i) == '_' && dialect != SqlDialect.MYSQL && i > 0 && isHexDigit(in.charAt(i - 1));
    }

    private void emit(Kind kind, int start, int end) {
        int at = out.length();
        String text = in.substring(start, end);
        out.append(text);
        tokens.add(new Token(kind, at, at + text.length(), text));
    }

    /**
     * Trims white space and the trailing semicolons (any number, with white space and comments between
     * them: {@code ;;} ends one statement as {@code ;} does, and none of the three servers runs anything
     * for an empty statement); the offsets move with the text. What is executed is the statement without
     * them.
     */
    private Lexed trimmed() {
        List<Token> kept = new ArrayList<>(tokens);
        while (!kept.isEmpty() && kept.get(kept.size() - 1).kind() == Kind.SEMICOLON) {
            kept.remove(kept.size() - 1);
        }
        if (kept.isEmpty()) {
            return new Lexed("", List.of());
        }
        int from = kept.get(0).start();
        int to = kept.get(kept.size() - 1).end();
        List<Token> shifted = new ArrayList<>(kept.size());
        for (Token t : kept) {
            shifted.add(new Token(t.kind(), t.start() - from, t.end() - from, t.text()));
        }
        return new Lexed(out.substring(from, to), shifted);
    }

    // ---- characters ----

    private char peek(int ahead) {
        int j = i + ahead;
        return j < in.length() ? in.charAt(j) : '\0';
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c) || c == '$';
    }

    private static boolean isDollarTagStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private static boolean isDollarTagPart(char c) {
        return isDollarTagStart(c) || isDigit(c);
    }

    private RefusedException lexError(String what, int at) {
        return new RefusedException(Refusal.LEX, "the statement cannot be read: " + what + " at character "
                + (at + 1) + " (" + excerpt(at) + "). Check the quotes and comments; nothing was run.");
    }

    private String excerpt(int at) {
        String s = in.substring(at, Math.min(in.length(), at + 24)).replaceAll("\\s+", " ");
        return s + (at + 24 < in.length() ? "..." : "");
    }
}
