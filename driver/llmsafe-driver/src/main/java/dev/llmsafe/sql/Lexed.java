package dev.llmsafe.sql;

import java.util.List;

/**
 * A statement as the lexer read it.
 *
 * @param text the comment-free text, trimmed, without trailing semicolons: what is judged, executed
 *     and displayed
 * @param tokens its tokens, offsets into {@code text}
 */
public record Lexed(String text, List<Token> tokens) {

    /** Copies the token list. */
    public Lexed {
        tokens = List.copyOf(tokens);
    }
}
