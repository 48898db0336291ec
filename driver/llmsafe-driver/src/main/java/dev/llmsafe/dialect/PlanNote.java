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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * R9 on MariaDB and MySQL: the query as the server prints it while planning a read, read by its syntax:
 * MariaDB's Note 1003 (SPEC.md R9.1 to R9.4) and the expanded queries of MySQL's optimizer trace (R9.5 to
 * R9.11), which MySQL prints as it prints its Note 1003. Both servers print every base table as
 * {@code `db`.`table` `alias`} in a FROM clause (MySQL's trace a table of the session's database as
 * {@code `table` `alias`}: {@link #byName()}), columns as {@code `db`.`alias`.`col`}, a materialized derived
 * table as its select in parentheses, numbered, then its alias; they differ in the names of CTEs, which
 * MariaDB prints raw ({@code with a b as (}) and MySQL quoted ({@code with `a b` as (}), and in the select
 * numbers, which MySQL always prints. What is read here is which tables each select's FROM clause names
 * under which alias; whether that is everything the plan reads is the caller's question ({@link MariadbPlan}
 * answers it from EXPLAIN's rows, {@link MysqlPlan} from the trace's steps). Its tokens are
 * {@link NoteLexer}'s. Whatever cannot be read with certainty is {@link Unreadable}.
 *
 * <p>The text is the server's own printing, but parts of it are the statement's own text: column aliases
 * and identifiers (quoted, backquotes doubled), string literals (escaped), a literal with a character set
 * introducer (printed raw: refused), and MariaDB's CTE names (printed raw: only a plain name is accepted,
 * and only when every quoted run of the statement is one). MySQL's note also prints the values of rows
 * it read while planning, string values raw: it is not read here.
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
     * A one-part name in a table's place of a FROM clause: a CTE read by its name, or, in MySQL's optimizer
     * trace ({@link MysqlPlan}), a table of the session's database, which it prints unqualified.
     *
     * @param name the name
     * @param select the select number it is in, -1 when unknown
     * @param alias the name the select reads it by (the name itself when it has no alias)
     */
    record Named(String name, long select, String alias) {
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

        /** The row of a UNION, INTERSECT or EXCEPT that reads their temporary table: no select of its own. */
        boolean result() {
            return table != null && RESULT.matcher(table).matches() && selectType != null
                    && selectType.toUpperCase(Locale.ROOT).endsWith(" RESULT");
        }
    }

    static final Pattern DERIVED = Pattern.compile("<derived(\\d+)>");
    static final Pattern SUBQUERY = Pattern.compile("<subquery(\\d+)>");
    private static final Pattern RESULT = Pattern.compile("<(union|intersect|except)[0-9,]+>");
    private static final Set<String> FROM_ENDS = Set.of("where", "group", "having", "order", "limit", "window", "union",
            "except", "intersect", "procedure", "into", "lock");

    private final List<Ref> refs = new ArrayList<>();
    private final List<Named> byName = new ArrayList<>();
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
        List<NoteLexer.Token> tokens = NoteLexer.lex(note, printing);
        if (tokens.stream().anyMatch(t -> t.kind() == NoteLexer.Kind.CTE)) {
            NoteLexer.plainBackquotedRuns(sql);
        }
        PlanNote out = new PlanNote();
        boolean markers = false;
        for (NoteLexer.Token t : tokens) {
            if (t.kind() == NoteLexer.Kind.MARKER) {
                out.printed.add(Long.parseLong(t.text()));
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

    /** The one-part names in a table's place of FROM clauses, each with its select number and alias. */
    List<Named> byName() {
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
        return relations(aliases);
    }

    /** The aliases of the note's FROM clauses (CTE names, derived tables', tables'). */
    Set<String> aliases() {
        return aliases;
    }

    /**
     * {@link #relations()}, a two-part name outside FROM being a column when it is qualified by one of
     * {@code aliases} (those of several notes read together: MySQL's trace prints each select apart).
     */
    Set<TableRef> relations(Set<String> aliases) {
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

    static List<Row> rows(ResultSet rs) throws SQLException {
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
    static SQLException explainFailed(SQLException e, String product) {
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
    static RefusedException refusal(Unreadable u) {
        return new RefusedException(Refusal.TABLE_NOT_ALLOWED, "the database's plan of this read cannot be read"
                + " with certainty (" + u.getMessage() + "), so the relations it reads cannot be checked against"
                + " the policy's allowlist (policy.allow). Nothing ran. Read allowlisted tables in plain SQL.");
    }

    /**
     * The walk: which two-part names are tables of a FROM clause (the clause of the select whose frame
     * it is, and the nested joins in its parentheses), which are qualified names in expressions.
     */
    private void walk(List<NoteLexer.Token> tokens, boolean markers) throws Unreadable {
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
            NoteLexer.Token t = tokens.get(i);
            Frame f = frames.peek();
            NoteLexer.Token prev = i == 0 ? null : tokens.get(i - 1);
            NoteLexer.Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            switch (t.kind()) {
                case MARKER -> pending = Long.parseLong(t.text());
                case CTE -> aliases.add(t.text());
                case WORD -> {
                    String w = t.text().toLowerCase(Locale.ROOT);
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
                    if (t.text().equals("(")) {
                        boolean subquery = next != null && (next.kind() == NoteLexer.Kind.MARKER || next.is("select") || next.is("with"));
                        boolean joinPosition = tablePosition(prev);
                        Frame inner = new Frame(f.number);
                        inner.tableFunction = f.from && prev != null && prev.is("json_table");
                        if (f.from && joinPosition && !subquery) {
                            inner.select = true; // a nested join: its tables are the enclosing select's
                            inner.from = true;
                        }
                        frames.push(inner);
                    } else if (t.text().equals(")")) {
                        Frame closed = frames.pop();
                        if (frames.isEmpty()) {
                            throw new Unreadable("the server's rewritten query closes a parenthesis it did not open");
                        }
                        if (closed.tableFunction && next != null && next.kind() == NoteLexer.Kind.IDENT) {
                            // JSON_TABLE(...) `alias`: a row that reads no table (its arguments' subqueries have their own)
                            refs.add(new Ref(null, frames.peek().number, next.text()));
                        }
                    }
                }
                case IDENT -> {
                    if (prev != null && prev.punct(".")) {
                        continue; // a later part, read with the first
                    }
                    List<String> parts = new ArrayList<>(List.of(t.text()));
                    int j = i + 1;
                    while (j + 1 < tokens.size() && tokens.get(j).punct(".") && tokens.get(j + 1).kind() == NoteLexer.Kind.IDENT) {
                        parts.add(tokens.get(j + 1).text());
                        j += 2;
                    }
                    if (j < tokens.size() && tokens.get(j).punct(".")) {
                        throw new Unreadable("the server's rewritten query has a qualified name it does not complete");
                    }
                    NoteLexer.Token after = j < tokens.size() ? tokens.get(j) : null;
                    boolean call = after != null && after.punct("(");
                    if (parts.size() == 1) {
                        if (f.from) {
                            aliases.add(t.text()); // an alias, a CTE's name
                            if (tablePosition(prev)) {
                                // in a table's place: a CTE read, or (in MySQL's trace) a table of the session's database
                                String alias = after != null && after.kind() == NoteLexer.Kind.IDENT ? after.text() : t.text();
                                byName.add(new Named(t.text(), f.number, alias));
                            }
                        }
                    } else if (parts.size() == 2 && !call) {
                        if (f.from) {
                            String alias = after != null && after.kind() == NoteLexer.Kind.IDENT
                                    && !(j + 1 < tokens.size() && tokens.get(j + 1).punct(".")) ? after.text() : parts.get(1);
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
    private static boolean tablePosition(NoteLexer.Token prev) {
        return prev != null && (prev.is("from") || prev.is("join") || prev.is("straight_join") || prev.punct(",")
                || prev.punct("("));
    }
}
