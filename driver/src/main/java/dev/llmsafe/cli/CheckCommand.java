package dev.llmsafe.cli;

import dev.llmsafe.check.CheckReport;
import dev.llmsafe.check.CheckText;
import dev.llmsafe.check.Deployment;
import dev.llmsafe.check.EnvironmentCheck;
import picocli.CommandLine.Command;

/** The environment report. */
@Command(name = "check", description = {"Report whether the environment is ready, and where each guard sits.",
        "Per allowlisted table, whether a dry run is possible there (and one is run on a real row, rolled back);",
        "whether the store exists; which connections share a credential; whether the read connection can write;",
        "what is taken on trust. Exit status 3 when a table meant to be written is not ready or the store is",
        "missing."})
final class CheckCommand extends Base {

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            CheckReport r = new EnvironmentCheck(d).run();
            out().print(common.json ? Json.write(r) + "\n" : CheckText.render(r));
            out().flush();
            return r.ready() ? Main.OK : Main.NOT_READY;
        }
    }
}
