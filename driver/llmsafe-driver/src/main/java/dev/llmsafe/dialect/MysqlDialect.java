package dev.llmsafe.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * MySQL and MariaDB, through Connector/J. They are told apart by what the server answers, because
 * they differ where it matters: MariaDB's {@code max_statement_time} bounds writes, MySQL's
 * {@code max_execution_time} bounds only SELECT; their catalogs hide different things from a
 * least-privilege role. Both filter information_schema by privilege and answer "none" for what they
 * hide, so the credential's privileges are checked before an empty answer is believed (D15).
 */
final class MysqlDialect implements Dialect {

    private final String product;
    private final boolean mariadb;
    private final ValueReader values;
    private final MySqlSession session;
    /** One per dialect, so what the server refused to let a session set is learned once (R8). */
    private final SessionReset.Mysql sessionReset = new SessionReset.Mysql();

    MysqlDialect(String product, boolean mariadb) {
        this.product = product;
        this.mariadb = mariadb;
        this.values = mariadb ? ValueReader.mariadb() : ValueReader.mysql();
        this.session = new MySqlSession(mariadb);
    }

    @Override
    public String product() {
        return product;
    }

    @Override
    public SqlDialect sqlDialect() {
        return SqlDialect.MYSQL;
    }

    @Override
    public Optional<String> rowsChangedOption() {
        return Optional.of("useAffectedRows=true");
    }

    @Override
    public String unboundedText() {
        return "LONGTEXT";
    }

    @Override
    public String identityPrimaryKey(String column) {
        return column + " BIGINT AUTO_INCREMENT PRIMARY KEY";
    }

    @Override
    public String tableOptions() {
        return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public String metadataContainer(String catalog, String schema) {
        return catalog != null ? catalog : schema;
    }

    @Override
    public String[] metadataName(TableRef ref) {
        return new String[] {ref.schema(), null, ref.name()};
    }

    @Override
    public LexSettings lexSettings(Connection c) throws SQLException {
        return LexSettings.mysql(Jdbc.string(c, "SELECT @@SESSION.sql_mode"));
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
    public void reproduce(Connection c, SessionSettings current, SessionSettings wanted) throws SQLException {
        session.reproduce(c, current.values(), wanted);
    }

    @Override
    public void putBack(Connection c, SessionSettings current, SessionSettings own) throws SQLException {
        session.putBack(c, current.values(), own);
    }

    @Override
    public void initConnection(Connection c) throws SQLException {
        // READ COMMITTED: the count, the before-image and the statement see the latest committed rows,
        // not a snapshot taken at the first read. A fixed offset: TIMESTAMP values are converted through the
        // session zone, and a zone with daylight saving time makes some of them ambiguous. Plan and apply both
        // run in this one. One SET, one round trip: MariaDB 10.11 names the isolation variable tx_isolation
        // and has no transaction_isolation, MySQL 8.0 only transaction_isolation.
        Jdbc.execute(c, initialSettings());
    }

    private String initialSettings() {
        return "SET SESSION " + (mariadb ? "tx_isolation" : "transaction_isolation") + " = 'READ-COMMITTED',"
                + " time_zone = '+00:00'";
    }

    @Override
    public void begin(Connection c, Bounds bounds) throws SQLException {
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        // One SET for both bounds: one round trip.
        Jdbc.execute(c, "SET SESSION " + bounds(bounds));
        c.setAutoCommit(false);
    }

    private String bounds(Bounds bounds) {
        return "innodb_lock_wait_timeout = " + Math.max(1, (bounds.lockTimeoutMs() + 999) / 1000)
                + (mariadb ? ", max_statement_time = " + bounds.statementTimeoutMs() / 1000.0
                        : ", max_execution_time = " + bounds.statementTimeoutMs());
    }

    /**
     * The connection's settings and the dry run's bounds in one SET, then the session read. The bounds are
     * session settings, set on every plan: the catalog's questions before the statement run under them too.
     */
    @Override
    public SessionSettings initSession(Connection c, Bounds bounds) throws SQLException {
        Jdbc.execute(c, initialSettings() + ", " + bounds(bounds));
        return session(c);
    }

    /**
     * START TRANSACTION in auto-commit mode: Connector/J's setAutoCommit(false) and back send a
     * {@code SET autocommit} each (measured with 26.10), one round trip more per plan. The bounds were set
     * by {@link #initSession(Connection, Bounds)}.
     */
    @Override
    public void beginDryRun(Connection c, Bounds bounds) throws SQLException {
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        Jdbc.execute(c, "START TRANSACTION");
    }

    /** COMMIT in SQL, as {@link #beginDryRun} opened the transaction (an apply's too) in SQL. */
    @Override
    public void commitApply(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            Dialect.super.commitApply(c);
            return;
        }
        Jdbc.execute(c, "COMMIT");
    }

    @Override
    public LexSettings lexSettings(Connection c, SessionSettings known) throws SQLException {
        String mode = known.values().get("sql_mode");
        return mode == null ? lexSettings(c) : LexSettings.mysql(mode);
    }

    @Override
    public void rollbackDryRun(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            Dialect.super.rollbackDryRun(c);
            return;
        }
        Jdbc.execute(c, "ROLLBACK");
    }

    @Override
    public Optional<TableRef> resolve(Connection c, QualifiedName name) throws SQLException {
        return lookup(c, name).map(r -> new TableRef(r[0], r[1]));
    }

    private Optional<String[]> lookup(Connection c, QualifiedName name) throws SQLException {
        String schema = name.qualifier() == null ? Jdbc.string(c, "SELECT DATABASE()") : name.qualifier().last().text();
        String table = name.last().text();
        if (schema == null) {
            return Optional.empty();
        }
        List<String[]> found = Jdbc.query(c, "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, COALESCE(ENGINE, ''),"
                        + " TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)},
                schema, table);
        if (found.size() > 1) {
            // The catalog compares names without case; keep the one spelled as written, if there is one.
            found = found.stream().filter(r -> r[1].equals(table)).toList();
        }
        return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
    }

    @Override
    public Optional<TableInfo> table(Connection c, QualifiedName name) throws SQLException {
        MysqlCatalog.Answer answer;
        try {
            answer = MysqlCatalog.ask(c, name, mariadb, !mariadb);
        } catch (SQLException e) {
            if (mariadb || e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE) {
                throw e;
            }
            // Before 8.0.16 MySQL has no partial_revokes, and wildcards in grants are wildcards.
            answer = MysqlCatalog.ask(c, name, false, false);
        }
        return MysqlCatalog.table(answer, name, mariadb);
    }

    /** ER_UNKNOWN_SYSTEM_VARIABLE. */
    private static final int UNKNOWN_SYSTEM_VARIABLE = 1193;

    /** Foreign keys, one row per column, with their rules; a condition and {@link #FK_ORDER} follow. */
    private static final String FOREIGN_KEYS = "SELECT k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME, k.COLUMN_NAME,"
            + " k.REFERENCED_TABLE_SCHEMA, k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME, rc.DELETE_RULE, rc.UPDATE_RULE"
            + " FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS rc"
            + " ON rc.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND rc.CONSTRAINT_NAME = k.CONSTRAINT_NAME"
            + " AND rc.TABLE_NAME = k.TABLE_NAME WHERE ";
    private static final String FK_ORDER = " ORDER BY k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION";

    @Override
    public List<TableInfo.ForeignKey> outboundForeignKeys(Connection c, TableRef table) throws SQLException {
        return foreignKeys(Jdbc.query(c, FOREIGN_KEYS + "k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ?"
                + " AND k.REFERENCED_TABLE_NAME IS NOT NULL" + FK_ORDER, MysqlDialect::fkRow, table.schema(), table.name()));
    }

    private static String[] fkRow(java.sql.ResultSet rs) throws SQLException {
        String[] r = new String[9];
        for (int i = 0; i < 9; i++) {
            r[i] = rs.getString(i + 1);
        }
        return r;
    }

    private static List<TableInfo.ForeignKey> foreignKeys(List<String[]> rows) {
        Map<String, List<String[]>> byConstraint = new LinkedHashMap<>();
        for (String[] r : rows) {
            byConstraint.computeIfAbsent(r[0] + "." + r[1] + "." + r[2], k -> new ArrayList<>()).add(r);
        }
        List<TableInfo.ForeignKey> out = new ArrayList<>();
        for (List<String[]> parts : byConstraint.values()) {
            String[] f = parts.get(0);
            out.add(new TableInfo.ForeignKey(new TableRef(f[0], f[1]), parts.stream().map(p -> p[3]).toList(),
                    new TableRef(f[4], f[5]), parts.stream().map(p -> p[6]).toList(), f[7], f[8]));
        }
        return out;
    }

    @Override
    public Optional<String> startTransaction() {
        return Optional.of("START TRANSACTION");
    }

    @Override
    public String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    @Override
    public String lockClause() {
        return " FOR UPDATE";
    }

    /**
     * D14 from the session's own status counters, which count every row handed to a storage engine by
     * this session's statements, triggers and stored routines, live and without a privilege (measured on
     * MariaDB 10.11, SPEC.md F22-F27, F39-F42). They do not see what InnoDB itself writes for a foreign
     * key's ON DELETE / ON UPDATE action: such statements are refused from the catalog
     * (CASCADE_SIDE_EFFECTS) before anything runs. The counters of MariaDB's internal temporary tables
     * ({@code Handler_tmp_*}) are apart and not read. The counters are cumulative on the connection, so
     * a baseline is read before the statement in every case.
     */
    @Override
    public WriteMeter writeMeter(Connection c, boolean written) throws SQLException {
        Writes.Counts before;
        try {
            before = handlerCounts(c);
        } catch (SQLException e) {
            return () -> Writes.unknown(unreadable(e));
        }
        return () -> {
            Writes.Counts after;
            try {
                after = handlerCounts(c);
            } catch (SQLException e) {
                return Writes.unknown(unreadable(e));
            }
            return Writes.session(new Writes.Counts(after.inserted() - before.inserted(),
                    after.updated() - before.updated(), after.deleted() - before.deleted()));
        };
    }

    /**
     * D14 in the images' own round trips: the same three counters, read from the session's status table
     * in the image's select list (MariaDB information_schema.SESSION_STATUS, MySQL
     * performance_schema.session_status; both readable with table grants only, measured on 10.11.19,
     * 11.8.9, 8.0.31 and 9.7.4, where they agree with SHOW SESSION STATUS and neither the image's
     * SELECT ... FOR UPDATE nor the read counts a write, SPEC.md F43). A counter the table does not
     * list is NULL, and the meter then reads SHOW SESSION STATUS on its own.
     */
    @Override
    public Optional<WriteCounter> writeCounter() {
        return Optional.of(counter);
    }

    private final WriteCounter counter = new WriteCounter() {
        @Override
        public String query() {
            return "SELECT " + String.join(", ", columns());
        }

        /** Built when asked: the dialect's fields are not yet set while this object is made. */
        @Override
        public List<String> columns() {
            return java.util.stream.Stream.of("Handler_write", "Handler_update", "Handler_delete")
                    .map(name -> "CAST((SELECT VARIABLE_VALUE FROM " + (mariadb ? "information_schema.SESSION_STATUS"
                            : "performance_schema.session_status") + " WHERE VARIABLE_NAME = '"
                            + (mariadb ? name.toUpperCase(Locale.ROOT) : name) + "') AS SIGNED)").toList();
        }

        @Override
        public Writes read(java.sql.ResultSet rs) throws SQLException {
            if (!rs.next()) {
                return Writes.unknown("the session's status counters gave no row");
            }
            List<dev.llmsafe.value.Value> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                String v = rs.getString(i);
                values.add(v == null ? dev.llmsafe.value.Value.NULL
                        : new dev.llmsafe.value.IntegerValue(new java.math.BigInteger(v)));
            }
            return read(values);
        }

        @Override
        public Writes read(List<dev.llmsafe.value.Value> values) {
            long[] n = new long[values.size()];
            for (int i = 0; i < n.length; i++) {
                if (!(values.get(i) instanceof dev.llmsafe.value.IntegerValue v)) {
                    return Writes.unknown("the session's status table does not list the Handler counters");
                }
                n[i] = v.value().longValueExact();
            }
            return Writes.session(new Writes.Counts(n[0], n[1], n[2]));
        }

        @Override
        public Writes between(Writes before, Writes after) {
            if (before.unknown().isPresent()) {
                return before;
            }
            if (after.unknown().isPresent()) {
                return after;
            }
            Writes.Counts b = before.session().orElseThrow();
            Writes.Counts a = after.session().orElseThrow();
            return Writes.session(new Writes.Counts(a.inserted() - b.inserted(), a.updated() - b.updated(),
                    a.deleted() - b.deleted()));
        }
    };

    private static String unreadable(SQLException e) {
        return "the session's status counters (SHOW SESSION STATUS) cannot be read (" + e.getMessage() + ")";
    }

    /** Handler_write, Handler_update and Handler_delete of this session, in one query. */
    private static Writes.Counts handlerCounts(Connection c) throws SQLException {
        Map<String, Long> counts = new HashMap<>();
        for (Object[] r : Jdbc.query(c, "SHOW SESSION STATUS WHERE Variable_name IN"
                        + " ('Handler_write', 'Handler_update', 'Handler_delete')",
                rs -> new Object[] {rs.getString(1).toLowerCase(Locale.ROOT), rs.getLong(2)})) {
            counts.put((String) r[0], (Long) r[1]);
        }
        if (counts.size() != 3) {
            throw new SQLException("SHOW SESSION STATUS gave " + counts.keySet() + ", not the three Handler counters");
        }
        return new Writes.Counts(counts.get("handler_write"), counts.get("handler_update"),
                counts.get("handler_delete"));
    }

    @Override
    public Set<String> volatileFunctions(Connection c, Set<QualifiedName> names) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        for (QualifiedName n : names) {
            String schema = n.qualifier() == null ? null : n.qualifier().last().text();
            out.addAll(Jdbc.query(c, "SELECT ROUTINE_NAME FROM information_schema.ROUTINES"
                            + " WHERE ROUTINE_SCHEMA = COALESCE(?, DATABASE()) AND ROUTINE_TYPE = 'FUNCTION'"
                            + " AND ROUTINE_NAME = ? AND (IS_DETERMINISTIC = 'NO' OR SQL_DATA_ACCESS = 'MODIFIES SQL DATA')",
                    rs -> rs.getString(1), schema, n.last().text()));
        }
        return out;
    }

    @Override
    public void beginReadSession(Connection c, int timeoutMs) throws SQLException {
        Jdbc.inAutoCommit(c, () -> {
            // Measured on MariaDB 10.11 (SPEC.md F29): this stops a stored function's INSERT (1792).
            Jdbc.execute(c, "SET SESSION TRANSACTION READ ONLY");
            // MySQL's max_execution_time bounds only SELECT, which is all a read is.
            Jdbc.execute(c, mariadb ? "SET SESSION max_statement_time = " + timeoutMs / 1000.0
                    : "SET SESSION max_execution_time = " + timeoutMs);
        });
    }

    @Override
    public SessionReset sessionReset() {
        return sessionReset;
    }

    /**
     * R8: one query, as Connector/J is not told of a session variable's change unless the connection was
     * opened with trackSessionState, which a pool the application configured does not do.
     * The variable is {@code transaction_read_only} on MySQL 8 and {@code tx_read_only} on MariaDB
     * (10.11 has no transaction_read_only, measured).
     */
    @Override
    public Optional<String> readSessionChanged(Connection c) throws SQLException {
        // MySQL 8.0 has only transaction_read_only (tx_read_only was removed in 8.0.3: "Unknown system
        // variable", measured on 8.0.31); MariaDB 10.11 has only tx_read_only (11.x both).
        String variable = mariadb ? "tx_read_only" : "transaction_read_only";
        String value = Jdbc.string(c, "SELECT @@SESSION." + variable);
        return "1".equals(value) ? Optional.empty() : Optional.of(variable + " is " + value);
    }

    /**
     * R8 and R9 in the one round trip the R8 proof costs anyway: the read-only flag and the current
     * database in one SELECT (Connector/J is told of neither without trackSessionState). It runs with the
     * read's own row limit: Connector/J keeps one SQL_SELECT_LIMIT per session and sends
     * {@code SET SQL_SELECT_LIMIT} before any statement whose limit differs (measured with 26.10 on MariaDB
     * 10.11: a look without it cost two more round trips per read, one to lift the limit, one to set it back).
     */
    @Override
    public SessionCheck checkReadSession(Connection c, int readMaxRows) throws SQLException {
        String variable = mariadb ? "tx_read_only" : "transaction_read_only";
        String value;
        String database;
        try (java.sql.Statement s = c.createStatement()) {
            s.setMaxRows(readMaxRows);
            try (ResultSet rs = s.executeQuery("SELECT @@SESSION." + variable + ", DATABASE()")) {
                rs.next();
                value = rs.getString(1);
                database = rs.getString(2);
            }
        }
        return new SessionCheck("1".equals(value) ? Optional.empty() : Optional.of(variable + " is " + value),
                Optional.of(String.valueOf(database)));
    }

    @Override
    public void endReadSession(Connection c) throws SQLException {
        Jdbc.inAutoCommit(c, () -> {
            Jdbc.execute(c, "SET SESSION TRANSACTION READ WRITE");
            Jdbc.execute(c, mariadb ? "SET SESSION max_statement_time = DEFAULT" : "SET SESSION max_execution_time = DEFAULT");
        });
    }

    /**
     * R11: InnoDB turns every plain SELECT of a SERIALIZABLE transaction into a locking read, in a
     * read-only transaction too (measured on MariaDB 10.11, SPEC.md F34: another session's UPDATE of the
     * row waited); REPEATABLE READ reads one consistent snapshot without row locks, which is all a
     * transaction that only reads can observe.
     */
    @Override
    public int readIsolation(int requested) {
        return requested == Connection.TRANSACTION_SERIALIZABLE ? Connection.TRANSACTION_REPEATABLE_READ : requested;
    }

    /** R11: Connector/J buffers a result unless it streams (fetch size MIN_VALUE) or uses a server cursor. */
    @Override
    public boolean resultSetHolds(java.sql.Statement vendorStatement) throws SQLException {
        return vendorStatement != null && vendorStatement.getFetchSize() != 0;
    }

    @Override
    public boolean boundsReadTime() {
        return true;
    }

    @Override
    public boolean catalogHidesUngrantedTables() {
        return true;
    }

    @Override
    public boolean refusesToCompare(SQLException e) {
        return e.getErrorCode() == 1525; // ER_WRONG_VALUE, "Incorrect DATE value", a zero date under NO_ZERO_DATE
    }

    @Override
    public boolean isReadOnlyViolation(SQLException e) {
        return e.getErrorCode() == 1792 || "25006".equals(e.getSQLState());
    }

    @Override
    public Set<String> queryingRoutines(Connection c, Set<QualifiedName> names) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        for (QualifiedName n : names) {
            // Every stored function is SQL, in any database: a call may reach one in another database.
            // The catalog lists the routines the credential may run, which are the ones that matter.
            out.addAll(Jdbc.query(c, "SELECT DISTINCT ROUTINE_NAME FROM information_schema.ROUTINES"
                    + " WHERE ROUTINE_TYPE = 'FUNCTION' AND LOWER(ROUTINE_NAME) = LOWER(?)",
                    rs -> rs.getString(1), n.last().text()));
        }
        return out;
    }

    @Override
    public ReadCost explainCost(Connection c, String sql, Binder parameters, Set<TableRef> tables) throws SQLException {
        if (!mariadb) {
            String plan = explain(c, "EXPLAIN FORMAT=JSON " + sql, parameters, rs -> rs.getString(1)).get(0);
            JsonNode json = Explain.json(plan);
            JsonNode cost = json.path("query_block").path("cost_info").path("query_cost");
            if (cost.isMissingNode()) {
                // explain_json_format_version=2, MySQL 9's default (measured on 9.7.4): the plan's root
                // operation carries the estimate of the whole query, except where it is a shortcut (a COUNT(*)
                // of a join, "Count rows in a") that gives none: the format of 8.0 gives one for every plan.
                cost = json.path("query_plan").path("estimated_total_cost");
                if (cost.isMissingNode() && json.has("json_schema_version")) {
                    plan = explainInFormat1(c, sql, parameters);
                    cost = Explain.json(plan).path("query_block").path("cost_info").path("query_cost");
                }
            }
            if (cost.isMissingNode()) {
                throw new SQLException("EXPLAIN did not give a query cost: " + plan);
            }
            return new ReadCost(Double.parseDouble(cost.asText()), "MySQL cost units (EXPLAIN's query_cost)");
        }
        // MariaDB's EXPLAIN gives no cost (measured on 10.11): the product of its row estimates is what
        // a nested-loop join would examine, an overestimate where the parts are independent.
        double rows = 1;
        for (Long r : explain(c, "EXPLAIN " + sql, parameters, rs -> {
            long n = rs.getLong("rows");
            return rs.wasNull() ? 1L : n;
        })) {
            rows *= Math.max(1, r);
        }
        return new ReadCost(rows, "rows examined (the product of EXPLAIN's row estimates)");
    }

    /**
     * R9: the query as the server prints it while planning, every table named {@code `db`.`table`} (views it
     * merges as their tables, a view it materializes as itself). MariaDB and MySQL print the same syntax but
     * plan differently: {@link MariadbPlan} (EXPLAIN EXTENDED's rows and Note 1003, subqueries kept
     * unevaluated, the note proven to name every table a row reads), {@link MysqlPlan} (the optimizer trace's
     * preparation, written before the optimizer reads tables while it plans).
     */
    @Override
    public Optional<Set<TableRef>> planRelations(Connection c, String sql, Binder parameters) throws SQLException {
        return Optional.of(mariadb ? MariadbPlan.relations(c, sql, parameters) : MysqlPlan.relations(c, sql, parameters));
    }

    /** R9: MariaDB's and MySQL's own databases. */
    @Override
    public boolean isSystemRelation(TableRef ref) {
        String db = ref.schema().toLowerCase(Locale.ROOT);
        return db.equals("information_schema") || db.equals("mysql") || db.equals("performance_schema")
                || db.equals("sys");
    }

    @Override
    public boolean explainEvaluates() {
        return true;
    }

    @Override
    public String nameContext(Connection c) throws SQLException {
        return String.valueOf(Jdbc.string(c, "SELECT DATABASE()"));
    }

    /** EXPLAIN FORMAT=JSON in MySQL 8.0's format, the session's own format put back afterwards. */
    private static String explainInFormat1(Connection c, String sql, Binder parameters) throws SQLException {
        String own = Jdbc.string(c, "SELECT @@SESSION.explain_json_format_version");
        Jdbc.execute(c, "SET SESSION explain_json_format_version = 1");
        try {
            return explain(c, "EXPLAIN FORMAT=JSON " + sql, parameters, rs -> rs.getString(1)).get(0);
        } finally {
            Jdbc.execute(c, "SET SESSION explain_json_format_version = " + Integer.parseInt(own));
        }
    }

    private static <T> List<T> explain(Connection c, String sql, Binder parameters, Jdbc.Row<T> row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            parameters.bind(ps);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        }
    }

    @Override
    public List<String> limitations() {
        List<String> out = new ArrayList<>();
        if (!mariadb) {
            out.add("MySQL has no server statement timeout for UPDATE or DELETE (max_execution_time bounds SELECT"
                    + " only): a statement is cancelled from the client when it runs past the bound (measured on MySQL"
                    + " 8.0.31 and 9.7.4), except while it runs in a trigger, as the trigger's definer: the cancel"
                    + " is then refused (error 1095) and the statement runs to its end before it is refused and"
                    + " rolled back.");
            out.add("MySQL counts the rows of its internal temporary tables (a subquery or derived table it"
                    + " materialises) among the rows written: a statement whose plan uses one is refused as"
                    + " SIDE_EFFECTS.");
        }
        out.add("The side-effect measure is the session's count of rows written (Handler_write, Handler_update,"
                + " Handler_delete), in all tables together: side effects are measured as a number of rows, without"
                + " the tables they are in.");
        out.add("That count does not see what a foreign key's ON DELETE or ON UPDATE action writes: a statement"
                + " that could fire a CASCADE, SET NULL or SET DEFAULT is refused from the catalog"
                + " (CASCADE_SIDE_EFFECTS).");
        out.add("Foreign keys from other databases are visible only to a credential with privileges there.");
        return out;
    }

    @Override
    public Optional<Refusal> boundRefusal(SQLException e) {
        if (cancelledByClient(e)) {
            return Optional.of(Refusal.STATEMENT_TIMEOUT);
        }
        return switch (e.getErrorCode()) {
            case 1205 -> Optional.of(Refusal.LOCK_TIMEOUT);
            // 1969: MariaDB's max_statement_time; 3024: MySQL's max_execution_time (SELECT only); 1317: the
            // statement was interrupted (KILL QUERY, which is how a client's cancel reaches the server).
            case 1969, 3024, 1317 -> Optional.of(Refusal.STATEMENT_TIMEOUT);
            default -> Optional.empty();
        };
    }

    /**
     * Connector/J reports a statement stopped by {@code Statement.cancel()} (the watchdog's, since MySQL
     * bounds no UPDATE or DELETE itself) as its own exception, with error code 0 and no SQLState: "Statement
     * cancelled due to client request" (measured on MySQL 8.0.31 and MariaDB 10.11). By name, so that this
     * class loads without Connector/J.
     */
    private static boolean cancelledByClient(SQLException e) {
        for (Class<?> k = e.getClass(); k != null; k = k.getSuperclass()) {
            if (k.getName().equals("com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ValueReader values() {
        return values;
    }


    @Override
    public boolean sameColumn(Identifier written, String stored) {
        return written.text().equalsIgnoreCase(stored);
    }
}
