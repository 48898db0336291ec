package dev.llmsafe.cli;

import dev.llmsafe.apply.Approver;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.store.StoredPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Approves a plan. */
@Command(name = "approve", description = {"Approve a proposed plan.",
        "The proposer cannot approve its own plan unless --allow-self-approve is given (or allowSelfApprove is",
        "set), and then the audit records one actor doing both. Actor names are taken at their word: the apply",
        "credential is the real boundary."})
final class ApproveCommand extends Base {

    @Parameters(index = "0", paramLabel = "PLAN", description = "The plan id, or its first 8 characters or more.")
    String id;

    @Option(names = "--as", required = true, paramLabel = "ACTOR", description = "Who approves (recorded as given).")
    String actor;

    @Option(names = "--allow-self-approve", description = "Allow the proposer to approve its own plan.")
    boolean allowSelf;

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
