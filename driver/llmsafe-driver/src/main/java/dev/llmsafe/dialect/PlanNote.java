package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * R9 on MariaDB and MySQL: Note 1003, the query as the server rewrote it while planning a read, read by
 * its syntax (SPEC.md R9.1 to R9.8). Both servers print every base table as {@code `db`.`table` `alias`}
 * in a FROM clause, columns as {@code `db`.`alias`.`col`}, a materialized derived table as its select in
 * parentheses, numbered, then its alias; they differ in the names of CTEs, which MariaDB prints raw
 * ({@code with a b as (}) and MySQL quoted ({@code with `a b` as (}), and in the select numbers, which
 * MySQL always prints. What is read here is which tables each select's FROM clause names under which
 * alias; whether that is everything the plan reads is the caller's question, answered from EXPLAIN's rows
 * ({@link MariadbPlan}, {@link MysqlPlan}). Whatever cannot be read with certainty is {@link Unreadable}.
 *
 * <p>The note is the server's own printing, but parts of it are the statement's own text: column aliases
 * and identifiers (quoted, backquotes doubled), string literals (escaped), a literal with a character set
 * introducer (printed raw: refused), and MariaDB's CTE names (printed raw: only a plain name is accepted,
 * and only when every quoted run of the statement is one).
 */
final class PlanNote {

    /** The note cannot be read with certainty; the reason names no value of the statement or its rows. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String reason) {
            super(reason, null, false, false);
        }
    }

    /** How the server prints the names of CTEs. */
    enum Printing {
        /** Raw, as written: {@code with a b as (} (MariaDB 10.11). */
        RAW_CTE_NAMES,
        /** Quoted as any name: {@code with `a b` as (} (MySQL 8.0). */
        QUOTED_CTE_NAMES
    }

    /**
     * A name of a FROM clause: a table ({@code table} set) or, with {@code table} null, a table function's
     * alias or a CTE read by its name (a recursive CTE's own reference).
     *
     * @param table the table, as {@code db.table}; null when none
     * @param select the select number it is in, -1 when unknown
     * @param alias the name the select reads it by
     */
    record Ref(TableRef table, long select, String alias) {
    }

    /**
     * One row of EXPLAIN (MariaDB's EXPLAIN EXTENDED, MySQL's EXPLAIN: the same columns).
     *
     * @param id its select number, -1 when none
     * @param selectType its {@code select_type}, null when not known
     * @param table its {@code table}, null when none
     * @param type its access type, null when none
     * @param extra its {@code Extra}, null when none
     */
    record Row(long id, String selectType, String table, String type, String extra) {

        /** A row known by its select and table only. */
        Row(long id, String table) {
            this(id, null, table, null, null);
        }

        /** Read while planning, one row at most: MySQL prints a derived table's values in its place. */
        boolean constant() {
            return "system".equals(type) || "const".equals(type);
        }

        /** The row of a UNION, INTERSECT or EXCEPT that reads their temporary table: no select of its own. */
        boolean result() {
            return table != null && RESULT.matcher(table).matches() && selectType != null
                    && selectType.toUpperCase(Locale.ROOT).endsWith(" RESULT");
        }
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

    static final Pattern DERIVED = Pattern.compile("<derived(\\d+)>");
    static final Pattern SUBQUERY = Pattern.compile("<subquery(\\d+)>");
    private static final Pattern RESULT = Pattern.compile("<(union|intersect|except)[0-9,]+>");
    private static final Pattern MARKER = Pattern.compile("/\\* select#(\\d+) \\*/");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_$]+");
    private static final Pattern CTE_NAME = Pattern.compile("\\G[A-Za-z0-9_$]+(?=\\s*\\(|\\s+as\\s*\\()");
    private static final Pattern AS_BODY = Pattern.compile("\\s*as\\s*\\(");
    private static final Pattern TEMPORAL = Pattern.compile("[0-9:. -]*");
    private static final Set<String> FROM_ENDS = Set.of("where", "group", "having", "order", "limit", "window", "union",
            "except", "intersect", "procedure", "into", "lock");

    private final List<Ref> refs = new ArrayList<>();
    private final List<Ref> byName = new ArrayList<>();
    private final Set<String> aliases = new HashSet<>();
    private final List<String[]> qualified = new ArrayList<>();
    private final Set<Long> printed = new HashSet<>();

    private PlanNote() {
    }

    /**
     * Reads a note.
     *
     * @param sql the statement as EXPLAINed (MariaDB's raw CTE names are accepted only when all its quoted
     *     names are plain)
     * @param note the text of Note 1003
     * @param printing how the server prints CTE names
     */
    static PlanNote read(String sql, String note, Printing printing) throws Unreadable {
        List<Token> tokens = lex(note, printing);
        if (tokens.stream().anyMatch(t -> t.kind == Kind.CTE)) {
            plainBackquotedRuns(sql);
        }
        PlanNote out = new PlanNote();
        boolean markers = false;
        for (Token t : tokens) {
            if (t.kind == Kind.MARKER) {
                out.printed.add(Long.parseLong(t.text));
                markers = true;
            }
        }
        if (!markers) {
            out.printed.add(1L);
        }
        out.walk(tokens, markers);
        return out;
    }

    /** The tables the FROM clauses name, each with its select number and alias. */
    List<Ref> refs() {
        return refs;
    }

    /** The one-part names of FROM clauses (a CTE read by its name), each with its select number. */
    List<Ref> byName() {
        return byName;
    }

    /** The select numbers the note prints (1 alone when it prints none). */
    Set<Long> printed() {
        return printed;
    }

    /**
     * The relations the note names, as {@code db.table}: every table of a FROM clause, and every two-part
     * name elsewhere that is not qualified by an alias of a FROM clause.
     */
    Set<TableRef> relations() {
        Set<TableRef> out = new LinkedHashSet<>();
        refs.stream().filter(r -> r.table != null).forEach(r -> out.add(r.table));
        for (String[] q : qualified) {
            // A two-part name outside FROM: a column of a derived table, a CTE or a materialized view (their
            // names are aliases of the FROM clauses) or, on MySQL, of a materialized semi-join
            // (`<subquery2>`.`token`, its tables printed in the semi join), else a relation (a sequence),
            // checked as one.
            if (!aliases.contains(q[0]) && !SUBQUERY.matcher(q[0]).matches()) {
                out.add(new TableRef(q[0], q[1]));
            }
        }
        return out;
    }

    private static List<Row> rows(ResultSet rs) throws SQLException {
        List<Row> out = new ArrayList<>();
        while (rs.next()) {
            long id = rs.getLong("id");
            out.add(new Row(rs.wasNull() ? -1 : id, rs.getString("select_type"), rs.getString("table"),
                    rs.getString("type"), rs.getString("Extra")));
        }
        return out;
    }

    /** A semi-join materialized ({@code <subqueryN>} in select M): N to M, select N's tables printed in M's. */
    static Map<Long, Long> semiJoins(List<Row> rows) {
        Map<Long, Long> out = new HashMap<>();
        for (Row r : rows) {
            Matcher m = SUBQUERY.matcher(r.table == null ? "" : r.table);
            if (m.matches()) {
                out.put(Long.parseLong(m.group(1)), r.id);
            }
        }
        return out;
    }

    /**
     * Every select of the rows is printed, or printed in the select it is semi-joined into, or is the body of
     * a view the server materializes, which is not printed: numbered after the statement's own selects
     * (measured), from {@code firstHiddenBody}. A select that is none of these was evaluated while planning
     * (a subquery whose MIN or MAX an index gave, printed as its value: measured on both servers).
     */
    void everySelectPrinted(List<Row> rows, Map<Long, Long> semiJoins, long firstHiddenBody) throws Unreadable {
        for (Row r : rows) {
            if (!r.result() && !printed.contains(semiJoins.getOrDefault(r.id, r.id)) && r.id < firstHiddenBody) {
                throw new Unreadable("the plan has a select #" + r.id + " that the server's rewritten query does not"
                        + " print (it was evaluated while planning)");
            }
        }
    }

    /** What a server's rows and note give: the relations, once the rows prove the note complete. */
    interface Reading {
        Set<TableRef> relations(List<Row> rows, String note) throws Unreadable;
    }

    /**
     * Runs {@code explain} (which ends with the read), then SHOW WARNINGS (run here rather than by
     * Connector/J's getWarnings, which issues the same query), and reads them: two round trips.
     *
     * @param what the EXPLAIN, as the refusals name it
     * @param product the server, as the refusals name it
     */
    static Set<TableRef> explain(Connection c, String explain, Dialect.Binder parameters, String what, String product,
            Reading reading) throws SQLException {
        List<Row> rows;
        // execute(), not executeQuery(): Connector/J refuses the latter for a text that begins with SET.
        try (PreparedStatement ps = c.prepareStatement(explain)) {
            parameters.bind(ps);
            if (!ps.execute()) {
                throw new SQLException(what + " gave no rows");
            }
            try (ResultSet rs = ps.getResultSet()) {
                rows = rows(rs);
            }
        } catch (SQLException e) {
            throw explainFailed(e, product);
        }
        try {
            return reading.relations(rows, note(c, what));
        } catch (Unreadable u) {
            throw refusal(u);
        }
    }

    /** The note of the EXPLAIN just run on {@code c}: the one Note 1003 of SHOW WARNINGS. */
    private static String note(Connection c, String explain) throws SQLException, Unreadable {
        List<String> notes = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                if (rs.getInt("Code") == 1003) {
                    notes.add(rs.getString("Message"));
                }
            }
        }
        if (notes.size() != 1 || notes.get(0) == null) {
            throw new Unreadable(explain + " gave " + notes.size() + " rewritten queries, not one");
        }
        return notes.get(0);
    }

    /**
     * An EXPLAIN that failed: error 1345 (measured on MariaDB 10.11.19 and MySQL 8.0.31) is EXPLAIN of a
     * view over tables the credential has no SELECT on, SHOW VIEW is not enough: NOT_GRANTED.
     */
    private static SQLException explainFailed(SQLException e, String product) {
        if (e.getErrorCode() != 1345) {
            return e;
        }
        return new RefusedException(Refusal.NOT_GRANTED, product + " does not tell this connection's credential"
                + " which tables the plan of this read reads (error 1345: it reads a view over tables the"
                + " credential has no SELECT on), so the plan cannot be checked against the allowlist"
                + " (policy.allow). Nothing ran. Grant the read role SELECT on the view's tables, or read the"
                + " tables themselves.", e);
    }

    /** The refusal of a plan that cannot be read with certainty. */
    private static RefusedException refusal(Unreadable u) {
        return new RefusedException(Refusal.TABLE_NOT_ALLOWED, "the database's plan of this read cannot be read"
                + " with certainty (" + u.getMessage() + "), so the relations it reads cannot be checked against"
                + " the policy's allowlist (policy.allow). Nothing ran. Read allowlisted tables in plain SQL.");
    }

    /**
     * The walk: which two-part names are tables of a FROM clause (the clause of the select whose frame
     * it is, and the nested joins in its parentheses), which are qualified names in expressions.
     */
    private void walk(List<Token> tokens, boolean markers) throws Unreadable {
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
                        boolean joinPosition = tablePosition(prev);
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
                            if (tablePosition(prev)) {
                                byName.add(new Ref(null, f.number, t.text)); // in a table's place: a CTE read
                            }
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

    /** Whether what follows {@code prev} in a FROM clause is in a table's place. */
    private static boolean tablePosition(Token prev) {
        return prev != null && (prev.is("from") || prev.is("join") || prev.is("straight_join") || prev.punct(",")
                || prev.punct("("));
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
    private static List<Token> lex(String s, Printing printing) throws Unreadable {
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
                if (printing == Printing.RAW_CTE_NAMES && word.equalsIgnoreCase("with")) {
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

    /** For tests: why the note cannot be read, if it cannot. */
    static Optional<String> unreadable(String note, Printing printing) {
        try {
            lex(note, printing);
            return Optional.empty();
        } catch (Unreadable e) {
            return Optional.of(e.getMessage());
        }
    }
}
