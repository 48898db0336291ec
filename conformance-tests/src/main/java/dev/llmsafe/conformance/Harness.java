package dev.llmsafe.conformance;

import dev.llmsafe.conformance.Verdict.Status;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The conformance harness: the fact suite of SPEC.md's "Measured facts", run against a user's own
 * database in a scratch schema (PostgreSQL), database (MySQL, MariaDB) or temporary copy (SQLite) that
 * it creates and drops, with roles it creates and drops when the credential may. It prints every
 * fact with what the answer means for llmsafe's guarantees on that server.
 *
 * <pre>
 * java -jar llmsafe-conformance-&lt;version&gt;-harness.jar --url JDBC_URL [--user U] [--password-env VAR] [--markdown]
 * </pre>
 *
 * <p>Exit status: 0 every fact the guarantees depend on holds (limits are declared on every card);
 * 1 at least one does not, or answered in a way llmsafe was not built on; 2 a usage error; 3 some
 * facts could not be measured with this credential, and none failed; 4 the harness could not connect,
 * create its scratch place, or drop it (what is left is named, with the statement to drop it).
 */
public final class Harness {

    /** Every fact holds. */
    public static final int OK = 0;
    /** A fact the guarantees depend on does not hold. */
    public static final int FAILS = 1;
    /** A usage error. */
    public static final int USAGE = 2;
    /** Some facts could not be measured; none failed. */
    public static final int INCOMPLETE = 3;
    /** The harness could not do its own work: connect, create or drop its scratch place. */
    public static final int ERROR = 4;

    private static final int WIDTH = 100;

    /** One fact's outcome. */
    private record Result(Fact fact, Answer answer, Verdict verdict) {
    }

    private final UnaryOperator<String> env;
    private final PrintWriter out;
    private final PrintWriter err;

    private Harness(UnaryOperator<String> env, PrintWriter out, PrintWriter err) {
        this.env = env;
        this.out = out;
        this.err = err;
    }

    /** Runs the harness and exits with its status. */
    public static void main(String[] args) {
        // Logs go to stderr, warnings only, so that stdout is the report.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.exit(run(System::getenv, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs the harness in this process.
     *
     * @param env the environment, where {@code --password-env} names a variable
     * @param out where the report goes
     * @param err where errors go
     * @return the exit status
     */
    public static int run(UnaryOperator<String> env, PrintWriter out, PrintWriter err, String... args) {
        try {
            return new Harness(env, out, err).run(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int run(String... args) {
        String url = null;
        String user = null;
        String password = null;
        boolean markdown = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "--help" -> {
                    out.print(usage());
                    return OK;
                }
                case "--markdown" -> markdown = true;
                case "--url", "--user", "--password-env" -> {
                    if (i + 1 >= args.length) {
                        return usageError(a + " needs a value");
                    }
                    String value = args[++i];
                    if (a.equals("--url")) {
                        url = value;
                    } else if (a.equals("--user")) {
                        user = value;
                    } else {
                        password = env.apply(value);
                        if (password == null) {
                            return usageError("--password-env " + value + ": the variable " + value + " is not set");
                        }
                    }
                }
                default -> {
                    return usageError("unknown argument " + a);
                }
            }
        }
        if (url == null) {
            return usageError("--url is required");
        }
        Server server;
        try {
            server = Server.of(url, user, password);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        return measure(server, markdown);
    }

    private int measure(Server server, boolean markdown) {
        ServerScratch scratch;
        try {
            scratch = ServerScratch.create(server);
        } catch (SQLException | IOException e) {
            err.println("Could not create a scratch place on " + server.describe() + ": " + oneLine(e.getMessage())
                    + ". Check the URL and the credential: it must be able to create a schema (PostgreSQL) or a"
                    + " database (MySQL, MariaDB).");
            return ERROR;
        }
        Thread dropOnExit = new Thread(() -> {
            try {
                scratch.close();
            } catch (SQLException e) {
                err.println("Could not drop everything: " + e.getMessage());
            }
        }, "llmsafe-conformance-cleanup");
        Runtime.getRuntime().addShutdownHook(dropOnExit);
        List<Result> results = new ArrayList<>();
        ServerId id = null;
        try {
            id = ServerId.of(scratch);
            header(server, scratch, id, markdown);
            for (Fact f : Fact.values()) {
                Result r = measure(f, scratch, id);
                results.add(r);
                print(r, markdown);
            }
        } catch (SQLException e) {
            err.println("Could not measure on " + server.describe() + ": " + oneLine(e.getMessage()));
        } finally {
            Runtime.getRuntime().removeShutdownHook(dropOnExit);
        }
        int status = summary(id, results, markdown);
        List<String> roles = scratch.roles();
        try {
            scratch.close();
            out.println("Dropped " + scratch.describe() + (roles.isEmpty() ? "" : " and its " + roles.size() + " roles"
                    + (roles.size() == 1 ? " " + roles.get(0) : ", " + roles.get(0) + " to " + roles.get(roles.size() - 1)))
                    + ".");
        } catch (SQLException e) {
            err.println("Could not drop everything the harness created: " + e.getMessage());
            status = ERROR;
        }
        if (results.size() < Fact.values().length && status != ERROR) {
            status = ERROR;
        }
        out.println("Exit status " + status + ": " + switch (status) {
            case OK -> "every fact llmsafe's guarantees depend on holds here; the limits are declared on every card.";
            case FAILS -> "a fact llmsafe's guarantees depend on does not hold here (FAILS above).";
            case INCOMPLETE -> "some facts could not be measured with this credential (not measured above); none failed.";
            default -> "the harness could not finish its own work (see the errors).";
        });
        return status;
    }

    private static Result measure(Fact f, Scratch scratch, ServerId id) {
        try {
            Answer a = new Answer(f, id, f.probe().measure(scratch, id));
            return new Result(f, a, Guarantees.judge(a));
        } catch (RolesUnavailableException e) {
            return new Result(f, null, new Verdict(Status.NOT_MEASURED, e.getMessage()));
        } catch (Exception e) {
            return new Result(f, null, new Verdict(Status.NOT_MEASURED, "the probe could not run here: "
                    + oneLine(String.valueOf(e.getMessage())) + " (" + e.getClass().getSimpleName() + ")"));
        }
    }

    private void header(Server server, ServerScratch scratch, ServerId id, boolean markdown) {
        if (markdown) {
            out.println("| id | fact | " + id.label() + " | verdict | what it means here |");
            out.println("|---|---|---|---|---|");
            return;
        }
        out.println("llmsafe conformance harness: what this database really does, and what it means for llmsafe");
        out.println("Server:  " + id.label() + ", " + server.describe());
        out.println("Scratch: " + scratch.describe() + (server.sqlite() ? "" : ", and roles named after it")
                + "; all dropped at the end");
        out.println();
    }

    private void print(Result r, boolean markdown) {
        String answer = r.answer() == null ? "(not measured)" : r.answer().text();
        if (markdown) {
            out.println("| " + r.fact().name() + " | " + r.fact().title() + " | " + escape(answer) + " | "
                    + r.verdict().status().label + " | " + escape(r.verdict().meaning()) + " |");
            out.flush();
            return;
        }
        out.printf("%s  %-13s %s%n", r.fact().name(), r.verdict().status().label, r.fact().title());
        wrap("measured: ", answer);
        wrap("means:    ", r.verdict().meaning());
        out.flush();
    }

    private void wrap(String label, String text) {
        String indent = "     ";
        StringBuilder line = new StringBuilder(indent + label);
        int start = line.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                out.println(line);
                line = new StringBuilder(" ".repeat(start));
            }
            line.append(line.length() > start ? " " : "").append(word);
        }
        out.println(line);
    }

    private int summary(ServerId id, List<Result> results, boolean markdown) {
        Map<Status, Integer> counts = new EnumMap<>(Status.class);
        for (Result r : results) {
            counts.merge(r.verdict().status(), 1, Integer::sum);
        }
        out.println();
        out.println(results.size() + " facts" + (id == null ? "" : " on " + id.label()) + ": "
                + count(counts, Status.HOLDS, "ok", "ok") + ", " + count(counts, Status.LIMIT, "limit", "limits") + ", "
                + count(counts, Status.FAILS, "failing", "failing") + ", "
                + count(counts, Status.NOT_APPLICABLE, "not applicable", "not applicable") + ", "
                + count(counts, Status.NOT_MEASURED, "not measured", "not measured") + ".");
        if (!markdown) {
            out.println("  ok: llmsafe relies on the answer, and it holds. limit: llmsafe declares it on every card, or does"
                    + " not rely on it.");
        }
        if (counts.getOrDefault(Status.FAILS, 0) > 0) {
            return FAILS;
        }
        return counts.getOrDefault(Status.NOT_MEASURED, 0) > 0 ? INCOMPLETE : OK;
    }

    private static String count(Map<Status, Integer> counts, Status s, String one, String many) {
        int n = counts.getOrDefault(s, 0);
        return n + " " + (n == 1 ? one : many);
    }

    private int usageError(String message) {
        err.println(message);
        err.print(usage());
        return USAGE;
    }

    private static String usage() {
        return """
                Usage: java -jar llmsafe-conformance-<version>-harness.jar --url JDBC_URL [--user USER]
                           [--password-env VAR] [--markdown]

                Measures the facts llmsafe's guarantees rest on (SPEC.md, "Measured facts") on your database,
                in a scratch schema (PostgreSQL), database (MySQL, MariaDB) or temporary copy (SQLite) that it
                creates and drops, with roles it creates and drops when the credential may. Your tables and
                your SQLite file are never written.

                  --url JDBC_URL      jdbc:postgresql://..., jdbc:mysql://... (MariaDB too) or jdbc:sqlite:FILE
                  --user USER         the user, when not in the URL
                  --password-env VAR  the environment variable that holds the password
                  --markdown          print the facts as a Markdown table, as SPEC.md shows them
                  -h, --help          show this help

                Exit status: 0 every fact llmsafe relies on holds; 1 one does not; 2 usage error; 3 some facts
                could not be measured with this credential; 4 could not connect, create or drop the scratch place.
                """;
    }

    /** A cell for a Markdown table: backslashes and asterisks escaped, as SPEC.md writes them. */
    private static String escape(String cell) {
        return cell.replace("\\", "\\\\").replace("*", "\\*");
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").strip();
    }
}
