package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.LlmSafeConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What every command shares: its name, description and options (which {@link Args} parses and prints as
 * help), the common options, the configuration, the deployment and the output.
 */
abstract class Base {

    /** One option or positional parameter of a command, as help shows it and the parser fills it. */
    static final class Opt {
        final String name;
        final String label;
        final String[] description;
        final Consumer<String> set;
        boolean required;
        boolean repeatable;

        Opt(String name, String label, Consumer<String> set, String... description) {
            this.name = name;
            this.label = label;
            this.set = set;
            this.description = description;
        }

        boolean positional() {
            return !name.startsWith("-");
        }

        boolean flag() {
            return label == null;
        }

        Opt required() {
            required = true;
            return this;
        }

        Opt repeatable() {
            repeatable = true;
            return this;
        }

        /** As help and errors name it: {@code --as=ACTOR}, {@code --json}, {@code PLAN}. */
        String shown() {
            return positional() || flag() ? name : name + "=" + label;
        }
    }

    final String name;
    /** The first line is the summary the command list shows; the others are one paragraph. */
    final String[] description;
    final List<Opt> options = new ArrayList<>();
    final Common common = new Common();

    Main main;
    private PrintWriter out;
    private PrintWriter err;

    Base(String name, String... description) {
        this.name = name;
        this.description = description;
        option("--config", "PATH", v -> common.config = Path.of(v),
                "The configuration file. Default: $LLMSAFE_CONFIG, else ./llmsafe.json.");
        flag("--json", () -> common.json = true, "Print machine-readable JSON to stdout instead of text.");
        flag("--debug", () -> common.debug = true, "Print the stack trace of an unexpected error.");
    }

    final Opt option(String option, String label, Consumer<String> set, String... text) {
        Opt o = new Opt(option, label, set, text);
        options.add(o);
        return o;
    }

    final Opt flag(String option, Runnable set, String... text) {
        return option(option, null, v -> set.run(), text);
    }

    /** A positional parameter; they are filled in the order they are declared, and every one is required. */
    final Opt parameter(String label, Consumer<String> set, String... text) {
        return option(label, label, set, text).required();
    }

    /** An option whose value is a whole number; anything else is a usage error naming the option. */
    final Opt intOption(String option, String label, java.util.function.IntConsumer set, String... text) {
        return option(option, label, v -> {
            try {
                set.accept(Integer.parseInt(v));
            } catch (NumberFormatException e) {
                throw new Args.UsageException("Invalid value for option '" + option + "': '" + v + "' is not an int");
            }
        }, text);
    }

    void bind(Main main, PrintWriter out, PrintWriter err) {
        this.main = main;
        this.out = out;
        this.err = err;
    }

    PrintWriter out() {
        return out;
    }

    PrintWriter err() {
        return err;
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
        LlmSafeConfig config = LlmSafeConfig.load(path.isAbsolute() ? path : main.cwd.resolve(path), main.env);
        if (main.cache != null && Stream.of(config.planningConnection(), config.readConnection(),
                config.applyConnection(), config.storeConnection()).flatMap(Optional::stream)
                .anyMatch(c -> c.url().startsWith("jdbc:sqlite:"))) {
            SqliteLibrary.useCached(main.cache);
        }
        return config;
    }

    Deployment deployment() {
        return new Deployment(config(), Clock.systemUTC());
    }

    abstract int execute() throws Exception;
}
