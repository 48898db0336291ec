package dev.llmsafe.cli;

import java.nio.file.Path;

/** What the options every command takes were given: --config, --json, --debug. */
final class Common {

    /** The configuration file; null for $LLMSAFE_CONFIG, else ./llmsafe.json. */
    Path config;

    boolean json;

    boolean debug;
}
