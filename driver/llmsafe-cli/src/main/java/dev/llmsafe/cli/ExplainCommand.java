package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.jdbc.ReadEstimate;
import dev.llmsafe.tools.DatabaseTools;
import java.util.Locale;

/** The estimate the cost gate compares, for one read that is not run. */
final class ExplainCommand extends Base {

    String sql;

    ExplainCommand() {
        super("explain", "Show the cost estimate the cost gate (policy.read.maxCost) uses for a read.",
                "The read is checked as it would be (allowlist, secret columns) and not run: only a plain EXPLAIN is.");
        parameter("SQL", v -> sql = v, "One SELECT, without ? parameters.");
    }

    @Override
    int execute() throws Exception {
        ReadEstimate e;
        try (Deployment d = deployment(); DatabaseTools tools = DatabaseTools.over(d)) {
            e = tools.explain(sql);
        }
        if (common.json) {
            out().println(Json.write(Json.object("estimate", e.estimate(), "unit", e.unit(),
                    "bound", e.bound().isPresent() ? e.bound().getAsDouble() : null, "allowed", e.allowed())));
            return Main.OK;
        }
        out().println(String.format(Locale.ROOT, "Estimate: %.1f (%s)", e.estimate(), e.unit()));
        if (e.bound().isEmpty()) {
            out().println("Bound: none (policy.read.maxCost is not set): reads are not cost-gated.");
        } else {
            out().println(String.format(Locale.ROOT, "Bound: %.1f (policy.read.maxCost): %s", e.bound().getAsDouble(),
                    e.allowed() ? "within it, the read would run." : "above it, the read would be refused (COST_TOO_HIGH)."));
        }
        out().flush();
        return Main.OK;
    }
}
