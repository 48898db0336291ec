package dev.llmsafe.dryrun;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.ColumnInfo;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.PolicyTables;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.policy.TablePolicy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.SecretCheck;
import dev.llmsafe.sql.Secrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The table a write targets, checked against the live catalog and the policy before anything runs:
 * allowlisted after the database resolves the name (W4), a declared impact (W11), a primary key (W6),
 * SET columns that exist and may be written (W7), a table that can roll back (D15), a catalog the
 * credential can fully see (D15), no cascading foreign key (D15), known auto-maintained columns (D8),
 * no function the catalog calls volatile (W10), no table read that is not allowlisted and no stored
 * routine that queries (R1, as for reads).
 *
 * @param info the catalog's description
 * @param policy the policy's entry for it
 * @param setColumns the SET columns as the catalog spells them
 * @param autoColumns columns the database sets by itself
 * @param secretColumns columns shown only as hashes (D12)
 * @param warnings what the card should say about this table
 */
public record Target(TableInfo info, TablePolicy policy, List<String> setColumns, Set<String> autoColumns,
        Set<String> secretColumns, List<String> warnings) {

    /** The secret columns among the primary key's, in key order: their values are withheld (D12). */
    public List<String> secretKeyColumns() {
        return info.primaryKey().stream().filter(secretColumns::contains).toList();
    }

    /** Whether a trigger of the table fires on the statement's event (UPDATE, or DELETE). */
    public boolean fires(boolean delete) {
        String event = delete ? "DELETE" : "UPDATE";
        return info.triggers().stream().anyMatch(tr -> tr.events().contains(event));
    }

    /**
     * D15 after the dry run: an UPDATE that changed a key another table references ON UPDATE CASCADE,
     * SET NULL or SET DEFAULT, without setting it (a trigger, an ON UPDATE column), fired that action,
     * which the catalog check before the statement could not foresee and MySQL's measure does not count.
     */
    public void checkReferencedKeysKept(List<String> columns, Map<List<dev.llmsafe.value.Value>, List<dev.llmsafe.value.Value>>
            before, Map<List<dev.llmsafe.value.Value>, List<dev.llmsafe.value.Value>> after) throws RefusedException {
        for (TableInfo.ForeignKey fk : info.inboundForeignKeys()) {
            if (!TableInfo.ForeignKey.writes(fk.onUpdate())) {
                continue;
            }
            for (String col : fk.parentColumns()) {
                int i = columns.indexOf(col);
                boolean changed = i < 0 || before.entrySet().stream().anyMatch(e -> after.get(e.getKey()) == null
                        || !e.getValue().get(i).equals(after.get(e.getKey()).get(i)));
                if (changed) {
                    throw new RefusedException(Refusal.CASCADE_SIDE_EFFECTS, "running the UPDATE changed "
                            + info.ref() + "." + col + ", which the foreign key from " + fk.child() + " ("
                            + String.join(", ", fk.childColumns()) + ") references ON UPDATE " + fk.onUpdate()
                            + " (a trigger or an ON UPDATE column set it): rows of " + fk.child() + " changed too,"
                            + " which the card cannot show. Nothing was kept: it was rolled back. Change those rows"
                            + " first, or ask for the foreign key to be RESTRICT.");
                }
            }
        }
    }

    /** The value as a plan shows it: a secret column only as its hash (D12). */
    public dev.llmsafe.value.Value shown(String column, dev.llmsafe.value.Value v, byte[] maskKey) {
        if (!secretColumns.contains(column)) {
            return v;
        }
        return maskKey == null ? v.masked() : v.masked(maskKey);
    }

    public static Target check(Connection c, Dialect dialect, Policy policy, Analysis a) throws SQLException {
        return check(c, dialect, policy, a, dialect.table(c, a.target()));
    }

    /**
     * {@link #check(Connection, Dialect, Policy, Analysis)} with the catalog's answer about the target
     * already asked, on {@code c}, in the transaction the statement runs in (an apply asks it in the round
     * trip that opens the transaction).
     */
    public static Target check(Connection c, Dialect dialect, Policy policy, Analysis a, Optional<TableInfo> table)
            throws SQLException {
        TableInfo info = table.orElseThrow(() -> new RefusedException(Refusal.TABLE_NOT_ALLOWED,
                a.target() + " is not a table this connection can see, so it is not one the policy allows."
                        + " Name an allowlisted table."));
        // The policy's entry spelled as the statement names its target means the table just resolved, in this
        // session: no round trip. Any other entry is resolved to be compared.
        Map<TableRef, TablePolicy> allowlisted = null;
        TablePolicy tp = policy.tables().get(a.target());
        if (tp == null) {
            allowlisted = PolicyTables.resolve(policy, name -> dialect.resolve(c, name));
            tp = allowlisted.get(info.ref());
        }
        if (tp == null) {
            throw new RefusedException(Refusal.TABLE_NOT_ALLOWED, info.ref() + " is not in the policy's allowlist"
                    + " (policy.allow), so nothing may be written there. Add it to policy.allow, with an impact sentence,"
                    + " if it should be.");
        }
        String what = a.kind() == Analysis.Kind.UPDATE ? "UPDATE" : "DELETE";
        if (a.tables().stream().anyMatch(name -> !name.equals(a.target()))) {
            if (allowlisted == null) {
                allowlisted = PolicyTables.resolve(policy, name -> dialect.resolve(c, name));
            }
            checkTablesRead(c, dialect, allowlisted.keySet(), a, info.ref(), what);
        }
        // R10: a * in a subquery of the write carries a secret by position, as in a read.
        SecretCheck.checkStars(a, policy, name -> dialect.table(c, name)
                .map(t -> t.columns().stream().map(ColumnInfo::name).toList()));
        if (tp.impact().isEmpty()) {
            throw new RefusedException(Refusal.IMPACT_UNDECLARED, info.ref() + " has no declared business consequence"
                    + " (policy.impact), so a person shown its columns could not judge a change. Add an impact"
                    + " sentence for it to the policy; until then it can be read but not written.");
        }
        switch (info.kind()) {
            case VIEW -> throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, info.ref() + " is a view; write"
                    + " to the table it shows instead.");
            case FOREIGN_TABLE, VIRTUAL_TABLE -> throw notTransactional(info);
            default -> { }
        }
        if (!info.transactional()) {
            throw notTransactional(info);
        }
        Optional<String> rollback = dialect.rollbackUndefined(c, info.ref());
        if (rollback.isPresent()) {
            throw new RefusedException(Refusal.NOT_TRANSACTIONAL, info.ref() + " cannot be planned on: "
                    + rollback.get());
        }
        if (info.primaryKey().isEmpty()) {
            throw new RefusedException(Refusal.NO_PRIMARY_KEY, info.ref() + " has no primary key, so its rows cannot"
                    + " be shown one by one or found again at apply. Add a primary key to the table.");
        }
        // D12: a secret primary key column is withheld on the card (see Planner), not a reason to refuse.
        Set<String> secrets = secretColumns(Secrets.of(policy, dialect.sqlDialect()), info);
        if (!info.visibility().foreignKeys()) {
            throw new RefusedException(Refusal.CASCADES_UNKNOWN, "this credential cannot see which foreign keys"
                    + " reference " + info.ref() + " (the catalog hides them and answers \"none\"), so a cascade"
                    + " could go unseen. " + info.visibility().grantHint().orElse(""));
        }
        if (!info.visibility().triggers()) {
            throw new RefusedException(Refusal.AUTO_COLUMNS_UNKNOWN, "this credential cannot see the triggers on "
                    + info.ref() + " (the catalog hides them and answers \"none\"), so what they change could go"
                    + " unseen. " + info.visibility().grantHint().orElse(""));
        }
        List<String> setColumns = new ArrayList<>();
        for (Identifier col : a.setColumns()) {
            setColumns.add(setColumn(dialect, tp, info, col));
        }
        for (TableInfo.ForeignKey fk : info.inboundForeignKeys()) {
            String action = a.kind() == Analysis.Kind.DELETE ? fk.onDelete() : fk.onUpdate();
            boolean fires = a.kind() == Analysis.Kind.DELETE
                    || fk.parentColumns().stream().anyMatch(setColumns::contains);
            if (fires && TableInfo.ForeignKey.writes(action)) {
                throw new RefusedException(Refusal.CASCADE_SIDE_EFFECTS, "the foreign key from " + fk.child() + " ("
                        + String.join(", ", fk.childColumns()) + ") is ON " + what + " " + action + ": this " + what
                        + " would also change rows of " + fk.child() + " that the card cannot show. Change those rows"
                        + " first, or ask for the foreign key to be RESTRICT.");
            }
        }
        Set<String> auto = new LinkedHashSet<>();
        for (ColumnInfo col : info.columns()) {
            if (col.autoUpdated() && a.kind() == Analysis.Kind.UPDATE) {
                auto.add(col.name());
            }
        }
        for (Identifier declared : tp.autoColumns()) {
            auto.add(catalogName(dialect, info, declared).orElseThrow(() -> new RefusedException(
                    Refusal.AUTO_COLUMNS_UNKNOWN, "policy.autoColumns names " + declared + " for " + info.ref()
                    + ", which has no such column. Correct the policy.")));
        }
        List<String> warnings = new ArrayList<>();
        for (TableInfo.Trigger t : info.triggers()) {
            boolean onThis = t.events().contains(what);
            if (onThis && a.kind() == Analysis.Kind.UPDATE && !tp.autoColumnsDeclared()) {
                throw new RefusedException(Refusal.AUTO_COLUMNS_UNKNOWN, "the trigger " + t.name() + " on " + info.ref()
                        + " fires " + t.timing() + " UPDATE and may change columns the statement does not name; the"
                        + " catalog cannot say which. Declare them in policy.autoColumns for this table (an empty"
                        + " list if its triggers change no column).");
            }
            if (onThis) {
                warnings.add("The trigger " + t.name() + " (" + t.timing() + " " + what + ") on " + info.ref()
                        + " ran in the dry run and will run again at apply.");
            }
        }
        Set<String> volatileFunctions = dialect.volatileFunctions(c, a.functions());
        if (!volatileFunctions.isEmpty()) {
            throw new RefusedException(Refusal.VOLATILE, "the catalog says " + String.join(", ", volatileFunctions)
                    + " may return a different value each time or writes data, so the value the card would show is"
                    + " not the value the approved statement would write. Compute the value first and pass it as a"
                    + " ? parameter.");
        }
        Set<String> routines = dialect.queryingRoutines(c, a.functions());
        if (!routines.isEmpty()) {
            throw new RefusedException(Refusal.FORBIDDEN_FUNCTION, String.join(", ", routines) + " is a stored routine"
                    + " written in SQL or a procedural language: it can read tables the policy does not allow, and"
                    + " what it returns would reach the card. Compute the value first and pass it as a ? parameter.");
        }
        return new Target(info, tp, setColumns, auto, secrets, warnings);
    }

    /**
     * R1 for what a write reads: a table named in a subquery must be allowlisted too. Its values would
     * otherwise reach the card (a SET from another table), or its contents could be probed through the rows
     * that match. Stored routines that query are refused after the volatility check, for the same reason.
     */
    private static void checkTablesRead(Connection c, Dialect dialect, Set<TableRef> allowlisted, Analysis a,
            TableRef target, String what) throws SQLException {
        for (QualifiedName name : a.tables()) {
            if (name.equals(a.target())) {
                continue;
            }
            TableRef ref = dialect.resolve(c, name).orElseThrow(() -> new RefusedException(Refusal.TABLE_NOT_ALLOWED,
                    name + " is not a table this connection can see, so it is not one the policy allows. Name only"
                            + " allowlisted tables in the " + what + "."));
            if (!ref.equals(target) && !allowlisted.contains(ref)) {
                throw new RefusedException(Refusal.TABLE_NOT_ALLOWED, ref + " is read by this " + what + " but is not in"
                        + " the policy's allowlist (policy.allow): its values could reach the card, or be probed"
                        + " through the rows that match. Name only allowlisted tables.");
            }
        }
    }

    private static String setColumn(Dialect dialect, TablePolicy tp, TableInfo info, Identifier col) throws RefusedException {
        String name = catalogName(dialect, info, col).orElseThrow(() -> new RefusedException(Refusal.DENIED_WRITE_COLUMN,
                info.ref() + " has no column " + col + ". Name one of: " + String.join(", ",
                        info.columns().stream().map(ColumnInfo::name).toList()) + "."));
        for (Map.Entry<Identifier, String> denied : tp.denyWrite().entrySet()) {
            if (dialect.sameColumn(denied.getKey(), name)) {
                throw new RefusedException(Refusal.DENIED_WRITE_COLUMN, info.ref() + "." + name + " may not be written"
                        + " here: " + denied.getValue() + ".");
            }
        }
        ColumnInfo column = info.column(name).orElseThrow();
        if (column.generated()) {
            throw new RefusedException(Refusal.DENIED_WRITE_COLUMN, info.ref() + "." + name + " is computed by the"
                    + " database (a generated column) and cannot be set. Set the columns it is computed from.");
        }
        boolean declared = tp.autoColumns().stream().anyMatch(d -> dialect.sameColumn(d, name));
        if (column.autoUpdated() || declared) {
            // W13: with ON UPDATE the statement's value wins, with a trigger the trigger's; either way the card
            // would call a value "set by the database" that the statement sets, or the reverse.
            throw new RefusedException(Refusal.MAINTAINED_COLUMN, info.ref() + "." + name + " is maintained by the"
                    + " database itself (" + (declared ? "policy.autoColumns declares that a trigger sets it"
                    : "the catalog says ON UPDATE") + "), so the statement may not set it: the card could not say whose"
                    + " value it ends with. Leave it out of SET; the database sets it.");
        }
        if (info.primaryKey().contains(name)) {
            throw new RefusedException(Refusal.KEY_CHANGE, "the statement changes " + name + ", part of the primary key"
                    + " of " + info.ref() + "; a plan finds its rows again by that key, so keys cannot change here.");
        }
        return name;
    }

    private static Optional<String> catalogName(Dialect dialect, TableInfo info, Identifier written) {
        return info.columns().stream().map(ColumnInfo::name).filter(n -> dialect.sameColumn(written, n)).findFirst();
    }

    /** The table's columns that are secret (Secrets: by column name, without case). */
    private static Set<String> secretColumns(Secrets secrets, TableInfo info) {
        Set<String> out = new LinkedHashSet<>();
        for (ColumnInfo col : info.columns()) {
            if (secrets.isSecret(col.name())) {
                out.add(col.name());
            }
        }
        return out;
    }

    private static RefusedException notTransactional(TableInfo info) {
        return new RefusedException(Refusal.NOT_TRANSACTIONAL, info.ref() + " is " + info.kind().name().toLowerCase(
                Locale.ROOT).replace('_', ' ') + " stored by " + info.engine() + ", which a ROLLBACK cannot undo: a dry"
                + " run there would be a real, permanent write. It cannot be changed through llmsafe.");
    }
}
