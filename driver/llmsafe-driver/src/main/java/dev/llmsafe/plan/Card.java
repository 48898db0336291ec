package dev.llmsafe.plan;


import dev.llmsafe.value.LookAlike;
import dev.llmsafe.value.ValueText;
import dev.llmsafe.value.Visible;
import java.util.stream.Collectors;

/**
 * The confirmation card: plain text, readable in a terminal and in a chat window (C1-C3). It says
 * that nothing has changed, shows exactly what ran and with which parameters, what each table means
 * to the business, every row's key with each value before and after, what this check cannot
 * establish on this database, and who must act next.
 *
 * <p>Every text on it goes through {@link Visible} (C5): an invisible, control or bidi character is an
 * escape, never raw, whether it is in the statement, a parameter, a value, a name, a sentence or the
 * proposer's name; a card that holds one says how to read it. A changed value whose two sides look
 * alike is marked {@code LOOKS ALIKE} with the characters that differ (C6, {@link LookAlike}).
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
            sb.append("  ").append(Visible.text(s.table().toString())).append(": ").append(Visible.text(s.impact()))
                    .append('\n');
            sb.append("  ").append(summary(s)).append('\n');
            if (!s.autoColumns().isEmpty()) {
                // D8: a line of its own, not a before and after: the dry run's value is not the apply's.
                sb.append("  Maintained by the database, not set by this statement: ").append(s.autoColumns().stream()
                        .map(Visible::text).collect(Collectors.joining(", "))).append(". The database sets ").append(s.autoColumns().size() == 1 ? "it" : "them")
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
                sb.append("  ").append(s.kind()).append(' ').append(Visible.text(s.table().toString())).append(":\n");
            }
            for (RowChange row : s.rows()) {
                rowLines(sb, s, row);
            }
        }
        long alike = lookAlikes(plan);
        if (!plan.warnings().isEmpty() || alike > 0) {
            sb.append('\n').append("Warnings\n");
            plan.warnings().forEach(w -> sb.append("  - ").append(Visible.text(w)).append('\n'));
            if (alike > 0) {
                sb.append("  - ").append(alike).append(alike == 1 ? " changed value looks the same before and after"
                        + " but is not" : " changed values look the same before and after but are not")
                        .append(": read the lines marked LOOKS ALIKE.\n");
            }
        }
        if (sb.indexOf("\\u{") >= 0) {
            sb.append('\n').append("How to read this card\n").append("  - ").append(ESCAPES).append('\n');
        }
        sb.append('\n').append("Limits of this check on ").append(Visible.text(plan.database())).append('\n');
        if (plan.limitations().isEmpty()) {
            sb.append("  - none known\n");
        }
        plan.limitations().forEach(l -> sb.append("  - ").append(Visible.text(l)).append('\n'));
        sb.append('\n').append("A person other than the proposer (").append(Visible.text(plan.proposer()))
                .append(") must approve it,")
                .append(" and a separate applier commits it; the proposer can do neither:\n");
        sb.append("  llmsafe approve ").append(plan.id()).append(" --as <approver>\n");
        sb.append("  llmsafe apply   ").append(plan.id()).append(" --as <applier>\n");
        return sb.toString();
    }

    /** C5: what a card that shows an escape says about it. */
    static final String ESCAPES = "\\u{...} stands for one character that would be invisible, reorder the text"
            + " around it or command the terminal, by its Unicode code point (\\u{202E} is U+202E); in a quoted"
            + " value every backslash of the value is doubled, elsewhere a backslash before u{ is.";

    /** Line breaks lay the statement out; any other line separator is an escape (C5). */
    private static void statement(StringBuilder sb, PlannedStatement s) {
        String[] lines = s.sql().split("\r\n|\n|\r");
        for (int i = 0; i < lines.length; i++) {
            sb.append("  ").append(Visible.statementLine(lines[i]));
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
        return rows + " would change, in " + c + (c == 1 ? " column: " : " columns: ")
                + s.changedColumns().stream().map(Visible::text).collect(Collectors.joining(", "));
    }

    /**
     * A key value as the card shows it. D12: a secret key is withheld; its keyed hash, shortened, tells the
     * rows apart, while nobody without the key can check a guess against it.
     */
    public static String key(dev.llmsafe.value.Value v) {
        if (v instanceof dev.llmsafe.value.MaskedValue m) {
            return "<withheld, " + m.algorithm() + " " + m.hash().substring(0, 16) + ">";
        }
        return v.render();
    }

    private static void rowLines(StringBuilder sb, PlannedStatement s, RowChange row) {
        sb.append("  ").append(row.key().entrySet().stream()
                .map(e -> Visible.text(e.getKey()) + " = " + key(e.getValue()))
                .collect(Collectors.joining(", "))).append(s.kind() == PlannedStatement.Kind.DELETE ? "  (deleted)" : "")
                .append('\n');
        if (row.columns().isEmpty()) {
            sb.append("    (matched, but no value changes)\n");
        }
        for (ColumnChange c : row.columns()) {
            sb.append("    ").append(Visible.text(c.column())).append(": ");
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
            LookAlike.of(c.before(), c.after()).ifPresent(l -> sb.append("      LOOKS ALIKE: ")
                    .append(l.describe()).append('\n'));
        }
        for (ColumnChange c : row.unchanged()) {
            sb.append("    ").append(Visible.text(c.column())).append(": ").append(c.before().render())
                    .append("   (already this value)\n");
        }
    }

    private static long lookAlikes(Plan plan) {
        return plan.statements().stream().flatMap(s -> s.rows().stream()).flatMap(r -> r.columns().stream())
                .filter(c -> LookAlike.of(c.before(), c.after()).isPresent()).count();
    }

}
