/**
 * The analysis of one statement, before any database is asked: a dialect-exact {@link
 * dev.llmsafe.sql.Lexer}, JSqlParser for structure, and the rules that need no catalog (SPEC.md S1-S10,
 * W1-W3, W5, W8-W10, W12, and the statement-shape part of R1-R3). Between the two, {@code Nesting}
 * bounds how deep the statement nests (S9), so that neither the parser nor the visitors of its tree
 * can exhaust the stack or take exponential time.
 *
 * <p>Two readings must agree. The lexer reads the text as the server will (string escapes, quoted
 * identifiers, nested or flat comments, MySQL executable comments); JSqlParser reads its structure.
 * A statement on whose literals, separators or WHERE clause the two disagree is refused
 * (PARSE_DISAGREEMENT), never guessed: JSqlParser 5.4 reads {@code E'\' WHERE id=1 -- '} as having a
 * WHERE clause, while PostgreSQL updates every row.
 *
 * <p>Where the dialect's ordinary syntax is beyond JSqlParser 5.4 (MySQL's {@code 5--3} and MOD,
 * PostgreSQL's {@code E'it\'s'} and U&amp; literals, SQLite's {@code x IS 5} and GLOB), the parser
 * is handed the lexer's text with those tokens spelled as it can read them ({@link
 * dev.llmsafe.sql.ParserText}, S10); its tokens are mapped back and checked against the lexer's as
 * before, and what runs is still the lexer's text.
 *
 * <p>Which relations a statement reads, and which tables a {@code *} carries whole, come from {@code
 * Relations}: names resolved by SQL's scoping rules (a CTE only inside its WITH, a qualified name never
 * a CTE), on a reflective walk over every field of the tree, so that no expression form hides a
 * subquery (R9, R10). PostgreSQL identifiers are compared as the server truncates them ({@code
 * Identifiers}).
 *
 * <p>What is executed is the comment-free text the analysis judged, and the engine's own queries are
 * built from its parts ({@link dev.llmsafe.sql.Analysis#where()} stops before RETURNING), never by
 * gluing the caller's text to other text.
 *
 * <p>{@link dev.llmsafe.sql.ReadFunctions} judges the functions, casts and operators of a read against
 * each dialect's allowlist of built-ins that compute from their arguments alone, plus the policy's
 * {@code read.allowFunctions} (R7); it is asked by the guard, with the policy, after the analysis.
 *
 * <p>Uses the policy module's names and {@code dev.llmsafe} refusals; knows nothing of JDBC
 * connections, dialect catalogs or plans.
 */
package dev.llmsafe.sql;
