package dev.llmsafe.cli;

import dev.llmsafe.apply.Approver;
import dev.llmsafe.assembly.Deployment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Rejects a plan. */
@Command(name = "reject", description = "Reject a proposed or approved plan; it can then never be applied.")
final class RejectCommand extends Base {

    @Parameters(index = "0", paramLabel = "PLAN", description = "The plan id, or its first 8 characters or more.")
    String id;

    @Option(names = "--as", required = true, paramLabel = "ACTOR", description = "Who rejects (recorded as given).")
    String actor;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit trail.")
    String reason;

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
