package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;

/** Creates or upgrades the plan store. */
final class MigrateCommand extends Base {

    MigrateCommand() {
        super("migrate", "Create or upgrade the plan store.",
                "The tables llmsafe_plans and llmsafe_audit, in the database of storeConnection (else connection).",
                "Running it again changes nothing.");
    }

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
