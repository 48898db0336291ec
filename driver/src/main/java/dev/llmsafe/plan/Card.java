package dev.llmsafe.plan;


import dev.llmsafe.value.ValueText;
import java.util.stream.Collectors;

/**
 * The confirmation card: plain text, readable in a terminal and in a chat window (C1-C3). It says
 * that nothing has changed, shows exactly what ran and with which parameters, what each table means
 * to the business, every row's key with each value before and after, what this check cannot
 * establish on this database, and who must act next.
 */
public final class Card {

    private Card() {
    }

    static String render(Plan plan) {
        StringBuilder sb = new StringBuilder();
        sb.append("Plan ").append(plan.id()).append(" is proposed, not applied. Nothing in the database has changed.\n");
        for (PlannedStatement s : plan.statements()) {
            sb.append('\n');
            statement(sb, s);
        }
        sb.append('\n').append("What this touches\n");
        for (PlannedStatement s : plan.statements()) {
            sb.append("  ").append(s.table()).append(": ").append(s.impact()).append('\n');
            sb.append("  ").append(summary(s)).append('\n');
            if (!s.autoColumns().isEmpty()) {
                // D8: a line of its own, not a before and after: the dry run's value is not the apply's.
                sb.append("  Maintained by the database, not set by this statement: ").append(String.join(", ",
                        s.autoColumns())).append(". The database sets ").append(s.autoColumns().size() == 1 ? "it" : "them")
                        .append(" again at apply; the value is not shown here and not checked.\n");
            }
            if (s.irreversible()) {
                sb.append("  ").append(PlannedStatement.IRREVERSIBLE).append('\n');
            }
        }
        sb.append('\n').append("Measured by running the statement").append(plan.statements().size() > 1 ? "s" : "")
                .append(" and rolling back\n");
        for (PlannedStatement s : plan.statements()) {
            if (plan.statements().size() > 1) {
                sb.append("  ").append(s.kind()).append(' ').append(s.table()).append(":\n");
            }
            for (RowChange row : s.rows()) {
                rowLines(sb, s, row);
            }
        }
        if (!plan.warnings().isEmpty()) {
            sb.append('\n').append("Warnings\n");
            plan.warnings().forEach(w -> sb.append("  - ").append(w).append('\n'));
        }
        sb.append('\n').append("Limits of this check on ").append(plan.database()).append('\n');
        if (plan.limitations().isEmpty()) {
            sb.append("  - none known\n");
        }
        plan.limitations().forEach(l -> sb.append("  - ").append(l).append('\n'));
        sb.append('\n').append("A person other than the proposer (").append(plan.proposer()).append(") must approve it,")
                .append(" and a separate applier commits it; the proposer can do neither:\n");
        sb.append("  llmsafe approve ").append(plan.id()).append(" --as <approver>\n");
        sb.append("  llmsafe apply   ").append(plan.id()).append(" --as <applier>\n");
        return sb.toString();
    }

    private static void statement(StringBuilder sb, PlannedStatement s) {
        String[] lines = s.sql().split("\\R");
        for (int i = 0; i < lines.length; i++) {
            sb.append("  ").append(lines[i]);
            if (i == lines.length - 1 && !s.parameters().isEmpty()) {
                sb.append("      [");
                for (int p = 0; p < s.parameters().size(); p++) {
                    sb.append(p == 0 ? "" : ", ").append(p + 1).append(": ").append(s.parameters().get(p).render());
                }
                sb.append(']');
            }
            sb.append('\n');
        }
    }

    private static String summary(PlannedStatement s) {
        int n = s.rows().size();
        String rows = n + (n == 1 ? " row" : " rows");
        if (s.kind() == PlannedStatement.Kind.DELETE) {
            return rows + " would be deleted outright, with every value shown below";
        }
        int c = s.changedColumns().size();
        return rows + " would change, in " + c + (c == 1 ? " column: " : " columns: ") + String.join(", ", s.changedColumns());
    }

    /**
     * D12: a secret key is withheld; its keyed hash, shortened, tells the rows apart, while nobody without
     * the key can check a guess against it.
     */
    private static String key(dev.llmsafe.value.Value v) {
        if (v instanceof dev.llmsafe.value.MaskedValue m) {
            return "<withheld, " + m.algorithm() + " " + m.hash().substring(0, 16) + ">";
        }
        return v.render();
    }

    private static void rowLines(StringBuilder sb, PlannedStatement s, RowChange row) {
        sb.append("  ").append(row.key().entrySet().stream().map(e -> e.getKey() + " = " + key(e.getValue()))
                .collect(Collectors.joining(", "))).append(s.kind() == PlannedStatement.Kind.DELETE ? "  (deleted)" : "")
                .append('\n');
        if (row.columns().isEmpty()) {
            sb.append("    (matched, but no value changes)\n");
        }
        for (ColumnChange c : row.columns()) {
            sb.append("    ").append(c.column()).append(": ");
            if (c.after() == null) {
                sb.append(c.before().render());
            } else {
                // Long values are elided; this keeps the part where they differ visible.
                ValueText.RenderedChange r = ValueText.renderChange(c.before(), c.after());
                sb.append(r.before()).append(" -> ").append(r.after());
            }
            if (c.auto()) {
                sb.append("   (set by the database; at apply it will be the database's own value)");
            }
            sb.append('\n');
        }
        for (ColumnChange c : row.unchanged()) {
            sb.append("    ").append(c.column()).append(": ").append(c.before().render()).append("   (already this value)\n");
        }
    }

}
