package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.value.Visible;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Shows one plan: its card, its status and its history. */
final class ShowCommand extends Base {

    String id;

    ShowCommand() {
        super("show", "Print a plan's card again, with its status and its history.");
        parameter("PLAN", v -> id = v, "The plan id, or its first 8 characters or more.");
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            StoredPlan p = d.store().load(PlanIds.resolve(id, d.store()));
            if (common.json) {
                List<Map<String, Object>> history = new ArrayList<>();
                for (AuditEntry e : p.history()) {
                    history.add(Map.of("at", e.at().toString(), "actor", e.actor(), "action", e.action().label(),
                            "outcome", e.outcome().label(), "detail", e.detail() == null ? "" : e.detail()));
                }
                out().println(Json.write(Json.object("planId", p.plan().id().toString(), "status", p.status().label(),
                        "approvedBy", p.approvedBy().orElse(null), "outcome", p.outcome().orElse(null),
                        "card", p.plan().card(), "history", history, "plan", Json.parse(p.plan().toJson()))));
                return Main.OK;
            }
            out().print(p.plan().card());
            out().println();
            // C5: names and messages are shown as the card shows its texts.
            out().println("Status: " + p.status().label() + p.approvedBy().map(a -> " (approved by " + Visible.text(a) + ")")
                    .orElse("") + p.outcome().map(o -> ": " + Visible.text(o)).orElse(""));
            out().println("History:");
            for (AuditEntry e : p.history()) {
                out().println("  " + e.at() + "  " + Visible.text(e.actor()) + "  " + e.action().label() + "  "
                        + e.outcome().label() + (e.detail() == null || e.detail().isEmpty() ? ""
                        : "  " + Visible.text(e.detail())));
            }
            out().flush();
            return Main.OK;
        }
    }
}
