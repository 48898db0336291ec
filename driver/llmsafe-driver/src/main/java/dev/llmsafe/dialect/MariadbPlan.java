package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * R9 on MariaDB: the relations a read's plan reads, from {@code EXPLAIN EXTENDED}'s rows and the query
 * the server prints back as Note 1003 (measured on MariaDB 10.11.19, SPEC.md R9.1 to R9.4), read by
 * {@link PlanNote}. The rows are what the plan reads, each under the name the statement gave it (an
 * alias); every row's alias must be found among the note's tables of the same select, so that the note is
 * proven to name everything the plan reads, or the read is refused.
 */
final class MariadbPlan {

    private MariadbPlan() {
    }

    /**
     * {@code EXPLAIN EXTENDED} with {@code expensive_subquery_limit = 0} for the EXPLAIN only: the optimizer
     * then evaluates no subquery while it plans, which would otherwise print the subquery as its value and
     * its tables not at all (measured on 10.11.19). Two round trips: the EXPLAIN, then SHOW WARNINGS.
     */
    static Set<TableRef> relations(Connection c, String sql, Dialect.Binder parameters) throws SQLException {
        return PlanNote.explain(c, "SET STATEMENT expensive_subquery_limit = 0 FOR EXPLAIN EXTENDED " + sql, parameters,
                "EXPLAIN EXTENDED", "MariaDB", (rows, note) -> relations(sql, rows, note));
    }

    /**
     * The relations the plan reads, as {@code db.table}: views the server merged are their tables, a view
     * it materializes (TEMPTABLE) is the view.
     *
     * @param sql the statement as EXPLAINed
     * @param rows EXPLAIN EXTENDED's rows
     * @param note the text of Note 1003
     */
    static Set<TableRef> relations(String sql, List<PlanNote.Row> rows, String note) throws PlanNote.Unreadable {
        PlanNote read = PlanNote.read(sql, note, PlanNote.Printing.RAW_CTE_NAMES);
        check(rows, read);
        return read.relations();
    }

    /** Every row that reads a table is a table of the note in the same select, or of a view the note names. */
    private static void check(List<PlanNote.Row> rows, PlanNote note) throws PlanNote.Unreadable {
        Set<Long> printed = note.printed();
        long firstHiddenBody = Long.MAX_VALUE;
        for (PlanNote.Row r : rows) {
            Matcher m = PlanNote.DERIVED.matcher(r.table() == null ? "" : r.table());
            if (m.matches() && !printed.contains(Long.parseLong(m.group(1)))) {
                firstHiddenBody = Math.min(firstHiddenBody, Long.parseLong(m.group(1)));
            }
        }
        Map<Long, Long> semiJoinedInto = PlanNote.semiJoins(rows);
        note.everySelectPrinted(rows, semiJoinedInto, firstHiddenBody);
        for (PlanNote.Row r : rows) {
            if (r.table() == null || r.table().startsWith("<")) {
                continue; // no table, or a materialization whose own rows are listed
            }
            long into = semiJoinedInto.getOrDefault(r.id(), r.id());
            boolean named = note.refs().stream()
                    .anyMatch(f -> (f.select() == r.id() || f.select() == into) && f.alias().equals(r.table()));
            // The body of a view the server materializes is not printed: its selects are numbered after the
            // statement's own (measured), from the first <derivedN> the note prints no select for.
            boolean inHiddenBody = !printed.contains(r.id()) && !semiJoinedInto.containsKey(r.id()) && r.id() >= firstHiddenBody;
            if (!named && !inHiddenBody) {
                throw new PlanNote.Unreadable("the plan reads a table in select #" + r.id() + " that the server's"
                        + " rewritten query does not name");
            }
        }
    }
}
