package dev.llmsafe.dialect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * R9 on MariaDB: the relations a read's plan reads, from {@code EXPLAIN EXTENDED}'s rows and the query
 * the server prints back as Note 1003 (measured on MariaDB 10.11.19, SPEC.md R9). The rows are what the
 * plan reads, each under the name the statement gave it (an alias); the note names each table as
 * {@code `db`.`table` `alias`}. Every row's alias must be found among the note's tables of the same
 * select, so that the note is proven to name everything the plan reads; whatever cannot be read with
 * certainty is {@link Unreadable}, and the read is refused.
 *
 * <p>The note is the server's own printing, but parts of it are the statement's own text: column aliases
 * and identifiers (quoted, backquotes doubled), string literals (escaped), a literal with a character set
 * introducer (printed raw: refused), and the names of CTEs (printed raw: only a plain name is accepted,
 * and only when every quoted run of the statement is one).
 */
final class MariadbPlan {

    /** The note cannot be read with certainty; the reason names no value of the statement or its rows. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String reason) {
            super(reason, null, false, false);
        }
    }

    /** One row of EXPLAIN EXTENDED: its select number and its {@code table} column (null when none). */
    record Row(long id, String table) {
    }

    private enum Kind { WORD, IDENT, STRING, NUMBER, PUNCT, MARKER, CTE }

    private record Token(Kind kind, String text) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean punct(String p) {
            return kind == Kind.PUNCT && text.equals(p);
        }
    }

    /** A table the note names in a FROM clause: its select number (-1 when unknown) and its alias. */
    private record Ref(TableRef table, long select, String alias) {
    }

    private static final Pattern MARKER = Pattern.compile("/\\* select#(\\d+) \\*/");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_$]+");
    private static final Pattern CTE_NAME = Pattern.compile("\\G[A-Za-z0-9_$]+(?=\\s*\\(|\\s+as\\s*\\()");
    private static final Pattern AS_BODY = Pattern.compile("\\s*as\\s*\\(");
    private static final Pattern TEMPORAL = Pattern.compile("[0-9:. -]*");
    private static final Set<String> FROM_ENDS = Set.of("where", "group", "having", "order", "limit", "window", "union",
            "except", "intersect", "procedure", "into", "lock");

    private MariadbPlan() {
    }

    /**
     * The relations the plan reads, as {@code db.table}: views the server merged are their tables, a view
     * it materializes (TEMPTABLE) is the view.
     *
     * @param sql the statement as EXPLAINed
     * @param rows EXPLAIN EXTENDED's rows
     * @param note the text of Note 1003
     */
    static Set<TableRef> relations(String sql, List<Row> rows, String note) throws Unreadable {
        List<Token> tokens = lex(note);
        if (tokens.stream().anyMatch(t -> t.kind == Kind.CTE)) {
            plainBackquotedRuns(sql);
        }
        boolean markers = tokens.stream().anyMatch(t -> t.kind == Kind.MARKER);
        List<Ref> refs = new ArrayList<>();
        Set<String> aliases = new HashSet<>();
        List<String[]> qualified = new ArrayList<>();
        walk(tokens, markers, refs, aliases, qualified);
        Set<TableRef> out = new LinkedHashSet<>();
        refs.stream().filter(r -> r.table != null).forEach(r -> out.add(r.table));
        for (String[] q : qualified) {
            // A two-part name outside FROM: a column of a derived table, a CTE or a materialized view (their
            // names are aliases of the FROM clauses), else a relation (a sequence), checked as one.
            if (!aliases.contains(q[0])) {
                out.add(new TableRef(q[0], q[1]));
            }
        }
        check(rows, tokens, markers, refs);
        return out;
    }

    /** Every row that reads a table is a table of the note in the same select, or of a view the note names. */
    private static void check(List<Row> rows, List<Token> tokens, boolean markers, List<Ref> refs) throws Unreadable {
        Set<Long> printed = new HashSet<>();
        for (Token t : tokens) {
            if (t.kind == Kind.MARKER) {
                printed.add(Long.parseLong(t.text));
            }
        }
        if (!markers) {
            printed.add(1L);
        }
        long firstHiddenBody = Long.MAX_VALUE;
        for (Row r : rows) {
            Matcher m = Pattern.compile("<derived(\\d+)>").matcher(r.table == null ? "" : r.table);
            if (m.matches() && !printed.contains(Long.parseLong(m.group(1)))) {
                firstHiddenBody = Math.min(firstHiddenBody, Long.parseLong(m.group(1)));
            }
        }
        // A semi-join materialized (<subqueryN> in select M): select N's tables are printed in M's semi join.
        java.util.Map<Long, Long> semiJoinedInto = new java.util.HashMap<>();
        for (Row r : rows) {
            Matcher m = Pattern.compile("<subquery(\\d+)>").matcher(r.table == null ? "" : r.table);
            if (m.matches()) {
                semiJoinedInto.put(Long.parseLong(m.group(1)), r.id);
            }
        }
        for (Row r : rows) {
            if (r.table == null || r.table.startsWith("<")) {
                continue; // no table, or a materialization whose own rows are listed
            }
            long into = semiJoinedInto.getOrDefault(r.id, r.id);
            boolean named = refs.stream().anyMatch(f -> (f.select == r.id || f.select == into) && f.alias.equals(r.table));
            // The body of a view the server materializes is not printed: its selects are numbered after the
            // statement's own (measured), from the first <derivedN> the note prints no select for.
            boolean inHiddenBody = !printed.contains(r.id) && !semiJoinedInto.containsKey(r.id) && r.id >= firstHiddenBody;
            if (!named && !inHiddenBody) {
                throw new Unreadable("the plan reads a table in select #" + r.id + " that the server's rewritten"
                        + " query does not name");
            }
        }
    }

    /**
     * The walk: which two-part names are tables of a FROM clause (the clause of the select whose frame
     * it is, and the nested joins in its parentheses), which are qualified names in expressions.
     */
    private static void walk(List<Token> tokens, boolean markers, List<Ref> refs, Set<String> aliases,
            List<String[]> qualified) throws Unreadable {
        final class Frame {
            boolean select;
            boolean from;
            boolean tableFunction;
            long number;

            Frame(long number) {
                this.number = number;
            }
        }
        Deque<Frame> frames = new ArrayDeque<>();
        frames.push(new Frame(markers ? -1 : 1));
        long pending = -1;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Frame f = frames.peek();
            Token prev = i == 0 ? null : tokens.get(i - 1);
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            switch (t.kind) {
                case MARKER -> pending = Long.parseLong(t.text);
                case CTE -> aliases.add(t.text);
                case WORD -> {
                    String w = t.text.toLowerCase(Locale.ROOT);
                    if (w.equals("select")) {
                        f.select = true;
                        f.from = false;
                        f.number = pending >= 0 ? pending : markers ? -1 : 1;
                        pending = -1;
                    } else if (f.select && (w.equals("from") || w.equals("join") || w.equals("straight_join"))) {
                        f.from = true;
                    } else if (FROM_ENDS.contains(w)) {
                        f.from = false;
                    }
                }
                case PUNCT -> {
                    if (t.text.equals("(")) {
                        boolean subquery = next != null && (next.kind == Kind.MARKER || next.is("select") || next.is("with"));
                        boolean joinPosition = prev != null && (prev.is("from") || prev.is("join")
                                || prev.is("straight_join") || prev.punct(",") || prev.punct("("));
                        Frame inner = new Frame(f.number);
                        inner.tableFunction = f.from && prev != null && prev.is("json_table");
                        if (f.from && joinPosition && !subquery) {
                            inner.select = true; // a nested join: its tables are the enclosing select's
                            inner.from = true;
                        }
                        frames.push(inner);
                    } else if (t.text.equals(")")) {
                        Frame closed = frames.pop();
                        if (frames.isEmpty()) {
                            throw new Unreadable("the server's rewritten query closes a parenthesis it did not open");
                        }
                        if (closed.tableFunction && next != null && next.kind == Kind.IDENT) {
                            // JSON_TABLE(...) `alias`: a row that reads no table (its arguments' subqueries have their own)
                            refs.add(new Ref(null, frames.peek().number, next.text));
                        }
                    }
                }
                case IDENT -> {
                    if (prev != null && prev.punct(".")) {
                        continue; // a later part, read with the first
                    }
                    List<String> parts = new ArrayList<>(List.of(t.text));
                    int j = i + 1;
                    while (j + 1 < tokens.size() && tokens.get(j).punct(".") && tokens.get(j + 1).kind == Kind.IDENT) {
                        parts.add(tokens.get(j + 1).text);
                        j += 2;
                    }
                    if (j < tokens.size() && tokens.get(j).punct(".")) {
                        throw new Unreadable("the server's rewritten query has a qualified name it does not complete");
                    }
                    Token after = j < tokens.size() ? tokens.get(j) : null;
                    boolean call = after != null && after.punct("(");
                    if (parts.size() == 1) {
                        if (f.from) {
                            aliases.add(t.text); // an alias, a CTE's name
                        }
                    } else if (parts.size() == 2 && !call) {
                        if (f.from) {
                            String alias = after != null && after.kind == Kind.IDENT
                                    && !(j + 1 < tokens.size() && tokens.get(j + 1).punct(".")) ? after.text : parts.get(1);
                            aliases.add(alias);
                            refs.add(new Ref(new TableRef(parts.get(0), parts.get(1)), f.number, alias));
                        } else {
                            qualified.add(new String[] {parts.get(0), parts.get(1)});
                        }
                    } else if (parts.size() > 3) {
                        throw new Unreadable("the server's rewritten query has a name of " + parts.size() + " parts");
                    }
                }
                default -> {
                }
            }
        }
        if (frames.size() != 1) {
            throw new Unreadable("the server's rewritten query leaves a parenthesis open");
        }
    }

    /**
     * With a CTE in the note, whose name the server prints raw: every backquoted run of the statement, its
     * backquotes paired in order whatever surrounds them, is a plain name. A name with any other character
     * (which could end the raw name early in the note) then makes some run not plain, and is refused.
     */
    private static void plainBackquotedRuns(String sql) throws Unreadable {
        plainRuns(sql, '`');
        plainRuns(sql, '"'); // names under ANSI_QUOTES
    }

    private static void plainRuns(String sql, char quote) throws Unreadable {
        int open = -1;
        for (int i = 0; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (open < 0) {
                    open = i;
                } else {
                    String run = sql.substring(open + 1, i);
                    if (!run.isEmpty() && !PLAIN.matcher(run).matches()) {
                        throw new Unreadable("the statement has a CTE and a quoted name that is not a plain name, which"
                                + " the server prints unquoted");
                    }
                    open = -1;
                }
            }
        }
        if (open >= 0) {
            throw new Unreadable("the statement has a CTE and an unpaired quote of a name");
        }
    }

    /** The note's tokens; what the server may print raw, or anything unexpected, is Unreadable. */
    static List<Token> lex(String s) throws Unreadable {
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
                    throw new Unreadable("the server's rewritten query has a comment other than a select number");
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
                        throw new Unreadable("the server's rewritten query has an unterminated quoted name");
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
                        throw new Unreadable("the statement has a literal with a character set introducer, which the"
                                + " server prints raw");
                    }
                    continue;
                }
                out.add(new Token(Kind.WORD, word));
                i = j;
                if (word.equalsIgnoreCase("with")) {
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
                throw new Unreadable("the server's rewritten query has a character outside its syntax");
            }
        }
        return out;
    }

    /** After WITH [RECURSIVE] or a comma between CTEs: one raw name, which must be a plain one. */
    private static int cteNames(String s, int i, List<Token> out, boolean required) throws Unreadable {
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
            throw new Unreadable("the server's rewritten query has a CTE whose name is not a plain name");
        }
        out.add(new Token(Kind.CTE, name.group()));
        return name.end();
    }

    /** A quoted string from {@code i}: backslash escapes the next character, a doubled quote is a quote. */
    private static int string(String s, int i, List<Token> out) throws Unreadable {
        StringBuilder sb = new StringBuilder();
        int j = i + 1;
        while (true) {
            if (j >= s.length()) {
                throw new Unreadable("the server's rewritten query has an unterminated string");
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

    /** For tests: whether the note lexes. */
    static Optional<String> unreadable(String note) {
        try {
            lex(note);
            return Optional.empty();
        } catch (Unreadable e) {
            return Optional.of(e.getMessage());
        }
    }
}
