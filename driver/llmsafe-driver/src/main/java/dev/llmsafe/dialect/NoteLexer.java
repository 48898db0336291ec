package dev.llmsafe.dialect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tokens of Note 1003 ({@link PlanNote}): the server's printing of names (quoted, quotes doubled),
 * strings (escaped), numbers, select numbers ({@code /* select#N} comments) and punctuation. What the
 * server may print raw, a literal with a character set introducer and MariaDB's CTE names, and anything
 * outside that syntax, is {@link PlanNote.Unreadable}.
 */
final class NoteLexer {

    /** What a token is; CTE: a name MariaDB prints raw. */
    enum Kind { WORD, IDENT, STRING, NUMBER, PUNCT, MARKER, CTE }

    /** One token of the note. */
    record Token(Kind kind, String text) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean punct(String p) {
            return kind == Kind.PUNCT && text.equals(p);
        }
    }

    private static final Pattern MARKER = Pattern.compile("/\\* select#(\\d+) \\*/");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_$]+");
    private static final Pattern CTE_NAME = Pattern.compile("\\G[A-Za-z0-9_$]+(?=\\s*\\(|\\s+as\\s*\\()");
    private static final Pattern AS_BODY = Pattern.compile("\\s*as\\s*\\(");
    private static final Pattern TEMPORAL = Pattern.compile("[0-9:. -]*");

    private NoteLexer() {
    }

    /**
     * With a CTE in the note, whose name the server prints raw: every backquoted run of the statement, its
     * backquotes paired in order whatever surrounds them, is a plain name. A name with any other character
     * (which could end the raw name early in the note) then makes some run not plain, and is refused.
     */
    static void plainBackquotedRuns(String sql) throws PlanNote.Unreadable {
        plainRuns(sql, '`');
        plainRuns(sql, '"'); // names under ANSI_QUOTES
    }

    private static void plainRuns(String sql, char quote) throws PlanNote.Unreadable {
        int open = -1;
        for (int i = 0; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (open < 0) {
                    open = i;
                } else {
                    String run = sql.substring(open + 1, i);
                    if (!run.isEmpty() && !PLAIN.matcher(run).matches()) {
                        throw new PlanNote.Unreadable("the statement has a CTE and a quoted name that is not a plain name, which"
                                + " the server prints unquoted");
                    }
                    open = -1;
                }
            }
        }
        if (open >= 0) {
            throw new PlanNote.Unreadable("the statement has a CTE and an unpaired quote of a name");
        }
    }

    /** The note's tokens; what the server may print raw, or anything unexpected, is PlanNote.Unreadable. */
    static List<Token> lex(String s, PlanNote.Printing printing) throws PlanNote.Unreadable {
        List<Token> out = new ArrayList<>();
        Deque<Integer> cteDepths = new ArrayDeque<>();
        int depth = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
                i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                Matcher m = MARKER.matcher(s).region(i, n);
                if (!m.lookingAt()) {
                    throw new PlanNote.Unreadable("the server's rewritten query has a comment other than a select number");
                }
                out.add(new Token(Kind.MARKER, m.group(1)));
                i = m.end();
            } else if (c == '`' || c == '"') {
                // "..." is a name too: the server quotes names so when the session's sql_mode has ANSI_QUOTES
                // (measured), and prints strings in single quotes in either mode.
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new PlanNote.Unreadable("the server's rewritten query has an unterminated quoted name");
                    }
                    char d = s.charAt(j);
                    if (d == c) {
                        if (j + 1 < n && s.charAt(j + 1) == c) {
                            sb.append(c);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    sb.append(d);
                    j++;
                }
                out.add(new Token(Kind.IDENT, sb.toString()));
                i = j + 1;
            } else if (c == '\'') {
                i = string(s, i, out);
            } else if (c == '@' && i + 1 < n && (s.charAt(i + 1) == '`' || s.charAt(i + 1) == '"')) {
                out.add(new Token(Kind.PUNCT, "@"));
                i++;
            } else if (c >= '0' && c <= '9') {
                int j = i;
                while (j < n && s.charAt(j) < 128 && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.')) {
                    j++;
                }
                out.add(new Token(Kind.NUMBER, s.substring(i, j)));
                i = j;
            } else if (c < 128 && (Character.isLetter(c) || c == '_' || c == '$')) {
                int j = i;
                while (j < n && s.charAt(j) < 128 && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_'
                        || s.charAt(j) == '$')) {
                    j++;
                }
                String word = s.substring(i, j);
                if (j < n && s.charAt(j) == '\'') {
                    // X'..', B'..' and DATE/TIME/TIMESTAMP'..' print what the server formats; an introducer
                    // (_latin1'..', _binary'..', N'..') prints the literal's bytes raw, quotes included.
                    String w = word.toLowerCase(Locale.ROOT);
                    int start = out.size();
                    i = string(s, j, out);
                    String content = out.get(start).text;
                    boolean formatted = (w.equals("x") && content.matches("[0-9a-fA-F]*"))
                            || (w.equals("b") && content.matches("[01]*"))
                            || ((w.equals("date") || w.equals("time") || w.equals("timestamp"))
                                    && TEMPORAL.matcher(content).matches());
                    if (!formatted) {
                        throw new PlanNote.Unreadable("the statement has a literal with a character set introducer, which the"
                                + " server prints raw");
                    }
                    continue;
                }
                out.add(new Token(Kind.WORD, word));
                i = j;
                if (printing == PlanNote.Printing.RAW_CTE_NAMES && word.equalsIgnoreCase("with")) {
                    int at = out.size();
                    i = cteNames(s, i, out, false);
                    if (out.size() > at) {
                        cteDepths.push(depth);
                    }
                }
            } else if ("(),.;+-*/%=<>!&|^~:?".indexOf(c) >= 0) {
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                    if (!cteDepths.isEmpty() && depth == cteDepths.peek()
                            && !AS_BODY.matcher(s).region(i + 1, n).lookingAt()) {
                        // the end of a CTE's body (not of its column list): another CTE's raw name follows a comma
                        int j = i + 1;
                        if (j < n && s.charAt(j) == ',') {
                            out.add(new Token(Kind.PUNCT, ")"));
                            out.add(new Token(Kind.PUNCT, ","));
                            i = cteNames(s, j + 1, out, true);
                            continue;
                        }
                        cteDepths.pop();
                    }
                }
                out.add(new Token(Kind.PUNCT, String.valueOf(c)));
                i++;
            } else {
                throw new PlanNote.Unreadable("the server's rewritten query has a character outside its syntax");
            }
        }
        return out;
    }

    /** After WITH [RECURSIVE] or a comma between CTEs: one raw name, which must be a plain one. */
    private static int cteNames(String s, int i, List<Token> out, boolean required) throws PlanNote.Unreadable {
        int j = i;
        while (j < s.length() && s.charAt(j) == ' ') {
            j++;
        }
        Matcher rollup = Pattern.compile("\\G(?i)(rollup|ties)\\b").matcher(s);
        if (!required && rollup.find(j)) {
            return i; // WITH ROLLUP, WITH TIES
        }
        Matcher recursive = Pattern.compile("\\G(?i)recursive ").matcher(s);
        if (!required && recursive.find(j)) {
            out.add(new Token(Kind.WORD, "recursive"));
            j = recursive.end();
        }
        Matcher name = CTE_NAME.matcher(s);
        if (!name.find(j)) {
            throw new PlanNote.Unreadable("the server's rewritten query has a CTE whose name is not a plain name");
        }
        out.add(new Token(Kind.CTE, name.group()));
        return name.end();
    }

    /** A quoted string from {@code i}: backslash escapes the next character, a doubled quote is a quote. */
    private static int string(String s, int i, List<Token> out) throws PlanNote.Unreadable {
        StringBuilder sb = new StringBuilder();
        int j = i + 1;
        while (true) {
            if (j >= s.length()) {
                throw new PlanNote.Unreadable("the server's rewritten query has an unterminated string");
            }
            char d = s.charAt(j);
            if (d == '\\' && j + 1 < s.length()) {
                sb.append(s.charAt(j + 1));
                j += 2;
            } else if (d == '\'') {
                if (j + 1 < s.length() && s.charAt(j + 1) == '\'') {
                    sb.append('\'');
                    j += 2;
                } else {
                    break;
                }
            } else {
                sb.append(d);
                j++;
            }
        }
        out.add(new Token(Kind.STRING, sb.toString()));
        return j + 1;
    }

    /** For tests: why the note cannot be read, if it cannot. */
    static Optional<String> unreadable(String note, PlanNote.Printing printing) {
        try {
            lex(note, printing);
            return Optional.empty();
        } catch (PlanNote.Unreadable e) {
            return Optional.of(e.getMessage());
        }
    }
}
