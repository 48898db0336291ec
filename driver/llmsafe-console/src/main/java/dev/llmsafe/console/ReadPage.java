package dev.llmsafe.console;

import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.ReadEstimate;
import dev.llmsafe.policy.ConsoleSettings.Role;
import dev.llmsafe.tools.DatabaseTools;
import dev.llmsafe.tools.ReadResult;
import dev.llmsafe.value.Visible;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * The read console: a SELECT, the cost estimate the gate compares (R5), its rows, and their CSV. Every
 * read runs through {@link DatabaseTools}, the guard the model's reads go through (allowlist, secret
 * columns, read-only session, row cap, cost gate), on the deployment's read connection.
 */
final class ReadPage {

    private final DatabaseTools tools;

    ReadPage(DatabaseTools tools) {
        this.tools = tools;
    }

    void handle(Request r, Sessions.Session s, boolean get) throws IOException, SQLException {
        ConsoleServer.require(s.person, Role.READER, "run reads");
        if (get) {
            r.html(200, Html.page("Read", s.person, s.csrf, form(s.csrf, "") ));
            return;
        }
        String sql = r.form().getOrDefault("sql", "").strip();
        String action = r.form().getOrDefault("action", "run");
        StringBuilder b = new StringBuilder(form(s.csrf, sql));
        try {
            if (action.equals("csv")) {
                // R13: texts a spreadsheet would run as a formula are prefixed, as by `llmsafe read --format csv`.
                r.download("text/csv; charset=utf-8", "read.csv", tools.read(sql).csv(true, null));
                return;
            }
            ReadEstimate e = tools.explain(sql);
            b.append("<p class=\"estimate\">").append(estimate(e)).append("</p>\n");
            if (action.equals("run")) {
                rows(b, tools.read(sql));
            }
        } catch (RefusedException e) {
            b.append("<p class=\"refused\">Refused (").append(e.code()).append("): ").append(Html.text(e.detail()))
                    .append(" Nothing ran.</p>");
        }
        r.html(200, Html.page("Read", s.person, s.csrf, b.toString()));
    }

    private static String form(String csrf, String sql) {
        return "<h1>Read</h1>\n<p>One SELECT, run as the model's reads are: allowlisted tables only, secret columns"
                + " refused, in a read-only session, with the row cap and the cost gate.</p>\n"
                + "<form method=\"post\" action=\"/read\" class=\"read\">" + Html.csrfField(csrf)
                + "<textarea name=\"sql\" rows=\"5\" cols=\"80\" required>" + Html.escape(sql) + "</textarea><br>"
                + "<button type=\"submit\" name=\"action\" value=\"explain\">Estimate cost</button> "
                + "<button type=\"submit\" name=\"action\" value=\"run\">Run</button> "
                + "<button type=\"submit\" name=\"action\" value=\"csv\">Download CSV</button></form>\n";
    }

    private static String estimate(ReadEstimate e) {
        String est = String.format(Locale.ROOT, "Cost estimate: %.1f (%s). ", e.estimate(), e.unit());
        if (e.bound().isEmpty()) {
            return Html.escape(est + "No bound is set (policy.read.maxCost): reads are not cost-gated.");
        }
        return Html.escape(est + String.format(Locale.ROOT, "Bound: %.1f: ", e.bound().getAsDouble())
                + (e.allowed() ? "within it, the read runs." : "above it, the read is refused (COST_TOO_HIGH)."));
    }

    private static void rows(StringBuilder b, ReadResult r) {
        b.append("<table class=\"result\"><thead><tr>");
        for (ReadResult.Column c : r.columns()) {
            b.append("<th>").append(Html.text(c.name())).append("</th>");
        }
        b.append("</tr></thead><tbody>\n");
        for (List<Object> row : r.rows()) {
            b.append("<tr>");
            for (Object v : row) {
                b.append(v == null ? "<td class=\"null\">NULL</td>" : "<td>" + Html.escape(Visible.text(v.toString()))
                        + "</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n<p>").append(r.rows().size()).append(r.rows().size() == 1 ? " row" : " rows")
                .append(r.truncated() ? ". The result was cut at the row cap (policy.read.maxRows): more rows matched;"
                        + " narrow the query to see the rest." : ".").append("</p>\n");
    }
}
