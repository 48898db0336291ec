package dev.llmsafe.cli;

import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.policy.ConfigException;
import java.io.PrintWriter;
import java.sql.SQLException;

/**
 * How a failure reaches a person: a refusal as its code and message, a configuration error as its
 * located message, anything else as one line saying what failed and what to check. No stack trace
 * unless {@code --debug}. With {@code --json} the same goes to stdout as a JSON object.
 */
final class Failures {

    private Failures() {
    }

    /** Prints what went wrong for a person (or, with --json, as JSON on stdout) and returns the exit status. */
    static int handle(Exception e, Base cmd, PrintWriter out, PrintWriter err) {
        boolean json = cmd.common.json;
        boolean debug = cmd.common.debug;
        int status;
        String code;
        String message;
        if (e instanceof RefusedException r) {
            // A missing or malformed argument (J11) is a usage error of the command, as it always was.
            status = r.code() == dev.llmsafe.Refusal.INVALID_ARGUMENT ? Main.USAGE : Main.REFUSED;
            code = r.code().name();
            message = r.getMessage();
        } else if (e instanceof ConfigException || e instanceof IllegalArgumentException) {
            status = Main.USAGE;
            code = "CONFIG";
            message = e.getMessage();
        } else if (e instanceof SQLException s) {
            status = Main.ERROR;
            code = "DATABASE";
            message = "the database could not be used: " + oneLine(s.getMessage()) + (s.getSQLState() == null ? ""
                    : " (SQLState " + s.getSQLState() + ")") + (Dialects.isPrivilegeDenied(s)
                    ? ". The credential of that connection lacks a privilege: grant it as samples/roles shows for its"
                    + " role"
                    : ". Check that the server is up and the URL, user and password in the configuration are right")
                    + "; --debug shows the stack trace.";
        } else {
            status = Main.ERROR;
            code = "ERROR";
            message = "unexpected error: " + e + ". Run again with --debug for the stack trace.";
        }
        if (json) {
            out.println(Json.object("error", Json.object("code", code, "message", message)));
        } else {
            err.println(message);
        }
        if (debug) {
            e.printStackTrace(err);
        }
        return status;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").trim();
    }
}
