package dev.llmsafe.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * The text handed to JSqlParser: the lexer's comment-free text with a few of its tokens written in
 * a form JSqlParser 5.4 reads, where it cannot read the dialect's own (S10). The server runs the
 * lexer's text, never this one; this one only gives the parser a structure to read.
 *
 * <p>An edit replaces whole lexer tokens, or inserts between them, and nothing else: the text
 * between tokens is kept, so no edit can add or remove a separator, a comment, a clause keyword or
 * a literal. Each parser token's offset is mapped back to the lexer's text ({@link #original}), and
 * the agreement checks ({@link Parsing#checkAgreement}, the WHERE boundary) run on the mapped
 * offsets exactly as before: a literal the parser reads is the lexer's literal, starting where the
 * lexer's starts, with no parser token starting inside it. A parser token that starts inside a
 * replaced literal maps to a position inside that literal, so a replacement the parser splits is
 * refused as a disagreement, never trusted.
 *
 * <p>A literal keeps its value where the parser can spell it ({@code E'it\'s'} becomes
 * {@code E'it''s'}, {@code U&'\00e9'} becomes {@code 'é'}); a backslash right before a quote inside
 * it, which JSqlParser reads as an escape in every mode, is given to it as {@code /}. Judgements about what a
 * literal says are made on the lexer's tokens, never on the parser's tree.
 */
final class ParserText {

    /**
     * One edit of the lexer's text.
     *
     * @param start the first character replaced, in the lexer's text
     * @param end the character after the last one replaced ({@code start} for an insertion)
     * @param replacement what the parser reads instead
     * @param sameValue whether the replacement means what the original means on the server (an
     *     operator or a literal spelled another way), or only has its shape (GLOB read as LIKE)
     */
    record Edit(int start, int end, String replacement, boolean sameValue) {
    }

    private final String text;
    private final List<Edit> edits;
    private final int[] editStarts;

    private ParserText(String original, List<Edit> edits) {
        this.edits = List.copyOf(edits);
        this.editStarts = new int[edits.size()];
        StringBuilder sb = new StringBuilder(original.length() + 16);
        int at = 0;
        for (int k = 0; k < edits.size(); k++) {
            Edit e = edits.get(k);
            sb.append(original, at, e.start());
            editStarts[k] = sb.length();
            sb.append(e.replacement());
            at = e.end();
        }
        sb.append(original, at, original.length());
        this.text = sb.toString();
    }

    /** The parser's text for one lexed statement. */
    static ParserText of(Lexed lexed, LexSettings settings) {
        return new ParserText(lexed.text(), ParserRewrites.edits(lexed, settings));
    }

    /** The text the parser reads. */
    String text() {
        return text;
    }

    /** The edits, in order; empty when the parser reads the lexer's text as it is. */
    List<Edit> edits() {
        return edits;
    }

    /** Whether every edit means on the server what the text it replaces means. */
    boolean sameValue() {
        return edits.stream().allMatch(Edit::sameValue);
    }

    /**
     * The offset in the lexer's text of an offset in the parser's. Inside a replacement, its first
     * character maps to the start of what it replaced and every later one to a position inside that
     * (or to its start, when it was one character or none).
     */
    int original(int offset) {
        int shift = 0;
        for (int k = 0; k < edits.size(); k++) {
            Edit e = edits.get(k);
            int from = editStarts[k];
            int to = from + e.replacement().length();
            if (offset < from) {
                break;
            }
            if (offset < to) {
                int inside = offset - from;
                int length = e.end() - e.start();
                return inside == 0 || length <= 1 ? e.start() : e.start() + Math.min(inside, length - 1);
            }
            shift = e.end() - to;
        }
        return offset + shift;
    }

    /**
     * A string literal spelled for the parser.
     *
     * @param text the literal
     * @param sameValue whether its value is the original's (no backslash had to be replaced)
     */
    record Literal(String text, boolean sameValue) {
    }

    /**
     * A string literal in a form JSqlParser reads as exactly one literal in every mode: every quote
     * character inside written as two quotes, no backslash right before one of them (JSqlParser reads
     * {@code \'} as an escape in every mode and splits the literal there). {@code body} is the text
     * between the source's quotes ({@code sourceQuote}), read with backslash escapes when
     * {@code backslash}; {@code quote} is the quote the result uses.
     */
    static Literal literal(String prefix, String body, char sourceQuote, char quote, boolean backslash) {
        StringBuilder b = new StringBuilder(body.length() + 2);
        for (int j = 0; j < body.length(); j++) {
            char c = body.charAt(j);
            if (backslash && c == '\\' && j + 1 < body.length()) {
                char next = body.charAt(++j);
                if (next == sourceQuote || next == quote) {
                    character(b, next, quote);
                } else {
                    b.append(c).append(next);
                }
            } else if (c == sourceQuote) {
                // The lexer read it doubled: one quote character.
                j++;
                character(b, c, quote);
            } else {
                character(b, c, quote);
            }
        }
        boolean same = true;
        for (int j = 0; j + 1 < b.length(); j++) {
            if (b.charAt(j) == '\\' && b.charAt(j + 1) == quote) {
                b.setCharAt(j, '/');
                same = false;
            }
        }
        return new Literal(prefix + quote + b + quote, same);
    }

    private static void character(StringBuilder b, char c, char quote) {
        b.append(c);
        if (c == quote) {
            b.append(c);
        }
    }

    /** Collects edits in text order; an edit that would overlap one made before it is left out. */
    static final class Builder {
        private final List<Edit> edits = new ArrayList<>();

        void replace(Token t, String replacement, boolean sameValue) {
            add(new Edit(t.start(), t.end(), replacement, sameValue));
        }

        void replace(Token first, Token last, String replacement, boolean sameValue) {
            add(new Edit(first.start(), last.end(), replacement, sameValue));
        }

        void insertBefore(Token t, String text, boolean sameValue) {
            add(new Edit(t.start(), t.start(), text, sameValue));
        }

        void insertAfter(Token t, String text, boolean sameValue) {
            add(new Edit(t.end(), t.end(), text, sameValue));
        }

        private void add(Edit e) {
            for (Edit other : edits) {
                if (conflict(e, other)) {
                    return;
                }
            }
            int k = edits.size();
            // In text order; an insertion goes before a replacement that starts where it is.
            while (k > 0 && (edits.get(k - 1).start() > e.start()
                    || (edits.get(k - 1).start() == e.start() && e.start() == e.end()))) {
                k--;
            }
            edits.add(k, e);
        }

        private static boolean conflict(Edit a, Edit b) {
            boolean aInserts = a.start() == a.end();
            boolean bInserts = b.start() == b.end();
            if (aInserts && bInserts) {
                return a.start() == b.start();
            }
            if (aInserts) {
                return b.start() < a.start() && a.start() < b.end();
            }
            if (bInserts) {
                return a.start() < b.start() && b.start() < a.end();
            }
            return a.start() < b.end() && b.start() < a.end();
        }

        List<Edit> edits() {
            return edits;
        }
    }
}
