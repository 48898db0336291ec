package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.util.Locale;
import java.util.Set;

/**
 * S9: how deep a statement nests, estimated from the lexer's tokens before anything recurses over it.
 * JSqlParser recurses once per nested parenthesis, bracket, CASE, prefix operator ({@code NOT},
 * unary minus) and, for a left-deep chain such as {@code 1+1+...} or {@code a OR b OR ...}, the
 * visitors that walk its tree recurse once per operator. Measured on a 256 KiB thread stack
 * (JSqlParser 5.4, Java 17), 2000 chained {@code +} or {@code ||} overflowed it and 1000 did not;
 * on the default 1 MiB stack, 8000 {@code +} overflowed it: the StackOverflowError left the analysis
 * as an Error, not a refusal. Parse time stays within milliseconds for every shape measured up to 32
 * levels, and JSqlParser has a history of exponential time on deeper nesting (CASE, parentheses
 * around a faulty expression), so levels are bounded separately.
 *
 * <p>The estimate: each level (a parenthesis, a bracket, a CASE) adds one, and each operator adds one
 * to the level it is in until a comma or a clause word ({@code WHERE}, {@code WHEN}, {@code UNION},
 * ...) starts a new expression there, since lists and clauses are kept flat. It overestimates (an
 * operator inside a comparison is counted as if it chained), which only matters for statements far
 * longer than a person writes; lists ({@code IN (1, 2, ...)}, select lists, CASE branches, UNIONs,
 * joins) of any length pass.
 */
final class Nesting {

    /** Parentheses, brackets and CASE expressions nested inside each other, at most. */
    static final int MAX_LEVELS = 32;

    /** Levels and chained operators along one path of the expression tree, at most. */
    static final int MAX_DEPTH = 1000;

    /** Words that join or prefix operands: each makes the tree one level deeper. */
    private static final Set<String> OPERATOR_WORDS = Set.of("and", "or", "xor", "not", "is", "isnull", "notnull",
            "like", "ilike", "between", "in", "regexp", "rlike", "glob", "match", "similar", "collate", "div", "mod",
            "escape", "overlaps", "at", "exists", "any", "all", "some", "distinct");

    /** Words after which a new, flat expression starts at the same level. */
    private static final Set<String> RESTARTING_WORDS = Set.of("select", "from", "where", "group", "having", "order",
            "by", "limit", "offset", "fetch", "union", "intersect", "except", "minus", "join", "on", "using", "window",
            "when", "then", "else", "set", "returning", "with", "as", "values", "partition", "over", "into");

    private Nesting() {
    }

    /**
     * Refuses a statement nested deeper than the bounds, with TOO_COMPLEX.
     *
     * @throws RefusedException TOO_COMPLEX, naming the bound and where it was passed
     */
    static void check(Lexed lexed) throws RefusedException {
        int[] chain = new int[MAX_LEVELS + 1];
        boolean[] isCase = new boolean[MAX_LEVELS + 1];
        int level = 0;
        int depth = 0;
        Token previous = null;
        for (Token t : lexed.tokens()) {
            String word = t.kind() == Token.Kind.WORD ? t.text().toLowerCase(Locale.ROOT) : null;
            boolean open = t.kind() == Token.Kind.OPEN || t.isSymbol('[') || "case".equals(word);
            if (open) {
                if (level == MAX_LEVELS) {
                    throw tooManyLevels(t);
                }
                level++;
                chain[level] = 0;
                isCase[level] = "case".equals(word);
                depth++;
            } else if (t.kind() == Token.Kind.CLOSE || t.isSymbol(']')) {
                // A closing parenthesis also ends every CASE left open inside it (the parser refuses those).
                while (level > 0) {
                    depth -= 1 + chain[level];
                    boolean wasCase = isCase[level];
                    level--;
                    if (!wasCase) {
                        break;
                    }
                }
            } else if ("end".equals(word) && level > 0 && isCase[level]) {
                depth -= 1 + chain[level];
                level--;
            } else if (t.isSymbol(',') || (word != null && RESTARTING_WORDS.contains(word))) {
                depth -= chain[level];
                chain[level] = 0;
            } else if ((word != null && OPERATOR_WORDS.contains(word)) || operatorStart(t, previous)) {
                chain[level]++;
                if (++depth > MAX_DEPTH) {
                    throw tooDeep(t);
                }
            }
            previous = t;
        }
    }

    /** A symbol that begins an operator: {@code ||}, {@code ::} or {@code ->>} are one operator, not three. */
    private static boolean operatorStart(Token t, Token previous) {
        if (t.kind() != Token.Kind.SYMBOL || t.isSymbol('.') || t.isSymbol(',')) {
            return false;
        }
        return previous == null || previous.kind() != Token.Kind.SYMBOL || previous.end() != t.start()
                || previous.isSymbol('.') || previous.isSymbol(',') || previous.isSymbol('[') || previous.isSymbol(']');
    }

    private static RefusedException tooManyLevels(Token t) {
        return new RefusedException(Refusal.TOO_COMPLEX, "the statement nests parentheses, brackets and CASE"
                + " expressions more than " + MAX_LEVELS + " levels deep (at character " + (t.start() + 1) + "); at"
                + " most " + MAX_LEVELS + " are accepted, because the parser's time grows with each level. Nothing"
                + " ran. Flatten it: fewer nested subqueries, CASE branches side by side instead of inside each"
                + " other.");
    }

    private static RefusedException tooDeep(Token t) {
        return new RefusedException(Refusal.TOO_COMPLEX, "the statement's expressions nest more than " + MAX_DEPTH
                + " levels deep (at character " + (t.start() + 1) + "), counting each parenthesis, CASE and chained"
                + " operator (AND, OR, NOT, +, ||, ...) as one; at most " + MAX_DEPTH + " are accepted, because the"
                + " analysis recurses once per level. Nothing ran. Use a list instead of a chain (x IN (1, 2, ...)"
                + " instead of x = 1 OR x = 2 OR ...), or split the statement.");
    }

    /**
     * S9 on a thread whose stack is too small even for a statement within the bounds: a refusal, never
     * the Error itself.
     */
    static RefusedException stackExhausted(StackOverflowError e) {
        return new RefusedException(Refusal.TOO_COMPLEX, "the statement nests too deeply to be analysed on this"
                + " thread's stack. Nothing ran. Simplify it, or run it on a thread with a larger stack (-Xss).", e);
    }
}
