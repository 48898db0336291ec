package dev.llmsafe.dryrun;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.ColumnInfo;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.KeyBinding;
import dev.llmsafe.dialect.RowReader;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.dialect.Watchdog;
import dev.llmsafe.dialect.Writes;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.ParameterReplay;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's own queries on one table: the count, the before-image, the after-image and the re-read,
 * each built from the analysed parts (the table as written and the WHERE condition cut before
 * RETURNING, W9), never from the caller's whole text. Every column is read, through the dialect's
 * value reader, so that a change the statement does not name (a trigger, ON UPDATE) is seen too.
 */
public final class Images {

    private static final int KEYS_PER_QUERY = 500;

    private final Connection c;
    private final Dialect dialect;
    private final Watchdog watchdog;
    private final String from;
    private final List<String> columns;
    private final List<String> key;
    private final int[] keyIndex;
    private final String selectList;
    private final TableInfo info;
    private final Map<List<String>, RowReader> readers = new java.util.HashMap<>();

    public Images(Connection c, Dialect dialect, Watchdog watchdog, String from, TableInfo info) {
        this.c = c;
        this.dialect = dialect;
        this.watchdog = watchdog;
        this.from = from;
        this.info = info;
        this.columns = info.columns().stream().map(ColumnInfo::name).toList();
        this.key = info.primaryKey();
        this.keyIndex = key.stream().mapToInt(columns::indexOf).toArray();
        List<String> select = new ArrayList<>();
        for (ColumnInfo col : info.columns()) {
            select.add(dialect.values().selectExpression(dialect.quote(col.name()), col.dataType()));
        }
        this.selectList = String.join(", ", select);
    }

    public List<String> columns() {
        return columns;
    }

    public long count(String where, List<Parameter> params) throws SQLException {
        try (PreparedStatement ps = prepare("SELECT COUNT(*) FROM " + from + " WHERE " + where);
             Watchdog.Watch w = watchdog.watch(ps)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long n = rs.getLong(1);
                inTime(w);
                return n;
            }
        }
    }

    /** Full rows, in the order the database returned them. */
    public List<List<Value>> select(String where, List<Parameter> params, boolean lock) throws SQLException {
        return select(where, params, lock, 0);
    }

    /**
     * Full rows, at most {@code limit} of them when it is above zero (every dialect here reads LIMIT, and
     * puts it before the lock clause).
     */
    public List<List<Value>> select(String where, List<Parameter> params, boolean lock, long limit) throws SQLException {
        return select(where, params, lock, limit, null, null).rows();
    }

    /**
     * Rows an image read, with what the write counter read in the same round trip.
     *
     * @param rows the image's rows
     * @param counted the counter's reading, or null when none was asked
     */
    public record Counted<T>(T rows, Writes counted) {
    }

    /**
     * {@link #select(String, List, boolean, long)} with {@code ahead} (a statement without parameters, or
     * null) sent before it and the counter (or null) read in the same round trip: its query after it where
     * the dialect {@link Dialect#joinsStatements()}, else its columns in the select list ({@code ahead}
     * only where the dialect joins statements). The reading is null when no row came back to carry it.
     */
    public Counted<List<List<Value>>> select(String where, List<Parameter> params, boolean lock, long limit,
            String ahead, Dialect.WriteCounter counter) throws SQLException {
        try (PreparedStatement ps = prepare(joined(ahead, "SELECT " + selectList + " FROM " + from + " WHERE " + where
                + (limit > 0 ? " LIMIT " + limit : "") + (lock ? dialect.lockClause() : ""), counter))) {
            bind(ps, params);
            List<List<Value>> rows = new ArrayList<>();
            Writes counted = read(ps, ahead != null, counter, rows);
            return new Counted<>(rows, counted);
        }
    }

    /** The rows with these keys, as they are now (J11: every key type bound back exactly). */
    public Map<List<Value>, List<Value>> byKeys(List<List<Value>> keys) throws SQLException {
        return byKeys(keys, null, null).rows();
    }

    /**
     * {@link #byKeys(List)} with {@code ahead} sent before the first read and the counter's query after
     * the last, each in that read's round trip (see {@link #select(String, List, boolean, long, String,
     * Dialect.WriteCounter)}); {@code keys} is not empty when either is given.
     */
    public Counted<Map<List<Value>, List<Value>>> byKeys(List<List<Value>> keys, String ahead,
            Dialect.WriteCounter counter) throws SQLException {
        if (keys.isEmpty() && (ahead != null || counter != null)) {
            throw new IllegalArgumentException("no keys to read with the statements that ride along");
        }
        Map<List<Value>, List<Value>> out = new LinkedHashMap<>();
        KeyBinding binding = new KeyBinding(c, dialect.sqlDialect());
        List<String> quoted = key.stream().map(dialect::quote).toList();
        Writes counted = null;
        for (int start = 0; start < keys.size(); start += KEYS_PER_QUERY) {
            int end = Math.min(keys.size(), start + KEYS_PER_QUERY);
            List<List<Value>> chunk = keys.subList(start, end);
            String first = start == 0 ? ahead : null;
            Dialect.WriteCounter last = end == keys.size() ? counter : null;
            try (PreparedStatement ps = prepare(joined(first, "SELECT " + selectList + " FROM " + from + " WHERE "
                    + binding.condition(quoted, chunk), last))) {
                int i = 1;
                for (List<Value> k : chunk) {
                    for (Value v : k) {
                        binding.bind(ps, i++, v);
                    }
                }
                List<List<Value>> rows = new ArrayList<>();
                Writes reading = read(ps, first != null, last, rows);
                counted = last != null ? reading : counted;
                for (List<Value> row : rows) {
                    out.put(keyOf(row), row);
                }
            }
        }
        return new Counted<>(out, counted);
    }

    /**
     * The image's text with what rides along: where the dialect joins statements, {@code ahead} before it
     * and the counter's query after it; elsewhere the counter's columns at the end of its select list
     * ({@code image} begins with {@code SELECT} and the select list).
     */
    private String joined(String ahead, String image, Dialect.WriteCounter counter) {
        if (!dialect.joinsStatements()) {
            if (ahead != null) {
                throw new IllegalArgumentException("a statement to send ahead, for a dialect that does not join them");
            }
            return counter == null ? image : "SELECT " + selectList + ", " + String.join(", ", counter.columns())
                    + image.substring(("SELECT " + selectList).length());
        }
        return (ahead == null ? "" : ahead + "; ") + image + (counter == null ? "" : "; " + counter.query());
    }

    /**
     * D14's reading on its own, for an image that returned no row to carry it (a DELETE's after-image):
     * the same counter, one query.
     */
    public Writes count(Dialect.WriteCounter counter) throws SQLException {
        try (PreparedStatement ps = prepare(counter.query()); Watchdog.Watch w = watchdog.watch(ps);
             ResultSet rs = ps.executeQuery()) {
            Writes counted = counter.read(rs);
            inTime(w);
            return counted;
        }
    }

    /**
     * J11: a key that cannot be bound back is refused before anything runs, not found missing afterwards.
     * A key holding a date with a zero part is looked up once first: whether the server compares such a
     * date depends on the session's sql_mode and the server (MySQL 8.0 and 9.7 with their default
     * NO_ZERO_DATE refuse it with error 1525; MariaDB compares it), so the server is asked, not guessed.
     */
    public void checkBindable(java.util.Collection<List<Value>> keys) throws SQLException {
        List<List<Value>> zeroDated = new ArrayList<>();
        for (List<Value> k : keys) {
            for (Value v : k) {
                java.util.Optional<String> why = KeyBinding.unbindable(v, dialect.sqlDialect());
                if (why.isPresent()) {
                    throw KeyBinding.notBindable(why.get());
                }
            }
            if (k.stream().anyMatch(Images::hasZeroPart)) {
                zeroDated.add(k);
            }
        }
        if (!zeroDated.isEmpty()) {
            try {
                byKeys(zeroDated);
            } catch (SQLException e) {
                if (!dialect.refusesToCompare(e) || e instanceof RefusedException) {
                    throw e;
                }
                throw KeyBinding.notBindable("a date with a zero part, which the server refuses to compare under this"
                        + " session's sql_mode (it said: " + e.getMessage() + ")");
            }
        }
    }

    private static boolean hasZeroPart(Value v) {
        DateValue date = v instanceof TimestampValue t ? t.date() : v instanceof DateValue d ? d : null;
        return date != null && date.toLocalDate().isEmpty();
    }

    public List<Value> keyOf(List<Value> row) {
        List<Value> k = new ArrayList<>(keyIndex.length);
        for (int i : keyIndex) {
            k.add(row.get(i));
        }
        return List.copyOf(k);
    }

    /**
     * Runs {@code ps}: the result of the statement ahead (if any) passed over, the image's rows into
     * {@code rows}, and the counter's reading (if any) returned, all from one round trip.
     */
    private Writes read(PreparedStatement ps, boolean ahead, Dialect.WriteCounter counter, List<List<Value>> rows)
            throws SQLException {
        try (Watchdog.Watch w = watchdog.watch(ps)) {
            boolean resultSet = ps.execute();
            if (ahead) {
                resultSet = ps.getMoreResults();
            }
            if (!resultSet) {
                throw new SQLException("the image query returned no rows to read");
            }
            Writes counted = null;
            // Where the counter rides in the select list, its values end every row; the first row's are read.
            int riding = counter == null || dialect.joinsStatements() ? 0 : counter.columns().size();
            try (ResultSet rs = ps.getResultSet()) {
                RowReader reader = reader(rs.getMetaData());
                while (rs.next()) {
                    List<Value> row = reader.read(rs);
                    if (riding > 0) {
                        if (counted == null) {
                            counted = counter.read(List.copyOf(row.subList(row.size() - riding, row.size())));
                        }
                        row = row.subList(0, row.size() - riding);
                    }
                    rows.add(List.copyOf(row));
                }
            }
            if (counter != null && riding == 0) {
                if (!ps.getMoreResults()) {
                    throw new SQLException("the write counter's query returned no rows to read");
                }
                try (ResultSet rs = ps.getResultSet()) {
                    counted = counter.read(rs);
                }
            }
            inTime(w);
            return counted;
        }
    }

    /**
     * The reader of this table's rows, built on the first image and reused by the others: every image
     * selects the same columns (the before and after images, the proof of the rollback), and building it
     * may ask the catalog (MySQL's column types, pgjdbc's field metadata), a round trip each time.
     */
    private RowReader reader(ResultSetMetaData md) throws SQLException {
        List<String> labels = labels(md);
        RowReader reader = readers.get(labels);
        if (reader == null) {
            reader = dialect.values().rowReader(c, md, info);
            readers.put(labels, reader);
        }
        return reader;
    }

    private static List<String> labels(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>(md.getColumnCount());
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnLabel(i));
        }
        return out;
    }

    /**
     * A statement the watchdog cancelled is refused even when it returned: what it read or wrote after
     * the cancel is not what the statement means (a SLEEP cut short), and the caller rolls back.
     */
    private void inTime(Watchdog.Watch w) throws RefusedException {
        if (w.fired()) {
            throw new RefusedException(Refusal.STATEMENT_TIMEOUT, "the statement ran longer than its bound ("
                    + watchdog.delayMs() + " ms) and was cancelled; what it did is rolled back. Nothing was changed;"
                    + " narrow the WHERE clause, or make the statement faster.");
        }
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        ps.setEscapeProcessing(false);
        return ps;
    }

    /** Runs the analysed statement itself with its parameters; the rows it affected, as the database counts them. */
    public long run(Analysis a, List<Parameter> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(a.text()); Watchdog.Watch w = watchdog.watch(ps)) {
            ps.setEscapeProcessing(false);
            bind(ps, params);
            long n = 0;
            if (!a.returning()) {
                n = ps.executeLargeUpdate();
            } else if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    while (rs.next()) {
                        n++;
                    }
                }
            } else {
                n = ps.getLargeUpdateCount();
            }
            inTime(w);
            return dialect.affectedRows(c, n);
        }
    }

    /** D16: the count and the images bind the WHERE's parameters as the statement does, as the application did. */
    private static void bind(PreparedStatement ps, List<Parameter> params) throws SQLException {
        ParameterReplay.bindAll(ps, params);
    }
}
