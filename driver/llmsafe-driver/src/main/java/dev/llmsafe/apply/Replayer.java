package dev.llmsafe.apply;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.dialect.Watchdog;
import dev.llmsafe.dryrun.Images;
import dev.llmsafe.dryrun.SideEffects;
import dev.llmsafe.dryrun.Target;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.SecretCheck;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs an approved plan's statements again, for real, inside a transaction its caller owns and will
 * commit only if this returns: each statement re-validated under the current policy (A2), its rows
 * locked and re-read in one statement and compared with the card by key set (A3) and by the approved
 * columns (A4), executed with the stored parameters, the database's count reconciled (A5), the
 * after-image and the side effects compared with the plan (A6). Any difference is a refusal, and the
 * caller rolls everything back.
 */
public final class Replayer {

    private final Dialect dialect;
    private final Policy policy;
    private final byte[] maskKey;
    private final StatementAnalyzer analyzer;
    private final Watchdog watchdog;

    /**
     * @param dialect the database's dialect
     * @param policy the policy now in force
     * @param bounds the time bounds of the apply (A9)
     * @param maskKey the key secret values were hashed with at planning, or null
     */
    public Replayer(Dialect dialect, Policy policy, Bounds bounds, byte[] maskKey) {
        this.dialect = dialect;
        this.policy = policy;
        this.maskKey = maskKey == null ? null : maskKey.clone();
        this.analyzer = new StatementAnalyzer(policy.maxStatementLength());
        this.watchdog = new Watchdog(bounds.statementTimeoutMs() + 500L);
    }

    /**
     * A2: a stored statement as the analysis reads it now, in a session whose text settings are {@code lex}:
     * still the kind of write the plan says, with as many parameters as it holds.
     *
     * @throws RefusedException RESULT_MISMATCH when it reads otherwise now
     */
    public Analysis analyze(PlannedStatement s, LexSettings lex) throws SQLException {
        Analysis a = analyzer.analyze(s.sql(), lex);
        boolean delete = s.kind() == PlannedStatement.Kind.DELETE;
        if (a.kind() != (delete ? Analysis.Kind.DELETE : Analysis.Kind.UPDATE)) {
            throw mismatch("the stored statement now reads as a " + a.kind());
        }
        if (a.parameterCount() != s.parameters().size()) {
            throw mismatch("the stored statement now reads with " + a.parameterCount() + " parameters, the plan holds "
                    + s.parameters().size());
        }
        return a;
    }

    /**
     * Replays every statement of the plan on {@code c}, which is in the transaction the caller began.
     *
     * @param first the plan's first statement as {@link #analyze} read it, in the session the caller made
     *     like the plan's; every later statement is read by the live session's settings, which a trigger
     *     of an earlier statement may have changed
     * @param firstTable the catalog's answer about {@code first}'s target, asked in this transaction
     * @return the rows each statement wrote
     * @throws RefusedException when anything differs from the plan; the caller must roll back
     */
    public List<Long> replay(Connection c, Plan plan, Analysis first, Optional<TableInfo> firstTable)
            throws SQLException {
        List<Long> counts = new ArrayList<>();
        boolean written = false;
        for (PlannedStatement s : plan.statements()) {
            Analysis a = written ? analyze(s, dialect.lexSettings(c)) : first;
            Optional<TableInfo> table = written ? dialect.table(c, a.target()) : firstTable;
            counts.add(statement(c, s, written, a, table));
            written = true;
        }
        return counts;
    }

    private long statement(Connection c, PlannedStatement s, boolean written, Analysis a, Optional<TableInfo> table)
            throws SQLException {
        boolean delete = s.kind() == PlannedStatement.Kind.DELETE;
        SecretCheck.check(a, policy);
        Target t = Target.check(c, dialect, policy, a, table);
        if (!t.info().ref().equals(s.table())) {
            throw mismatch("the statement now resolves to " + t.info().ref() + ", not " + s.table());
        }
        int ceiling = delete ? policy.maxDeleteRows(t.policy()) : policy.maxUpdateRows(t.policy());
        if (s.rows().size() > ceiling) {
            throw new RefusedException(Refusal.TOO_MANY_ROWS, "the plan changes " + s.rows().size() + " rows of "
                    + s.table() + ", more than the " + ceiling + " the policy now allows. Propose it again in smaller parts.");
        }
        Images img = new Images(c, dialect, watchdog, dialect.renderAsWritten(a.target()), t.info());
        List<Parameter> whereParams = s.parameters().subList(a.whereFirstParameter(),
                a.whereFirstParameter() + a.whereParameterCount());
        Map<List<Value>, List<Value>> now = new LinkedHashMap<>();
        for (List<Value> row : img.select(a.where(), whereParams, true)) {
            now.put(img.keyOf(row), row);
        }
        Map<List<Value>, RowChange> planned = new LinkedHashMap<>();
        for (RowChange r : s.rows()) {
            if (r.keyValues().stream().anyMatch(v -> v instanceof dev.llmsafe.value.MaskedValue)) {
                // D12: only the store's sealed plan holds a withheld key; without it the row cannot be found.
                throw new RefusedException(Refusal.PLAN_TAMPERED, "the plan shows a withheld key of " + s.table()
                        + " but holds no value for it, so its row cannot be found. Nothing was applied; propose the"
                        + " change again.");
            }
            planned.put(r.keyValues(), r);
        }
        checkKeys(s, now.keySet(), planned.keySet());
        List<String> columns = img.columns();
        for (Map.Entry<List<Value>, RowChange> e : planned.entrySet()) {
            List<Value> current = now.get(e.getKey());
            // A4: before anything is written, every value the card shows for the row: each column that
            // changes (every column of a DELETE) and each assigned column the card calls already correct.
            List<ColumnChange> shown = new ArrayList<>(e.getValue().columns());
            shown.addAll(e.getValue().unchanged());
            for (ColumnChange ch : shown) {
                if (ch.auto() && !delete) {
                    continue;
                }
                Value value = t.shown(ch.column(), current.get(columns.indexOf(ch.column())), maskKey);
                if (!value.equals(ch.before())) {
                    throw new RefusedException(Refusal.ROW_CHANGED, "since the dry run, " + s.table() + " " + keyText(e.getValue())
                            + " changed: " + ch.column() + " is now " + value.render() + ", the card showed "
                            + ch.before().render() + ". Nothing was applied; propose the change again.");
                }
            }
        }
        Dialect.WriteMeter meter = dialect.writeMeter(c, written);
        long affected = img.run(a, s.parameters());
        if (affected != s.affectedRows()) {
            throw mismatch("the database reports " + affected + " rows affected, the card showed " + s.affectedRows());
        }
        Map<List<Value>, List<Value>> after = img.byKeys(new ArrayList<>(planned.keySet()));
        long changedRows = 0;
        if (delete) {
            if (!after.isEmpty()) {
                throw mismatch(after.size() + " of the rows to delete are still there");
            }
        } else {
            for (Map.Entry<List<Value>, RowChange> e : planned.entrySet()) {
                changedRows += checkAfter(s, t, columns, e.getValue(), now.get(e.getKey()), after.get(e.getKey()));
            }
        }
        SideEffects.check(meter.measure(), s.table(), delete, affected, delete ? affected : changedRows, t.fires(delete));
        return affected;
    }

    /** A3: the condition must match exactly the rows the card showed, by key. */
    private static void checkKeys(PlannedStatement s, Set<List<Value>> now, Set<List<Value>> planned) throws RefusedException {
        Set<List<Value>> gone = new LinkedHashSet<>(planned);
        gone.removeAll(now);
        Set<List<Value>> added = new LinkedHashSet<>(now);
        added.removeAll(planned);
        if (!gone.isEmpty() || !added.isEmpty()) {
            throw new RefusedException(Refusal.ROWS_MOVED, "the WHERE clause no longer matches the rows the card"
                    + " showed in " + s.table() + ": " + gone.size() + " shown rows no longer match, " + added.size()
                    + " other rows now do. Nothing was applied; propose the change again to see them.");
        }
    }

    /**
     * A6: the approved columns hold the approved values, and nothing else changed but the columns the card
     * says the database maintains (D8: only what the card promised is checked, and all of it).
     */
    private long checkAfter(PlannedStatement s, Target t, List<String> columns, RowChange row, List<Value> before,
            List<Value> after) throws RefusedException {
        if (after == null) {
            throw mismatch(keyText(row) + " is gone after the UPDATE");
        }
        Map<String, ColumnChange> approved = new LinkedHashMap<>();
        row.columns().forEach(ch -> approved.put(ch.column(), ch));
        boolean changed = false;
        for (int i = 0; i < columns.size(); i++) {
            String col = columns.get(i);
            ColumnChange ch = approved.get(col);
            changed |= !before.get(i).equals(after.get(i));
            if (s.autoColumns().contains(col) || ch != null && ch.auto()) {
                continue;
            }
            if (ch != null) {
                Value value = t.shown(col, after.get(i), maskKey);
                if (!value.equals(ch.after())) {
                    throw mismatch(keyText(row) + ": " + col + " became " + value.render() + ", the card showed "
                            + ch.after().render());
                }
            } else if (!before.get(i).equals(after.get(i))) {
                throw mismatch(keyText(row) + ": " + col + " changed, and the card did not show it changing");
            }
        }
        return changed ? 1 : 0;
    }

    private static String keyText(RowChange row) {
        StringBuilder sb = new StringBuilder();
        row.key().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(" = ").append(v.render()));
        return sb.toString();
    }

    private static RefusedException mismatch(String what) {
        return new RefusedException(Refusal.RESULT_MISMATCH, "the approved statement did not do at apply what the card"
                + " showed: " + what + ". Everything was rolled back; propose the change again.");
    }
}
