package dev.llmsafe.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * How {@link GuardedMetaData} answers with rows (J9): the vendor's own result set, its column layout
 * kept, with the rows the policy hides skipped by {@code next()}, wrapped read-only (J1). Every answer
 * goes through one of these: {@link #filtered} (row by row), {@link #withoutGroups} (an index or a key
 * is shown whole or not at all), {@link #none} (the vendor's columns, no row), or {@link #facts} for the
 * two answers that name nothing in the database (the kinds of table, the client info properties).
 */
final class MetaRows {

    private MetaRows() {
    }

    /** Which rows of a metadata result the model may see. */
    @FunctionalInterface
    interface RowFilter {
        boolean shows(ResultSet row) throws SQLException;
    }

    /** A vendor question that can be asked again. */
    @FunctionalInterface
    interface Question {
        ResultSet ask() throws SQLException;
    }

    /** What a row belongs to (an index, a key), or null for a row that belongs to nothing. */
    @FunctionalInterface
    interface Group {
        String of(ResultSet row) throws SQLException;
    }

    /** An answer that names nothing in the database, such as the kinds of table: every row, wrapped. */
    static ResultSet facts(ResultSet rs) {
        return rs == null ? null : new GuardedResultSet(null, rs, 0);
    }

    /** The vendor's columns and no row. */
    static ResultSet none(ResultSet rs) {
        return filtered(rs, row -> false);
    }

    /** The vendor result with the rows the filter hides skipped by {@code next()}, wrapped. */
    static ResultSet filtered(ResultSet rs, RowFilter filter) {
        if (rs == null) {
            return null;
        }
        ResultSet skipping = (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class}, (proxy, method, args) -> {
                    try {
                        if (method.getName().equals("next") && method.getParameterCount() == 0) {
                            while (rs.next()) {
                                if (filter.shows(rs)) {
                                    return true;
                                }
                            }
                            return false;
                        }
                        return method.invoke(rs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return facts(skipping);
    }

    /**
     * The rows the filter shows, without every group (an index, a key) of which one row is hidden: an
     * index on a secret column and another is dropped whole, not shown as an index on the other column,
     * and its name (MariaDB names a unique index after its column) goes with it. The question is asked
     * twice, once to find the groups and once to answer; a row hidden by itself is hidden on the second
     * pass too, so that a group made between the two passes still shows no hidden row.
     *
     * @param shows the rows shown at all (of allowlisted tables)
     * @param group what a row belongs to
     * @param hides whether a row is hidden, and its group with it
     */
    static ResultSet withoutGroups(Question question, RowFilter shows, Group group, RowFilter hides)
            throws SQLException {
        Set<String> hidden = new HashSet<>();
        try (ResultSet first = question.ask()) {
            while (first != null && first.next()) {
                if (shows.shows(first) && hides.shows(first)) {
                    String g = group.of(first);
                    if (g != null) {
                        hidden.add(g);
                    }
                }
            }
        }
        return filtered(question.ask(), row -> {
            if (!shows.shows(row) || hides.shows(row)) {
                return false;
            }
            String g = group.of(row);
            return g == null || !hidden.contains(g);
        });
    }

    /** A group key of several columns of a row, null-safe. */
    static String key(ResultSet row, String... columns) throws SQLException {
        StringBuilder sb = new StringBuilder();
        for (String c : columns) {
            String v = row.getString(c);
            sb.append(v == null ? "\u0000" : v).append('\u0001');
        }
        return sb.toString();
    }
}
