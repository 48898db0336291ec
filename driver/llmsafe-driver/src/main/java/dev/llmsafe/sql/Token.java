package dev.llmsafe.sql;

/**
 * One token of the comment-free text.
 *
 * @param kind what it is
 * @param start offset of its first character in {@link Lexed#text()}
 * @param end offset after its last character
 * @param text its text as written
 */
public record Token(Kind kind, int start, int end, String text) {

    /** Token kinds. Comments and white space are not tokens. */
    public enum Kind {
        /** A bare word: a keyword or an unquoted identifier. */
        WORD,
        /** A quoted identifier ({@code "x"}, {@code `x`}, {@code [x]}). */
        QUOTED_IDENTIFIER,
        /** A string literal of any form ({@code 'x'}, {@code E'x'}, {@code $$x$$}, {@code X'00'}, ...). */
        STRING,
        /** A number. */
        NUMBER,
        /** A JDBC parameter {@code ?}. */
        PARAMETER,
        /** Any other parameter form ({@code $1}, {@code :name}, {@code @name}, {@code ?1}). */
        OTHER_PARAMETER,
        /** {@code (}. */
        OPEN,
        /** {@code )}. */
        CLOSE,
        /** {@code ;}. */
        SEMICOLON,
        /** Any other character that is not white space. */
        SYMBOL
    }

    /** Whether this is a bare word equal to {@code word}, ignoring case. */
    public boolean isWord(String word) {
        return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    /** Whether this is the symbol {@code c}. */
    public boolean isSymbol(char c) {
        return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
    }

    /**
     * For an identifier token, the name without quotes, as the server reads it (PostgreSQL's
     * {@code U&"s\0065cret"} is {@code secret}); for a word, the word.
     */
    public String identifierText() {
        if (kind != Kind.QUOTED_IDENTIFIER) {
            return text;
        }
        if (UnicodeEscapes.isUnicode(text)) {
            // The lexer reads no U& token that does not decode.
            return UnicodeEscapes.value(text);
        }
        char open = text.charAt(0);
        char close = open == '[' ? ']' : open;
        String body = text.substring(1, text.length() - 1);
        return open == '[' ? body : body.replace(String.valueOf(close) + close, String.valueOf(close));
    }
}
