package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;

/**
 * SQLite through sqlite-jdbc. No row locks: the dry run and the apply take the whole database's write
 * lock up front (BEGIN IMMEDIATE), which also makes the apply's check-then-write atomic without FOR
 * UPDATE. Its catalog is the file itself and hides nothing; {@code total_changes()} counts every row
 * written on the connection.
 */
final class SqliteDialect implements Dialect {

    private static final Pattern TRIGGER_HEAD = Pattern.compile("(?is)^\\s*CREATE\\s+(?:TEMP(?:ORARY)?\\s+)?TRIGGER\\s+"
            + "(?:IF\\s+NOT\\s+EXISTS\\s+)?(?:\"(?:[^\"]|\"\")*\"|`[^`]*`|\\[[^\\]]*\\]|[^\\s(]+)(?:\\s*\\.\\s*"
            + "(?:\"(?:[^\"]|\"\")*\"|`[^`]*`|\\[[^\\]]*\\]|[^\\s(]+))?\\s+(BEFORE|AFTER|INSTEAD\\s+OF)?\\s*"
            + "(DELETE|INSERT|UPDATE)\\b");

    /** A step of EXPLAIN QUERY PLAN that visits a table: {@code SCAN t}, {@code SEARCH t USING ...}. */
    private static final Pattern PLAN_STEP = Pattern.compile("^(SCAN|SEARCH) (?:TABLE )?(\\S+)");

    private final String product;
    private final ValueReader values = ValueReader.sqlite();
    private final java.util.Map<SQLiteConnection, SqliteRowLog> rowLogs = SqliteRowLog.registry();
    private final SqliteSession session = new SqliteSession();

    SqliteDialect(String product) {
        this.product = product;
    }

    @Override
    public String product() {
        return product;
    }

    @Override
    public SqlDialect sqlDialect() {
        return SqlDialect.SQLITE;
    }

    @Override
    public String unboundedText() {
        return "TEXT";
    }

    @Override
    public String identityPrimaryKey(String column) {
        return column + " INTEGER PRIMARY KEY AUTOINCREMENT";
    }

    @Override
    public String metadataContainer(String catalog, String schema) {
        return schema != null ? schema : catalog;
    }

    @Override
    public String[] metadataName(TableRef ref) {
        return new String[] {null, null, ref.name()};
    }

    @Override
    public LexSettings lexSettings(Connection c) {
        return LexSettings.sqlite();
    }

    @Override
    public SessionSettings session(Connection c) throws SQLException {
        return session.current(c);
    }

    @Override
    public void reproduce(Connection c, SessionSettings wanted) throws SQLException {
        session.reproduce(c, wanted);
    }

    @Override
    public void initConnection(Connection c) throws SQLException {
        // Foreign keys are off by default per connection; the dry run and the apply enforce them so that
        // both see the same cascades (which are then refused) and the same errors.
        Jdbc.execute(c, "PRAGMA foreign_keys = ON");
        c.unwrap(SQLiteConnection.class).getConnectionConfig().setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    }

    @Override
    public void begin(Connection c, Bounds bounds) throws SQLException {
        c.setAutoCommit(true);
        Jdbc.execute(c, "PRAGMA busy_timeout = " + bounds.lockTimeoutMs());
        // With the IMMEDIATE transaction mode set at init, this takes the database's write lock now.
        c.setAutoCommit(false);
    }

    /**
     * sqlite-jdbc begins the next transaction the moment it rolls one back, in the connection's mode; an
     * IMMEDIATE one takes the write lock, and ending it (returning to auto-commit commits it) then waits for
     * every other connection's reader to finish: measured, a dry run failed with SQLITE_BUSY while another
     * connection had a result set open. The next transaction is made DEFERRED, which takes no lock;
     * {@link #initConnection} makes it IMMEDIATE again for the next dry run.
     */
    @Override
    public void rollback(Connection c) throws SQLException {
        c.unwrap(SQLiteConnection.class).getConnectionConfig().setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
        c.rollback();
    }

    /**
     * E9, measured on sqlite-jdbc 3.54.1.0 (SQLite 3.54.1) with an UPDATE of 20,000 rows that spills a
     * 10-page cache: ROLLBACK restores every row under DELETE, TRUNCATE, PERSIST, WAL and MEMORY; under
     * OFF it left 19,795 of them changed (a one-row UPDATE came back, which is why no small test finds
     * it). A process killed inside the transaction leaves every row restored at the next open under
     * DELETE, TRUNCATE, PERSIST and WAL, and 19,795 changed under MEMORY and OFF. So only the four
     * journal modes that keep a journal on disk are planned on, and MEMORY only for a database with no
     * file, where a crash loses everything anyway. An unknown mode is refused too.
     */
    @Override
    public Optional<String> rollbackUndefined(Connection c, TableRef table) throws SQLException {
        String mode = String.valueOf(Jdbc.string(c, "PRAGMA " + quote(table.schema()) + ".journal_mode"))
                .toLowerCase(Locale.ROOT);
        if (ROLLBACK_JOURNALS.contains(mode)) {
            return Optional.empty();
        }
        String file = Jdbc.string(c, "SELECT file FROM pragma_database_list WHERE name = ?", table.schema());
        if (mode.equals("memory") && (file == null || file.isEmpty())) {
            return Optional.empty();
        }
        String why = mode.equals("memory")
                ? "keeps its rollback journal in memory (journal_mode=MEMORY): a process that stops during a dry run"
                        + " leaves the dry run's writes in the file (measured)"
                : "runs with journal_mode=" + mode + ", under which SQLite's ROLLBACK is undefined (measured: it"
                        + " left most rows of a large rolled-back UPDATE changed)";
        return Optional.of("the SQLite database " + table.schema() + " " + why + ", so a dry run there could be a real,"
                + " permanent write. Open it with journal_mode DELETE (SQLite's default), TRUNCATE, PERSIST or WAL"
                + " on the planning and applying connections (the URL's journal_mode parameter).");
    }

    private static final Set<String> ROLLBACK_JOURNALS = Set.of("delete", "truncate", "persist", "wal");

    @Override
    public Optional<TableRef> resolve(Connection c, QualifiedName name) throws SQLException {
        return lookup(c, name).map(r -> new TableRef(r[3], r[0]));
    }

    @Override
    public Optional<TableInfo> table(Connection c, QualifiedName name) throws SQLException {
        Optional<String[]> found = lookup(c, name);
        return found.isEmpty() ? Optional.empty() : Optional.of(describe(c, found.get()[3], found.get()));
    }

    /** SQLite resolves an unqualified name in temp first, then main; names compare without case. */
    private Optional<String[]> lookup(Connection c, QualifiedName name) throws SQLException {
        List<String> schemas = name.qualifier() == null ? List.of("temp", "main") : List.of(name.qualifier().last().text());
        for (String schema : schemas) {
            List<String[]> found = Jdbc.query(c, "SELECT name, type, sql FROM " + quote(schema)
                            + ".sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
                    rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3), schema}, name.last().text());
            if (!found.isEmpty()) {
                return Optional.of(found.get(0));
            }
        }
        return Optional.empty();
    }

    private TableInfo describe(Connection c, String schema, String[] row) throws SQLException {
        TableRef ref = new TableRef(schema, row[0]);
        boolean virtual = row[2] != null && row[2].toUpperCase(Locale.ROOT).replaceAll("\\s+", " ")
                .startsWith("CREATE VIRTUAL TABLE");
        TableInfo.Kind kind = row[1].equals("view") ? TableInfo.Kind.VIEW
                : virtual ? TableInfo.Kind.VIRTUAL_TABLE : TableInfo.Kind.TABLE;
        List<Object[]> cols = Jdbc.query(c, "SELECT name, type, \"notnull\", pk, hidden FROM " + quote(schema)
                        + ".pragma_table_xinfo(?)",
                rs -> new Object[] {rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5)}, ref.name());
        List<ColumnInfo> columns = new ArrayList<>();
        List<Object[]> keyParts = new ArrayList<>();
        for (Object[] col : cols) {
            int hidden = (Integer) col[4];
            if (hidden == 1) {
                continue;
            }
            String type = col[1] == null ? "" : (String) col[1];
            columns.add(new ColumnInfo((String) col[0], type, type, (Integer) col[2] == 0, hidden >= 2, false,
                    Optional.empty()));
            if ((Integer) col[3] > 0) {
                keyParts.add(col);
            }
        }
        keyParts.sort((a, b) -> Integer.compare((Integer) a[3], (Integer) b[3]));
        List<String> primaryKey = keyParts.stream().map(k -> (String) k[0]).toList();

        List<TableInfo.Trigger> triggers = new ArrayList<>();
        for (String[] t : Jdbc.query(c, "SELECT name, sql FROM " + quote(schema) + ".sqlite_schema"
                + " WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE", rs -> new String[] {rs.getString(1),
                rs.getString(2)}, ref.name())) {
            Matcher m = TRIGGER_HEAD.matcher(t[1] == null ? "" : t[1]);
            if (!m.find()) {
                // A trigger whose header cannot be read is assumed to fire on everything.
                triggers.add(new TableInfo.Trigger(t[0], "BEFORE", List.of("UPDATE", "DELETE")));
            } else if (!m.group(2).equalsIgnoreCase("INSERT")) {
                String timing = m.group(1) == null ? "BEFORE" : m.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
                triggers.add(new TableInfo.Trigger(t[0], timing, List.of(m.group(2).toUpperCase(Locale.ROOT))));
            }
        }
        List<TableInfo.ForeignKey> inbound = new ArrayList<>();
        for (String child : Jdbc.query(c, "SELECT name FROM " + quote(schema) + ".sqlite_schema WHERE type = 'table'",
                rs -> rs.getString(1))) {
            for (TableInfo.ForeignKey fk : foreignKeys(c, schema, child, primaryKey)) {
                if (fk.parent().name().equalsIgnoreCase(ref.name())) {
                    inbound.add(new TableInfo.ForeignKey(fk.child(), fk.childColumns(), ref, fk.parentColumns(),
                            fk.onDelete(), fk.onUpdate()));
                }
            }
        }
        return new TableInfo(ref, kind, kind == TableInfo.Kind.VIRTUAL_TABLE ? "virtual" : "sqlite",
                kind != TableInfo.Kind.VIRTUAL_TABLE, columns, primaryKey, triggers, inbound,
                Optional.empty(), TableInfo.Visibility.COMPLETE);
    }

    @Override
    public List<TableInfo.ForeignKey> outboundForeignKeys(Connection c, TableRef table) throws SQLException {
        return foreignKeys(c, table.schema(), table.name(), List.of());
    }

    /** The foreign keys of one table; a reference without columns names the parent's primary key. */
    private List<TableInfo.ForeignKey> foreignKeys(Connection c, String schema, String table, List<String> parentKey)
            throws SQLException {
        List<String[]> rows = Jdbc.query(c, "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM "
                        + quote(schema) + ".pragma_foreign_key_list(?) ORDER BY id, seq",
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6)}, table);
        List<TableInfo.ForeignKey> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); ) {
            String id = rows.get(i)[0];
            List<String> from = new ArrayList<>();
            List<String> to = new ArrayList<>();
            String[] first = rows.get(i);
            for (; i < rows.size() && rows.get(i)[0].equals(id); i++) {
                from.add(rows.get(i)[2]);
                to.add(rows.get(i)[3]);
            }
            if (to.stream().anyMatch(t -> t == null)) {
                to = parentKey;
            }
            out.add(new TableInfo.ForeignKey(new TableRef(schema, table), from, new TableRef(schema, first[1]), to,
                    first[5].toUpperCase(Locale.ROOT), first[4].toUpperCase(Locale.ROOT)));
        }
        return out;
    }

    @Override
    public String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public String lockClause() {
        return "";
    }

    @Override
    public WriteMeter writeMeter(Connection c, boolean written) throws SQLException {
        long before = Long.parseLong(Jdbc.string(c, "SELECT total_changes()"));
        SqliteRowLog log = SqliteRowLog.start(c, rowLogs);
        return () -> {
            try {
                long changes = Long.parseLong(Jdbc.string(c, "SELECT total_changes()")) - before;
                // D14: a row written twice (a trigger setting a column of the row just updated) is one row.
                return Writes.total(log.rows(changes));
            } finally {
                log.stop(c, rowLogs);
            }
        };
    }

    @Override
    public Set<String> volatileFunctions(Connection c, Set<QualifiedName> names) {
        return Set.of();
    }

    @Override
    public void beginReadSession(Connection c, int timeoutMs) throws SQLException {
        // Per connection and immediate (SPEC.md F29); SQLite has no statement timeout to set.
        Jdbc.execute(c, "PRAGMA query_only = ON");
    }

    @Override
    public SessionReset sessionReset() {
        return new SessionReset.Sqlite();
    }

    /** R8: a pragma read in the process, no round trip. */
    @Override
    public Optional<String> readSessionChanged(Connection c) throws SQLException {
        String value = Jdbc.string(c, "PRAGMA query_only");
        return "1".equals(value) ? Optional.empty() : Optional.of("query_only is " + value);
    }

    @Override
    public void endReadSession(Connection c) throws SQLException {
        Jdbc.execute(c, "PRAGMA query_only = OFF");
    }

    /**
     * R11: sqlite-jdbc steps a result row by row, and until it is closed the statement keeps the
     * database's read lock, in auto-commit mode too (measured, SPEC.md F35: a writer got SQLITE_BUSY
     * while a result set was open, unread or read to the row cap).
     */
    @Override
    public boolean resultSetHolds(java.sql.Statement vendorStatement) {
        return true;
    }

    /**
     * R12: SQLite refuses to read any value longer than its length limit, stored or computed (measured:
     * SQLITE_TOOBIG for a stored 2 MB text, a printf() result and length() of it), and the connection
     * goes on.
     */
    @Override
    public void boundValueSize(Connection c, int maxBytes) throws SQLException {
        c.unwrap(SQLiteConnection.class).setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, maxBytes);
    }

    /** sqlite-jdbc cannot read a limit back; a value above the compiled maximum sets that maximum. */
    @Override
    public void unboundValueSize(Connection c) throws SQLException {
        c.unwrap(SQLiteConnection.class).setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, Integer.MAX_VALUE);
    }

    @Override
    public boolean isResultTooLarge(SQLException e) {
        return (e.getErrorCode() & 0xff) == 18; // SQLITE_TOOBIG
    }

    @Override
    public boolean boundsReadTime() {
        return false;
    }

    @Override
    public boolean isReadOnlyViolation(SQLException e) {
        return (e.getErrorCode() & 0xff) == 8; // SQLITE_READONLY
    }

    @Override
    public Set<String> queryingRoutines(Connection c, Set<QualifiedName> names) {
        // SQLite has no stored routines; functions an application registers are in no catalog (a
        // limitation printed on every card).
        return Set.of();
    }

    /**
     * SQLite prints no cost. The estimate is the rows its plan visits: the product of the sizes of
     * the tables it scans in full (a table it cannot name, such as an alias or a materialized
     * subquery, counts as the largest table of the read), an equality search counting as one row and
     * a range search as the whole table. Rough, and on the side of refusing.
     */
    @Override
    public ReadCost explainCost(Connection c, String sql, Binder parameters, Set<TableRef> tables) throws SQLException {
        List<String> details = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
            parameters.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    details.add(rs.getString("detail"));
                }
            }
        }
        java.util.Map<String, Long> sizes = new java.util.HashMap<>();
        long largest = 1;
        for (TableRef t : tables) {
            long n = Long.parseLong(Jdbc.string(c, "SELECT count(*) FROM " + render(t)));
            sizes.put(t.name().toLowerCase(Locale.ROOT), n);
            largest = Math.max(largest, n);
        }
        double rows = 1;
        for (String d : details) {
            Matcher m = PLAN_STEP.matcher(d);
            if (!m.find() || m.group(2).equalsIgnoreCase("CONSTANT")) {
                continue;
            }
            boolean equality = m.group(1).equals("SEARCH") && d.matches(".*\\((?:[^()<>]*=\\?(?: AND )?)+\\).*");
            if (!equality) {
                rows *= Math.max(1, sizes.getOrDefault(m.group(2).toLowerCase(Locale.ROOT), largest));
            }
        }
        return new ReadCost(rows, "rows visited (SQLite reports no cost: the sizes of the tables its plan visits)");
    }

    /**
     * R9: the tables SQLite's own program opens (OpenRead and OpenWrite name a b-tree by its root page and
     * database), named through each database's sqlite_schema; root page 1 is sqlite_schema itself. Exact
     * where EXPLAIN QUERY PLAN shows only aliases (measured, SQLite 3.40 and 3.54). Virtual tables (VOpen)
     * carry no name: the table-valued functions and eponymous tables are judged by name instead.
     */
    @Override
    public Optional<Set<TableRef>> planRelations(Connection c, String sql, Binder parameters) throws SQLException {
        List<long[]> opens = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
            parameters.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String op = rs.getString("opcode");
                    if (op.equals("OpenRead") || op.equals("OpenWrite") || op.equals("ReopenIdx")) {
                        opens.add(new long[] {rs.getLong("p2"), rs.getLong("p3")});
                    }
                }
            }
        }
        Set<TableRef> out = new java.util.LinkedHashSet<>();
        if (opens.isEmpty()) {
            return Optional.of(out);
        }
        java.util.Map<Long, String> databases = new java.util.HashMap<>();
        for (String[] d : Jdbc.query(c, "PRAGMA database_list", rs -> new String[] {rs.getString(1), rs.getString(2)})) {
            databases.put(Long.parseLong(d[0]), d[1]);
        }
        java.util.Map<Long, java.util.Map<Long, String>> roots = new java.util.HashMap<>();
        for (long[] open : opens) {
            String db = databases.get(open[1]);
            if (db == null) {
                throw new SQLException("EXPLAIN opened a b-tree of database " + open[1] + ", which PRAGMA database_list"
                        + " does not name");
            }
            java.util.Map<Long, String> byRoot = roots.get(open[1]);
            if (byRoot == null) {
                byRoot = new java.util.HashMap<>();
                byRoot.put(1L, "sqlite_schema");
                for (Object[] r : Jdbc.query(c, "SELECT rootpage, tbl_name FROM " + quote(db) + ".sqlite_master"
                        + " WHERE rootpage IS NOT NULL AND rootpage > 0", rs -> new Object[] {rs.getLong(1), rs.getString(2)})) {
                    byRoot.put((Long) r[0], (String) r[1]);
                }
                roots.put(open[1], byRoot);
            }
            String table = byRoot.get(open[0]);
            if (table == null) {
                throw new SQLException("EXPLAIN opened the b-tree at root page " + open[0] + " of " + db + ", which is in"
                        + " no catalog entry");
            }
            out.add(new TableRef(db, table));
        }
        return Optional.of(out);
    }

    @Override
    public String nameContext(Connection c) throws SQLException {
        return String.join("", Jdbc.query(c, "PRAGMA database_list", rs -> rs.getString(2) + "=" + rs.getString(3) + "\n"));
    }

    @Override
    public boolean isSystemRelation(TableRef ref) {
        String n = ref.name().toLowerCase(Locale.ROOT);
        return n.startsWith("sqlite_");
    }

    @Override
    public List<String> limitations() {
        return List.of(
                "SQLite has no row locks: the dry run holds the whole database's write lock while it runs.",
                "SQLite has no statement timeout (sqlite-jdbc's query timeout does not stop a running statement,"
                        + " measured): a statement is interrupted from the client when it runs past the bound.",
                "SQLite counts the rows a connection writes in total, not per table: side effects are measured"
                        + " as a number of rows, without the tables they are in. A trigger that writes the row just"
                        + " written again is not counted twice, except in a WITHOUT ROWID table, where it is refused.",
                "Functions the application registers with SQLite are in no catalog: only the built-in volatile"
                        + " functions are recognised.");
    }

    @Override
    public Optional<Refusal> boundRefusal(SQLException e) {
        return switch (e.getErrorCode() & 0xff) {
            case 5, 6 -> Optional.of(Refusal.LOCK_TIMEOUT);
            case 9 -> Optional.of(Refusal.STATEMENT_TIMEOUT);
            default -> Optional.empty();
        };
    }

    @Override
    public ValueReader values() {
        return values;
    }

    @Override
    public boolean sameColumn(dev.llmsafe.policy.Identifier written, String stored) {
        return written.text().equalsIgnoreCase(stored);
    }

    @Override
    public long affectedRows(Connection c, long driverCount) throws SQLException {
        return Long.parseLong(Jdbc.string(c, "SELECT changes()"));
    }
}
