package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteUpdateListener;

/**
 * D14 on SQLite: which rows a statement wrote, as SQLite's update hook reports them (every row inserted,
 * updated or deleted in a rowid table, by the statement and by its triggers, with its table and rowid).
 * {@code total_changes()} counts writes, not rows: an AFTER UPDATE trigger that sets a maintained column
 * of the row just updated counts as a second change (measured, SQLite 3.54.1: 2 changes, the hook reports
 * the same rowid twice), though no other row was written. The hook tells that apart from a trigger that
 * writes another row of the same table (two rowids). It is not called for WITHOUT ROWID tables: when it
 * saw fewer writes than {@code total_changes()} counted, the count of writes stands, strictly.
 *
 * <p>One log per connection, replaced by the next measurement on it, so that a measurement that was never
 * read (a refusal in between) leaves no listener behind. Thread-safe.
 */
final class SqliteRowLog implements SQLiteUpdateListener {

    private final Set<String> updated = new HashSet<>();
    private long events;
    private long others;
    private boolean overflow;

    private static final int MAX_ROWS = 1_000_000;

    /** Starts logging on the connection, ending the log a previous measurement left there. */
    static SqliteRowLog start(Connection c, Map<SQLiteConnection, SqliteRowLog> logs) throws SQLException {
        SQLiteConnection sqlite = c.unwrap(SQLiteConnection.class);
        SqliteRowLog log = new SqliteRowLog();
        synchronized (logs) {
            SqliteRowLog stale = logs.put(sqlite, log);
            if (stale != null) {
                sqlite.removeUpdateListener(stale);
            }
        }
        sqlite.addUpdateListener(log);
        return log;
    }

    /** Ends logging on the connection. */
    void stop(Connection c, Map<SQLiteConnection, SqliteRowLog> logs) throws SQLException {
        SQLiteConnection sqlite = c.unwrap(SQLiteConnection.class);
        sqlite.removeUpdateListener(this);
        synchronized (logs) {
            logs.remove(sqlite, this);
        }
    }

    /** A map of logs that forgets a connection once it is gone. */
    static Map<SQLiteConnection, SqliteRowLog> registry() {
        return new WeakHashMap<>();
    }

    @Override
    public synchronized void onUpdate(Type type, String database, String table, long rowId) {
        events++;
        if (type == Type.UPDATE && !overflow) {
            updated.add(database + '\u0000' + table + '\u0000' + rowId);
            overflow = updated.size() > MAX_ROWS;
        } else {
            others++;
        }
    }

    /**
     * The rows written: each row updated once however often it was written, and every insert and delete;
     * or {@code changes} itself when the hook did not see every change that {@code total_changes()} counted.
     */
    synchronized long rows(long changes) {
        if (overflow || events != changes) {
            return changes;
        }
        return updated.size() + others;
    }
}
