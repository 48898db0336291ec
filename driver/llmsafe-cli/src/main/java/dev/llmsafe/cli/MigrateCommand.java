package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import picocli.CommandLine.Command;

/** Creates or upgrades the plan store. */
@Command(name = "migrate", description = {"Create or upgrade the plan store.",
        "The tables llmsafe_plans and llmsafe_audit, in the database of storeConnection (else connection).",
        "Running it again changes nothing."})
final class MigrateCommand extends Base {

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            int v = d.store().migrate();
            String where = d.settings(Deployment.Role.STORE).describe();
            if (common.json) {
                out().println(Json.write(Json.object("version", v, "store", where)));
            } else {
                out().println("The plan store is at version " + v + " in " + where + ".");
            }
            return Main.OK;
        }
    }
}
