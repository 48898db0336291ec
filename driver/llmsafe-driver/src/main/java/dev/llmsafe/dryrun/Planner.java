package dev.llmsafe.dryrun;

import dev.llmsafe.DatabaseErrors;
import dev.llmsafe.Defects;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Connections;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.SessionSettings;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.dialect.UnreadableValueException;
import dev.llmsafe.dialect.Watchdog;
import dev.llmsafe.dialect.Writes;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.ParameterReplay;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.SecretCheck;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dry run. Each statement runs for real, in one transaction on a connection of the engine's own
 * pool, never nested in a caller's transaction (D4): count first and refuse above the ceiling (D1-D3),
 * read the before-image of every column under a row lock, run the statement, reconcile the database's
 * count (D9), read the after-image, ask the database what the transaction wrote (D14), roll back, and
 * prove the rollback by reading the rows again (D7). Every value on the resulting plan is one the
 * database returned. Thread-safe: each call takes its own connection.
 */
public final class Planner {

    private static final Logger LOG = LoggerFactory.getLogger(Planner.class);

    private final DataSource pool;
    private final Dialect dialect;
    private final Policy policy;
    private final Bounds bounds;
    private final byte[] maskKey;
    private final Clock clock;
    private final Watchdog watchdog;

    /**
     * @param pool the engine's own pool of connections to the database, with a credential that can write
     * @param dialect the database's dialect
     * @param policy what may be written
     * @param bounds the lock and statement bounds of every dry run (D6)
     * @param maskKey the key secret values are hashed with (D12), or null for a plain SHA-256
     * @param clock the clock plans are dated by
     */
    public Planner(DataSource pool, Dialect dialect, Policy policy, Bounds bounds, byte[] maskKey, Clock clock) {
        this.pool = pool;
        this.dialect = dialect;
        this.policy = policy;
        this.bounds = bounds;
        this.maskKey = maskKey == null ? null : maskKey.clone();
        this.clock = clock;
        this.watchdog = new Watchdog(bounds.statementTimeoutMs() + 500L);
    }

    /**
     * Plans one or more statements (a batch plans as one, J5), run in order in one transaction.
     *
     * @return the plan, every value measured
     * @throws RefusedException when a rule refuses; nothing is left changed
     * @throws SQLException when the database fails in a way that is not a refusal (the server is down)
     */
    public Plan plan(List<Proposal> proposals, String proposer) throws SQLException {
        return plan(proposals, proposer, null);
    }

    /**
     * Plans one or more statements in the application's session (D17): the settings that change what
     * they mean are made those of {@code session} for the dry run, recorded in the plan, and put back
     * afterwards, so that the pooled connection keeps its own.
     *
     * @param session the application's session settings, or null for the planning connection's own
     */
    public Plan plan(List<Proposal> proposals, String proposer, SessionSettings session) throws SQLException {
        if (proposals == null || proposals.isEmpty() || proposals.stream().anyMatch(java.util.Objects::isNull)) {
            throw new RefusedException(Refusal.INVALID_ARGUMENT, "there is no statement to plan. Send one UPDATE or"
                    + " DELETE, or a batch of them.");
        }
        if (proposer == null || proposer.isBlank()) {
            throw new RefusedException(Refusal.INVALID_ARGUMENT, "the plan names no proposer; every plan records who"
                    + " proposed it. Name the proposer.");
        }
        try {
            return planChecked(proposals, proposer, session);
        } catch (UnreadableValueException e) {
            throw e.refusal();
        } catch (RuntimeException e) {
            // J11: a caller of the driver catches SQLException; nothing unchecked may reach it.
            throw Defects.refusal("planning", e);
        }
    }

    private Plan planChecked(List<Proposal> proposals, String proposer, SessionSettings session) throws SQLException {
        for (Proposal p : proposals) {
            SecretCheck.check(p.analysis(), policy);
            // D16: a parameter this JVM cannot send as the application did is refused before anything runs.
            ParameterReplay.check(p.parameters());
        }
        try (Connection c = Connections.lease(pool)) {
            if (!c.getAutoCommit()) {
                evict(c);
                throw new RefusedException(Refusal.NESTING_REFUSED, "the dry run was handed a connection inside a"
                        + " transaction it does not own; it runs only in a transaction of its own. Try again.");
            }
            SessionSettings own = dialect.initSession(c, bounds);
            SessionSettings wanted = session == null ? own : session;
            boolean restore = !wanted.equals(own);
            Triggers triggers = new Triggers();
            boolean reproduced = false;
            try {
                if (restore) {
                    // Only a session that differs is made like the application's: one read fewer when they agree.
                    dialect.reproduce(c, own, wanted);
                    reproduced = true;
                }
                return dryRun(c, proposals, proposer, wanted, triggers);
            } finally {
                if (restore) {
                    restore(c, own, reproduced && !triggers.mayHaveRun ? wanted : null);
                }
            }
        }
    }

    /**
     * Whether a trigger may have run on the dry-run connection: the only thing the engine lets run there
     * that could change a session setting (SET inside a MySQL trigger outlasts the ROLLBACK; the statement
     * itself cannot SET, and its stored functions are refused as querying routines, R1).
     */
    private static final class Triggers {
        private boolean mayHaveRun;
    }

    private Plan dryRun(Connection c, List<Proposal> proposals, String proposer, SessionSettings session,
            Triggers triggers) throws SQLException {
        List<Target> targets = new ArrayList<>();
        for (Proposal p : proposals) {
            targets.add(Target.check(c, dialect, policy, p.analysis()));
        }
        triggers.mayHaveRun = targets.stream().anyMatch(t -> !t.info().triggers().isEmpty());
        DryRun run = new DryRun(c, targets);
        List<PlannedStatement> statements;
        try {
            if (dialect.joinsStatements()) {
                // The bounds ride ahead of the first before-image, in its round trip.
                run.ahead = dialect.beginDryRunJoined(c, bounds).orElse(null);
            } else {
                dialect.beginDryRun(c, bounds);
            }
            statements = new ArrayList<>();
            for (int i = 0; i < proposals.size(); i++) {
                statements.add(run.statement(proposals.get(i), targets.get(i)));
            }
        } catch (SQLException | RuntimeException e) {
            if (rollbackQuietly(c) && run.executedAny()) {
                // Refused after the statement ran: the rollback is proven all the same.
                run.proveRolledBack(null);
            }
            if (e instanceof SQLException sql) {
                throw bound(sql);
            }
            throw e;
        }
        Optional<String> rollback = dialect.rollbackStatement();
        if (rollback.isPresent()) {
            // ROLLBACK rides ahead of the proof's first read, in its round trip.
            run.proveRolledBack(rollback.get());
        } else {
            rollback(c);
            run.proveRolledBack(null);
        }
        List<String> warnings = new ArrayList<>();
        targets.forEach(t -> warnings.addAll(t.warnings()));
        return new Plan(UUID.randomUUID(), clock.instant(), proposer, dialect.product(), statements,
                dialect.limitations(), warnings, session);
    }

    /**
     * Puts the pooled connection's own session settings back; one that cannot be is discarded. With
     * {@code known} (the settings the session is known to hold) nothing is read first, else the session is
     * read, set and read again.
     */
    private void restore(Connection c, SessionSettings own, SessionSettings known) {
        try {
            if (!c.isClosed() && c.getAutoCommit()) {
                if (known != null) {
                    // The session is the application's, as reproduce proved it, and nothing since could change it.
                    dialect.putBack(c, known, own);
                } else {
                    dialect.reproduce(c, own);
                }
                return;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("the session settings of a dry-run connection could not be put back; discarding it", e);
        }
        evict(c);
    }

    private RefusedException bound(SQLException e) {
        if (e instanceof RefusedException r) {
            return r;
        }
        if (e instanceof UnreadableValueException u) {
            return u.refusal();
        }
        if (dialect.isReadOnlyViolation(e)) {
            return new RefusedException(Refusal.PLANNING_READ_ONLY, "the planning connection cannot write ("
                    + e.getMessage() + "): a dry run runs the statement for real and rolls it back, so it needs a"
                    + " connection that can write. Nothing was changed. Plan on a database and credential that can"
                    + " write: on SQLite without open_mode=1 or mode=ro, elsewhere not in a read-only session or on a"
                    + " read-only server.", e);
        }
        return dialect.boundRefusal(e).map(code -> new RefusedException(code, code == Refusal.LOCK_TIMEOUT
                ? "a row the statement needs is locked by another session for longer than " + bounds.lockTimeoutMs()
                        + " ms. Nothing was changed; try again when that session is done."
                : "the statement ran longer than " + bounds.statementTimeoutMs() + " ms and was stopped. Nothing was"
                        + " changed; narrow the WHERE clause.", e))
                .orElseGet(() -> new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the database refused the"
                        + " statement during the dry run: " + DatabaseErrors.describe(e) + ". Nothing was changed.",
                        DatabaseErrors.mayCarryValues(e) ? null : e));
    }

    private void rollback(Connection c) throws SQLException {
        dialect.rollbackDryRun(c);
    }

    /**
     * Rolls back after a refusal or an error, keeping that first error: a transaction that never began
     * (SQLite's BEGIN IMMEDIATE refused by a lock) cannot be rolled back, and saying so would hide why.
     * A connection that cannot be brought back to a clean state is discarded.
     *
     * @return whether the connection is back in a known state
     */
    private boolean rollbackQuietly(Connection c) {
        try {
            rollback(c);
            return true;
        } catch (SQLException | RuntimeException e) {
            LOG.debug("rollback after a refusal failed; discarding the connection", e);
            evict(c);
            return false;
        }
    }

    private void evict(Connection c) {
        Connections.discard(pool, c);
    }

    /** The state of one dry run: the first image of every row it touched, for the rollback proof. */
    private final class DryRun {
        private final Connection c;
        private final Map<TableRef, Images> images = new LinkedHashMap<>();
        private final Map<TableRef, Map<List<Value>, List<Value>>> firstSeen = new LinkedHashMap<>();
        private final Map<TableRef, Map<List<Value>, List<Value>>> lastWritten = new LinkedHashMap<>();
        private final Dialect.WriteCounter counter = dialect.writeCounter()
                .filter(k -> dialect.joinsStatements() || !k.columns().isEmpty()).orElse(null);
        /** A statement to send ahead of the next query, in its round trip (the dry run's bounds), or null. */
        private String ahead;

        DryRun(Connection c, List<Target> targets) {
            this.c = c;
        }

        boolean executedAny() {
            return !firstSeen.isEmpty();
        }

        PlannedStatement statement(Proposal p, Target t) throws SQLException {
            Analysis a = p.analysis();
            boolean delete = a.kind() == Analysis.Kind.DELETE;
            TableRef ref = t.info().ref();
            Images img = images.computeIfAbsent(ref, r -> new Images(c, dialect, watchdog, dialect.renderAsWritten(a.target()),
                    t.info()));
            List<Parameter> whereParams = p.parameters().subList(a.whereFirstParameter(),
                    a.whereFirstParameter() + a.whereParameterCount());
            if (!t.secretKeyColumns().isEmpty() && maskKey == null) {
                throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the primary key of " + ref + " ("
                        + String.join(", ", t.secretKeyColumns()) + ") is a secret identifier: a card can show its rows"
                        + " only with each key withheld as a keyed hash, and no seal key is configured to key it with."
                        + " Set sealKey in the configuration (on the planning and the applying side), or change these"
                        + " rows through the application.");
            }
            int ceiling = delete ? policy.maxDeleteRows(t.policy()) : policy.maxUpdateRows(t.policy());
            // One row past the ceiling is enough to refuse; only then is the exact count asked, for the message.
            String first = ahead;
            ahead = null;
            // D14's baseline rides behind the before-image where the dialect can send both at once.
            Images.Counted<List<List<Value>>> beforeRead = img.select(a.where(), whereParams, true, ceiling + 1L,
                    first, counter);
            List<List<Value>> beforeRows = beforeRead.rows();
            checkCount(beforeRows.size() > ceiling ? img.count(a.where(), whereParams) : beforeRows.size(), ceiling,
                    delete, ref);
            Map<List<Value>, List<Value>> before = new LinkedHashMap<>();
            for (List<Value> row : beforeRows) {
                before.put(img.keyOf(row), row);
            }
            if (before.size() != beforeRows.size()) {
                throw new RefusedException(Refusal.KEY_NOT_UNIQUE, "the " + beforeRows.size() + " rows matched in " + ref
                        + " have only " + before.size() + " distinct keys, so they cannot be told apart at apply.");
            }
            img.checkBindable(before.keySet());
            boolean writtenBefore = executedAny();
            Map<List<Value>, List<Value>> seen = firstSeen.computeIfAbsent(ref, r -> new LinkedHashMap<>());
            before.forEach(seen::putIfAbsent);
            Map<List<Value>, List<Value>> written = lastWritten.computeIfAbsent(ref, r -> new LinkedHashMap<>());
            // Where the baseline could not ride (no row carried it, or the counter could not say), the meter
            // reads on its own, before and after, as it does for a dialect without a counter.
            Writes baseline = counter == null ? null : beforeRead.counted();
            boolean riding = baseline != null && baseline.unknown().isEmpty();
            Dialect.WriteMeter meter = riding ? null : dialect.writeMeter(c, writtenBefore);
            long affected = img.run(a, p.parameters());
            if (affected != before.size()) {
                throw new RefusedException(Refusal.ROW_COUNT_MISMATCH, "the database reports " + affected
                        + " rows affected where " + before.size() + " rows matched the WHERE clause; the card would not"
                        + " show what the database did. Nothing was changed.");
            }
            List<List<Value>> keys = new ArrayList<>(before.keySet());
            // The reading rides behind the after-image, as the baseline rode behind the before-image.
            Images.Counted<Map<List<Value>, List<Value>>> afterRead = img.byKeys(keys, null,
                    riding && (dialect.joinsStatements() || !delete) ? counter : null);
            Map<List<Value>, List<Value>> after = afterRead.rows();
            if (delete) {
                keys.forEach(written::remove);
            } else {
                written.putAll(after);
            }
            if (delete ? !after.isEmpty() : after.size() != before.size()) {
                throw new RefusedException(Refusal.ROW_COUNT_MISMATCH, (delete ? after.size() + " of the deleted rows"
                        + " are still there" : (before.size() - after.size()) + " of the updated rows are gone")
                        + " after the statement ran (a rule or a trigger). Nothing was changed.");
            }
            if (!delete) {
                t.checkReferencedKeysKept(img.columns(), before, after);
            }
            List<RowChange> rows = new ArrayList<>();
            Set<String> changedColumns = new LinkedHashSet<>();
            long changedRows = 0;
            long writtenRows = 0;
            List<String> columns = img.columns();
            // D8: what the database maintains itself is not what the statement sets; its dry-run value
            // (the dry run's clock, a trigger's counter) is not what apply will store.
            List<String> maintained = delete ? List.of() : columns.stream().filter(t.autoColumns()::contains).toList();
            for (Map.Entry<List<Value>, List<Value>> e : before.entrySet()) {
                List<Value> b = e.getValue();
                List<Value> f = delete ? null : after.get(e.getKey());
                List<ColumnChange> changes = new ArrayList<>();
                List<ColumnChange> unchanged = new ArrayList<>();
                boolean rowWritten = false;
                for (int i = 0; i < columns.size(); i++) {
                    String col = columns.get(i);
                    boolean differs = delete || !b.get(i).equals(f.get(i));
                    rowWritten |= differs;
                    if (maintained.contains(col)) {
                        continue;
                    }
                    if (differs) {
                        changes.add(new ColumnChange(col, t.shown(col, b.get(i), maskKey),
                                delete ? null : t.shown(col, f.get(i), maskKey), false));
                        changedColumns.add(col);
                    } else if (t.setColumns().contains(col)) {
                        // A4: the value the card calls already correct is compared again before apply writes.
                        Value v = t.shown(col, b.get(i), maskKey);
                        unchanged.add(new ColumnChange(col, v, v, false));
                    }
                }
                changedRows += changes.isEmpty() ? 0 : 1;
                writtenRows += rowWritten ? 1 : 0;
                Map<String, Value> key = new LinkedHashMap<>();
                Map<String, Value> withheld = new LinkedHashMap<>();
                for (int i = 0; i < t.info().primaryKey().size(); i++) {
                    String k = t.info().primaryKey().get(i);
                    Value v = e.getKey().get(i);
                    key.put(k, t.shown(k, v, maskKey));
                    if (t.secretKeyColumns().contains(k)) {
                        // D12: the card shows the keyed hash; only the store's sealed plan holds the value.
                        withheld.put(k, v);
                    }
                }
                rows.add(new RowChange(key, changes, unchanged, withheld));
            }
            Writes writes = !riding ? meter.measure() : counter.between(baseline, afterRead.counted() != null
                    ? afterRead.counted() : img.count(counter));
            SideEffects.check(writes, ref, delete, affected, writtenRows, t.fires(delete));
            if (!delete && changedRows == 0) {
                throw new RefusedException(Refusal.NO_CHANGE, "the UPDATE matches " + before.size() + " rows of " + ref
                        + " but changes no value in any of them" + (maintained.isEmpty() ? "" : " (the database would only"
                        + " update what it maintains itself: " + String.join(", ", maintained) + ")")
                        + ". There is nothing to approve.");
            }
            return new PlannedStatement(a.text(), p.parameters(), delete ? PlannedStatement.Kind.DELETE
                    : PlannedStatement.Kind.UPDATE, ref, t.policy().impact().orElseThrow(), t.info().primaryKey(),
                    delete ? columns : List.copyOf(changedColumns), maintained, affected, rows);
        }

        private void checkCount(long n, int ceiling, boolean delete, TableRef ref) throws RefusedException {
            if (n == 0) {
                throw new RefusedException(Refusal.NO_ROWS, "no row of " + ref + " matches the WHERE clause, so there is"
                        + " nothing to " + (delete ? "delete" : "change") + ".");
            }
            if (n > ceiling) {
                throw new RefusedException(Refusal.TOO_MANY_ROWS, n + " rows of " + ref + " match, more than the "
                        + ceiling + " a single " + (delete ? "DELETE" : "UPDATE") + " may " + (delete ? "delete" : "change")
                        + " here: every row is shown to a person, and the ceiling is what a person can read. Narrow the"
                        + " WHERE clause, or split the change.");
            }
        }

        /**
         * D7: "no exception" proves nothing; the rows are read again and must be what they were.
         *
         * @param rollback the ROLLBACK to send ahead of the first read, in its round trip, or null when the
         *     transaction is already rolled back; with it, the connection is back in auto-commit after
         */
        void proveRolledBack(String rollback) throws SQLException {
            String first = rollback;
            for (Map.Entry<TableRef, Map<List<Value>, List<Value>>> t : firstSeen.entrySet()) {
                List<List<Value>> keys = new ArrayList<>(t.getValue().keySet());
                Map<List<Value>, List<Value>> now;
                if (first == null) {
                    now = images.get(t.getKey()).byKeys(keys);
                } else {
                    try {
                        now = images.get(t.getKey()).byKeys(keys, first, null).rows();
                        c.setAutoCommit(true);
                    } catch (SQLException | RuntimeException e) {
                        // Whether the ROLLBACK ran is not known: the connection is not used again.
                        evict(c);
                        throw e;
                    }
                    first = null;
                }
                int persisted = 0;
                int moved = 0;
                for (Map.Entry<List<Value>, List<Value>> row : t.getValue().entrySet()) {
                    List<Value> current = now.get(row.getKey());
                    if (row.getValue().equals(current)) {
                        continue;
                    }
                    List<Value> written = lastWritten.get(t.getKey()).get(row.getKey());
                    boolean ours = written == null ? current == null : written.equals(current);
                    if (ours) {
                        persisted++;
                    } else {
                        moved++;
                    }
                }
                if (persisted > 0) {
                    evict(c);
                    throw new RefusedException(Refusal.ROLLBACK_FAILED, "after ROLLBACK, " + persisted + " of "
                            + t.getValue().size() + " rows of " + t.getKey() + " still hold what the dry run wrote (or are"
                            + " still missing): the change may have been written. Check " + t.getKey() + " now; the"
                            + " connection was discarded.");
                }
                if (moved > 0) {
                    throw new RefusedException(Refusal.CONCURRENT_CHANGE, moved + " rows of " + t.getKey() + " were"
                            + " changed by another session while the dry run ran; the dry run itself was rolled back."
                            + " Propose the change again to see the rows as they are now.");
                }
            }
            if (first != null) {
                // No row was read to prove (nothing ran): the rollback goes on its own.
                rollback(c);
            }
        }
    }
}
