package dev.llmsafe.jdbc;

import dev.llmsafe.RefusedException;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Map;

/**
 * The guarded surface of a result set. Rows are capped (R4): the vendor statement fetches one row past
 * the cap, and when that row exists {@link #next()} stops at the cap and a {@link SQLWarning} with
 * SQLState {@value #TRUNCATED} says the result was cut; so does the byte bound (R12, {@link ReadBytes}),
 * at the first row boundary after it is reached. A result set that holds the database is closed at
 * policy.read.holdMs ({@link Holds}, R11). Objects that reach the database or carry the
 * vendor's types (arrays, nested result sets) are wrapped or refused ({@link Values}); a LOB is a copy
 * of the column's own value, never the vendor's locator ({@link Lobs}, J10), counted as its bytes; the
 * back-reference is llmsafe's statement (J1); navigating backwards is refused where a cap applies, so
 * that no row past it can be reached.
 */
final class GuardedResultSet extends ReadOnlyResultSet {

    /** The SQLState of the warning that a result was cut at the row cap. */
    static final String TRUNCATED = "01L01";

    private final Statement statement;
    private final long limit;
    private long row;
    private boolean capReached;
    private boolean truncated;
    private boolean cutByBytes;
    private boolean warningsCleared;
    private GuardedResultSetMetaData metaData;
    private Holds holds;
    private volatile HoldTimer.Scheduled holdEnd;

    /**
     * @param statement llmsafe's statement that made it, or null (metadata and array result sets)
     * @param limit the most rows handed out; 0 when no cap applies here
     */
    GuardedResultSet(Statement statement, ResultSet delegate, long limit) {
        super(delegate);
        this.statement = statement;
        this.limit = limit;
    }

    /** R11: the connection's holds, told when this closes. */
    GuardedResultSet watchedBy(Holds h) {
        this.holds = h;
        return this;
    }

    /** R11: the timer that closes this at the bound. */
    void endHoldWith(HoldTimer.Scheduled end) {
        this.holdEnd = end;
    }

    /** R11: closed by llmsafe at the bound; every later call says why. */
    void holdEnded(RefusedException why) {
        endWith(why);
        if (markClosed()) {
            try {
                delegateForClose().close();
            } catch (SQLException e) {
                // it is closed for the caller either way
            }
        }
    }

    /** The vendor result set ran out of rows: on SQLite its statement no longer holds the read lock. */
    private void releaseHold() {
        HoldTimer.Scheduled end = holdEnd;
        if (end != null) {
            end.cancel();
        }
    }

    /** R12: counts the values handed out against {@code policy.read.maxBytes}. */
    GuardedResultSet counting(ReadBytes budget) {
        countWith(budget);
        return this;
    }

    @Override
    public boolean next() throws SQLException {
        ResultSet d = d();
        try {
            ReadBytes budget = bytes();
            if (!capReached && budget != null && budget.spent()) {
                // R12: the bound is reached at this row boundary; whether more rows match is known only by
                // fetching one, which is what the bound is there to avoid: say the result was cut.
                capReached = true;
                truncated = true;
                cutByBytes = true;
                endAtCap();
                return false;
            }
            if (limit > 0 && row >= limit) {
                if (!capReached) {
                    capReached = true;
                    truncated = d.next();
                    endAtCap();
                }
                return false;
            }
            if (d.next()) {
                row++;
                return true;
            }
            releaseHold();
            return false;
        } catch (SQLException e) {
            // Closed by the hold bound while the vendor call ran: say so, not the vendor's "closed".
            RefusedException ended = endedWith();
            if (ended != null) {
                throw new RefusedException(ended.code(), ended.detail(), e);
            }
            ReadBytes budget = bytes();
            SQLException translated = budget == null ? e : budget.translate(e);
            // R10: an error while rows are fetched (SQLite computes them here) may carry a value.
            throw translated instanceof RefusedException ? translated : dev.llmsafe.DatabaseErrors.withheld(translated);
        }
    }

    /** R4: whether rows were left out at the cap; known once {@link #next()} returned false. */
    boolean truncated() {
        return truncated;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        SQLWarning vendor = d().getWarnings();
        if (!truncated || warningsCleared) {
            return vendor;
        }
        SQLWarning cut = cutByBytes
                ? new SQLWarning("llmsafe: the result was cut after " + row + " rows, at " + bytes().used() + " bytes"
                        + " (policy.read.maxBytes is " + bytes().max() + "); more rows may match. Narrow the read:"
                        + " fewer rows, fewer or shorter columns.", TRUNCATED)
                : new SQLWarning("llmsafe: the result was cut at " + limit + " rows (policy.read.maxRows);"
                        + " more rows match. Narrow the read or aggregate it.", TRUNCATED);
        if (vendor != null) {
            cut.setNextWarning(vendor);
        }
        return cut;
    }

    @Override
    public void clearWarnings() throws SQLException {
        d().clearWarnings();
        warningsCleared = true;
    }

    @Override
    public boolean isLast() throws SQLException {
        ResultSet d = d();
        if (limit > 0 && row >= limit) {
            return !capReached;
        }
        return d.isLast();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        ResultSet d = d();
        return capReached || d.isAfterLast();
    }

    // ---- navigation: forward only where a cap applies ----

    private ResultSet navigable(String method) throws SQLException {
        ResultSet d = d();
        if (limit > 0) {
            throw Guard.forbidden("ResultSet." + method, "results are read forward only, so that the row cap holds"
                    + " (R4). Read them with next().");
        }
        return d;
    }

    @Override
    public boolean previous() throws SQLException {
        return navigable("previous").previous();
    }

    @Override
    public boolean first() throws SQLException {
        return navigable("first").first();
    }

    @Override
    public boolean last() throws SQLException {
        return navigable("last").last();
    }

    @Override
    public boolean absolute(int position) throws SQLException {
        return navigable("absolute").absolute(position);
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        return navigable("relative").relative(rows);
    }

    @Override
    public void beforeFirst() throws SQLException {
        navigable("beforeFirst").beforeFirst();
    }

    @Override
    public void afterLast() throws SQLException {
        navigable("afterLast").afterLast();
    }

    // ---- values that are JDBC objects: wrapped or refused (J1); LOBs are the column's own value (J10) ----

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        ResultSet v = v();
        return counted(Values.value(Lobs.ownValue(v, columnIndex, v.getObject(columnIndex), bytes())));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(v().findColumn(columnLabel));
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        ResultSet v = v();
        return counted(Values.value(Lobs.ownValue(v, columnIndex, v.getObject(columnIndex, map), bytes())));
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(v().findColumn(columnLabel), map);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        ResultSet v = v();
        if (Lobs.isLob(type)) {
            return type.cast(Lobs.byClass(v, columnIndex, type, bytes()));
        }
        return counted(Values.value(Lobs.ownValue(v, columnIndex, v.getObject(columnIndex, type), bytes()), type));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(v().findColumn(columnLabel), type);
    }

    private <T> T counted(T value) throws SQLException {
        ReadBytes budget = bytes();
        return budget == null ? value : budget.object(value);
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        return Values.value(v().getArray(columnIndex), Array.class);
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return Values.value(v().getArray(columnLabel), Array.class);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        return Lobs.blob(v(), columnIndex, bytes());
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(v().findColumn(columnLabel));
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        return Lobs.clob(v(), columnIndex, bytes());
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(v().findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        return Lobs.nclob(v(), columnIndex, bytes());
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(v().findColumn(columnLabel));
    }

    /** A Ref can set the value it references ({@code Ref.setObject}): a write. */
    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        v();
        throw Values.refRefused();
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        v();
        throw Values.refRefused();
    }

    // ---- the rest of the guarded surface ----

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        ResultSet d = d();
        if (metaData == null) {
            metaData = new GuardedResultSetMetaData(d.getMetaData());
        }
        return metaData;
    }

    @Override
    public Statement getStatement() throws SQLException {
        d();
        return statement;
    }

    @Override
    public int getConcurrency() throws SQLException {
        d();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean isClosed() throws SQLException {
        return closed() || delegateForClose().isClosed();
    }

    @Override
    public void close() throws SQLException {
        if (markClosed()) {
            releaseHold();
            if (holds != null) {
                holds.closed(this);
            }
            delegateForClose().close();
        }
    }

    void closeQuietly() {
        try {
            close();
        } catch (SQLException e) {
            // closing with its statement, which is closing too
        }
    }
}
