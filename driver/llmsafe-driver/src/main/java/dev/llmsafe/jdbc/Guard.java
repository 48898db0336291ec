package dev.llmsafe.jdbc;

import dev.llmsafe.DatabaseErrors;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.dialect.Watchdog;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.ReadFunctions;
import dev.llmsafe.sql.SecretCheck;
import dev.llmsafe.sql.Secrets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Every decision about a statement on one guarded connection, in one place. A statement is analysed
 * (refused, or a READ, an UPDATE or a DELETE); a read is checked against the policy (R1, R2), its cost
 * estimated when the policy bounds it (R5), run on the read connection in its server-enforced
 * read-only session (R3), and its result's columns checked against the secrets (R2); an UPDATE or a
 * DELETE becomes a dry run and a stored plan (J2, J5, J7). The wrappers call this for every execute
 * method and never run a caller's text any other way. The engine's own queries (name resolution,
 * EXPLAIN, the read session) run on the vendor connection directly and never come back here.
 */
final class Guard {

    /** Runs a checked read on the vendor statement. */
    @FunctionalInterface
    interface Execution {
        /** Runs it; the result set, or null when the statement gave none. */
        ResultSet run() throws SQLException;
    }

    /** A parameter that cannot be kept in a plan: the setter that bound it, and why. */
    record Uncaptured(String setter, String why) {
    }

    /** Binds nothing: the EXPLAIN of a statement without parameters. */
    static final Dialect.Binder NO_PARAMETERS = ps -> { };

    private final Engine engine;
    private final Policy policy;
    private final Dialect dialect;
    private final Connection exec;
    private final Connection application;
    private final LexSettings lex;
    private final String proposer;
    private final Allowlist allowlist;
    private final Holds holds;
    private final Secrets secrets;
    private final UserDefinitions userDefinitions;

    /**
     * @param exec the connection reads run on, already in its read-only session
     * @param application the application's own connection, whose session settings a write is planned in (D17)
     * @param proposer who proposes the plans of this connection, as given
     * @param holds the bounds on how long that connection holds the database (R11)
     */
    Guard(Engine engine, Connection exec, Connection application, String proposer, Holds holds) throws SQLException {
        this.engine = engine;
        this.holds = holds;
        this.policy = engine.policy();
        this.dialect = engine.dialect();
        this.lex = dialect.lexSettings(exec);
        this.proposer = proposer;
        this.allowlist = new Allowlist(dialect, policy, exec);
        this.userDefinitions = new UserDefinitions(dialect, exec);
        this.secrets = Secrets.of(policy, dialect.sqlDialect());
        this.exec = exec;
        this.application = application;
    }

    /** The analysis, from the verdict cache when this text was seen before; refusals are thrown. */
    Analysis analyze(String sql) throws SQLException {
        try {
            return unchecked("reading the statement", () -> engine.analyzer().analyze(sql, lex));
        } catch (RefusedException e) {
            throw told(e);
        }
    }

    /** The listener is told of a refusal on its way to the caller. */
    private RefusedException told(RefusedException e) {
        engine.tell(l -> l.refused(e.code()));
        return e;
    }

    /** A step of an execute method that may fail inside llmsafe. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws SQLException;
    }

    /**
     * J11: every failure that reaches a caller of an execute method is a SQLException with a code; an
     * unchecked exception from llmsafe or a vendor driver becomes INTERNAL_ERROR.
     */
    static <T> T unchecked(String what, Step<T> step) throws SQLException {
        try {
            return step.run();
        } catch (RuntimeException e) {
            throw dev.llmsafe.Defects.refusal(what, e);
        }
    }

    /** The most rows a read returns (R4). */
    int maxRows() {
        return policy.read().maxRows();
    }

    /** The row limit a read's vendor statement runs with: one past the cap, so that a truncated result says so (R4). */
    int readMaxRows() {
        return (int) Math.min(Integer.MAX_VALUE, (long) maxRows() + 1);
    }

    /** R12: a fresh count of the bytes one read hands out. */
    ReadBytes readBytes() {
        return new ReadBytes(policy.read().maxBytes(), dialect, exec);
    }

    /** R12: a statement with no fetch size of the caller's fetches in batches where the driver can. */
    void fetchInBatches(Statement vendor) throws SQLException {
        int batch = dialect.readFetchSize();
        if (batch > 0 && vendor.getFetchSize() == 0) {
            vendor.setFetchSize(batch);
        }
    }

    /**
     * Whether reads are EXPLAINed (the R5 cost gate, the R9 plan check), so that their parameters are
     * kept to be bound to the EXPLAIN.
     */
    boolean costGate() {
        return true;
    }

    /** R1, R2, R7: what can be checked of a read before it runs; the tables it reads, resolved. */
    Set<TableRef> checkRead(Analysis a) throws SQLException {
        return checkRead(a, Optional.empty());
    }

    /** {@link #checkRead(Analysis)} with the name context the R8 look brought, if any (R9). */
    private Set<TableRef> checkRead(Analysis a, Optional<String> reportedContext) throws SQLException {
        SecretCheck.check(a, policy);
        ReadFunctions.check(a, policy.read().allowFunctions(), userDefinitions.operators(), userDefinitions.functions());
        Set<TableRef> tables = allowlist.check(a, reportedContext);
        SecretCheck.checkStars(a, policy, allowlist::columns);
        return tables;
    }

    /**
     * Runs a read: checked, cost-gated, timed, and its result's columns checked.
     *
     * @param parameters binds the read's parameters again, for EXPLAIN
     * @param statement the vendor statement, which the watchdog may cancel
     */
    ResultSet read(Analysis a, Dialect.Binder parameters, Statement statement, Execution execution) throws SQLException {
        boolean timed = engine.hasListener(); // no clock and no event on the hot path when nobody listens
        long start = timed ? System.nanoTime() : 0;
        ResultSet rs;
        try {
            rs = unchecked("running a read", () -> readChecked(a, parameters, statement, execution));
        } catch (RefusedException e) {
            throw told(e);
        }
        if (timed) {
            long nanos = System.nanoTime() - start;
            engine.tell(l -> l.read(nanos));
        }
        return rs;
    }

    private ResultSet readChecked(Analysis a, Dialect.Binder parameters, Statement statement, Execution execution)
            throws SQLException {
        if (a.isWrite()) {
            throw new IllegalStateException("a write reached the read path");
        }
        ResultSet rs;
        try {
            holds.beforeRead();
            Optional<String> context = proveReadSession();
            Set<TableRef> tables = checkRead(a, context);
            explain(a, parameters, tables);
            Watchdog watchdog = engine.watchdog();
            Watchdog.Watch watch = watchdog == null ? null : watchdog.watch(statement);
            try {
                rs = execution.run();
            } catch (SQLException e) {
                throw translate(e);
            } finally {
                if (watch != null) {
                    watch.close();
                }
            }
            holds.readRan();
        } catch (SQLException e) {
            throw holds.translate(e);
        }
        if (rs != null) {
            checkColumns(rs);
        }
        return rs;
    }

    /**
     * R8: before every read, the session is proven still in the read-only mode the guard set. Should it
     * not be (nothing the guard lets through can change it; this is the last line), it is set again and
     * the read is refused, so that nothing ever runs outside it; the name context is then asked again
     * (R9). The same look brings the name context where it costs no round trip of its own.
     *
     * @return the name context the look reported, if any ({@link Dialect.SessionCheck})
     */
    private Optional<String> proveReadSession() throws SQLException {
        Dialect.SessionCheck check = dialect.checkReadSession(exec, readMaxRows());
        Optional<String> changed = check.changed();
        if (changed.isEmpty()) {
            return check.nameContext();
        }
        allowlist.contextMayHaveChanged();
        dialect.beginReadSession(exec, policy.read().timeoutMs());
        throw new RefusedException(Refusal.READ_SESSION_CHANGED, "the read-only session of this connection was"
                + " found changed (" + changed.get() + ") before a read; it has been set again and nothing ran."
                + " Send the read again, and find what changed the session: no statement through this"
                + " connection may.");
    }

    /** R9: setSchema or setCatalog was called: the name context is asked again before the next read. */
    void nameContextMayHaveChanged() {
        allowlist.contextMayHaveChanged();
    }

    /** R9: the vendor read connection was handed out (tests only): the name context is asked before every read. */
    void vendorConnectionHandedOut() {
        allowlist.askContextEveryRead();
    }

    /**
     * R1 for metadata: whether a table a catalog row names is one the policy allows. The row names the
     * schema (PostgreSQL), the database as its catalog (MySQL) or neither (SQLite's main).
     */
    boolean allowsTable(String catalog, String schema, String table) throws SQLException {
        return allowedTable(catalog, schema, table).isPresent();
    }

    /**
     * J9: the allowlisted table a metadata question names, as the vendor's metadata names it
     * ({catalog, schema, table}: the database as catalog on MySQL and MariaDB, the schema on PostgreSQL,
     * neither on SQLite), or empty when it names none. A question without a schema is about the table the
     * session would find by that name, and is asked about exactly that one: Connector/J and pgjdbc answer
     * a null catalog or schema with the same-named tables of every database or schema (measured).
     */
    Optional<String[]> allowedTable(String catalog, String schema, String table) throws SQLException {
        if (table == null) {
            return Optional.empty();
        }
        String container = dialect.metadataContainer(catalog, schema);
        Optional<TableRef> ref;
        if (container == null) {
            ref = allowlist.allowedByName(table);
        } else {
            TableRef named = new TableRef(container, table);
            ref = allowlist.allows(named) ? Optional.of(named) : Optional.empty();
        }
        return ref.map(this::asNamed);
    }

    /** Every allowlisted table, as the vendor's metadata names it (see {@link #allowedTable}). */
    List<String[]> allowedTables() throws SQLException {
        return allowlist.allowedRefs().stream().map(this::asNamed).toList();
    }

    private String[] asNamed(TableRef ref) {
        return dialect.metadataName(ref);
    }

    /** R2 for metadata: whether a column name is one of the policy's secret columns. */
    boolean isSecretColumn(String column) {
        return secrets.isSecret(column);
    }

    /**
     * J9: whether a text from the catalog (an index expression, a partial index's condition) names a secret
     * column: the name as a word, in any case, quoted or not.
     */
    boolean mentionsSecretColumn(String text) {
        if (text == null || secrets.isEmpty()) {
            return false;
        }
        String t = text.toLowerCase(Locale.ROOT);
        for (String secret : secrets.names()) {
            for (int at = t.indexOf(secret); at >= 0; at = t.indexOf(secret, at + 1)) {
                int after = at + secret.length();
                if ((at == 0 || !identifierChar(t.charAt(at - 1))) && (after == t.length()
                        || !identifierChar(t.charAt(after)))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean identifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /**
     * J9: a result with these columns and no row, made by the read connection itself: for the metadata
     * answers that have no row whatever is asked, so that the vendor's catalog is not read at all
     * (Connector/J's getTablePrivileges reads mysql.tables_priv, which the read role may not, and its error
     * names the role).
     */
    ResultSet noRows(String... columns) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            sql.append(i == 0 ? "" : ", ").append("NULL AS ").append(dialect.quote(columns[i]));
        }
        sql.append(" FROM (SELECT 1 AS x) AS t WHERE 1 = 0");
        Statement s = exec.createStatement();
        try {
            s.closeOnCompletion();
            return s.executeQuery(sql.toString());
        } catch (SQLException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** J9: the database's own types, when its metadata also lists those users made (see {@link Dialect#builtInTypes}). */
    Optional<Set<String>> builtInTypes() throws SQLException {
        return dialect.builtInTypes(exec);
    }

    /** R5 asked without running: the read checked as it would be, then only its plain EXPLAIN. */
    ReadEstimate estimate(String sql) throws SQLException {
        return unchecked("estimating a read", () -> estimateChecked(sql));
    }

    private ReadEstimate estimateChecked(String sql) throws SQLException {
        Analysis a = analyze(sql);
        if (a.isWrite()) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "only a read has a cost estimate here; an UPDATE or"
                    + " a DELETE is measured by its dry run instead. Nothing ran.");
        }
        if (a.parameterCount() > 0) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the read has " + a.parameterCount() + " ?"
                    + " parameters; the estimate needs the values written in. Nothing ran.");
        }
        Dialect.ReadCost cost;
        try {
            holds.beforeRead();
            Optional<String> context = proveReadSession();
            Set<TableRef> tables = checkRead(a, context);
            try {
                cost = dialect.explainCost(exec, a.text(), NO_PARAMETERS, tables);
                Optional<Set<TableRef>> planned = cost.relations().isPresent() ? cost.relations()
                        : dialect.planRelations(exec, a.text(), NO_PARAMETERS);
                if (planned.isPresent()) {
                    allowlist.checkPlan(a, tables, planned.get());
                }
            } catch (SQLException e) {
                throw explainFailed(e);
            }
            holds.readRan();
        } catch (SQLException e) {
            throw holds.translate(e);
        }
        return new ReadEstimate(cost.estimate(), cost.unit(), policy.read().maxCost());
    }

    /**
     * R5 and R9: the read's plain EXPLAIN on the read connection, before anything runs, in one round trip
     * where the cost gate's EXPLAIN names the relations: the relations its plan reads checked against the
     * allowlist, then its cost against the bound.
     */
    private void explain(Analysis a, Dialect.Binder parameters, Set<TableRef> tables) throws SQLException {
        OptionalDouble maxCost = policy.read().maxCost();
        Dialect.ReadCost cost = null;
        Optional<Set<TableRef>> planned = Optional.empty();
        try {
            if (maxCost.isPresent()) {
                cost = dialect.explainCost(exec, a.text(), parameters, tables);
                planned = cost.relations();
            }
            if (planned.isEmpty() && !allowlist.planChecked(a)) {
                planned = dialect.planRelations(exec, a.text(), parameters);
            }
        } catch (SQLException e) {
            throw explainFailed(e);
        }
        if (planned.isPresent()) {
            allowlist.checkPlan(a, tables, planned.get());
        }
        if (cost != null) {
            checkCost(cost, maxCost.getAsDouble());
        }
    }

    private void checkCost(Dialect.ReadCost cost, double max) throws SQLException {
        if (cost.estimate() > max) {
            throw new RefusedException(Refusal.COST_TOO_HIGH, String.format(Locale.ROOT, "the database estimates this"
                    + " read at %.1f %s, above the bound of %.1f (policy.read.maxCost). Nothing ran. Narrow it with a"
                    + " WHERE clause on a key or an indexed column, or read fewer tables.", cost.estimate(), cost.unit(),
                    max));
        }
    }

    /** R2 by result column: SELECT * returns a secret column under its own name. */
    void checkColumns(ResultSet rs) throws SQLException {
        if (secrets.isEmpty()) {
            return;
        }
        ResultSetMetaData md = rs.getMetaData();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            for (String name : new String[] {md.getColumnName(i), md.getColumnLabel(i)}) {
                String secret = secrets.of(name).map(Secrets.Secret::described).orElse(null);
                if (secret != null) {
                    try {
                        rs.close();
                    } catch (SQLException ignored) {
                        // the refusal is what the caller needs to see
                    }
                    // The secret ("password_hash, which is a stored credential") names the column once, unless
                    // the result calls it otherwise.
                    String which = secret.regionMatches(true, 0, name, 0, name.length()) ? secret
                            : name + " (" + secret + ")";
                    throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the result has the column " + which
                            + ": it is never read through this connection, and SELECT * returns it as well. Name the"
                            + " columns you need, leaving it out.");
                }
            }
        }
    }

    /** R10: an EXPLAIN that reads no row fails with a message about the statement's text, which is passed on. */
    private SQLException explainFailed(SQLException e) {
        SQLException t = translate(e);
        return t == e || dialect.explainEvaluates() || !(t.getClass() == SQLException.class) ? t : e;
    }

    /** The server's own refusals, as refusals: a write stopped by the read-only session, a bound hit. */
    private SQLException translate(SQLException e) {
        if (e instanceof RefusedException) {
            return e;
        }
        if (dialect.isResultTooLarge(e)) {
            return ReadBytes.translate(e, dialect, exec, policy.read().maxBytes());
        }
        if (dialect.isPrivilegeDenied(e)) {
            return new RefusedException(Refusal.NOT_GRANTED, "the database refused this read for lack of a privilege ("
                    + e.getMessage() + "): the read connection's credential needs SELECT on the allowlisted tables it"
                    + " reads, as samples/roles grants it; `llmsafe check` names the tables it cannot read. Nothing"
                    + " was read.", e);
        }
        if (dialect.isReadOnlyViolation(e)) {
            return new RefusedException(Refusal.MIXED, "the database refused to write while running a read ("
                    + e.getMessage() + "): reads run in a read-only session. Nothing was changed. Send an UPDATE or"
                    + " DELETE on its own to propose a change.", e);
        }
        return dialect.boundRefusal(e).<SQLException>map(code -> new RefusedException(code, code == Refusal.LOCK_TIMEOUT
                ? "the read waited too long for a lock (" + e.getMessage() + "). Try again."
                : "the read ran longer than its bound of " + policy.read().timeoutMs() + " ms (policy.read.timeoutMs)"
                        + " and was stopped (" + e.getMessage() + "). Narrow it.", e)).orElseGet(() -> DatabaseErrors.withheld(e));
    }

    /**
     * Plans UPDATE and DELETE statements as one plan (a batch is one plan, J5) and stores it.
     *
     * @return the exception to throw, whose message is the card
     */
    PlanPendingException propose(List<Proposal> proposals) throws SQLException {
        // D17: the settings that change what the statements mean are those of the application's session.
        long start = System.nanoTime();
        PlanPendingException pending;
        try {
            pending = unchecked("planning a write", () -> engine.propose(proposals, proposer, dialect.session(application)));
        } catch (RefusedException e) {
            throw told(e);
        }
        long nanos = System.nanoTime() - start;
        engine.tell(l -> l.proposed(pending, nanos));
        return pending;
    }

    /**
     * The proposal of a write with its captured parameters (D16).
     *
     * @param values one per {@code ?}: the {@link Parameter} as bound, an {@link Uncaptured}, or null when
     *     the parameter was never set
     */
    static Proposal proposal(Analysis a, Object[] values) throws SQLException {
        if (values.length != a.parameterCount()) {
            throw new SQLException("the statement has " + a.parameterCount() + " parameters and " + values.length
                    + " were bound", "07001");
        }
        List<Parameter> parameters = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v == null) {
                throw new SQLException("no value was set for parameter " + (i + 1), "07001");
            }
            if (v instanceof Uncaptured u) {
                throw new RefusedException(Refusal.PARAMETER_NOT_REPLAYABLE, "parameter " + (i + 1) + " was bound with "
                        + u.setter() + ": " + u.why() + ". The dry run and the apply send every parameter again exactly"
                        + " as the application bound it, so nothing was planned.");
            }
            parameters.add((Parameter) v);
        }
        return new Proposal(a, parameters);
    }

    /** J1, J3, J4, J6: a JDBC method that is refused, with what to do instead. */
    static RefusedException forbidden(String what, String why) {
        return new RefusedException(Refusal.FORBIDDEN_JDBC, what + " is refused: " + why);
    }

    /** A statement that is not a plain read where only a read can go, or the reverse. */
    static RefusedException wrongMethod(String what, String instead) {
        return new RefusedException(Refusal.UNSUPPORTED_STATEMENT, what + ". " + instead);
    }
}
