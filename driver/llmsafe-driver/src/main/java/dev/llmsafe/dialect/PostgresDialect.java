package dev.llmsafe.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmsafe.Refusal;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.SqlDialect;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * PostgreSQL. Its catalogs answer a least-privilege role as they answer a superuser, its timeouts
 * bound writes, and {@code pg_stat_xact_user_tables} counts the current transaction's writes per
 * table. The configured schema is pinned on every connection of the engine's own: PostgreSQL's default
 * search_path ({@code "$user", public}) resolves differently for every role, and the roles are meant
 * to differ.
 */
final class PostgresDialect implements Dialect {

    private final String product;
    private final Identifier schema;
    private final ValueReader values = ValueReader.postgres();
    private final PostgresSession session = new PostgresSession();

    PostgresDialect(String product, Identifier schema) {
        this.product = product;
        this.schema = schema;
    }

    @Override
    public String product() {
        return product;
    }

    @Override
    public SqlDialect sqlDialect() {
        return SqlDialect.POSTGRESQL;
    }

    @Override
    public String unboundedText() {
        return "TEXT";
    }

    @Override
    public String identityPrimaryKey(String column) {
        return column + " BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
    }

    @Override
    public String metadataContainer(String catalog, String schema) {
        return schema;
    }

    @Override
    public String[] metadataName(TableRef ref) {
        return new String[] {null, ref.schema(), ref.name()};
    }

    @Override
    public LexSettings lexSettings(Connection c) throws SQLException {
        return LexSettings.postgres(!"off".equalsIgnoreCase(Jdbc.string(c, "SHOW standard_conforming_strings")));
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
        pinSchema(c);
    }

    @Override
    public void pinSchema(Connection c) throws SQLException {
        Jdbc.execute(c, pinStatement(schema));
    }

    /** The statement that pins a schema: the search_path that holds it alone, written as configured. */
    static String pinStatement(Identifier schema) {
        return "SET search_path TO " + schema;
    }

    private String searchPath() {
        return schema.toString();
    }

    /** The schema pinned and the session read in one statement, one round trip where there were two. */
    @Override
    public SessionSettings initSession(Connection c) throws SQLException {
        return SessionSettings.of(session.read(c, searchPath()));
    }

    /**
     * One round trip: pgjdbc sends BEGIN with the statement that pins the schema, sets both bounds for the
     * transaction (set_config(..., true), SET LOCAL) and reads the session. A setting made like the
     * application's in the transaction (set_config(..., false)) outlasts its COMMIT, so the caller puts the
     * pool's own back; a ROLLBACK undoes it.
     */
    @Override
    public SessionSettings beginApply(Connection c, Bounds bounds, SessionSettings wanted) throws SQLException {
        c.setAutoCommit(false);
        SessionSettings own = SessionSettings.of(session.read(c, searchPath(), bounds));
        session.reproduce(c, own.values(), wanted);
        return own;
    }

    @Override
    public LexSettings lexSettings(Connection c, SessionSettings known) throws SQLException {
        String conforming = known.values().get("standard_conforming_strings");
        return conforming == null ? lexSettings(c) : LexSettings.postgres(!"off".equalsIgnoreCase(conforming));
    }

    @Override
    public void begin(Connection c, Bounds bounds) throws SQLException {
        c.setAutoCommit(false);
        // set_config(..., true) is SET LOCAL: it lasts until the transaction ends, so a pooled connection never
        // keeps the bounds. Both in one statement, one round trip.
        Jdbc.string(c, boundsQuery(bounds));
    }

    private static String boundsQuery(Bounds bounds) {
        return "SELECT set_config('lock_timeout', '" + bounds.lockTimeoutMs() + "ms', true)"
                + " || set_config('statement_timeout', '" + bounds.statementTimeoutMs() + "ms', true)";
    }

    @Override
    public Optional<TableRef> resolve(Connection c, QualifiedName name) throws SQLException {
        List<TableRef> found = Jdbc.query(c, "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n"
                + " ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)", rs -> new TableRef(rs.getString(1),
                rs.getString(2)), renderAsWritten(name));
        return found.stream().findFirst();
    }

    /**
     * The catalog's answer about one table in one round trip: its own row ({@code t}), its columns
     * ({@code c}, by attnum), its primary key ({@code k}, in key order), its triggers ({@code g}) and the
     * foreign keys that reference it ({@code f}), each row tagged, every value as text.
     */
    private static final String TABLE = "WITH t AS (SELECT c.oid, n.nspname, c.relname, c.relkind,"
            + " obj_description(c.oid, 'pg_class') AS comment FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.oid = to_regclass(?))"
            + " SELECT 't', 0::int8, t.nspname::text, t.relname::text, t.relkind::text, t.comment, NULL::text, NULL::text,"
            + " NULL::text[], NULL::text[] FROM t"
            + " UNION ALL SELECT 'c', a.attnum::int8, a.attname::text, format_type(a.atttypid, a.atttypmod), ty.typname::text,"
            + " (NOT a.attnotnull)::text, (a.attgenerated <> '')::text, col_description(a.attrelid, a.attnum), NULL, NULL"
            + " FROM t JOIN pg_attribute a ON a.attrelid = t.oid JOIN pg_type ty ON ty.oid = a.atttypid"
            + " WHERE a.attnum > 0 AND NOT a.attisdropped"
            + " UNION ALL SELECT 'k', k.ord::int8, a.attname::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
            + " FROM t JOIN pg_index i ON i.indrelid = t.oid AND i.indisprimary"
            + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)"
            + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
            + " UNION ALL SELECT 'g', 0, tg.tgname::text, tg.tgtype::text, NULL, NULL, NULL, NULL, NULL, NULL"
            + " FROM t JOIN pg_trigger tg ON tg.tgrelid = t.oid AND NOT tg.tgisinternal"
            + " UNION ALL SELECT 'f', 0, cn.nspname::text, cc.relname::text, pn.nspname::text, pc.relname::text,"
            + " con.confdeltype::text, con.confupdtype::text, " + "%s, %s"
            + " FROM t JOIN pg_constraint con ON con.confrelid = t.oid AND con.contype = 'f'"
            + " JOIN pg_class cc ON cc.oid = con.conrelid"
            + " JOIN pg_namespace cn ON cn.oid = cc.relnamespace JOIN pg_class pc ON pc.oid = con.confrelid"
            + " JOIN pg_namespace pn ON pn.oid = pc.relnamespace"
            + " ORDER BY 1, 2";

    @Override
    public Optional<TableInfo> table(Connection c, QualifiedName name) throws SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement(tableSql())) {
            ps.setString(1, renderAsWritten(name));
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return table(rs);
            }
        }
    }

    private static String tableSql() {
        return String.format(TABLE, String.format(FK_KEYS, "con.conkey", "con.conrelid") + "::text[]",
                String.format(FK_KEYS, "con.confkey", "con.confrelid") + "::text[]");
    }

    /**
     * The apply's opening and its first table's catalog answer in one round trip: pgjdbc sends the two
     * statements of one PreparedStatement with one Sync, BEGIN before them; the second runs after the
     * first has pinned the schema. When the session had to be made like the application's, the table is
     * asked again after that, in the session the statement runs in.
     */
    @Override
    public Opened beginApply(Connection c, Bounds bounds, SessionSettings wanted, QualifiedName table)
            throws SQLException {
        c.setAutoCommit(false);
        Map<String, String> own;
        Optional<TableInfo> info;
        try (java.sql.PreparedStatement ps = c.prepareStatement(session.sql(true, bounds) + "; " + tableSql())) {
            ps.setString(1, searchPath());
            ps.setString(2, renderAsWritten(table));
            ps.execute();
            try (java.sql.ResultSet rs = ps.getResultSet()) {
                own = session.values(rs, true, bounds);
            }
            if (!ps.getMoreResults()) {
                throw new SQLException("the catalog query of the apply's opening returned no rows", "XX000");
            }
            try (java.sql.ResultSet rs = ps.getResultSet()) {
                info = table(rs);
            }
        }
        SessionSettings settings = SessionSettings.of(own);
        session.reproduce(c, own, wanted);
        if (!settings.equals(wanted)) {
            info = table(c, table);
        }
        return new Opened(settings, info);
    }

    private Optional<TableInfo> table(java.sql.ResultSet rs) throws SQLException {
        String[] table = null;
        List<ColumnInfo> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<TableInfo.Trigger> triggers = new ArrayList<>();
        List<TableInfo.ForeignKey> inbound = new ArrayList<>();
        while (rs.next()) {
            switch (rs.getString(1)) {
                case "t" -> table = new String[] {rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)};
                case "c" -> columns.add(new ColumnInfo(rs.getString(3), rs.getString(4), rs.getString(5),
                        "true".equals(rs.getString(6)), "true".equals(rs.getString(7)), false,
                        Optional.ofNullable(rs.getString(8))));
                case "k" -> primaryKey.add(rs.getString(3));
                case "g" -> trigger(rs.getString(3), Integer.parseInt(rs.getString(4))).ifPresent(triggers::add);
                case "f" -> inbound.add(new TableInfo.ForeignKey(new TableRef(rs.getString(3), rs.getString(4)),
                        strings(rs.getArray(9)), new TableRef(rs.getString(5), rs.getString(6)),
                        strings(rs.getArray(10)), action(rs.getString(7)), action(rs.getString(8))));
                default -> throw new IllegalStateException("unexpected catalog row " + rs.getString(1));
            }
        }
        if (table == null) {
            return Optional.empty();
        }
        TableInfo.Kind kind = switch (table[2]) {
            case "r" -> TableInfo.Kind.TABLE;
            case "p" -> TableInfo.Kind.PARTITIONED_TABLE;
            case "f" -> TableInfo.Kind.FOREIGN_TABLE;
            case "v", "m" -> TableInfo.Kind.VIEW;
            default -> null;
        };
        if (kind == null) {
            return Optional.empty();
        }
        TableRef ref = new TableRef(table[0], table[1]);
        // Rows of a foreign table live elsewhere: a ROLLBACK here does not undo a write there.
        boolean transactional = kind != TableInfo.Kind.FOREIGN_TABLE;
        return Optional.of(new TableInfo(ref, kind, kind.name().toLowerCase(Locale.ROOT), transactional, columns,
                primaryKey, triggers, inbound, Optional.ofNullable(table[3]), TableInfo.Visibility.COMPLETE));
    }

    /** A trigger that fires on UPDATE or DELETE, from pg_trigger's tgtype bits; empty for any other. */
    private static Optional<TableInfo.Trigger> trigger(String name, int type) {
        List<String> events = new ArrayList<>();
        if ((type & 16) != 0) {
            events.add("UPDATE");
        }
        if ((type & 8) != 0) {
            events.add("DELETE");
        }
        if (events.isEmpty()) {
            return Optional.empty();
        }
        String timing = (type & 64) != 0 ? "INSTEAD OF" : (type & 2) != 0 ? "BEFORE" : "AFTER";
        return Optional.of(new TableInfo.Trigger(name, timing, events));
    }

    private static final String FK_KEYS = "ARRAY(SELECT a.attname FROM unnest(%s) WITH ORDINALITY k(n, o)"
            + " JOIN pg_attribute a ON a.attrelid = %s AND a.attnum = k.n ORDER BY k.o)";

    /** The foreign keys of pg_constraint, with both tables and their columns in key order; a condition follows. */
    private static final String FOREIGN_KEYS = "SELECT cn.nspname, cc.relname, pn.nspname, pc.relname, con.confdeltype,"
            + " con.confupdtype, " + String.format(FK_KEYS, "con.conkey", "con.conrelid") + ", "
            + String.format(FK_KEYS, "con.confkey", "con.confrelid")
            + " FROM pg_constraint con JOIN pg_class cc ON cc.oid = con.conrelid"
            + " JOIN pg_namespace cn ON cn.oid = cc.relnamespace JOIN pg_class pc ON pc.oid = con.confrelid"
            + " JOIN pg_namespace pn ON pn.oid = pc.relnamespace WHERE con.contype = 'f' AND ";

    private static TableInfo.ForeignKey foreignKey(java.sql.ResultSet rs) throws SQLException {
        return new TableInfo.ForeignKey(new TableRef(rs.getString(1), rs.getString(2)), strings(rs.getArray(7)),
                new TableRef(rs.getString(3), rs.getString(4)), strings(rs.getArray(8)), action(rs.getString(5)),
                action(rs.getString(6)));
    }

    @Override
    public List<TableInfo.ForeignKey> outboundForeignKeys(Connection c, TableRef table) throws SQLException {
        return Jdbc.query(c, FOREIGN_KEYS + "con.conrelid = to_regclass(?)", PostgresDialect::foreignKey,
                quote(table.schema()) + "." + quote(table.name()));
    }

    private static List<String> strings(Array a) throws SQLException {
        return a == null ? List.of() : List.of((String[]) a.getArray());
    }

    private static String action(String code) {
        return switch (code) {
            case "c" -> "CASCADE";
            case "n" -> "SET NULL";
            case "d" -> "SET DEFAULT";
            case "r" -> "RESTRICT";
            default -> "NO ACTION";
        };
    }

    @Override
    public boolean insertsInWith() {
        return true;
    }

    @Override
    public String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public String lockClause() {
        return " FOR UPDATE";
    }

    @Override
    public WriteMeter writeMeter(Connection c, boolean written) throws SQLException {
        // The baseline is read even before a transaction's first write: measured on 15.20, the view shows the
        // backend's pending counts, which can still hold an earlier transaction's writes (not yet flushed to the
        // shared statistics), so a fresh transaction does not start at zero.
        Writes before;
        try {
            before = xactWrites(c);
        } catch (SQLException e) {
            String why = "pg_stat_xact_user_tables cannot be read: " + e.getMessage();
            return () -> Writes.unknown(why);
        }
        return () -> COUNTER.between(before, xactWrites(c));
    }

    /** The transaction's writes per table so far, as pg_stat_xact_user_tables counts them. */
    private static final String XACT_WRITES = "SELECT schemaname, relname, n_tup_ins, n_tup_upd, n_tup_del"
            + " FROM pg_catalog.pg_stat_xact_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0";

    /**
     * D14 in the images' round trips: the same view, read behind the before-image and behind the
     * after-image. The baseline is still read in every transaction (see {@link #writeMeter}).
     */
    private static final WriteCounter COUNTER = new WriteCounter() {
        @Override
        public String query() {
            return XACT_WRITES;
        }

        @Override
        public Writes read(ResultSet rs) throws SQLException {
            Map<TableRef, Writes.Counts> out = new HashMap<>();
            while (rs.next()) {
                out.put(new TableRef(rs.getString(1), rs.getString(2)),
                        new Writes.Counts(rs.getLong(3), rs.getLong(4), rs.getLong(5)));
            }
            return Writes.perTable(out);
        }

        @Override
        public Writes between(Writes before, Writes after) {
            if (before.unknown().isPresent()) {
                return before;
            }
            if (after.unknown().isPresent()) {
                return after;
            }
            Map<TableRef, Writes.Counts> delta = new HashMap<>();
            for (Map.Entry<TableRef, Writes.Counts> e : after.perTable().entrySet()) {
                Writes.Counts b = before.perTable().getOrDefault(e.getKey(), new Writes.Counts(0, 0, 0));
                Writes.Counts d = new Writes.Counts(e.getValue().inserted() - b.inserted(),
                        e.getValue().updated() - b.updated(), e.getValue().deleted() - b.deleted());
                if (d.all() != 0) {
                    delta.put(e.getKey(), d);
                }
            }
            return Writes.perTable(delta);
        }
    };

    @Override
    public Optional<WriteCounter> writeCounter() {
        return Optional.of(COUNTER);
    }

    /** pgjdbc splits a text at each top-level {@code ;} and sends the parts before one Sync: one round trip. */
    @Override
    public boolean joinsStatements() {
        return true;
    }

    /**
     * The transaction opened (pgjdbc sends BEGIN with the next query) and its bounds returned, to ride
     * ahead of the before-image: in the extended protocol each Execute starts its own statement_timeout,
     * so the bounds hold for the queries after them in the same round trip.
     */
    @Override
    public Optional<String> beginDryRunJoined(Connection c, Bounds bounds) throws SQLException {
        c.setAutoCommit(false);
        return Optional.of(boundsQuery(bounds));
    }

    /**
     * ROLLBACK in SQL, ahead of the proof read: pgjdbc follows the transaction state the server reports,
     * and its setAutoCommit(true) on an idle connection sends nothing.
     */
    @Override
    public Optional<String> rollbackStatement() {
        return Optional.of("ROLLBACK");
    }

    private static Writes xactWrites(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(XACT_WRITES); ResultSet rs = ps.executeQuery()) {
            return COUNTER.read(rs);
        }
    }

    @Override
    public Set<String> volatileFunctions(Connection c, Set<QualifiedName> names) throws SQLException {
        if (names.isEmpty()) {
            return Set.of();
        }
        Array array = c.createArrayOf("text", folded(names).toArray());
        return new LinkedHashSet<>(Jdbc.query(c, "SELECT DISTINCT proname FROM pg_proc"
                + " WHERE proname = ANY(?) AND provolatile = 'v'", rs -> rs.getString(1), array));
    }

    @Override
    public void beginReadSession(Connection c, int timeoutMs) throws SQLException {
        Jdbc.inAutoCommit(c, () -> {
            // The session's default for every later transaction, so a read in the caller's own
            // transaction is covered too; only SET (refused in statements) could undo it.
            Jdbc.execute(c, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            Jdbc.execute(c, "SET statement_timeout = '" + timeoutMs + "ms'");
        });
    }

    @Override
    public void endReadSession(Connection c) throws SQLException {
        Jdbc.inAutoCommit(c, () -> {
            Jdbc.execute(c, "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            Jdbc.execute(c, "RESET statement_timeout");
        });
    }

    @Override
    public SessionReset sessionReset() {
        return new SessionReset.Postgres();
    }

    /**
     * R8 without a round trip: PostgreSQL 14 and later report default_transaction_read_only to the client
     * whenever it changes (a ParameterStatus message), and pgjdbc keeps the last value it was told.
     * Before 14, or through a driver that does not say, it is asked.
     */
    @Override
    public Optional<String> readSessionChanged(Connection c) throws SQLException {
        String value = null;
        if (c.isWrapperFor(org.postgresql.PGConnection.class)) {
            value = c.unwrap(org.postgresql.PGConnection.class).getParameterStatus("default_transaction_read_only");
        }
        if (value == null) {
            value = Jdbc.string(c, "SELECT current_setting('default_transaction_read_only')");
        }
        return "on".equals(value) ? Optional.empty() : Optional.of("default_transaction_read_only is " + value);
    }

    /**
     * R8 and R9 without a round trip where the server reports both: default_transaction_read_only (14
     * and later) and search_path (18 and later, GUC_REPORT; pgjdbc keeps the last ParameterStatus). On 15
     * to 17 search_path is not reported (measured: pgjdbc's getParameterStatus("search_path") is null on
     * 15), so the name context is the one asked when the connection's first read was checked (SPEC.md R9).
     */
    @Override
    public SessionCheck checkReadSession(Connection c, int readMaxRows) throws SQLException {
        Optional<String> changed = readSessionChanged(c);
        String searchPath = c.isWrapperFor(org.postgresql.PGConnection.class)
                ? c.unwrap(org.postgresql.PGConnection.class).getParameterStatus("search_path") : null;
        return new SessionCheck(changed, Optional.ofNullable(searchPath).map(p -> "search_path=" + p));
    }

    /** R11: measured on PostgreSQL 15 (SPEC.md F33): the server closes the connection, 25P03, then 08003. */
    @Override
    public boolean boundIdleTransactions(Connection c, int holdMs) throws SQLException {
        Jdbc.inAutoCommit(c, () -> Jdbc.execute(c, "SET idle_in_transaction_session_timeout = '" + holdMs + "ms'"));
        return true;
    }

    @Override
    public void unboundIdleTransactions(Connection c) throws SQLException {
        Jdbc.inAutoCommit(c, () -> Jdbc.execute(c, "RESET idle_in_transaction_session_timeout"));
    }

    /** R12: pgjdbc's maxResultBuffer, measured on 42.7.14: 08S01, and the connection is closed. */
    @Override
    public boolean isResultTooLarge(SQLException e) {
        return "08S01".equals(e.getSQLState()) && String.valueOf(e.getMessage()).contains("maxResultBuffer");
    }

    /**
     * R12: pgjdbc reads a whole result before handing out its first row, unless the statement has a
     * fetch size and runs in a transaction (measured: then it fetches a batch at a time, and its
     * maxResultBuffer counts each batch).
     */
    @Override
    public int readFetchSize() {
        return 16;
    }

    @Override
    public boolean isIdleTransactionTimeout(SQLException e) {
        return "25P03".equals(e.getSQLState());
    }

    @Override
    public boolean boundsReadTime() {
        return true;
    }

    @Override
    public boolean isReadOnlyViolation(SQLException e) {
        return "25006".equals(e.getSQLState());
    }

    @Override
    public Set<String> queryingRoutines(Connection c, Set<QualifiedName> names) throws SQLException {
        if (names.isEmpty()) {
            return Set.of();
        }
        Array array = c.createArrayOf("text", folded(names).toArray());
        // By name in every schema, not by how the call resolves: a false refusal beats a routine that
        // reads tables the allowlist does not name. C and internal functions run no SQL of their own
        // (dblink and its like are refused by name).
        return new LinkedHashSet<>(Jdbc.query(c, "SELECT DISTINCT p.proname FROM pg_proc p"
                + " JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang"
                + " WHERE p.proname = ANY(?) AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                + " AND l.lanname NOT IN ('c', 'internal')", rs -> rs.getString(1), array));
    }

    /** R7: every operator outside pg_catalog, by name (initdb's are all in pg_catalog). */
    @Override
    public Set<String> userOperators(Connection c) throws SQLException {
        return new LinkedHashSet<>(Jdbc.query(c, "SELECT DISTINCT o.oprname FROM pg_catalog.pg_operator o"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace WHERE n.nspname <> 'pg_catalog'",
                rs -> rs.getString(1)));
    }

    /** R7: every function of one argument or more outside pg_catalog and information_schema, by name. */
    @Override
    public Set<String> userFunctions(Connection c) throws SQLException {
        return new LinkedHashSet<>(Jdbc.query(c, "SELECT DISTINCT p.proname FROM pg_catalog.pg_proc p"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
                + " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.pronargs >= 1",
                rs -> rs.getString(1)));
    }

    /** The types initdb made: below FirstNormalObjectId (16384), every object a user or an extension made is above it. */
    @Override
    public Optional<Set<String>> builtInTypes(Connection c) throws SQLException {
        return Optional.of(new LinkedHashSet<>(Jdbc.query(c, "SELECT typname FROM pg_catalog.pg_type WHERE oid < 16384",
                rs -> rs.getString(1))));
    }

    private static Set<String> folded(Set<QualifiedName> names) {
        Set<String> folded = new LinkedHashSet<>();
        for (QualifiedName n : names) {
            folded.add(n.last().quoted() ? n.last().text() : n.last().text().toLowerCase(Locale.ROOT));
        }
        return folded;
    }

    @Override
    public ReadCost explainCost(Connection c, String sql, Binder parameters, Set<TableRef> tables) throws SQLException {
        // VERBOSE names each relation's schema: the same round trip serves the plan check (R9).
        JsonNode plan = explain(c, sql, parameters);
        JsonNode total = plan.path(0).path("Plan").path("Total Cost");
        if (!total.isNumber()) {
            throw new SQLException("EXPLAIN did not give a total cost: " + plan);
        }
        return new ReadCost(total.asDouble(), "PostgreSQL cost units (EXPLAIN's total cost)",
                Optional.of(relations(plan)));
    }

    @Override
    public Optional<Set<TableRef>> planRelations(Connection c, String sql, Binder parameters) throws SQLException {
        return Optional.of(relations(explain(c, sql, parameters)));
    }

    private static JsonNode explain(Connection c, String sql, Binder parameters) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (VERBOSE, FORMAT JSON) " + sql)) {
            parameters.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Explain.json(rs.getString(1));
            }
        }
    }

    /** Every node of the plan that scans a relation, at any depth (subplans, init plans, CTEs). */
    private static Set<TableRef> relations(JsonNode plan) throws SQLException {
        Set<TableRef> out = new LinkedHashSet<>();
        java.util.ArrayDeque<JsonNode> todo = new java.util.ArrayDeque<>();
        todo.push(plan);
        while (!todo.isEmpty()) {
            JsonNode n = todo.pop();
            if (n.has("Relation Name")) {
                JsonNode schema = n.get("Schema");
                if (schema == null || !schema.isTextual()) {
                    throw new SQLException("EXPLAIN (VERBOSE) named a relation without its schema: " + n);
                }
                out.add(new TableRef(schema.asText(), n.get("Relation Name").asText()));
            }
            n.elements().forEachRemaining(todo::push);
        }
        return out;
    }

    @Override
    public String nameContext(Connection c) throws SQLException {
        return Jdbc.string(c, "SELECT array_to_string(current_schemas(true), ',')");
    }

    @Override
    public boolean isSystemRelation(TableRef ref) {
        return ref.schema().equals("pg_catalog") || ref.schema().equals("information_schema")
                || ref.schema().startsWith("pg_toast");
    }

    @Override
    public List<String> limitations() {
        return List.of("Sequence values a trigger or a default takes during the dry run are not given back by"
                + " ROLLBACK.");
    }

    @Override
    public Optional<Refusal> boundRefusal(SQLException e) {
        return switch (String.valueOf(e.getSQLState())) {
            case "55P03" -> Optional.of(Refusal.LOCK_TIMEOUT);
            case "57014" -> Optional.of(Refusal.STATEMENT_TIMEOUT);
            default -> Optional.empty();
        };
    }

    @Override
    public ValueReader values() {
        return values;
    }

    @Override
    public boolean sameColumn(Identifier written, String stored) {
        return written.quoted() ? written.text().equals(stored) : written.text().toLowerCase(Locale.ROOT).equals(stored);
    }
}
