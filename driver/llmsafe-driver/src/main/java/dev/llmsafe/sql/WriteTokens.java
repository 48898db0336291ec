package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.sql.Analysis.Kind;
import java.util.List;
import java.util.Locale;

/** Judgements on a write that the lexer's tokens decide before the parser reads it (W3, W10). */
final class WriteTokens {

    private WriteTokens() {
    }

    /**
     * W3: a WHERE with no condition after it ({@code UPDATE t SET x = 1 WHERE}) is a write without a
     * condition; the parser cannot read it at all, and saying PARSE would hide why it is refused.
     */
    static void checkWhereNotEmpty(Kind kind, List<Token> tokens) throws RefusedException {
        int depth = 0;
        for (int k = 0; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.OPEN) {
                depth++;
            } else if (t.kind() == Token.Kind.CLOSE) {
                depth--;
            } else if (depth == 0 && t.isWord("where")) {
                Token next = k + 1 < tokens.size() ? tokens.get(k + 1) : null;
                if (next == null || next.isWord("returning") || next.isWord("order") || next.isWord("limit")) {
                    throw new RefusedException(Refusal.NO_WHERE, "the WHERE clause of the "
                            + (kind == Kind.UPDATE ? "UPDATE" : "DELETE") + " is empty, so it names no rows. Write"
                            + " the condition after WHERE, for example WHERE id = ?.");
                }
                return;
            }
        }
    }

    /**
     * W10: a function that reads the clock unless it is given the value to convert
     * ({@link Words#CLOCK_WITHOUT_VALUE}).
     */
    static void checkClockCalls(List<Token> tokens) throws RefusedException {
        for (int k = 0; k + 1 < tokens.size(); k++) {
            Token t = tokens.get(k);
            Integer most = t.kind() == Token.Kind.WORD
                    ? Words.CLOCK_WITHOUT_VALUE.get(t.text().toLowerCase(Locale.ROOT)) : null;
            if (most != null && tokens.get(k + 1).kind() == Token.Kind.OPEN && arguments(tokens, k + 1) <= most) {
                throw new RefusedException(Refusal.VOLATILE, t.text() + "(" + (most == 0 ? "" : "...") + ") without the"
                        + " value to convert reads the clock, so the value the card would show is not the value the"
                        + " approved statement would write. Compute the value first and write it as a literal or a ?"
                        + " parameter.");
            }
        }
    }

    /** The number of arguments of the call whose opening parenthesis is token {@code open}. */
    private static int arguments(List<Token> tokens, int open) {
        int depth = 0;
        int commas = 0;
        for (int k = open; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.OPEN) {
                depth++;
            } else if (t.kind() == Token.Kind.CLOSE) {
                if (--depth == 0) {
                    return k == open + 1 ? 0 : commas + 1;
                }
            } else if (depth == 1 && t.isSymbol(',')) {
                commas++;
            }
        }
        return commas + 1;
    }
}
