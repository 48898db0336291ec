package dev.llmsafe.dialect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * R9 on MySQL: the relations a read's plan reads, from the optimizer trace of its EXPLAIN (SPEC.md R9.5
 * to R9.11, measured on MySQL 8.0.31 and 9.7.4). Note 1003, which MariaDB's check reads, cannot serve on
 * MySQL: its optimizer reads tables while it plans, and the note prints what it read in their place, a
 * const table's string values raw (quotes unescaped), so a value planted in a row the model may read
 * would be read as SQL. The trace's {@code join_preparation} steps are written before the optimizer reads
 * any table: each select's {@code expanded_query} (its tables, views it merges as their tables, a view it
 * materializes as the view, derived tables and subqueries as their selects; the statement's literals
 * escaped, tables of the session's database unqualified), each view's body and each CTE's body as a
 * {@code join_preparation} of its own, and a {@code view} or {@code derived} step that says whether it
 * was merged or materialized. The relations are the tables those queries name, read by {@link PlanNote}
 * (one-part names being the session's database, or a materialized CTE the select's own {@code derived}
 * step names, or the recursive reference EXPLAIN's row marks {@code Recursive}), except the body of a
 * view the server materializes, which is the view itself (named by its {@code view} step as well). No value of any row is in what is read.
 *
 * <p>The trace is switched on for the read connection ({@code optimizer_trace}, a session variable the
 * pool's reset puts back) when the EXPLAIN left none; the EXPLAIN carries a random mark that the trace's
 * query must begin with, so the trace of another statement is never read. The latest two traces are kept:
 * a statement the server prepares (an application's {@code useServerPrepStmts}) is traced when prepared,
 * where its preparation is, and again when executed, with none (measured on 8.0.31). No trace, a trace
 * cut short or one MySQL keeps from the credential is refused, never passed.
 */
final class MysqlPlan {

    /** With comments: under end_markers_in_json the server writes one naming the step after each closing brace. */
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
    /**
     * Once per connection (then per pool loan): the traces of the latest two statements, in up to 16 MiB. The
     * server's default of 1 MiB for both was too little for a plain {@code SELECT * FROM orders WHERE id = 3}
     * after another read (cut short by 1581 bytes, so refused, on a fresh MySQL 8.0.31 in .ci/matrix).
     */
    private static final String TRACE_ON = "SET SESSION optimizer_trace = 'enabled=on', optimizer_trace_offset = -2,"
            + " optimizer_trace_limit = 2, optimizer_trace_max_mem_size = 16777216";
    private static final String TRACE = "SELECT QUERY, TRACE, MISSING_BYTES_BEYOND_MAX_MEM_SIZE, INSUFFICIENT_PRIVILEGES,"
            + " DATABASE() FROM information_schema.OPTIMIZER_TRACE";

    private MysqlPlan() {
    }

    /**
     * What one EXPLAIN gave: its rows, and a trace of it as {@code OPTIMIZER_TRACE} holds it.
     *
     * @param sql the statement EXPLAINed
     * @param rows EXPLAIN's rows
     * @param trace the trace's JSON, empty when MySQL keeps it from the credential
     * @param missingBytes how much of the trace is cut off
     * @param insufficientPrivileges whether MySQL keeps the trace from the credential
     * @param database the session's database, null when none
     */
    record Traced(String sql, List<PlanNote.Row> rows, String trace, long missingBytes, boolean insufficientPrivileges,
            String database) {
    }

    /**
     * Two round trips: the EXPLAIN, then its traces (three more, once per connection, to switch the trace on
     * and EXPLAIN again). The relations of every trace of it with a preparation: the one of a statement the
     * server prepares is its prepare's.
     */
    static Set<TableRef> relations(Connection c, String sql, Dialect.Binder parameters) throws SQLException {
        String mark = "EXPLAIN FORMAT=TRADITIONAL /* llmsafe plan " + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + " */ ";
        List<Traced> traces = explain(c, mark, sql, parameters, false);
        if (traces.stream().noneMatch(t -> t.insufficientPrivileges() || prepares(t.trace()))) {
            try (Statement s = c.createStatement()) {
                s.execute(TRACE_ON);
            }
            traces = explain(c, mark, sql, parameters, true);
        }
        try {
            if (traces.stream().noneMatch(t -> t.insufficientPrivileges() || prepares(t.trace()))) {
                throw new PlanNote.Unreadable("MySQL kept no optimizer trace of the EXPLAIN's preparation");
            }
            Set<TableRef> out = new LinkedHashSet<>();
            for (Traced t : traces) {
                out.addAll(relations(t));
            }
            return out;
        } catch (PlanNote.Unreadable u) {
            throw PlanNote.refusal(u);
        }
    }

    /** The relations of one trace of the EXPLAIN: none when it is of its execution only. */
    private static Set<TableRef> relations(Traced traced) throws PlanNote.Unreadable, RefusedException {
        if (traced.insufficientPrivileges()) {
            throw new RefusedException(Refusal.NOT_GRANTED, "MySQL keeps the optimizer trace of this read from"
                    + " this connection's credential (INSUFFICIENT_PRIVILEGES: the read reads a view defined with SQL"
                    + " SECURITY DEFINER by another account), so the tables its plan reads cannot be checked against"
                    + " the allowlist (policy.allow). Nothing ran. Define the view with SQL SECURITY INVOKER and grant"
                    + " the read role SELECT and SHOW VIEW on it and SELECT on its tables, or read the tables"
                    + " themselves.");
        }
        if (traced.missingBytes() > 0) {
            throw new PlanNote.Unreadable("the optimizer trace is " + traced.missingBytes() + " bytes longer than"
                    + " optimizer_trace_max_mem_size");
        }
        return prepares(traced.trace()) ? relations(traced.sql(), traced.rows(), traced.trace(), traced.database())
                : Set.of();
    }

    /** Whether a trace begins with a preparation (one of an execution that was prepared before has none). */
    private static boolean prepares(String trace) {
        try {
            JsonNode steps = trace == null ? null : MAPPER.readTree(trace).path("steps");
            return steps != null && steps.isArray() && !steps.isEmpty() && steps.get(0).has("join_preparation");
        } catch (JsonProcessingException e) {
            return true; // read as one, and refused for it
        }
    }

    /**
     * The EXPLAIN and its traces; none when no trace is of this EXPLAIN (the trace is off). A trace MySQL
     * keeps from the credential has no query (measured): it is this EXPLAIN's only when the trace was just
     * switched on ({@code on}), the one trace then kept being the latest statement's.
     */
    private static List<Traced> explain(Connection c, String mark, String sql, Dialect.Binder parameters, boolean on)
            throws SQLException {
        List<PlanNote.Row> rows;
        try (PreparedStatement ps = c.prepareStatement(mark + sql)) {
            parameters.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rows = PlanNote.rows(rs);
            }
        } catch (SQLException e) {
            throw PlanNote.explainFailed(e, "MySQL");
        }
        List<Traced> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(TRACE)) {
            while (rs.next()) {
                String query = rs.getString(1);
                boolean kept = rs.getInt(4) != 0 && (query == null || query.isEmpty());
                if (query != null && query.startsWith(mark) || on && kept) {
                    out.add(new Traced(sql, rows, rs.getString(2), rs.getLong(3), rs.getInt(4) != 0, rs.getString(5)));
                }
            }
        }
        return out;
    }

    /**
     * The relations the trace's preparation names, as {@code db.table}: views the server merged are their
     * tables, a view it materializes is the view.
     *
     * @param sql the statement as EXPLAINed
     * @param rows EXPLAIN's rows (a recursive CTE's own reference is known by its row only)
     * @param trace the optimizer trace's JSON
     * @param database the session's database, null when none
     */
    static Set<TableRef> relations(String sql, List<PlanNote.Row> rows, String trace, String database)
            throws PlanNote.Unreadable {
        JsonNode root;
        try {
            root = MAPPER.readTree(trace);
        } catch (JsonProcessingException e) {
            throw new PlanNote.Unreadable("the optimizer trace is not JSON");
        }
        Map<Long, Select> selects = new HashMap<>();
        // The preparation of every select comes first, before the optimizer has read anything; what follows
        // (the optimization, which prints values it read) is read for nothing but a select prepared there.
        JsonNode steps = root == null ? null : root.get("steps");
        if (steps == null || !steps.isArray()) {
            throw new PlanNote.Unreadable("the optimizer trace has no steps");
        }
        Set<Long> prepared = new HashSet<>();
        int i = 0;
        // A union's temporary table is created between its selects' preparations (measured on 8.0.31).
        for (; i < steps.size() && (steps.get(i).has("join_preparation") || steps.get(i).has("creating_tmp_table")); i++) {
            if (steps.get(i).has("join_preparation")) {
                prepare(steps.get(i).get("join_preparation"), selects, prepared);
            }
        }
        if (selects.isEmpty()) {
            throw new PlanNote.Unreadable("the optimizer trace prepares no select");
        }
        for (; i < steps.size(); i++) {
            if (preparesAnother(steps.get(i), prepared)) {
                throw new PlanNote.Unreadable("the optimizer trace prepares a select after the optimizer began");
            }
        }
        Set<List<Object>> recursive = new HashSet<>();
        for (PlanNote.Row r : rows) {
            if (r.table() != null && r.extra() != null && r.extra().contains("Recursive")) {
                recursive.add(List.of(r.id(), r.table()));
            }
        }
        List<PlanNote> read = new ArrayList<>();
        Set<String> aliases = new HashSet<>();
        for (Select s : selects.values()) {
            PlanNote note = PlanNote.read(sql, s.query, PlanNote.Printing.QUOTED_CTE_NAMES);
            read.add(note);
            aliases.addAll(note.aliases());
        }
        Set<TableRef> out = new LinkedHashSet<>();
        for (Select s : selects.values()) {
            // a materialized view, named by its own step too (its select's query names it as well)
            for (List<String> v : s.views()) {
                out.add(new TableRef(v.get(0) != null ? v.get(0) : sessionDatabase(database), v.get(1)));
            }
        }
        for (PlanNote note : read) {
            out.addAll(note.relations(aliases)); // a correlated subquery's columns qualified by the outer select's aliases
            for (PlanNote.Named n : note.byName()) {
                Select in = selects.get(n.select());
                if (in != null && in.ctes.contains(List.of(n.name(), n.alias()))
                        || recursive.contains(List.of(n.select(), n.alias()))) {
                    continue;
                }
                out.add(new TableRef(sessionDatabase(database), n.name()));
            }
        }
        return out;
    }

    /**
     * One select's preparation: its expanded query, the materialized CTEs it reads, by name and alias, and
     * the views it materializes, by database (null: the session's) and name.
     */
    private record Select(String query, Set<List<String>> ctes, List<List<String>> views) {
    }

    /** A select's preparation and, within it, every select prepared for it but a materialized view's body. */
    private static void prepare(JsonNode prep, Map<Long, Select> selects, Set<Long> prepared) throws PlanNote.Unreadable {
        JsonNode number = prep.get("select#");
        JsonNode steps = prep.get("steps");
        if (number == null || !number.canConvertToLong() || steps == null || !steps.isArray()) {
            throw new PlanNote.Unreadable("the optimizer trace has a preparation without its select number or steps");
        }
        Set<Long> viewBodies = new HashSet<>();
        Set<List<String>> ctes = new HashSet<>();
        List<List<String>> views = new ArrayList<>();
        List<String> queries = new ArrayList<>();
        for (JsonNode step : steps) {
            JsonNode view = step.get("view");
            if (view != null && view.path("materialized").asBoolean(false)) {
                viewBodies.add(view.path("select#").asLong(-1));
                views.add(view(view.path("table").asText("")));
            }
            JsonNode derived = step.get("derived");
            if (derived != null && derived.path("materialized").asBoolean(false)) {
                cte(derived.path("table").asText("")).ifPresent(ctes::add);
            }
            JsonNode query = step.get("expanded_query");
            if (query != null) {
                queries.add(query.asText());
            }
        }
        if (queries.size() != 1) {
            throw new PlanNote.Unreadable("the optimizer trace prepares select #" + number.asLong() + " with "
                    + queries.size() + " expanded queries, not one");
        }
        if (!prepared.add(number.asLong())) {
            throw new PlanNote.Unreadable("the optimizer trace prepares select #" + number.asLong() + " twice");
        }
        selects.put(number.asLong(), new Select(queries.get(0), ctes, views));
        for (JsonNode step : steps) {
            JsonNode inner = step.get("join_preparation");
            if (inner == null) {
                continue;
            }
            if (viewBodies.contains(inner.path("select#").asLong(-1))) {
                noted(inner, prepared); // the view itself: its body's selects are not read
            } else {
                prepare(inner, selects, prepared);
            }
        }
    }

    /** Adds the number of every select prepared in {@code prep}, itself included. */
    private static void noted(JsonNode prep, Set<Long> prepared) {
        prepared.add(prep.path("select#").asLong(-1));
        for (JsonNode step : prep.path("steps")) {
            if (step.has("join_preparation")) {
                noted(step.get("join_preparation"), prepared);
            }
        }
    }

    /**
     * Whether {@code node} holds the preparation of a select not in {@code prepared}: one prepared after
     * the optimizer began could have been prepared from what it read.
     */
    private static boolean preparesAnother(JsonNode node, Set<Long> prepared) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (e.getKey().equals("join_preparation") && !prepared.contains(e.getValue().path("select#").asLong(-1))
                    || preparesAnother(e.getValue(), prepared)) {
                return true;
            }
        }
        if (node.isArray()) {
            for (JsonNode n : node) {
                if (preparesAnother(n, prepared)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String sessionDatabase(String database) throws PlanNote.Unreadable {
        if (database == null) {
            throw new PlanNote.Unreadable("the optimizer trace names a table of the session's database, and the session"
                    + " has none");
        }
        return database;
    }

    /** A {@code view} step's table: {@code `v` `alias`} or {@code `db`.`v` `alias`}, the alias optional. */
    private static List<String> view(String table) throws PlanNote.Unreadable {
        List<NoteLexer.Token> t = NoteLexer.lex(table, PlanNote.Printing.QUOTED_CTE_NAMES);
        boolean qualified = t.size() >= 3 && t.get(1).punct(".");
        int size = qualified ? 3 : 1;
        if (t.size() < size || t.size() > size + 1 || t.stream().filter(x -> x.kind() == NoteLexer.Kind.IDENT).count()
                != t.size() - (qualified ? 1 : 0)) {
            throw new PlanNote.Unreadable("the optimizer trace has a view step whose table is not a name");
        }
        List<String> out = new ArrayList<>();
        out.add(qualified ? t.get(0).text() : null);
        out.add(t.get(qualified ? 2 : 0).text());
        return out;
    }

    /**
     * A {@code derived} step's table, as its name and alias when it is a CTE read ({@code `x` `a`},
     * {@code `x`}); a derived table ({@code  `d`}, its alias after a space) is none.
     */
    private static Optional<List<String>> cte(String table) throws PlanNote.Unreadable {
        if (table.startsWith(" ")) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (NoteLexer.Token t : NoteLexer.lex(table, PlanNote.Printing.QUOTED_CTE_NAMES)) {
            if (t.kind() != NoteLexer.Kind.IDENT) {
                return Optional.empty();
            }
            names.add(t.text());
        }
        return switch (names.size()) {
            case 1 -> Optional.of(List.of(names.get(0), names.get(0)));
            case 2 -> Optional.of(List.of(names.get(0), names.get(1)));
            default -> Optional.empty();
        };
    }
}
