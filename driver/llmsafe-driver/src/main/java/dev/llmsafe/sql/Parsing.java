package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.parser.AbstractJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.feature.Feature;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

/**
 * The second reading: JSqlParser, called directly on the caller's thread (its convenience entry
 * points start a thread per parse and, for {@code parse()}, silently drop every statement after the
 * first), and the checks that its reading agrees with the lexer's.
 */
final class Parsing {

    private static final Set<Integer> LITERAL_KINDS = Set.of(CCJSqlParserConstants.S_CHAR_LITERAL,
            CCJSqlParserConstants.S_DOLLAR_QUOTED_STRING, CCJSqlParserConstants.S_QUOTED_IDENTIFIER);

    /** A token as the parser read it, with its offset in the text. */
    record ParserToken(int kind, int start, String image, boolean afterComment) {
    }

    /** The statement and the parser's tokens. */
    record Parsed(Statement statement, List<ParserToken> tokens) {
    }

    private Parsing() {
    }

    static Parsed parse(Lexed lexed, LexSettings settings) throws RefusedException {
        // Nesting was bounded before (S9, Nesting), so the parser's recursion and time are bounded too.
        ParserText parserText = ParserText.of(lexed, settings);
        String text = parserText.text();
        CCJSqlParser parser = CCJSqlParserUtil.newParser(text);
        switch (settings.dialect()) {
            case POSTGRESQL -> parser.withDialect(AbstractJSqlParser.Dialect.POSTGRESQL)
                    .withBackslashEscapeCharacter(settings.backslashEscapes());
            case MYSQL -> parser.withDialect(AbstractJSqlParser.Dialect.MYSQL)
                    .withBackslashEscapeCharacter(settings.backslashEscapes())
                    .withFeature(Feature.allowDoubleQuotedStrings, settings.doubleQuotedStrings());
            case SQLITE -> parser.withSquareBracketQuotation(true);
        }
        net.sf.jsqlparser.parser.Token first = parser.token;
        Statements statements;
        try {
            statements = parser.Statements();
        } catch (ParseException e) {
            throw new RefusedException(Refusal.PARSE, "the statement cannot be parsed"
                    + position(e, parserText, lexed.text()) + ". Check the syntax; nothing was run.", e);
        } catch (RuntimeException e) {
            // TokenMgrException and the parser's internal errors: a text it cannot read is refused. A
            // StackOverflowError is the caller's stack, not the text: the analyzer reads it again (S9).
            throw new RefusedException(Refusal.PARSE, "the statement cannot be parsed (" + e.getMessage()
                    + "). Check the syntax; nothing was run.", e);
        }
        if (statements == null || statements.size() != 1 || statements.get(0) == null) {
            throw disagreement("the parser reads " + (statements == null ? 0 : statements.size())
                    + " statements where the lexer reads one");
        }
        return new Parsed(statements.get(0), tokens(first, parserText));
    }

    /** The parser's tokens, each at its offset in the lexer's text ({@link ParserText#original}). */
    private static List<ParserToken> tokens(net.sf.jsqlparser.parser.Token first, ParserText text) {
        int[] lineStarts = lineStarts(text.text());
        List<ParserToken> out = new ArrayList<>();
        // EOF is kept: a comment the parser reads at the end hangs on it.
        for (var t = first.next; t != null; t = t.next) {
            int line = Math.min(Math.max(t.beginLine, 1), lineStarts.length) - 1;
            out.add(new ParserToken(t.kind, text.original(lineStarts[line] + t.beginColumn - 1), t.image,
                    t.specialToken != null));
            if (t.kind == CCJSqlParserConstants.EOF) {
                break;
            }
        }
        return out;
    }

    /** Line starts as JavaCC counts lines: \n, \r and \r\n each end one. */
    static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The two readings must agree: no comment, no separator, the same literals with the same extents
     * (a token of the parser's beginning inside one of the lexer's literals means the parser read code
     * where the server reads a string, or the other way round), the same number of parameters.
     */
    static void checkAgreement(Lexed lexed, List<ParserToken> theirs) throws RefusedException {
        Set<Integer> theirStarts = new HashSet<>();
        int theirParameters = 0;
        for (ParserToken t : theirs) {
            if (t.afterComment()) {
                throw disagreement("the parser reads a comment before "
                        + (t.kind() == CCJSqlParserConstants.EOF ? "the end" : "'" + t.image() + "'")
                        + " where the server reads none");
            }
            if (t.kind() == CCJSqlParserConstants.ST_SEMICOLON) {
                throw disagreement("the parser reads a statement separator where the server reads none");
            }
            if (t.kind() == CCJSqlParserConstants.EOF) {
                continue;
            }
            theirStarts.add(t.start());
            if (t.image().startsWith("?")) {
                theirParameters++;
            }
        }
        // EOF carries the position of the last character, which may end a literal: it is left out.
        // Sorted once, so that each literal is one binary search, not a scan (S9: a scan per literal
        // made 400 000 characters of 'a','a',... take 17 s to analyse).
        ParserToken[] byStart = theirs.stream().filter(p -> p.kind() != CCJSqlParserConstants.EOF)
                .sorted(java.util.Comparator.comparingInt(ParserToken::start)).toArray(ParserToken[]::new);
        Set<Integer> ourLiteralStarts = new HashSet<>();
        int ourParameters = 0;
        for (Token t : lexed.tokens()) {
            if (t.kind() == Token.Kind.PARAMETER) {
                ourParameters++;
            }
            if (t.kind() != Token.Kind.STRING && t.kind() != Token.Kind.QUOTED_IDENTIFIER) {
                continue;
            }
            ourLiteralStarts.add(t.start());
            if (!theirStarts.contains(t.start())) {
                throw disagreement("the parser does not read " + excerpt(t.text()) + " as one literal");
            }
            ParserToken inside = firstStartingAfter(byStart, t.start());
            if (inside != null && inside.start() < t.end()) {
                throw disagreement("the parser reads '" + inside.image() + "' as code inside the literal "
                        + excerpt(t.text()));
            }
        }
        for (ParserToken p : theirs) {
            if (LITERAL_KINDS.contains(p.kind()) && !ourLiteralStarts.contains(p.start())) {
                throw disagreement("the parser reads " + excerpt(p.image()) + " as a literal where the server reads code");
            }
        }
        if (ourParameters != theirParameters) {
            throw disagreement("the parser counts " + theirParameters + " parameters where the lexer counts "
                    + ourParameters);
        }
    }

    /** The first token that starts after {@code offset}, or null. */
    private static ParserToken firstStartingAfter(ParserToken[] byStart, int offset) {
        int lo = 0;
        int hi = byStart.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (byStart[mid].start() <= offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < byStart.length ? byStart[lo] : null;
    }

    /** The WHERE keyword both readings found must be the same token. */
    static void checkWhereStart(Token where, List<ParserToken> theirs) throws RefusedException {
        for (ParserToken p : theirs) {
            if (p.start() == where.start() && p.kind() == CCJSqlParserConstants.K_WHERE) {
                return;
            }
        }
        throw disagreement("the lexer and the parser disagree on where the WHERE clause begins");
    }

    static RefusedException disagreement(String what) {
        return new RefusedException(Refusal.PARSE_DISAGREEMENT, "the statement can be read in two ways: " + what
                + ". It is refused rather than guessed; rewrite it plainly (simple quotes, no backslashes).");
    }

    /** Where the parser stopped, as a line and column of the statement as sent (without comments). */
    private static String position(ParseException e, ParserText parserText, String text) {
        var t = e.currentToken == null ? null : e.currentToken.next;
        if (t == null) {
            return "";
        }
        int[] parserLines = lineStarts(parserText.text());
        int line = Math.min(Math.max(t.beginLine, 1), parserLines.length) - 1;
        int at = parserText.original(Math.min(parserLines[line] + t.beginColumn - 1, parserText.text().length()));
        int[] lines = lineStarts(text);
        int l = 0;
        while (l + 1 < lines.length && lines[l + 1] <= at) {
            l++;
        }
        String near = t.image == null || t.image.isEmpty() ? "the end" : "'" + excerpt(t.image) + "'";
        return " at line " + (l + 1) + ", column " + (at - lines[l] + 1) + " near " + near;
    }

    private static String excerpt(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
