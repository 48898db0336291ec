package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * R9 on MySQL: the relations a read's plan reads, from plain {@code EXPLAIN}'s rows and its Note 1003
 * (measured on MySQL 8.0.31, SPEC.md R9.5 to R9.8), read by {@link PlanNote} as MariaDB's is. MySQL has no
 * way to keep the optimizer from reading tables while it plans: a derived table or a view of at most one
 * row is materialized and printed as its values ({@code select 'service-role-key' AS `token` from dual}),
 * a subquery that gives a constant for an index lookup is evaluated and printed as its value, and their
 * tables vanish from the note; a const table's values are printed in place of its columns, binary ones raw
 * (quotes and all: such a note mostly fails to lex, and is refused). The rows still show each select and
 * each table the plan read, so the note is believed only when it accounts for all of them:
 * <ul>
 *   <li>every select of the rows is printed in the note ({@code /* select#N}), or is the materialization of
 *       a semi-join printed in the select that reads {@code <subqueryN>}, or the body of a view the server
 *       materializes (not printed; numbered after the statement's own selects, measured);</li>
 *   <li>every row that reads a table is a table of the note in its select, under the same alias;</li>
 *   <li>a {@code <derivedN>} row whose select N is not printed is a view read through a temporary table: it
 *       is not a constant ({@code system}, {@code const}: printed as its values), and its select names as
 *       many tables that no row reads as it has such rows (the views);</li>
 *   <li>a select that ended after reading its const tables (no row lists a table) names one table at most.</li>
 * </ul>
 * Anything else is {@link PlanNote.Unreadable}: the read is refused, a false refusal at worst.
 */
final class MysqlPlan {

    private MysqlPlan() {
    }

    /** Two round trips: the EXPLAIN, then SHOW WARNINGS. */
    static Set<TableRef> relations(Connection c, String sql, Dialect.Binder parameters) throws SQLException {
        // FORMAT=TRADITIONAL: the rows this reads, whatever the session's explain_format (TREE by default on
        // MySQL 9.7.4, which has no id or table columns).
        return PlanNote.explain(c, "EXPLAIN FORMAT=TRADITIONAL " + sql, parameters, "EXPLAIN", "MySQL",
                (rows, note) -> relations(sql, rows, note));
    }

    /**
     * The relations the plan reads, as {@code db.table}: views the server merged are their tables, a view
     * it materializes is the view.
     *
     * @param sql the statement as EXPLAINed
     * @param rows EXPLAIN's rows
     * @param note the text of Note 1003
     */
    static Set<TableRef> relations(String sql, List<PlanNote.Row> rows, String note) throws PlanNote.Unreadable {
        PlanNote read = PlanNote.read(sql, note, PlanNote.Printing.QUOTED_CTE_NAMES);
        check(rows, read);
        return read.relations();
    }

    private static void check(List<PlanNote.Row> rows, PlanNote note) throws PlanNote.Unreadable {
        Set<Long> printed = note.printed();
        Map<Long, Long> semiJoinedInto = PlanNote.semiJoins(rows);
        Map<Long, Integer> viewsRead = new HashMap<>();
        long firstHiddenBody = Long.MAX_VALUE;
        Set<Integer> matched = new HashSet<>();
        List<PlanNote.Ref> refs = note.refs();
        for (PlanNote.Row r : rows) {
            long host = semiJoinedInto.getOrDefault(r.id(), r.id());
            if (printed.contains(host) && r.table() == null && r.extra() != null && r.extra().contains("const table")
                    && refs.stream().filter(f -> f.select() == host).count() > 1) {
                // The select ended after reading its const tables, and no row lists its tables: only the note
                // names them, after the values it read, which MySQL prints raw when they are binary.
                throw new PlanNote.Unreadable("the plan of select #" + host + " ended after reading its const tables,"
                        + " whose values the server's rewritten query prints before their names");
            }
            if (!printed.contains(host) || r.table() == null || r.result()) {
                continue; // a view's body (checked below), no table, or a union's temporary table
            }
            Matcher derived = PlanNote.DERIVED.matcher(r.table());
            if (derived.matches()) {
                long n = Long.parseLong(derived.group(1));
                if (printed.contains(n)) {
                    continue; // a derived table or CTE printed as its select, whose rows are its own
                }
                if (r.constant()) {
                    throw new PlanNote.Unreadable("the plan read a derived table or a view of select #" + host + " while"
                            + " planning, and the server's rewritten query prints its values in its place");
                }
                viewsRead.merge(host, 1, Integer::sum);
                firstHiddenBody = Math.min(firstHiddenBody, n);
                continue;
            }
            if (r.table().startsWith("<")) {
                if (!PlanNote.SUBQUERY.matcher(r.table()).matches()) {
                    throw new PlanNote.Unreadable("the plan reads a temporary table the server's rewritten query does"
                            + " not account for");
                }
                continue; // a materialized semi-join, whose own rows are listed
            }
            int found = -1;
            for (int i = 0; i < refs.size() && found < 0; i++) {
                PlanNote.Ref f = refs.get(i);
                if ((f.select() == r.id() || f.select() == host) && f.alias().equals(r.table()) && !matched.contains(i)) {
                    found = i;
                }
            }
            boolean recursive = r.extra() != null && r.extra().contains("Recursive")
                    && note.byName().stream().anyMatch(f -> f.select() == r.id() && f.alias().equals(r.table()));
            if (found < 0 && !recursive) {
                throw new PlanNote.Unreadable("the plan reads a table in select #" + r.id() + " that the server's"
                        + " rewritten query does not name");
            }
            if (found >= 0) {
                matched.add(found);
            }
        }
        for (Map.Entry<Long, Integer> e : viewsRead.entrySet()) {
            long unread = 0;
            for (int i = 0; i < refs.size(); i++) {
                if (refs.get(i).select() == e.getKey() && refs.get(i).table() != null && !matched.contains(i)) {
                    unread++;
                }
            }
            if (unread != e.getValue()) {
                throw new PlanNote.Unreadable("the plan reads " + e.getValue() + " derived tables or views in select #"
                        + e.getKey() + " where the server's rewritten query names " + unread);
            }
        }
        note.everySelectPrinted(rows, semiJoinedInto, firstHiddenBody);
    }
}
