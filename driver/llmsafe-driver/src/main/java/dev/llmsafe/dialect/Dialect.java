package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Everything that differs between PostgreSQL, MySQL/MariaDB and SQLite: catalog questions, session
 * bounds, locking, measuring writes, reading values, and the guarantees a database cannot give. Every
 * answer comes from the live database; a question the credential cannot fully answer says so
 * ({@link TableInfo.Visibility}, {@link Writes#unknown()}) instead of answering "none".
 *
 * <p>Implementations are immutable and thread-safe; every method that takes a connection uses only
 * that connection.
 */
public interface Dialect {

    /** The server as it answered: product and version, for plans and cards. */
    String product();

    /** The SQL dialect the analysis reads statements in. */
    SqlDialect sqlDialect();

    /** The session settings that change how text is read, from the live session (S8). */
    LexSettings lexSettings(Connection c) throws SQLException;

    /**
     * Prepares a connection of the engine's own pools once, when it is opened: the configured schema
     * pinned (PostgreSQL), foreign keys enforced (SQLite), and whatever else makes every connection
     * read names and count rows the same way.
     */
    void initConnection(Connection c) throws SQLException;

    /**
     * Pins the configured schema on a connection, so that names resolve there whatever the role's
     * default (PostgreSQL's search_path); nothing elsewhere. Part of {@link #initConnection}.
     */
    default void pinSchema(Connection c) throws SQLException {
    }

    /**
     * Opens the transaction of a dry run or an apply, with the bounds as real session settings
     * (D6, E3), and on SQLite the write lock up front.
     */
    void begin(Connection c, Bounds bounds) throws SQLException;

    /**
     * D17: the settings of a live session that change what a statement means (time zone, SQL mode,
     * search path, foreign keys, ...), read from it. The application's are read from its own
     * connection when it proposes, and kept in the plan.
     */
    SessionSettings session(Connection c) throws SQLException;

    /**
     * D17: sets a connection of the engine's own, outside a transaction, to mean what the session
     * {@code wanted} was read from did; the caller puts back what {@link #session} read before, or
     * discards the connection.
     *
     * @throws dev.llmsafe.RefusedException SESSION_NOT_REPRODUCIBLE when a setting cannot be made the same
     */
    void reproduce(Connection c, SessionSettings wanted) throws SQLException;

    /**
     * {@link #reproduce} on a session whose settings were just read as {@code current}, with nothing run
     * on it since: the read that would begin it is the one already made.
     */
    default void reproduce(Connection c, SessionSettings current, SessionSettings wanted) throws SQLException {
        reproduce(c, wanted);
    }

    /**
     * Puts the engine's own settings back after a dry run on a session known to hold {@code current}:
     * the application's, as {@link #reproduce} left and proved them, when nothing that ran since could
     * change a setting (no trigger fired). The default reads the session first, as {@link #reproduce} does.
     */
    default void putBack(Connection c, SessionSettings current, SessionSettings own) throws SQLException {
        reproduce(c, own);
    }

    /**
     * {@link #initConnection} and then {@link #session}, in as few round trips as the dialect can: what a
     * dry run does first on every connection it takes. Both are done every time, nothing kept from the
     * connection's last use, so a setting changed since (by a trigger, by the server) is seen.
     */
    default SessionSettings initSession(Connection c) throws SQLException {
        initConnection(c);
        return session(c);
    }

    /**
     * {@link #initSession(Connection)} for a dry run bounded by {@code bounds}: a dialect whose bounds are
     * session settings (MySQL, MariaDB) sets them in the same statement, and {@link #beginDryRun} then only
     * opens the transaction.
     */
    default SessionSettings initSession(Connection c, Bounds bounds) throws SQLException {
        return initSession(c);
    }

    /** D4, D6: opens the dry run's transaction, bounded, on a connection {@link #initSession(Connection, Bounds)} prepared. */
    default void beginDryRun(Connection c, Bounds bounds) throws SQLException {
        begin(c, bounds);
    }

    /**
     * A2, A9, D17: opens an apply's transaction on a connection of the apply pool, in as few round trips as
     * the dialect can: the connection set up as {@link #initSession(Connection, Bounds)} sets it up, its
     * session read (on every borrow, in the statement that sets it up: a trigger of an earlier apply may have
     * moved a setting), made like {@code wanted} where it differs ({@link #reproduce}), and the transaction
     * begun with its bounds, as {@link #beginDryRun} begins a dry run's. When this throws, the connection's
     * state is unknown: the caller discards it. The apply ends with {@link #commitApply} or
     * {@link #rollbackDryRun}.
     *
     * @return the session as the pooled connection held it, for the caller to put back afterwards
     */
    default SessionSettings beginApply(Connection c, Bounds bounds, SessionSettings wanted) throws SQLException {
        SessionSettings own = initSession(c, bounds);
        reproduce(c, own, wanted);
        beginDryRun(c, bounds);
        return own;
    }

    /**
     * What {@link #beginApply(Connection, Bounds, SessionSettings, QualifiedName)} read.
     *
     * @param own the session as the pooled connection held it, for the caller to put back afterwards
     * @param table the catalog's answer about the apply's first table, asked in the apply's transaction
     */
    record Opened(SessionSettings own, Optional<TableInfo> table) {
    }

    /**
     * {@link #beginApply(Connection, Bounds, SessionSettings)} and the catalog's answer about {@code table}
     * ({@link #table}), in as few round trips as the dialect can; the answer is asked after the transaction
     * began, in the session made like {@code wanted}, as it would be asked next.
     */
    default Opened beginApply(Connection c, Bounds bounds, SessionSettings wanted, QualifiedName table)
            throws SQLException {
        SessionSettings own = beginApply(c, bounds, wanted);
        return new Opened(own, table(c, table));
    }

    /** Commits what {@link #beginApply} opened and leaves the connection in auto-commit. */
    default void commitApply(Connection c) throws SQLException {
        c.commit();
        c.setAutoCommit(true);
    }

    /**
     * {@link #lexSettings(Connection)} of a session known to hold {@code known} (as {@link #reproduce} left and
     * proved it, nothing run since), taken from it without a round trip where it holds them.
     */
    default LexSettings lexSettings(Connection c, SessionSettings known) throws SQLException {
        return lexSettings(c);
    }

    /** Rolls back what {@link #beginDryRun} opened and leaves the connection in auto-commit. */
    default void rollbackDryRun(Connection c) throws SQLException {
        try {
            rollback(c);
        } finally {
            c.setAutoCommit(true);
        }
    }

    /**
     * Rolls back the transaction of a dry run; the caller then returns the connection to auto-commit.
     * SQLite needs more than {@code rollback()} (see its implementation).
     */
    default void rollback(Connection c) throws SQLException {
        c.rollback();
    }

    /**
     * E9: why a ROLLBACK on this connection would not restore the table's rows, when the connection's
     * own settings make it undefined (SQLite without a rollback journal), with what to change; empty
     * when a ROLLBACK restores them. A table stored by an engine that cannot roll back is
     * {@link TableInfo#transactional()} instead.
     */
    default Optional<String> rollbackUndefined(Connection c, TableRef table) throws SQLException {
        return Optional.empty();
    }

    /** Resolves a name as the database would (schema, case folding, quoting) and describes the table. */
    Optional<TableInfo> table(Connection c, QualifiedName name) throws SQLException;

    /** Only resolves a name as the database would: one catalog query (W4 compares resolved names). */
    Optional<TableRef> resolve(Connection c, QualifiedName name) throws SQLException;

    /** Quotes an identifier as the database stores it. */
    String quote(String identifier);

    /** The table, quoted, for the engine's own statements. */
    default String render(TableRef ref) {
        return quote(ref.schema()) + "." + quote(ref.name());
    }

    /**
     * The foreign keys from a table to others, for the schema context (R6); the dry run never needs them,
     * so {@link #table} does not ask.
     */
    List<TableInfo.ForeignKey> outboundForeignKeys(Connection c, TableRef table) throws SQLException;

    /** What follows a SELECT to lock its rows: {@code " FOR UPDATE"}, or nothing where the whole database is locked. */
    String lockClause();

    /**
     * Starts measuring what the current transaction writes (D14); call before the statement runs.
     *
     * @param written whether this transaction has already written (an earlier statement of a batch)
     */
    WriteMeter writeMeter(Connection c, boolean written) throws SQLException;

    /**
     * D14 inside the dry run's own round trips: what the transaction (or the session) has written so far,
     * read in the before-image's round trip (the baseline) and in the after-image's (the reading). Where
     * the driver sends several statements in one ({@link #joinsStatements()}) its query goes behind the
     * image; elsewhere its {@link WriteCounter#columns()} go at the end of the image's own select list.
     * Empty where the meter of {@link #writeMeter} reads on its own.
     */
    default Optional<WriteCounter> writeCounter() {
        return Optional.empty();
    }

    /**
     * Whether texts joined by {@code ;} in one prepared statement are sent in one round trip, run one after
     * the other, each with its own result (pgjdbc splits every text it is given at each {@code ;} outside
     * literals and sends the parts before one Sync). Only the engine joins texts, each one it would have
     * sent alone; the statement's own text is never split by it (S3 has refused a second statement).
     */
    default boolean joinsStatements() {
        return false;
    }

    /**
     * {@link #beginDryRun} for a dialect that {@link #joinsStatements()}: opens the transaction and returns
     * the statement that sets its bounds, to be sent ahead of the dry run's first query in that query's
     * round trip. The default sends everything itself and returns empty.
     */
    default Optional<String> beginDryRunJoined(Connection c, Bounds bounds) throws SQLException {
        beginDryRun(c, bounds);
        return Optional.empty();
    }

    /**
     * The dry run's ROLLBACK as a statement, for a dialect that {@link #joinsStatements()}: sent ahead of
     * the rollback proof's first read (D7) in its round trip; the caller then returns the connection to
     * auto-commit. Empty: {@link #rollbackDryRun} rolls back on its own.
     */
    default Optional<String> rollbackStatement() {
        return Optional.empty();
    }

    /**
     * The functions among {@code names} that the catalog calls volatile or data-modifying (W10).
     * Functions the catalog does not list (built-ins that are keywords) are not returned.
     */
    Set<String> volatileFunctions(Connection c, Set<QualifiedName> names) throws SQLException;

    /** Every guarantee this database cannot make, in words, printed on every card (E5). */
    List<String> limitations();

    /** The refusal a database error stands for when it is a bound being hit (D6), if it is one. */
    Optional<Refusal> boundRefusal(SQLException e);

    /** Reads values exactly (D13). */
    ValueReader values();

    /**
     * Whether a column name as written in a statement or the policy names the catalog's column:
     * PostgreSQL folds unquoted names to lower case and keeps quoted ones; MySQL, MariaDB and SQLite
     * compare column names without case.
     */
    boolean sameColumn(dev.llmsafe.policy.Identifier written, String stored);

    /** The table as written (quoted where it was quoted), so that it resolves exactly as the statement's. */
    default String renderAsWritten(QualifiedName name) {
        StringBuilder sb = new StringBuilder();
        for (dev.llmsafe.policy.Identifier part : name.parts()) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(part.quoted() ? quote(part.text()) : part.text());
        }
        return sb.toString();
    }

    /**
     * The rows the statement just run on {@code c} affected, as the database counts them for that
     * statement alone. The driver's count serves everywhere but SQLite, whose driver adds the rows
     * its triggers and cascades wrote (measured, SPEC.md F22).
     */
    default long affectedRows(Connection c, long driverCount) throws SQLException {
        return driverCount;
    }

    // ---- reads (R1, R3, R5) ----

    /**
     * R3, R5: makes a connection that only reads a read-only session that the server itself enforces,
     * with the read timeout as a server setting where the server has one. In SQL, because
     * {@code Connection.setReadOnly} guards nothing on any of the three drivers (SPEC.md F31) while
     * the session setting stops even a write inside a function (F29). Runs in auto-commit mode, so
     * that it also covers the next transaction the caller opens.
     *
     * @param timeoutMs the longest a read may run, in milliseconds
     */
    void beginReadSession(Connection c, int timeoutMs) throws SQLException;

    /** Undoes {@link #beginReadSession}, for a connection that goes back to an application's own pool. */
    void endReadSession(Connection c) throws SQLException;

    /**
     * R8: what a statement could change of a session, to be put back when a connection goes back to an
     * application's pool.
     */
    SessionReset sessionReset();

    /**
     * R8: whether the session is still in the read-only mode {@link #beginReadSession} set, asked before
     * every read, at as little cost as the driver allows.
     *
     * @return empty, or what is no longer as it was set
     */
    Optional<String> readSessionChanged(Connection c) throws SQLException;

    /**
     * R8 and R9 in one look before a read: whether the read-only session changed, and the name context
     * where the driver has it for free or it rides in the R8 proof's own round trip (MariaDB and MySQL:
     * one query for both; PostgreSQL 18: the search_path the server reports).
     *
     * @param changed empty, or what is no longer as {@link #beginReadSession} set it
     * @param nameContext a value that changes whenever {@link #nameContext} may have; empty where it would
     *     cost a query of its own (PostgreSQL before 18, which does not report search_path; SQLite)
     */
    record SessionCheck(Optional<String> changed, Optional<String> nameContext) {
    }

    /**
     * R8 and R9 before a read, in as few round trips as the driver allows (see {@link SessionCheck}).
     *
     * @param readMaxRows the row limit the read itself runs with ({@link java.sql.Statement#setMaxRows}),
     *     for a driver that sets it in the session whenever a statement's differs (Connector/J)
     */
    default SessionCheck checkReadSession(Connection c, int readMaxRows) throws SQLException {
        return new SessionCheck(readSessionChanged(c), Optional.empty());
    }

    /**
     * Whether {@link #beginReadSession} bounds a read's time on the server. Where it does not (SQLite),
     * the caller cancels a read from the client when it runs past the bound.
     */
    boolean boundsReadTime();

    // ---- holds (R11) ----

    /**
     * R11: makes the server end a transaction of the read session that stays idle longer than
     * {@code holdMs}, where the server can (PostgreSQL's idle_in_transaction_session_timeout, which
     * closes the connection). Runs in auto-commit mode.
     *
     * @return whether the server now ends idle transactions itself; where not, the guard's own timer does
     */
    default boolean boundIdleTransactions(Connection c, int holdMs) throws SQLException {
        return false;
    }

    /** Undoes {@link #boundIdleTransactions}, for a connection that goes back to an application's own pool. */
    default void unboundIdleTransactions(Connection c) throws SQLException {
    }

    /** R11: whether an error is the server ending the session for an idle transaction. */
    default boolean isIdleTransactionTimeout(SQLException e) {
        return false;
    }

    /**
     * R11: the isolation level a read transaction runs at when {@code requested} is asked for: the same,
     * unless the level makes reads lock rows others write (InnoDB's SERIALIZABLE, measured).
     */
    default int readIsolation(int requested) {
        return requested;
    }

    /**
     * R11: whether a result set of this statement, left open, holds the database for other sessions
     * even in auto-commit mode (SQLite's read lock; a streaming MySQL result).
     */
    default boolean resultSetHolds(java.sql.Statement vendorStatement) throws SQLException {
        return false;
    }

    // ---- bytes (R12) ----

    /**
     * R12: makes the database refuse to hand the read session a value larger than {@code maxBytes},
     * where it can (SQLite's SQLITE_LIMIT_LENGTH); MySQL and MariaDB bound every value by the server's
     * max_allowed_packet, PostgreSQL not at all (its driver's maxResultBuffer is set when llmsafe opens
     * the connection).
     */
    default void boundValueSize(Connection c, int maxBytes) throws SQLException {
    }

    /** Undoes {@link #boundValueSize}, for a connection that goes back to an application's own pool. */
    default void unboundValueSize(Connection c) throws SQLException {
    }

    /** R12: whether an error is the driver or the database refusing a result or value past the byte bound. */
    default boolean isResultTooLarge(SQLException e) {
        return false;
    }

    /**
     * J11: whether an error is the server refusing to compare a key value it stores (MySQL 8.0 and 9.7 with
     * NO_ZERO_DATE: a date with a zero part, error 1525); MariaDB and the others compare what they store.
     */
    default boolean refusesToCompare(SQLException e) {
        return false;
    }

    /**
     * R12: the fetch size a read's statement gets when the caller set none, so that a driver that
     * would buffer the whole result fetches it in batches where it can (pgjdbc, in a transaction); 0
     * leaves the driver's default.
     */
    default int readFetchSize() {
        return 0;
    }

    /** R3: whether an error is the server refusing to write in a read-only session or transaction. */
    boolean isReadOnlyViolation(SQLException e);

    /**
     * Whether a WITH may hold INSERT statements whose rows a final INSERT reads (PostgreSQL's data-modifying
     * WITH), so that the store writes a plan and its audit row in one statement, one round trip.
     */
    default boolean insertsInWith() {
        return false;
    }

    /**
     * The statement that opens a transaction in auto-commit mode, where that costs fewer round trips than
     * JDBC's {@code setAutoCommit(false)} and back (Connector/J sends {@code SET autocommit} each way, and
     * then COMMIT: three, where START TRANSACTION and COMMIT are two); empty where the vendor driver's own
     * way is as cheap. The transaction is ended with COMMIT or ROLLBACK in SQL.
     */
    default Optional<String> startTransaction() {
        return Optional.empty();
    }

    /**
     * Whether the catalog shows a role only the tables it has a privilege on, so that a table it was not
     * granted looks like no table at all (MySQL and MariaDB; PostgreSQL's catalog shows every table).
     */
    default boolean catalogHidesUngrantedTables() {
        return false;
    }

    /**
     * E2: the URL option with which the driver counts rows changed rather than rows matched, where a driver
     * can do either (Connector/J's {@code useAffectedRows=true}; the engine pins the other, F09, F10), for
     * the environment report's probe of what "rows affected" means; empty where there is no such choice.
     */
    default Optional<String> rowsChangedOption() {
        return Optional.empty();
    }

    /** The column type for text of any length in a table llmsafe creates (the plan store). */
    String unboundedText();

    /** A column definition of a 64-bit key the database numbers itself, in a table llmsafe creates. */
    String identityPrimaryKey(String column);

    /** What follows a CREATE TABLE of llmsafe's own tables (MySQL's engine and character set), or "". */
    default String tableOptions() {
        return "";
    }

    /**
     * J9: the container a metadata question names (pgjdbc reads the schema and ignores the catalog, the
     * database; Connector/J reads the catalog, or the schema with databaseTerm=SCHEMA; SQLite has one of each
     * at most), or null when it names none.
     */
    String metadataContainer(String catalog, String schema);

    /** J9: a table as the vendor's metadata names it: {catalog, schema, table}. */
    String[] metadataName(TableRef ref);

    /**
     * Whether an error is the server refusing a statement for lack of a privilege: PostgreSQL's 42501,
     * MySQL's and MariaDB's 1142 (table), 1143 (column) and 1370 (routine); SQLite has no privileges.
     */
    default boolean isPrivilegeDenied(SQLException e) {
        return Dialects.isPrivilegeDenied(e);
    }

    /**
     * R1: the functions among {@code names} that are stored routines written in SQL or a procedural
     * language, which can read any table the credential can, whatever the allowlist says. Built-in
     * functions (and those implemented in C) are not returned.
     */
    Set<String> queryingRoutines(Connection c, Set<QualifiedName> names) throws SQLException;

    /**
     * R7: the names of the operators an application or an extension defined, which a read may not use
     * (they run a function of the database's); none where operators cannot be defined.
     */
    default Set<String> userOperators(Connection c) throws SQLException {
        return Set.of();
    }

    /**
     * R7: the names of the functions of at least one argument that an application or an extension
     * defined, where a read may call one without parentheses (PostgreSQL's attribute notation,
     * {@code m.f} for {@code f(m)}); none elsewhere.
     */
    default Set<String> userFunctions(Connection c) throws SQLException {
        return Set.of();
    }

    /**
     * J9: the names of the types the database has of its own, before any schema was made, when its
     * vendor driver's {@code getTypeInfo} also lists the types users made; empty when it lists a fixed
     * set (MySQL, MariaDB and SQLite). pgjdbc 42.7.14 lists every type in pg_type, among them the row
     * and array types of every table ({@code _payroll} for a table payroll the policy hides) and every
     * enum, domain and composite type (measured on PostgreSQL 15).
     */
    default Optional<Set<String>> builtInTypes(Connection c) throws SQLException {
        return Optional.empty();
    }

    /**
     * R5: what the database estimates a read costs, from plain EXPLAIN (never EXPLAIN ANALYZE, which
     * runs the statement).
     *
     * @param sql the read, as it will run
     * @param parameters binds the read's parameters to the EXPLAIN statement
     * @param tables the tables the read uses, resolved
     */
    ReadCost explainCost(Connection c, String sql, Binder parameters, Set<TableRef> tables) throws SQLException;

    /** Binds a statement's parameters to another statement (the EXPLAIN of a read). */
    @FunctionalInterface
    interface Binder {
        /** Sets the parameters on {@code ps}. */
        void bind(PreparedStatement ps) throws SQLException;
    }

    /**
     * An estimate and what it counts; the units differ per database, so a bound is set per database.
     *
     * @param estimate the estimate
     * @param unit what the estimate counts, for the refusal message
     */
    record ReadCost(double estimate, String unit, Optional<Set<TableRef>> relations) {

        /** An estimate from an EXPLAIN that does not name the relations its plan reads. */
        public ReadCost(double estimate, String unit) {
            this(estimate, unit, Optional.empty());
        }
    }

    /**
     * R9: the relations the database's own plan of a read reads, as its catalog names them (PostgreSQL's
     * {@code EXPLAIN (VERBOSE, FORMAT JSON)}, SQLite's EXPLAIN program), a second check that does not
     * depend on how llmsafe reads the statement; empty where the dialect's plan does not name them.
     */
    default Optional<Set<TableRef>> planRelations(Connection c, String sql, Binder parameters) throws SQLException {
        return Optional.empty();
    }

    /**
     * R9: what decides what an unqualified name means in this session (PostgreSQL's effective search
     * path, MySQL's current database, SQLite's attached databases), so that every cache of resolved
     * names is keyed by it. A round trip: the guard asks it once per connection and again only when
     * {@link #checkReadSession} reports a change or the session may have changed (see Allowlist).
     */
    String nameContext(Connection c) throws SQLException;

    /**
     * R10: whether EXPLAIN may evaluate part of the statement, so that its errors can carry values read
     * from rows. MariaDB runs uncorrelated subqueries while it optimizes, EXPLAIN included; PostgreSQL and
     * SQLite only plan (an error then concerns the statement's own text and literals).
     */
    default boolean explainEvaluates() {
        return false;
    }

    /** R9: whether a relation of a plan is the database's own catalog. */
    default boolean isSystemRelation(TableRef ref) {
        return false;
    }

    /**
     * Reads what a transaction has written so far in a query of its own, sent in another query's round
     * trip ({@link #writeCounter()}); two readings give what was written between them.
     */
    interface WriteCounter {
        /** The query, one statement, without parameters. */
        String query();

        /** What the transaction has written so far, from the query's result. */
        Writes read(java.sql.ResultSet rs) throws SQLException;

        /** What was written between two readings. */
        Writes between(Writes before, Writes after);

        /**
         * The same reading as expressions to end an image's select list with, for a dialect that does not
         * join statements (read back by {@link #read(List)}); empty where the query rides on its own.
         */
        default List<String> columns() {
            return List.of();
        }

        /** The reading from the values of {@link #columns()}, as an image's row returned them. */
        default Writes read(List<dev.llmsafe.value.Value> values) {
            throw new UnsupportedOperationException("this counter has no columns");
        }
    }

    /** Measures what a transaction writes. */
    interface WriteMeter {
        /** What the transaction has written since the meter started. */
        Writes measure() throws SQLException;
    }
}
