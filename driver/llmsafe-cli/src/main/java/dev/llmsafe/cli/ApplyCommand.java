package dev.llmsafe.cli;

import dev.llmsafe.apply.ApplyResult;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.dialect.Dialect;

/** Applies an approved plan. */
final class ApplyCommand extends Base {

    String id;
    String actor;
    boolean allowSelf;

    ApplyCommand() {
        super("apply", "Apply an approved plan, exactly as its card showed, or not at all.",
                "On applyConnection: lock the rows, check they are still what the card showed, run the statement with its",
                "stored parameters, check the result against the card, and commit; any difference rolls everything back",
                "and closes the plan.");
        parameter("PLAN", v -> id = v, "The plan id, or its first 8 characters or more.");
        option("--as", "ACTOR", v -> actor = v, "Who applies (recorded as given).").required();
        flag("--allow-self-approve", () -> allowSelf = true, "Allow the proposer to apply its own plan.");
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            Dialect dialect = d.dialect(Deployment.Role.APPLY);
            Applier applier = new Applier(d.store(), d.pool(Deployment.Role.APPLY), dialect, d.config().policy(),
                    d.bounds(), allowSelf || d.config().allowSelfApprove(), d.sealKey());
            ApplyResult r = applier.apply(PlanIds.resolve(id, d.store()), actor);
            if (common.json) {
                out().println(Json.write(Json.object("planId", r.planId().toString(), "status", "applied", "rows",
                        r.rows(), "warnings", r.warnings())));
            } else {
                long total = r.rows().stream().mapToLong(Long::longValue).sum();
                out().println("Plan " + r.planId() + " is applied: " + total + (total == 1 ? " row" : " rows")
                        + " committed, exactly as the card showed.");
                r.warnings().forEach(w -> err().println("Warning: " + w));
            }
            return Main.OK;
        }
    }
}
