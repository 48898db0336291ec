package dev.llmsafe.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code llmsafe} command line. Configuration comes from {@code --config PATH}, else the
 * environment variable {@code LLMSAFE_CONFIG}, else {@code ./llmsafe.json}.
 *
 * <p>Exit status: 0 done; 1 refused (the code and message are printed to stderr); 2 a usage or
 * configuration error; 3 {@code check} found something not ready; 4 an unexpected error (a driver
 * error, a server that is down), printed as one line, with the stack trace under {@code --debug}.
 */
@Command(name = "llmsafe", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Guarded reads and approved writes for a database a language model can reach.")
public final class Main implements Runnable {

    /**
     * The commands, in the order help lists them. Only the one named on the command line is built (picocli
     * reads each command's annotations by reflection when it is added, a third of the start-up of a
     * command that does little); all are when none is named exactly (help, a suggestion for a typo).
     */
    private static final Map<String, Class<?>> COMMANDS = commands(InitCommand.class, MigrateCommand.class,
            CheckCommand.class, PlanCommand.class, ReadCommand.class, ExplainCommand.class, SchemaCommand.class,
            McpCommand.class, ListCommand.class, ShowCommand.class, ApproveCommand.class, ApplyCommand.class,
            RejectCommand.class, ServeCommand.class, HashPasswordCommand.class);

    private static Map<String, Class<?>> commands(Class<?>... classes) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> c : classes) {
            byName.put(c.getAnnotation(Command.class).name(), c);
        }
        return byName;
    }

    /** Done. */
    public static final int OK = 0;
    /** Refused; the refusal's code and message are on stderr. */
    public static final int REFUSED = 1;
    /** A usage or configuration error. */
    public static final int USAGE = 2;
    /** {@code check} found a table or the store not ready. */
    public static final int NOT_READY = 3;
    /** An unexpected error: a driver error, a server that is down. */
    public static final int ERROR = 4;

    final UnaryOperator<String> env;
    final Path cwd;
    final InputStream stdin;
    /** Where {@code mcp} writes the protocol; null for the process's standard output. */
    final OutputStream stdout;

    /** A command line reading the process environment and working directory. */
    public Main() {
        this(System::getenv, Path.of("").toAbsolutePath());
    }

    /**
     * @param env the environment (variable name to value, null when unset)
     * @param cwd the working directory, where ./llmsafe.json is looked for
     */
    public Main(UnaryOperator<String> env, Path cwd) {
        this(env, cwd, System.in, null);
    }

    /** A command line whose {@code mcp} serves the given streams (tests). */
    Main(UnaryOperator<String> env, Path cwd, InputStream stdin, OutputStream stdout) {
        this.env = env;
        this.cwd = cwd;
        this.stdin = stdin;
        this.stdout = stdout;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "name a command; see llmsafe --help");
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        // Library logs go to stderr, and only warnings, so that stdout carries nothing but the output.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.exit(run(new Main(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given streams and returns its exit status. */
    public static int run(Main main, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(main);
        String named = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse("");
        if (COMMANDS.containsKey(named)) {
            cl.addSubcommand(named, COMMANDS.get(named));
        } else {
            // Help lists every command, and a mistyped one is answered with the nearest names.
            COMMANDS.forEach(cl::addSubcommand);
            cl.addSubcommand("help", new CommandLine.HelpCommand());
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(new Failures());
        cl.setUsageHelpAutoWidth(true);
        cl.setParameterExceptionHandler((e, a) -> {
            err.println(e.getMessage());
            // A mistyped command or option: the nearest ones picocli knows ("Did you mean: ...").
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("See: llmsafe " + (e.getCommandLine().getCommandName().equals("llmsafe") ? ""
                    : e.getCommandLine().getCommandName() + " ") + "--help");
            return USAGE;
        });
        return cl.execute(args);
    }

    /**
     * The version and build time, from the executable jar's manifest ({@code Implementation-Version},
     * {@code Build-Time}); a run from compiled classes has none and says so.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            if (v == null) {
                return new String[] {"llmsafe (development build, run from compiled classes)"};
            }
            String built = buildTime();
            return new String[] {"llmsafe " + v + (built == null ? "" : " (built " + built + ")"),
                "Java " + Runtime.version() + ", " + System.getProperty("java.vm.name", "")};
        }

        private static String buildTime() {
            java.net.URL self = Main.class.getResource("Main.class");
            if (self == null || !"jar".equals(self.getProtocol())) {
                return null;
            }
            String jar = self.toString().substring(0, self.toString().indexOf("!/") + 2);
            try (InputStream in = java.net.URI.create(jar + "META-INF/MANIFEST.MF").toURL().openStream()) {
                return new java.util.jar.Manifest(in).getMainAttributes().getValue("Build-Time");
            } catch (java.io.IOException | IllegalArgumentException e) {
                return null;
            }
        }
    }
}
