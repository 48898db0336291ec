package dev.llmsafe.cli;

import dev.llmsafe.apply.Approver;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.store.StoredPlan;

/** Approves a plan. */
final class ApproveCommand extends Base {

    String id;
    String actor;
    boolean allowSelf;

    ApproveCommand() {
        super("approve", "Approve a proposed plan.",
                "The proposer cannot approve its own plan unless --allow-self-approve is given (or allowSelfApprove is",
                "set), and then the audit records one actor doing both. Actor names are taken at their word: the apply",
                "credential is the real boundary.");
        parameter("PLAN", v -> id = v, "The plan id, or its first 8 characters or more.");
        option("--as", "ACTOR", v -> actor = v, "Who approves (recorded as given).").required();
        flag("--allow-self-approve", () -> allowSelf = true, "Allow the proposer to approve its own plan.");
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            StoredPlan p = new Approver(d.store(), allowSelf || d.config().allowSelfApprove())
                    .approve(PlanIds.resolve(id, d.store()), actor);
            if (common.json) {
                out().println(Json.write(Json.object("planId", p.plan().id().toString(), "status", p.status().label(),
                        "approvedBy", actor)));
            } else {
                out().println("Plan " + p.plan().id() + " is approved by " + actor + ". It changes nothing until it is"
                        + " applied: llmsafe apply " + p.plan().id() + " --as <applier>");
            }
            return Main.OK;
        }
    }
}
