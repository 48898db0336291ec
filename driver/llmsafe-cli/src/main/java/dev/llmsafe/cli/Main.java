package dev.llmsafe.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The {@code llmsafe} command line. Configuration comes from {@code --config PATH}, else the
 * environment variable {@code LLMSAFE_CONFIG}, else {@code ./llmsafe.json}.
 *
 * <p>Exit status: 0 done; 1 refused (the code and message are printed to stderr); 2 a usage or
 * configuration error; 3 {@code check} found something not ready; 4 an unexpected error (a driver
 * error, a server that is down), printed as one line, with the stack trace under {@code --debug}.
 */
public final class Main {

    /** The commands, in the order help lists them. */
    private static final List<String> COMMANDS = List.of("init", "migrate", "check", "plan", "read", "explain",
            "schema", "mcp", "list", "show", "approve", "apply", "reject", "serve", "hash-password");

    /** A new command of that name, or null. Only the one a run names is made. */
    private static Base command(String name) {
        return switch (name) {
            case "init" -> new InitCommand();
            case "migrate" -> new MigrateCommand();
            case "check" -> new CheckCommand();
            case "plan" -> new PlanCommand();
            case "read" -> new ReadCommand();
            case "explain" -> new ExplainCommand();
            case "schema" -> new SchemaCommand();
            case "mcp" -> new McpCommand();
            case "list" -> new ListCommand();
            case "show" -> new ShowCommand();
            case "approve" -> new ApproveCommand();
            case "apply" -> new ApplyCommand();
            case "reject" -> new RejectCommand();
            case "serve" -> new ServeCommand();
            case "hash-password" -> new HashPasswordCommand();
            default -> null;
        };
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
    /**
     * The launcher's cache directory ({@code -Dllmsafe.cache}, set by bin/llmsafe when it can write there), where
     * SQLite's native library is kept between runs; null without one.
     */
    Path cache;

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

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        // Library logs go to stderr, and only warnings, so that stdout carries nothing but the output.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        Main main = new Main();
        String cache = System.getProperty("llmsafe.cache", "");
        main.cache = cache.isBlank() ? null : Path.of(cache);
        System.exit(run(main, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given streams and returns its exit status. */
    public static int run(Main main, PrintWriter out, PrintWriter err, String... args) {
        String first = args.length == 0 ? "" : args[0];
        if (first.equals("-h") || first.equals("--help") || first.equals("help") && args.length == 1) {
            out.print(Args.help(COMMANDS.stream().map(Main::command).toList()));
            out.flush();
            return OK;
        }
        if (first.equals("-V") || first.equals("--version")) {
            for (String line : version()) {
                out.println(line);
            }
            return OK;
        }
        boolean helpOf = first.equals("help");
        String name = helpOf ? args[1] : first;
        Base cmd = command(name);
        if (cmd == null) {
            String message = args.length == 0 ? "name a command; see llmsafe --help"
                    : name.startsWith("-") ? "Unknown option: '" + name + "'"
                    : "Unknown command: '" + name + "'";
            List<String> near = name.startsWith("-") ? List.of() : Args.nearest(name, COMMANDS);
            return usage(err, new Args.UsageException(message, near.stream().map(n -> "llmsafe " + n).toList()), "");
        }
        cmd.bind(main, out, err);
        try {
            if (helpOf || Args.parse(cmd, args, 1)) {
                out.print(Args.help(cmd));
                out.flush();
                return OK;
            }
        } catch (Args.UsageException e) {
            return usage(err, e, cmd.name + " ");
        } catch (RuntimeException e) {
            return Failures.handle(e, cmd, out, err); // a value the option cannot hold, such as a path
        }
        try {
            return cmd.execute();
        } catch (Exception e) {
            return Failures.handle(e, cmd, out, err);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** A usage error: what was wrong, the nearest names when something was mistyped, where help is. */
    private static int usage(PrintWriter err, Args.UsageException e, String command) {
        err.println(e.getMessage());
        if (!e.suggestions.isEmpty()) {
            err.println("Did you mean: " + String.join(" or ", e.suggestions) + "?");
        }
        err.println("See: llmsafe " + command + "--help");
        err.flush();
        return USAGE;
    }

    /**
     * The version and build time, from the executable jar's manifest ({@code Implementation-Version},
     * {@code Build-Time}); a run from compiled classes has none and says so.
     */
    static String[] version() {
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
