package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.LlmSafeConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** What every command shares: the common options, the configuration, the deployment and the output. */
abstract class Base implements Callable<Integer> {

    @Mixin
    Common common;

    @ParentCommand
    Main main;

    @Spec
    CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The configuration: --config, else LLMSAFE_CONFIG, else ./llmsafe.json. */
    LlmSafeConfig config() {
        Path path;
        if (common.config != null) {
            path = common.config;
        } else if (main.env.apply("LLMSAFE_CONFIG") != null && !main.env.apply("LLMSAFE_CONFIG").isBlank()) {
            path = Path.of(main.env.apply("LLMSAFE_CONFIG"));
        } else {
            path = main.cwd.resolve("llmsafe.json");
            if (!Files.exists(path)) {
                throw new ConfigException(path.toString(), 0, 0, null, "no configuration: pass --config PATH, set"
                        + " LLMSAFE_CONFIG, or create ./llmsafe.json (llmsafe init --url JDBC_URL prints a starting one)");
            }
        }
        return LlmSafeConfig.load(path.isAbsolute() ? path : main.cwd.resolve(path), main.env);
    }

    Deployment deployment() {
        return new Deployment(config(), Clock.systemUTC());
    }

    @Override
    public final Integer call() throws Exception {
        return execute();
    }

    abstract int execute() throws Exception;
}
