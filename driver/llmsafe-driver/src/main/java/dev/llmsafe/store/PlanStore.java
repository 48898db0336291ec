package dev.llmsafe.store;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Connections;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans and their audit trail, in the database behind the store connection, on PostgreSQL, MySQL,
 * MariaDB or SQLite. Every status move is one conditional UPDATE (A8); every plan is checked on its way
 * out: checksum, and with a seal key the seals over the plan and its approval (T2); its age (A11).
 * Every operation on a store that does not exist says "run migrate" (T1). Thread-safe.
 */
public final class PlanStore implements PlanSink {

    private static final Logger LOG = LoggerFactory.getLogger(PlanStore.class);

    /**
     * The store's version as a value of the statement that reads or moves a plan, so that the version is
     * checked without a round trip of its own; {@link #ready} words what another version means.
     */
    private static final String VERSION_NOW = "(SELECT MAX(version) FROM " + StoreSchema.VERSION + ")";


    /** The store version this llmsafe reads and writes; {@link #migrate()} brings a store to it. */
    public static final int VERSION = StoreSchema.CURRENT;

    private final DataSource source;
    private final Seals seals;
    private final Duration expiry;
    private final Clock clock;
    private volatile Dialect dialect;

    /**
     * @param source connections to the store's database, with the store's own credential
     * @param sealKey the seal key, the same on the planning and the applying side; null for none
     * @param expiry how long a plan may wait for approval and apply
     * @param clock the clock
     */
    public PlanStore(DataSource source, byte[] sealKey, Duration expiry, Clock clock) {
        this.source = source;
        this.seals = new Seals(sealKey);
        this.expiry = expiry;
        this.clock = clock;
    }

    /** Whether plans are sealed here. */
    public boolean sealed() {
        return seals.keyed();
    }

    // ---- schema ----

    /**
     * Creates the store or upgrades it to this version; running it again changes nothing (T1).
     *
     * @return the version the store is at
     */
    public int migrate() throws SQLException {
        try (Connection c = source.getConnection()) {
            Dialect d = dialect(c);
            int version = readVersion(c).orElse(-1);
            if (version < 0) {
                execute(c, StoreSchema.versionTable(d));
                execute(c, "INSERT INTO " + StoreSchema.VERSION + " (version) VALUES (0)");
                version = 0;
            }
            if (version > StoreSchema.CURRENT) {
                throw newer(version);
            }
            for (int v = version + 1; v <= StoreSchema.CURRENT; v++) {
                for (String ddl : StoreSchema.migration(v, d)) {
                    execute(c, ddl);
                }
                execute(c, "UPDATE " + StoreSchema.VERSION + " SET version = " + v);
            }
            return StoreSchema.CURRENT;
        }
    }

    /** The store's version, or empty when it does not exist. */
    public Optional<Integer> version() throws SQLException {
        try (Connection c = source.getConnection()) {
            return readVersion(c);
        }
    }

    /**
     * Proves the store usable now: reachable, and at this llmsafe's version.
     *
     * @throws SQLException STORE_MISSING saying what to run, or why the database cannot be reached
     */
    public void checkReady() throws SQLException {
        try (Connection c = source.getConnection()) {
            ready(c);
        }
    }

    private static Optional<Integer> readVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version FROM " + StoreSchema.VERSION)) {
            return rs.next() ? Optional.of(rs.getInt(1)) : Optional.of(0);
        } catch (SQLException e) {
            if (missingTable(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private void ready(Connection c) throws SQLException {
        Optional<Integer> v = readVersion(c);
        if (v.isEmpty() || v.get() < StoreSchema.CURRENT) {
            throw new RefusedException(Refusal.STORE_MISSING, v.isEmpty()
                    ? "the plan store does not exist in this database yet. Run `llmsafe migrate` to create it."
                    : "the plan store is at version " + v.get() + " and this llmsafe needs " + StoreSchema.CURRENT
                            + ". Run `llmsafe migrate` to upgrade it.");
        }
        if (v.get() > StoreSchema.CURRENT) {
            throw newer(v.get());
        }
    }

    private static RefusedException newer(int v) {
        return new RefusedException(Refusal.STORE_MISSING, "the plan store is at version " + v + ", newer than this"
                + " llmsafe (" + StoreSchema.CURRENT + "). Upgrade llmsafe.");
    }

    static boolean missingTable(SQLException e) {
        String state = String.valueOf(e.getSQLState());
        String message = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return state.equals("42P01") || state.equals("42S02") || e.getErrorCode() == 1146
                || message.contains("no such table");
    }

    // ---- plans ----

    /** Stores a new plan as proposed, with its checksum and seal, and audits the proposal. */
    @Override
    public void save(Plan plan) throws SQLException {
        // D12: the stored form holds the values of withheld keys, under the checksum and the seal.
        String json = plan.toStoredJson();
        String checksum = Seals.checksum(json);
        String id = plan.id().toString();
        String detail = plan.rowCount() + " rows in " + plan.statements().size() + " statement"
                + (plan.statements().size() == 1 ? "" : "s");
        try (Connection c = Connections.lease(source)) {
            Dialect d = dialect(c);
            if (d.insertsInWith() && c.getAutoCommit()) {
                saveInOneStatement(c, plan, id, json, checksum, detail);
                return;
            }
            if (d.startTransaction().isPresent() && c.getAutoCommit()) {
                saveInSqlTransaction(c, d.startTransaction().get(), plan, id, json, checksum, detail);
                return;
            }
            ready(c);
            c.setAutoCommit(false);
            try {
                update(c, "INSERT INTO " + StoreSchema.PLANS + " (id, created_at, proposer, status, plan_json, checksum,"
                        + " seal) VALUES (?, ?, ?, ?, ?, ?, ?)", id, plan.createdAt().toString(), plan.proposer(),
                        PlanStatus.PROPOSED.label(), json, checksum, seals.planSeal(id, json));
                insertAudit(c, plan.id(), plan.proposer(), AuditAction.PROPOSE, AuditOutcome.DONE, detail);
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    /**
     * {@link #save} as one statement in auto-commit, atomic as any statement is: the plan is written only
     * when the store is at this llmsafe's version, and its audit row from the plan row written. When
     * nothing was written, {@link #ready} says why (missing, older, newer).
     */
    private void saveInOneStatement(Connection c, Plan plan, String id, String json, String checksum, String detail)
            throws SQLException {
        int written;
        try {
            written = update(c, "WITH ready AS (SELECT version FROM " + StoreSchema.VERSION + " WHERE version = "
                    + StoreSchema.CURRENT + "), p AS (INSERT INTO " + StoreSchema.PLANS + " (id, created_at, proposer,"
                    + " status, plan_json, checksum, seal) SELECT ?, ?, ?, ?, ?, ?, ? FROM ready RETURNING id)"
                    + " INSERT INTO " + StoreSchema.AUDIT + " (plan_id, at, actor, action, outcome, detail)"
                    + " SELECT id, ?, ?, ?, ?, ? FROM p", id, plan.createdAt().toString(), plan.proposer(),
                    PlanStatus.PROPOSED.label(), json, checksum, seals.planSeal(id, json), clock.instant().toString(),
                    plan.proposer(), AuditAction.PROPOSE.label(), AuditOutcome.DONE.label(), detail);
        } catch (SQLException e) {
            if (missingTable(e)) {
                ready(c);
            }
            throw e;
        }
        if (written != 1) {
            ready(c);
            throw new SQLException("the plan store did not keep plan " + id + " although it is at version "
                    + StoreSchema.CURRENT + "; try again", "40001");
        }
    }

    /**
     * {@link #save} in a transaction opened and ended in SQL (MySQL, MariaDB), four round trips where
     * there were six: the plan is written only when the store is at this llmsafe's version, read by the
     * INSERT that writes it (as PostgreSQL's WITH reads it), not by a query before, and its audit row is
     * written in the same transaction. A connection
     * whose transaction cannot be rolled back after a failure is discarded, never handed back open.
     */
    private void saveInSqlTransaction(Connection c, String begin, Plan plan, String id, String json, String checksum,
            String detail) throws SQLException {
        execute(c, begin);
        boolean ended = false;
        try {
            int written;
            try {
                written = update(c, "INSERT INTO " + StoreSchema.PLANS + " (id, created_at, proposer, status, plan_json,"
                        + " checksum, seal) SELECT ?, ?, ?, ?, ?, ?, ? FROM " + StoreSchema.VERSION + " WHERE version = "
                        + StoreSchema.CURRENT, id, plan.createdAt().toString(), plan.proposer(),
                        PlanStatus.PROPOSED.label(), json, checksum, seals.planSeal(id, json));
            } catch (SQLException e) {
                if (missingTable(e)) {
                    execute(c, "ROLLBACK");
                    ended = true;
                    ready(c);
                }
                throw e;
            }
            if (written != 1) {
                execute(c, "ROLLBACK");
                ended = true;
                ready(c);
                throw new SQLException("the plan store did not keep plan " + id + " although it is at version "
                        + StoreSchema.CURRENT + "; try again", "40001");
            }
            insertAudit(c, plan.id(), plan.proposer(), AuditAction.PROPOSE, AuditOutcome.DONE, detail);
            execute(c, "COMMIT");
            ended = true;
        } finally {
            if (!ended) {
                try {
                    execute(c, "ROLLBACK");
                } catch (SQLException e) {
                    LOG.debug("rollback of a failed store write failed; discarding the connection", e);
                    Connections.discard(source, c);
                }
            }
        }
    }

    /**
     * A plan with its status and history, checked: checksum and seals (PLAN_TAMPERED, PLAN_UNSEALED), and
     * age (a waiting plan past its age is marked expired and refused, PLAN_EXPIRED).
     */
    public StoredPlan load(UUID id) throws SQLException {
        try (Connection c = source.getConnection()) {
            StoredPlan sp = read(c, id); // asks the store's version in the same query
            if ((sp.status() == PlanStatus.PROPOSED || sp.status() == PlanStatus.APPROVED)
                    && sp.plan().createdAt().plus(expiry).isBefore(clock.instant())) {
                String why = "older than " + expiry.toHours() + " hours";
                if (move(c, id, List.of(sp.status()), PlanStatus.EXPIRED, why)) {
                    insertAudit(c, id, "llmsafe", AuditAction.EXPIRE, AuditOutcome.DONE, why);
                }
                throw new RefusedException(Refusal.PLAN_EXPIRED, "plan " + id + " was proposed at " + sp.plan().createdAt()
                        + " and is " + why + ". Propose the change again to see the rows as they are now.");
            }
            return sp;
        }
    }

    /**
     * The stored plans of a {@link #list}: those that passed their checks, and those that did not, with the
     * refusal each met (PLAN_TAMPERED, PLAN_UNSEALED). One edited row must not hide every other plan.
     *
     * @param plans the plans that passed, newest first
     * @param unreadable the plans that did not, by id, in the same order
     */
    public record Listing(List<StoredPlan> plans, Map<UUID, RefusedException> unreadable) {

        /** Copies both. */
        public Listing {
            plans = List.copyOf(plans);
            unreadable = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unreadable));
        }
    }

    /**
     * The plans, newest first, with or without a status filter, each checked as {@link #load} checks it;
     * a plan that fails its check is set apart in {@link Listing#unreadable()}, not skipped in silence.
     */
    public Listing list(Optional<PlanStatus> status) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = source.getConnection()) {
            ready(c);
            String sql = "SELECT id FROM " + StoreSchema.PLANS + (status.isPresent() ? " WHERE status = ?" : "")
                    + " ORDER BY created_at DESC, id";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                if (status.isPresent()) {
                    ps.setString(1, status.get().label());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(UUID.fromString(rs.getString(1)));
                    }
                }
            }
            List<StoredPlan> out = new ArrayList<>();
            Map<UUID, RefusedException> unreadable = new java.util.LinkedHashMap<>();
            for (UUID id : ids) {
                try {
                    out.add(read(c, id));
                } catch (RefusedException e) {
                    unreadable.put(id, e);
                }
            }
            return new Listing(out, unreadable);
        }
    }

    /**
     * The ids of at most {@code limit} plans whose id begins with {@code prefix}, for an id typed shortened.
     *
     * @param prefix lower-case hexadecimal digits and dashes, as ids are written
     * @throws IllegalArgumentException when the prefix holds anything else
     */
    public List<UUID> idsStartingWith(String prefix, int limit) throws SQLException {
        if (!prefix.matches("[0-9a-f-]+")) {
            throw new IllegalArgumentException("a plan id holds only 0-9, a-f and -, not " + prefix);
        }
        List<UUID> ids = new ArrayList<>();
        try (Connection c = source.getConnection()) {
            ready(c);
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + StoreSchema.PLANS
                    + " WHERE id LIKE ? ORDER BY id")) {
                ps.setString(1, prefix + "%");
                ps.setMaxRows(limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(UUID.fromString(rs.getString(1)));
                    }
                }
            }
        }
        return ids;
    }

    /** J11: a row the store's writer garbled (a status, a date) is a tampered plan, not an unchecked exception. */
    private StoredPlan read(Connection c, UUID id) throws SQLException {
        try {
            return readRow(c, id);
        } catch (IllegalArgumentException | NullPointerException | java.time.DateTimeException e) {
            throw tampered(id, "the store's row for it cannot be read (" + e.getMessage() + ")");
        }
    }

    /**
     * The plan's row and its history in one query (a UNION ALL: the plan's row tagged 0, then its audit rows
     * tagged 1, in the order they were written), with the store's version asked in the same query: a row
     * read from a store at another version than this llmsafe's, a missing table or no row at all is
     * answered by {@link #ready} first (missing, older, newer), as a separate question before every read had
     * done.
     */
    private static final String PLAN_AND_HISTORY = "SELECT 0, NULL, status, plan_json, checksum, seal, approved_by,"
            + " approved_at, approval_seal, outcome, proposer, " + VERSION_NOW + " FROM " + StoreSchema.PLANS
            + " WHERE id = ? UNION ALL SELECT 1, id, at, actor, action, outcome, detail, NULL, NULL, NULL, NULL, NULL"
            + " FROM " + StoreSchema.AUDIT + " WHERE plan_id = ? ORDER BY 1, 2";

    private StoredPlan readRow(Connection c, UUID id) throws SQLException {
        String[] row = null;
        List<AuditEntry> history = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(PLAN_AND_HISTORY)) {
            ps.setString(1, id.toString());
            ps.setString(2, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getInt(1) == 0) {
                        if (rs.getInt(12) != StoreSchema.CURRENT) {
                            ready(c); // refuses: missing, older or newer
                        }
                        row = new String[9];
                        for (int i = 0; i < 9; i++) {
                            row[i] = rs.getString(i + 3);
                        }
                    } else if (row != null) {
                        history.add(new AuditEntry(Instant.parse(rs.getString(3)), rs.getString(4),
                                AuditAction.of(rs.getString(5)), AuditOutcome.of(rs.getString(6)), rs.getString(7)));
                    }
                }
            }
        } catch (SQLException e) {
            if (!(e instanceof RefusedException) && missingTable(e)) {
                ready(c);
            }
            throw e;
        }
        if (row == null) {
            ready(c);
            throw new RefusedException(Refusal.PLAN_NOT_FOUND, "there is no plan " + id + " in the store."
                    + " Check the id; `llmsafe list` shows the plans.");
        }
        String json = row[1];
        if (!Seals.checksum(json).equals(row[2])) {
            throw tampered(id, "the plan's text does not match its checksum");
        }
        checkSeal(id, row[3], seals.planSeal(id.toString(), json), "plan");
        Plan plan;
        try {
            plan = Plan.fromJson(json);
        } catch (IllegalArgumentException e) {
            throw tampered(id, "the stored plan cannot be read (" + e.getMessage() + ")");
        }
        if (!plan.id().equals(id) || !plan.proposer().equals(row[8])) {
            throw tampered(id, "the plan's id or proposer differs from the row that holds it");
        }
        PlanStatus status = PlanStatus.of(row[0]);
        boolean needsApproval = status == PlanStatus.APPROVED || status == PlanStatus.APPLYING
                || status == PlanStatus.APPLIED;
        if (row[4] != null || row[5] != null || row[6] != null) {
            if (row[4] == null || row[5] == null) {
                throw tampered(id, "the approval is incomplete");
            }
            checkSeal(id, row[6], seals.approvalSeal(id.toString(), row[2], row[4], row[5]), "approval");
        } else if (needsApproval) {
            throw tampered(id, "it is marked " + status.label() + " but no approval is recorded");
        }
        return new StoredPlan(plan, status, Optional.ofNullable(row[4]), Optional.ofNullable(row[5]).map(Instant::parse),
                Optional.ofNullable(row[7]), history, row[2]);
    }

    private void checkSeal(UUID id, String stored, String expected, String what) throws RefusedException {
        if (seals.keyed() != (stored != null)) {
            throw new RefusedException(Refusal.PLAN_UNSEALED, "plan " + id + "'s " + what + (stored == null
                    ? " carries no seal, but a seal key is set here" : " is sealed, but no seal key is set here")
                    + ": the seal key must be set on both the planning and the applying side, or on neither."
                    + " Set sealKey in the configuration of both.");
        }
        if (seals.keyed() && !Seals.same(stored, expected)) {
            throw tampered(id, "the " + what + "'s seal does not match it");
        }
    }

    private static RefusedException tampered(UUID id, String why) {
        return new RefusedException(Refusal.PLAN_TAMPERED, "plan " + id + " was changed after it was stored: " + why
                + ". It will not be approved or applied; propose the change again, and find out who can write the store.");
    }

    // ---- status moves ----

    /**
     * PROPOSED to APPROVED, recording and sealing who and when, with its audit row: both or neither
     * ({@link #moveAudited}). The plan must still hold the text {@code proposed} was read and checked with
     * (its checksum, which the approval's seal covers), so nothing is read again before or after.
     *
     * @param proposed the plan as {@link #load} returned it, proposed
     * @param actor who approves, as given
     * @param outcome the audit row's outcome (done, or self-approved)
     * @param detail the audit row's detail
     * @return the plan as approved; empty when another move or an edit of the plan came first
     */
    public Optional<StoredPlan> markApproved(StoredPlan proposed, String actor, AuditOutcome outcome, String detail)
            throws SQLException {
        UUID id = proposed.plan().id();
        String checksum = proposed.checksum();
        String at = clock.instant().toString();
        try (Connection c = source.getConnection()) {
            boolean moved = moveAudited(c, "UPDATE " + StoreSchema.PLANS + " SET status = ?, approved_by = ?,"
                    + " approved_at = ?, approval_seal = ? WHERE id = ? AND status = ? AND checksum = ? AND "
                    + VERSION_NOW + " = " + StoreSchema.CURRENT, Arrays.asList(PlanStatus.APPROVED.label(), actor, at,
                    seals.approvalSeal(id.toString(), checksum, actor, at), id.toString(),
                    PlanStatus.PROPOSED.label(), checksum), new AuditRow(id, at, actor, AuditAction.APPROVE, outcome, detail));
            if (!moved) {
                return Optional.empty();
            }
        }
        List<AuditEntry> history = new ArrayList<>(proposed.history());
        history.add(new AuditEntry(Instant.parse(at), actor, AuditAction.APPROVE, outcome, detail));
        return Optional.of(new StoredPlan(proposed.plan(), PlanStatus.APPROVED, Optional.of(actor),
                Optional.of(Instant.parse(at)), proposed.outcome(), history, checksum));
    }

    /**
     * A7 and A8: the "attempting" audit row, then APPROVED to APPLYING, the one step two appliers race for.
     * On PostgreSQL both are one statement, atomic as any statement is; elsewhere the audit row is written
     * first, committed, and then the plan moved. Either way no plan moves to applying without its audit
     * row, and an applier that loses the race leaves its attempt in the trail, as before.
     *
     * @return false for the loser of the race
     * @throws RefusedException AUDIT_FAILED when the audit row could not be written (nothing moved), or
     *     STORE_MISSING
     */
    public boolean markApplying(UUID id, String actor) throws SQLException {
        try (Connection c = source.getConnection()) {
            String at = clock.instant().toString();
            String move = "UPDATE " + StoreSchema.PLANS + " SET status = ?, applied_by = ? WHERE id = ? AND status = ?"
                    + " AND " + VERSION_NOW + " = " + StoreSchema.CURRENT;
            List<Object> moveParams = Arrays.asList(PlanStatus.APPLYING.label(), actor, id.toString(), PlanStatus.APPROVED.label());
            String audit = "INSERT INTO " + StoreSchema.AUDIT + " (plan_id, at, actor, action, outcome, detail)"
                    + " SELECT ?, ?, ?, ?, ?, ? FROM " + StoreSchema.VERSION + " WHERE version = " + StoreSchema.CURRENT;
            List<Object> auditParams = Arrays.asList(id.toString(), at, actor, AuditAction.APPLY.label(),
                    AuditOutcome.ATTEMPTING.label(), "");
            int written;
            int moved;
            if (dialect(c).insertsInWith()) {
                List<Object> params = new ArrayList<>(moveParams);
                params.addAll(auditParams);
                int[] counts;
                try {
                    counts = counts(c, "WITH m AS (" + move + " RETURNING id), a AS (" + audit + " RETURNING plan_id)"
                            + " SELECT (SELECT COUNT(*) FROM a), (SELECT COUNT(*) FROM m)", params.toArray());
                } catch (SQLException e) {
                    throw auditFailed(c, e);
                }
                written = counts[0];
                moved = counts[1];
            } else {
                try {
                    written = update(c, audit, auditParams.toArray());
                } catch (SQLException e) {
                    throw auditFailed(c, e);
                }
                if (written != 1) {
                    ready(c); // refuses: missing, older or newer
                    throw auditFailed(c, new SQLException("the store wrote no audit row"));
                }
                try {
                    moved = update(c, move, moveParams.toArray());
                } catch (SQLException e) {
                    throw whyMissing(c, e);
                }
            }
            if (written != 1 || moved != 1) {
                ready(c); // a store at another version moves nothing: refused as such, not as a lost race
            }
            if (written != 1) {
                throw auditFailed(c, new SQLException("the store wrote no audit row"));
            }
            return moved == 1;
        }
    }

    private SQLException auditFailed(Connection c, SQLException e) throws SQLException {
        if (e instanceof RefusedException r) {
            return r;
        }
        whyMissing(c, e);
        return new RefusedException(Refusal.AUDIT_FAILED, "the audit record of this attempt could not be written ("
                + e.getMessage() + "), so nothing was applied: every apply leaves a trace first.", e);
    }

    /** APPLYING to APPLIED or FAILED, with the outcome in words. */
    public boolean finish(UUID id, PlanStatus outcome, String detail) throws SQLException {
        if (outcome != PlanStatus.APPLIED && outcome != PlanStatus.FAILED) {
            throw new IllegalArgumentException("an apply ends applied or failed");
        }
        try (Connection c = source.getConnection()) {
            return move(c, id, List.of(PlanStatus.APPLYING), outcome, detail);
        }
    }

    /**
     * {@link #finish} and the outcome's audit row, both or neither ({@link #moveAudited}): on PostgreSQL one
     * statement. A caller that must not lose the status move when the audit row cannot be written (A7) calls
     * {@link #finish} and {@link #audit} apart when this throws.
     *
     * @return whether the plan moved (false: it was not applying)
     */
    public boolean finish(UUID id, PlanStatus outcome, String actor, AuditOutcome auditOutcome, String detail)
            throws SQLException {
        if (outcome != PlanStatus.APPLIED && outcome != PlanStatus.FAILED) {
            throw new IllegalArgumentException("an apply ends applied or failed");
        }
        String at = clock.instant().toString();
        try (Connection c = source.getConnection()) {
            return moveAudited(c, "UPDATE " + StoreSchema.PLANS + " SET status = ?, finished_at = ?, outcome = ?"
                    + " WHERE id = ? AND status = ? AND " + VERSION_NOW + " = " + StoreSchema.CURRENT,
                    Arrays.asList(outcome.label(), at, detail, id.toString(), PlanStatus.APPLYING.label()),
                    new AuditRow(id, at, actor, AuditAction.APPLY, auditOutcome, detail));
        }
    }

    /** An audit row to write with a status move. */
    private record AuditRow(UUID id, String at, String actor, AuditAction action, AuditOutcome outcome, String detail) {
    }

    /**
     * A status move and its audit row, both or neither. On PostgreSQL one statement in auto-commit: the move
     * in a data-modifying WITH and the audit row written from the row it moved (one round trip). On MySQL
     * and MariaDB a transaction opened and ended in SQL (Connector/J's setAutoCommit would send a
     * {@code SET autocommit} each way); elsewhere a JDBC transaction. {@code move} checks the store's version
     * in its WHERE; when it moves nothing, nothing is written and {@link #ready} says whether another
     * version is why.
     *
     * @return whether the plan moved
     */
    private boolean moveAudited(Connection c, String move, List<Object> moveParams, AuditRow row) throws SQLException {
        Dialect d = dialect(c);
        List<Object> auditParams = Arrays.asList(row.at(), row.actor(), row.action().label(), row.outcome().label(),
                row.detail());
        if (d.insertsInWith() && c.getAutoCommit()) {
            List<Object> params = new ArrayList<>(moveParams);
            params.addAll(auditParams);
            int written;
            try {
                written = update(c, "WITH m AS (" + move + " RETURNING id) INSERT INTO " + StoreSchema.AUDIT
                        + " (plan_id, at, actor, action, outcome, detail) SELECT id, ?, ?, ?, ?, ? FROM m", params.toArray());
            } catch (SQLException e) {
                throw whyMissing(c, e);
            }
            if (written != 1) {
                ready(c); // refuses: missing, older or newer
            }
            return written == 1;
        }
        boolean sqlTransaction = d.startTransaction().isPresent() && c.getAutoCommit();
        if (sqlTransaction) {
            execute(c, d.startTransaction().get());
        } else {
            c.setAutoCommit(false);
        }
        boolean ended = false;
        try {
            int moved;
            try {
                moved = update(c, move, moveParams.toArray());
            } catch (SQLException e) {
                end(c, sqlTransaction, false);
                ended = true;
                throw whyMissing(c, e);
            }
            if (moved != 1) {
                end(c, sqlTransaction, false);
                ended = true;
                ready(c); // refuses: missing, older or newer
                return false;
            }
            update(c, "INSERT INTO " + StoreSchema.AUDIT + " (plan_id, at, actor, action, outcome, detail)"
                    + " VALUES (?, ?, ?, ?, ?, ?)", row.id().toString(), row.at(), row.actor(), row.action().label(),
                    row.outcome().label(), row.detail());
            end(c, sqlTransaction, true);
            ended = true;
            return true;
        } finally {
            if (!ended) {
                try {
                    end(c, sqlTransaction, false);
                } catch (SQLException e) {
                    LOG.debug("rollback of a failed store move failed; discarding the connection", e);
                    Connections.discard(source, c);
                }
            }
        }
    }

    private static void end(Connection c, boolean sqlTransaction, boolean commit) throws SQLException {
        if (sqlTransaction) {
            execute(c, commit ? "COMMIT" : "ROLLBACK");
            return;
        }
        try {
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** PROPOSED or APPROVED to REJECTED; false when the plan had moved on. */
    public boolean markRejected(UUID id, String reason) throws SQLException {
        try (Connection c = source.getConnection()) {
            ready(c);
            return move(c, id, List.of(PlanStatus.PROPOSED, PlanStatus.APPROVED), PlanStatus.REJECTED, reason);
        }
    }

    private boolean move(Connection c, UUID id, List<PlanStatus> from, PlanStatus to, String outcome) throws SQLException {
        String in = String.join(", ", from.stream().map(s -> "?").toList());
        List<Object> params = new ArrayList<>(List.of(to.label(), clock.instant().toString(), outcome, id.toString()));
        from.forEach(s -> params.add(s.label()));
        return update(c, "UPDATE " + StoreSchema.PLANS + " SET status = ?, finished_at = ?, outcome = ? WHERE id = ?"
                + " AND status IN (" + in + ")", params.toArray()) == 1;
    }

    // ---- audit ----

    /** Writes one audit entry and commits it at once (A7's first phase relies on that). */
    public void audit(UUID id, String actor, AuditAction action, AuditOutcome outcome, String detail)
            throws SQLException {
        try (Connection c = source.getConnection()) {
            int written;
            try {
                written = update(c, "INSERT INTO " + StoreSchema.AUDIT + " (plan_id, at, actor, action, outcome, detail)"
                        + " SELECT ?, ?, ?, ?, ?, ? FROM " + StoreSchema.VERSION + " WHERE version = " + StoreSchema.CURRENT,
                        id.toString(), clock.instant().toString(), actor, action.label(), outcome.label(), detail);
            } catch (SQLException e) {
                throw whyMissing(c, e);
            }
            if (written != 1) {
                ready(c); // refuses: missing, older or newer
                insertAudit(c, id, actor, action, outcome, detail); // migrated meanwhile: written as before
            }
        }
    }

    /** A statement failed: a missing table is said as a missing store (T1), anything else as it is. */
    private SQLException whyMissing(Connection c, SQLException e) throws SQLException {
        if (!(e instanceof RefusedException) && missingTable(e)) {
            ready(c);
        }
        return e;
    }

    private void insertAudit(Connection c, UUID id, String actor, AuditAction action, AuditOutcome outcome,
            String detail) throws SQLException {
        update(c, "INSERT INTO " + StoreSchema.AUDIT + " (plan_id, at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)",
                id.toString(), clock.instant().toString(), actor, action.label(), outcome.label(), detail);
    }

    // ---- helpers ----

    private Dialect dialect(Connection c) throws SQLException {
        Dialect d = dialect;
        if (d == null) {
            d = Dialects.of(c, null);
            dialect = d;
        }
        return d;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static int[] counts(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i] == null ? null : params[i].toString());
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new int[] {rs.getInt(1), rs.getInt(2)};
            }
        }
    }

    private static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i] == null ? null : params[i].toString());
            }
            return ps.executeUpdate();
        }
    }
}
