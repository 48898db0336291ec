package dev.llmsafe.cli;

import dev.llmsafe.check.Deployment;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.StoredPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Shows one plan: its card, its status and its history. */
@Command(name = "show", description = "Print a plan's card again, with its status and its history.")
final class ShowCommand extends Base {

    @Parameters(index = "0", paramLabel = "PLAN", description = "The plan id.")
    String id;

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            StoredPlan p = d.store().load(PlanIds.parse(id));
            if (common.json) {
                List<Map<String, Object>> history = new ArrayList<>();
                for (AuditEntry e : p.history()) {
                    history.add(Map.of("at", e.at().toString(), "actor", e.actor(), "action", e.action(), "outcome",
                            e.outcome(), "detail", e.detail() == null ? "" : e.detail()));
                }
                out().println(Json.write(Json.object("planId", p.plan().id().toString(), "status", p.status().label(),
                        "approvedBy", p.approvedBy().orElse(null), "outcome", p.outcome().orElse(null),
                        "card", p.plan().card(), "history", history, "plan", Json.parse(p.plan().toJson()))));
                return Main.OK;
            }
            out().print(p.plan().card());
            out().println();
            out().println("Status: " + p.status().label() + p.approvedBy().map(a -> " (approved by " + a + ")").orElse("")
                    + p.outcome().map(o -> ": " + o).orElse(""));
            out().println("History:");
            for (AuditEntry e : p.history()) {
                out().println("  " + e.at() + "  " + e.actor() + "  " + e.action() + "  " + e.outcome()
                        + (e.detail() == null || e.detail().isEmpty() ? "" : "  " + e.detail()));
            }
            out().flush();
            return Main.OK;
        }
    }
}
