package dev.llmsafe.cli;

import dev.llmsafe.apply.Approver;
import dev.llmsafe.assembly.Deployment;

/** Rejects a plan. */
final class RejectCommand extends Base {

    String id;
    String actor;
    String reason;

    RejectCommand() {
        super("reject", "Reject a proposed or approved plan; it can then never be applied.");
        parameter("PLAN", v -> id = v, "The plan id, or its first 8 characters or more.");
        option("--as", "ACTOR", v -> actor = v, "Who rejects (recorded as given).").required();
        option("--reason", "TEXT", v -> reason = v, "Why, for the audit trail.");
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            java.util.UUID plan = PlanIds.resolve(id, d.store());
            new Approver(d.store(), d.config().allowSelfApprove()).reject(plan, actor, reason);
            if (common.json) {
                out().println(Json.write(Json.object("planId", plan.toString(), "status", "rejected")));
            } else {
                out().println("Plan " + plan + " is rejected by " + actor + ".");
            }
            return Main.OK;
        }
    }
}
