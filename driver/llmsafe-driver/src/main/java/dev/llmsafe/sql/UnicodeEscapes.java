package dev.llmsafe.sql;

import java.util.Locale;

/**
 * PostgreSQL's Unicode escapes: {@code U&'d\0061t\+000061'} is the string {@code data} and
 * {@code U&"d\0061t\+000061"} the identifier {@code data}; {@code UESCAPE '!'} after the literal
 * names another escape character. The value is what the server reads, so that a name or a string
 * is judged by what it is, not by how it is spelled ({@code U&"s\0065cret"} is the column
 * {@code secret}).
 *
 * <p>The rules are PostgreSQL 15's, each checked on the server: the escape character followed by
 * four hex digits, or by {@code +} and six, is a code point; doubled, it is itself; anything else
 * after it is an error, and so are the code point 0, one above U+10FFFF, and a UTF-16 surrogate
 * that is not half of a pair. The escape character may be neither a hex digit, {@code +}, a quote,
 * nor white space. The text of a token is the lexer's: the literal, then, when given, white space,
 * {@code UESCAPE}, white space and the escape character in simple quotes.
 */
final class UnicodeEscapes {

    private UnicodeEscapes() {
    }

    /** Whether the token text is a U&amp; literal or identifier. */
    static boolean isUnicode(String token) {
        return token.length() > 2 && (token.charAt(0) == 'U' || token.charAt(0) == 'u') && token.charAt(1) == '&';
    }

    /**
     * The string or identifier a U&amp; token stands for.
     *
     * @throws IllegalArgumentException when the server would refuse it, with the reason
     */
    static String value(String token) {
        char quote = token.charAt(2);
        StringBuilder body = new StringBuilder();
        int i = 3;
        while (true) {
            if (i >= token.length()) {
                throw new IllegalArgumentException("an unterminated Unicode literal");
            }
            char c = token.charAt(i);
            if (c == quote) {
                if (i + 1 < token.length() && token.charAt(i + 1) == quote) {
                    body.append(quote);
                    i += 2;
                    continue;
                }
                break;
            }
            body.append(c);
            i++;
        }
        return decode(body.toString(), escapeCharacter(token.substring(i + 1)));
    }

    /** The escape character named by what follows the literal: nothing, or UESCAPE 'c'. */
    private static char escapeCharacter(String rest) {
        String r = rest.strip();
        if (r.isEmpty()) {
            return '\\';
        }
        if (!r.toUpperCase(Locale.ROOT).startsWith("UESCAPE")) {
            throw new IllegalArgumentException("text after a Unicode literal");
        }
        String q = r.substring("UESCAPE".length()).strip();
        if (q.length() != 3 || q.charAt(0) != '\'' || q.charAt(2) != '\'') {
            throw new IllegalArgumentException("UESCAPE takes one character in simple quotes");
        }
        char e = q.charAt(1);
        if (isHex(e) || e == '+' || e == '\'' || e == '"' || Lexer.isSpace(e)) {
            throw new IllegalArgumentException("an invalid Unicode escape character '" + e + "'");
        }
        return e;
    }

    private static String decode(String body, char escape) {
        StringBuilder out = new StringBuilder(body.length());
        int pendingHigh = -1;
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c != escape) {
                if (pendingHigh >= 0) {
                    throw new IllegalArgumentException("an invalid Unicode surrogate pair");
                }
                out.append(c);
                i++;
                continue;
            }
            int code;
            if (i + 1 < body.length() && body.charAt(i + 1) == escape) {
                if (pendingHigh >= 0) {
                    throw new IllegalArgumentException("an invalid Unicode surrogate pair");
                }
                out.append(escape);
                i += 2;
                continue;
            } else if (hexDigits(body, i + 1, 4)) {
                code = Integer.parseInt(body.substring(i + 1, i + 5), 16);
                i += 5;
            } else if (i + 1 < body.length() && body.charAt(i + 1) == '+' && hexDigits(body, i + 2, 6)) {
                code = Integer.parseInt(body.substring(i + 2, i + 8), 16);
                i += 8;
            } else {
                throw new IllegalArgumentException("an invalid Unicode escape");
            }
            if (Character.isHighSurrogate((char) code) && code <= 0xFFFF) {
                if (pendingHigh >= 0) {
                    throw new IllegalArgumentException("an invalid Unicode surrogate pair");
                }
                pendingHigh = code;
            } else if (Character.isLowSurrogate((char) code) && code <= 0xFFFF) {
                if (pendingHigh < 0) {
                    throw new IllegalArgumentException("an invalid Unicode surrogate pair");
                }
                out.appendCodePoint(Character.toCodePoint((char) pendingHigh, (char) code));
                pendingHigh = -1;
            } else {
                if (pendingHigh >= 0) {
                    throw new IllegalArgumentException("an invalid Unicode surrogate pair");
                }
                if (code == 0 || code > Character.MAX_CODE_POINT) {
                    throw new IllegalArgumentException("an invalid Unicode escape value");
                }
                out.appendCodePoint(code);
            }
        }
        if (pendingHigh >= 0) {
            throw new IllegalArgumentException("an invalid Unicode surrogate pair");
        }
        return out.toString();
    }

    private static boolean hexDigits(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int k = from; k < from + count; k++) {
            if (!isHex(s.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
