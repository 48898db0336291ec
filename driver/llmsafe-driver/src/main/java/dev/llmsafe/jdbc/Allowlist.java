package dev.llmsafe.jdbc;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.ColumnInfo;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.PolicyTables;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.policy.TablePolicy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.ReadFunctions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * R1 on one connection: the tables a read names must be the policy's, compared after the database
 * resolves both (W4: schema, case folding, quoting), and it may call no stored routine that queries
 * (which would read past the allowlist). Names are resolved on the connection the read runs on, in
 * its own session, so a read and its check see the same tables.
 *
 * <p>Resolutions are cached per connection so that the hot path makes no catalog round trip; the cache
 * is emptied every {@value #TTL_SECONDS} seconds, which bounds how long a table created elsewhere on the
 * search path (only DDL, which no statement through llmsafe may run, can do that) goes unnoticed.
 * Bounded in size, as it holds names an attacker may choose.
 */
final class Allowlist {

    static final int TTL_SECONDS = 30;
    private static final long TTL_NS = TTL_SECONDS * 1_000_000_000L;
    private static final int MAX_NAMES = 1024;

    private final Dialect dialect;
    private final Policy policy;
    private final Connection c;
    private final Map<QualifiedName, Optional<TableRef>> resolved = new HashMap<>();
    private final Map<QualifiedName, Boolean> queryingRoutine = new HashMap<>();
    private final Map<QualifiedName, Optional<Collection<String>>> columns = new HashMap<>();
    private final Set<String> plansChecked = new HashSet<>();
    private Map<TableRef, TablePolicy> allowed;
    private Set<TableRef> reachable;
    private String context;
    private String reported;
    private boolean contextStale;
    private boolean askEveryRead;
    private long since;

    Allowlist(Dialect dialect, Policy policy, Connection c) {
        this.dialect = dialect;
        this.policy = policy;
        this.c = c;
    }

    /**
     * A name the connection cannot resolve. When the policy allows a table of that name, its catalog hides
     * the table for want of a grant (MySQL and MariaDB show a role only the tables it has privileges on):
     * NOT_GRANTED, saying so; otherwise it is no table the policy allows.
     */
    private RefusedException unseen(QualifiedName name) {
        boolean qualified = name.qualifier() != null;
        // MySQL and MariaDB compare table names without case on the systems llmsafe supports here.
        boolean allowlisted = dialect.catalogHidesUngrantedTables() && policy.tables().keySet().stream().anyMatch(t -> qualified
                ? t.toString().equalsIgnoreCase(name.toString()) : t.last().text().equalsIgnoreCase(name.last().text()));
        if (allowlisted) {
            return new RefusedException(Refusal.NOT_GRANTED, name + " is allowed by the policy, but this connection's"
                    + " credential cannot see it: grant it SELECT there, as samples/roles does for the read role"
                    + " (`llmsafe check` names every such table). Nothing was read.");
        }
        return new RefusedException(Refusal.TABLE_NOT_ALLOWED, name + " is not a table this connection can see, so it"
                + " is not one the policy allows. Read an allowlisted table.");
    }

    /**
     * Checks a read's tables and functions.
     *
     * @return the tables it reads, as the database names them
     * @throws RefusedException TABLE_NOT_ALLOWED, FORBIDDEN_FUNCTION
     */
    synchronized Set<TableRef> check(Analysis a) throws SQLException {
        return check(a, Optional.empty());
    }

    /**
     * {@link #check(Analysis)} with the name context the R8 look before the read brought for free
     * ({@link Dialect.SessionCheck}), so that a change of it is seen without a round trip of its own.
     */
    synchronized Set<TableRef> check(Analysis a, Optional<String> reportedContext) throws SQLException {
        checkContext(reportedContext);
        Map<TableRef, TablePolicy> allowed = allowedTables();
        Set<TableRef> refs = new LinkedHashSet<>();
        for (QualifiedName name : a.tables()) {
            TableRef ref = resolve(name).orElseThrow(() -> unseen(name));
            if (!allowed.containsKey(ref)) {
                throw new RefusedException(Refusal.TABLE_NOT_ALLOWED, ref + " is not in the policy's allowlist"
                        + " (policy.allow), so it cannot be read through this connection. Read an allowlisted table,"
                        + " or add it to policy.allow if the model should see it.");
            }
            refs.add(ref);
        }
        checkRoutines(a);
        return refs;
    }

    /**
     * The allowlisted table a name without schema means (a metadata question with null catalog and
     * schema), resolved as this session resolves the name; empty when it means none.
     */
    synchronized Optional<TableRef> allowedByName(String table) throws SQLException {
        Identifier exact;
        try {
            exact = new Identifier(table, true);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        checkContext(Optional.empty());
        Map<TableRef, TablePolicy> allowed = allowedTables();
        return resolve(new QualifiedName(List.of(exact))).filter(allowed::containsKey);
    }

    /** Every allowlisted table that resolves, as the database names it, by name. */
    synchronized List<TableRef> allowedRefs() throws SQLException {
        return allowedTables().keySet().stream().sorted(java.util.Comparator.comparing(TableRef::toString)).toList();
    }

    /** Whether a table, as the catalog names it (a metadata row), is one the policy allows. */
    synchronized boolean allows(TableRef ref) throws SQLException {
        return allowedTables().containsKey(ref);
    }

    /** The policy's tables as the database resolves them; the caches are emptied when they are due. */
    private Map<TableRef, TablePolicy> allowedTables() throws SQLException {
        long now = System.nanoTime();
        if (allowed == null || now - since > TTL_NS || resolved.size() > MAX_NAMES || queryingRoutine.size() > MAX_NAMES
                || columns.size() > MAX_NAMES) {
            clear();
            since = now;
        }
        if (allowed == null) {
            allowed = PolicyTables.resolve(policy, this::resolve);
        }
        return allowed;
    }

    /** R10: the columns of the table a name resolves to, as the catalog names them; empty when there is none. */
    synchronized Optional<Collection<String>> columns(QualifiedName name) throws SQLException {
        allowedTables();
        Optional<Collection<String>> found = columns.get(name);
        if (found == null) {
            found = dialect.table(c, name).map(t -> List.copyOf(t.columns().stream().map(ColumnInfo::name).toList()));
            columns.put(name, found);
        }
        return found;
    }

    /**
     * R9: what a name means depends on the session's search path, current database or attached
     * databases; every cache here holds for one of them, and is emptied when it changes.
     *
     * <p>The context is asked ({@link Dialect#nameContext}, a round trip) once per connection, and again
     * only when it may have changed: when the value the R8 look reports with it changes (MariaDB and
     * MySQL's current database, PostgreSQL 18's search_path, read before
     * every read at no extra round trip), when the session was found changed (R8), when the application
     * called setSchema or setCatalog, or always once the vendor connection was handed out. Nothing the
     * guard runs on the read connection can change it in between: a read is a single SELECT whose
     * functions are allowlisted (R7 refuses set_config, and stored routines in SQL or a procedural
     * language), USE, SET, RESET, DISCARD and ATTACH are refused as statements, setSchema and setCatalog
     * to another value are refused (J6), the engine's own session settings name no schema, and a plan's
     * dry run runs on the engine's own connections (SPEC.md R9).
     */
    private void checkContext(Optional<String> reportedContext) throws SQLException {
        if (reportedContext.isPresent() && !reportedContext.get().equals(reported)) {
            reported = reportedContext.get();
            contextStale = true;
        }
        if (context != null && !contextStale && !(askEveryRead && reportedContext.isEmpty())) {
            return;
        }
        String now = dialect.nameContext(c);
        if (!now.equals(context)) {
            clear();
            context = now;
        }
        contextStale = false;
    }

    /** R9: the name context may have changed (R8 found the session changed, setSchema, setCatalog): asked again. */
    synchronized void contextMayHaveChanged() {
        contextStale = true;
    }

    /**
     * R9: the vendor connection was handed out (a test's look at the read session), so anything may
     * change the session around the guard from now on: the context is asked before every read whose R8
     * look did not bring it.
     */
    synchronized void askContextEveryRead() {
        askEveryRead = true;
    }

    private void clear() {
        resolved.clear();
        queryingRoutine.clear();
        columns.clear();
        plansChecked.clear();
        allowed = null;
        reachable = null;
    }

    /** R9: whether the database's plan of this read was checked already in this name context. */
    synchronized boolean planChecked(Analysis a) {
        return plansChecked.contains(a.text());
    }

    /**
     * R9, a check independent of how llmsafe read the statement: every relation the database's own plan
     * reads is allowlisted, or read through an allowlisted relation (a view's tables, a partitioned
     * table's partitions, as the plan of {@code SELECT * FROM} that relation shows them).
     *
     * @param tables the tables the statement names, resolved
     * @param relations the relations its plan reads
     * @throws RefusedException SYSTEM_CATALOG, TABLE_NOT_ALLOWED
     */
    synchronized void checkPlan(Analysis a, Set<TableRef> tables, Set<TableRef> relations) throws SQLException {
        Map<TableRef, TablePolicy> allowed = allowedTables();
        for (TableRef r : relations) {
            if (allowed.containsKey(r)) {
                continue;
            }
            if (dialect.isSystemRelation(r)) {
                throw new RefusedException(Refusal.SYSTEM_CATALOG, "the database's plan of this read reads " + r
                        + ", part of its system catalog, which is never readable through this connection. Ask for the"
                        + " schema context (llmsafe schema) instead.");
            }
            if (!reachable().contains(r)) {
                throw new RefusedException(Refusal.TABLE_NOT_ALLOWED, "the database's plan of this read reads " + r
                        + ", which is not in the policy's allowlist (policy.allow) nor read by an allowlisted view or"
                        + " table. Read only allowlisted tables.");
            }
        }
        // Remembered only when the plan reads every table the statement names: with values bound (or
        // constants), the planner may fold a branch away, and with it a relation, for this value only.
        if (relations.containsAll(tables) && plansChecked.size() < MAX_NAMES) {
            plansChecked.add(a.text());
        }
    }

    private Set<TableRef> reachable() throws SQLException {
        if (reachable == null) {
            Set<TableRef> out = new HashSet<>();
            for (TableRef t : allowedTables().keySet()) {
                try {
                    dialect.planRelations(c, "SELECT * FROM " + dialect.render(t), Guard.NO_PARAMETERS).ifPresent(out::addAll);
                } catch (RefusedException e) {
                    // A plan that cannot be read with certainty (MySQL reads a view of one row while it plans and
                    // prints its values), or not at all: nothing is reachable through that relation.
                }
            }
            reachable = out;
        }
        return reachable;
    }

    private Optional<TableRef> resolve(QualifiedName name) throws SQLException {
        Optional<TableRef> r = resolved.get(name);
        if (r == null) {
            try {
                r = dialect.resolve(c, name);
            } catch (SQLException e) {
                if (!"42501".equals(e.getSQLState())) {
                    throw e;
                }
                // PostgreSQL's to_regclass of a schema the read role has no USAGE on: not a table it can see.
                r = Optional.empty();
            }
            resolved.put(name, r);
        }
        return r;
    }

    private void checkRoutines(Analysis a) throws SQLException {
        Set<QualifiedName> unknown = new HashSet<>();
        for (QualifiedName f : a.functions()) {
            if (ReadFunctions.allowedByPolicy(f, policy.read().allowFunctions())) {
                continue; // R7: the policy names it as computing from its arguments alone
            }
            Boolean known = queryingRoutine.get(f);
            if (known == null) {
                unknown.add(f);
            } else if (known) {
                throw routine(f);
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        Set<String> routines = dialect.queryingRoutines(c, unknown);
        for (QualifiedName f : unknown) {
            boolean querying = routines.stream().anyMatch(r -> r.equalsIgnoreCase(f.last().text()));
            queryingRoutine.put(f, querying);
            if (querying) {
                throw routine(f);
            }
        }
    }

    private static RefusedException routine(QualifiedName f) {
        return new RefusedException(Refusal.FORBIDDEN_FUNCTION, f + " is a stored routine written in SQL or a"
                + " procedural language: it can read tables the policy does not allow, and write. Read the tables"
                + " it reads directly, if they are allowlisted.");
    }
}
