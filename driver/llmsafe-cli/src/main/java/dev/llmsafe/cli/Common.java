package dev.llmsafe.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every command takes. */
final class Common {

    @Option(names = "--config", paramLabel = "PATH",
            description = "The configuration file. Default: $LLMSAFE_CONFIG, else ./llmsafe.json.")
    Path config;

    @Option(names = "--json", description = "Print machine-readable JSON to stdout instead of text.")
    boolean json;

    @Option(names = "--debug", description = "Print the stack trace of an unexpected error.")
    boolean debug;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;
}
