package dev.llmsafe.check;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.CheckReport.State;
import dev.llmsafe.check.CheckReport.TableStatus;
import dev.llmsafe.dialect.ColumnInfo;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Setter;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.TablePolicy;
import dev.llmsafe.sql.Secrets;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * E1 and E6: for one allowlisted table, the structural reasons a dry run would be refused, and then a
 * real dry run on one of its rows (a same-value UPDATE, rolled back and proven rolled back), because
 * what the catalog says is not the same as a dry run that worked.
 */
final class TableProbe {

    /** How a table whose dry run the planner refused begins its finding. */
    static final String PROBE_REFUSED = "the probe dry run was refused: ";

    private final Deployment deployment;
    private final Dialect dialect;
    private final Policy policy;
    private final Secrets secrets;

    TableProbe(Deployment deployment) throws SQLException {
        this.deployment = deployment;
        this.dialect = deployment.dialect();
        this.policy = deployment.config().policy();
        this.secrets = Secrets.of(policy, dialect.sqlDialect());
    }

    TableStatus probe(Connection c, TablePolicy tp) throws SQLException {
        String name = tp.name().toString();
        Optional<TableInfo> found = dialect.table(c, tp.name());
        if (found.isEmpty()) {
            return new TableStatus(name, null, State.NOT_READY, List.of("the planning connection cannot see a table"
                    + " by this name: check the name, the schema setting and the credential's privileges"), "not probed");
        }
        TableInfo info = found.get();
        String resolved = info.ref().toString();
        if (tp.impact().isEmpty()) {
            return new TableStatus(name, resolved, State.READ_ONLY, List.of(), "readable only: no impact sentence"
                    + " (policy.impact), so it is never written");
        }
        List<String> problems = new ArrayList<>();
        if (info.kind() == TableInfo.Kind.VIEW) {
            problems.add("it is a view; writes go to the table it shows");
        }
        if (!info.transactional()) {
            problems.add("it is stored by " + info.engine() + ", which a ROLLBACK cannot undo: a dry run would be a"
                    + " permanent write (convert it to a transactional engine such as InnoDB)");
        }
        // E9: a connection whose ROLLBACK is undefined is never probed, so check never calls it proven.
        dialect.rollbackUndefined(c, info.ref()).ifPresent(problems::add);
        if (info.columns().isEmpty()) {
            // MySQL lists a table to an account with any privilege on it (TRIGGER alone: measured on 8.0.31), and
            // its columns and keys only with a privilege on them: no column is not "no primary key".
            problems.add("this credential sees the table but none of its columns (a grant such as TRIGGER lists a table"
                    + " without them), so neither its key nor its rows can be read: grant the planning credential SELECT,"
                    + " UPDATE and DELETE on it (samples/roles)");
        } else if (info.primaryKey().isEmpty()) {
            problems.add("it has no primary key, so its rows cannot be shown one by one (add one)");
        }
        if (!info.visibility().foreignKeys() || !info.visibility().triggers()) {
            problems.add("this credential cannot see all " + (info.visibility().foreignKeys() ? "triggers"
                    : "foreign keys referencing it") + ", and the catalog answers \"none\" for what it hides: "
                    + info.visibility().grantHint().orElse("grant the planning user access to the catalog"));
        }
        for (TableInfo.ForeignKey fk : info.inboundForeignKeys()) {
            if (TableInfo.ForeignKey.writes(fk.onDelete())) {
                problems.add("the foreign key from " + fk.child() + " (" + String.join(", ", fk.childColumns())
                        + ") is ON DELETE " + fk.onDelete() + ": a DELETE here would change rows the card cannot show");
            }
            if (TableInfo.ForeignKey.writes(fk.onUpdate())) {
                problems.add("the foreign key from " + fk.child() + " is ON UPDATE " + fk.onUpdate() + ": an UPDATE of "
                        + String.join(", ", fk.parentColumns()) + " would change rows the card cannot show");
            }
        }
        boolean updateTriggers = info.triggers().stream().anyMatch(t -> t.events().contains("UPDATE"));
        if (updateTriggers && !tp.autoColumnsDeclared()) {
            problems.add("it has UPDATE triggers (" + String.join(", ", info.triggers().stream()
                    .filter(t -> t.events().contains("UPDATE")).map(TableInfo.Trigger::name).toList())
                    + ") and no declared auto columns: declare the columns they set in policy.autoColumns (an empty list if"
                    + " they set none)");
        }
        if (!problems.isEmpty()) {
            return new TableStatus(name, resolved, State.NOT_READY, problems, "not probed");
        }
        try {
            return new TableStatus(name, resolved, State.READY, problems, dryRun(c, tp, info));
        } catch (ProbeRefused e) {
            // A dry run the planner refuses is one a model's UPDATE would meet too: the table is not ready.
            return new TableStatus(name, resolved, State.NOT_READY, List.of(PROBE_REFUSED
                    + e.refusal.code() + ": " + e.refusal.detail()), "not probed");
        } catch (SQLException e) {
            if (!Dialects.isPrivilegeDenied(e)) {
                throw e;
            }
            // One table the credential may not use (a grant forgotten) is that table's finding, not the end of check.
            return new TableStatus(name, resolved, State.NOT_READY, List.of("the probe failed: " + e.getMessage()
                    + ". A dry run needs SELECT, UPDATE and DELETE on it for the planning credential (samples/roles)"),
                    "not probed");
        }
    }

    /** How the planner's NO_CHANGE names the maintained columns that alone would have moved. */
    private static final String MAINTAINED = "update what it maintains itself: ";

    /** A same-value UPDATE of one real row, through the planner: NO_CHANGE means it ran and rolled back. */
    private String dryRun(Connection c, TablePolicy tp, TableInfo info) throws SQLException {
        Optional<ColumnInfo> column = info.columns().stream()
                .filter(col -> !info.primaryKey().contains(col.name()) && !col.generated() && !col.autoUpdated())
                .filter(col -> tp.denyWrite().keySet().stream().noneMatch(d -> dialect.sameColumn(d, col.name())))
                .filter(col -> !secrets.isSecret(col.name()))
                .findFirst();
        if (column.isEmpty()) {
            return "no column a dry run could set to itself: not probed";
        }
        List<Parameter> key = firstKey(c, tp, info);
        if (key == null) {
            return "no row, or a key of a type this probe cannot bind: not probed";
        }
        String col = dialect.quote(column.get().name());
        StringBuilder where = new StringBuilder();
        for (String k : info.primaryKey()) {
            where.append(where.length() == 0 ? "" : " AND ").append(dialect.quote(k)).append(" = ?");
        }
        String sql = "UPDATE " + dialect.renderAsWritten(tp.name()) + " SET " + col + " = " + col + " WHERE " + where;
        Planner planner = deployment.planner();
        try {
            planner.plan(List.of(new Proposal(new StatementAnalyzer(policy.maxStatementLength())
                    .analyze(sql, dialect.lexSettings(c)), key)), "llmsafe check");
            return "a dry run on one row changed something in a same-value UPDATE (a trigger?); it was rolled back";
        } catch (RefusedException e) {
            if (e.code() == Refusal.NO_CHANGE) {
                // D8: a same-value UPDATE that only moves what the database maintains (a trigger's column) is
                // NO_CHANGE too; the probe still ran that trigger on the real row, and says so.
                int maintained = e.detail().indexOf(MAINTAINED);
                String moved = maintained < 0 ? "" : " changed only what the database maintains itself ("
                        + e.detail().substring(maintained + MAINTAINED.length(), e.detail().indexOf(')', maintained)) + "),";
                return "a dry run on one real row ran," + moved + " was rolled back, and the rollback was proven ("
                        + deployment.dialect().product() + ")";
            }
            // A privilege the server denied (MySQL's 1142 for an UPDATE the role may not run, inside the
            // planner's refusal) is the table's missing grant; any other refusal is the table's finding.
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof SQLException cause && Dialects.isPrivilegeDenied(cause)) {
                    throw cause;
                }
            }
            throw new ProbeRefused(e);
        }
    }

    /** The planner refused the probe's dry run for a reason of its own. */
    private static final class ProbeRefused extends SQLException {
        private static final long serialVersionUID = 1L;
        private final transient RefusedException refusal;

        ProbeRefused(RefusedException refusal) {
            super(refusal.getMessage(), refusal);
            this.refusal = refusal;
        }
    }

    private List<Parameter> firstKey(Connection c, TablePolicy tp, TableInfo info) throws SQLException {
        String keys = String.join(", ", info.primaryKey().stream().map(dialect::quote).toList());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + keys + " FROM "
                + dialect.renderAsWritten(tp.name()) + " ORDER BY " + keys + " LIMIT 1")) {
            if (!rs.next()) {
                return null;
            }
            List<Value> values = dialect.values().rowReader(c, rs.getMetaData()).read(rs);
            List<Parameter> out = new ArrayList<>();
            for (Value v : values) {
                if (v instanceof IntegerValue i && i.value().bitLength() < 64) {
                    out.add(Parameter.of(i.value().longValue()));
                } else if (v instanceof DecimalValue d) {
                    out.add(Parameter.of(d.value()));
                } else if (v instanceof TextValue t) {
                    out.add(Parameter.of(t.value()));
                } else if (v instanceof UuidValue u) {
                    out.add(Parameter.of(Setter.SET_OBJECT, u.value()));
                } else {
                    return null;
                }
            }
            return out;
        }
    }


}
