package dev.llmsafe.check;

import dev.llmsafe.check.CheckReport.Guard;
import dev.llmsafe.check.CheckReport.TableStatus;

/** The check report for a person, as the command line prints it. */
public final class CheckText {

    private CheckText() {
    }

    /** The report as text. */
    public static String render(CheckReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Database: ").append(r.database()).append("\n\nTables\n");
        for (TableStatus t : r.tables()) {
            sb.append("  ").append(t.name()).append(t.resolved() != null && !t.resolved().endsWith("." + t.name())
                    ? " (" + t.resolved() + ")" : "").append(": ").append(switch (t.state()) {
                        case READY -> "ready";
                        case READ_ONLY -> "read only";
                        case NOT_READY -> "NOT READY";
                    }).append('\n');
            t.problems().forEach(p -> sb.append("    - ").append(p).append('\n'));
            sb.append("    ").append(t.measured()).append('\n');
        }
        sb.append("\nStore\n  ").append(r.store().exists() ? "" : "NOT READY: ").append(r.store().message()).append('\n');
        sb.append("\nWhere the guards actually sit\n");
        for (Guard g : r.guards()) {
            sb.append("  ").append(String.format("%-6s", g.role())).append(g.where())
                    .append(g.own() ? "" : "   (not configured: the planning connection)").append('\n');
            sb.append("         ").append(g.finding()).append('\n');
            if (!g.sharesWith().isEmpty()) {
                sb.append("         same credential as: ").append(String.join(", ", g.sharesWith())).append('\n');
            }
        }
        sb.append('\n');
        r.notes().forEach(n -> sb.append("  ").append(n).append('\n'));
        sb.append("\nReady: ").append(r.ready() ? "yes" : "no").append('\n');
        return sb.toString();
    }
}
