package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.tools.DatabaseTools;
import dev.llmsafe.tools.ReadResult;
import dev.llmsafe.value.Visible;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A guarded read, as the model's connection would run it. */
final class ReadCommand extends Base {

    String sql;
    String format;
    String nullText;
    boolean csvRaw;

    ReadCommand() {
        super("read", "Run a guarded read and print its rows.",
                "The same guard as jdbc:llmsafe:: allowlisted tables only, secret columns refused, a read-only session,",
                "the statement timeout, the cost gate, and at most policy.read.maxRows rows; a cut result says so",
                "(on stderr for CSV, so that the file stays clean). Binary values are exact: {\"t\": \"bin\", \"len\": N,",
                "\"hex\": \"...\"} in JSON, \\x and hex in a table or CSV. In CSV, a text beginning with = + - @, a tab or",
                "a carriage return is prefixed with ' so that a spreadsheet does not run it as a formula (--csv-raw: not).");
        parameter("SQL", v -> sql = v, "One SELECT.");
        option("--format", "FORMAT", v -> format = v, "table, csv or json (default: table; --json is --format json).");
        option("--null", "TEXT", v -> nullText = v, "How CSV writes NULL (default: an empty field, as it",
                "writes an empty text; give a TEXT such as \\N to tell them apart).");
        flag("--csv-raw", () -> csvRaw = true, "CSV values exactly as read, also those a spreadsheet would run as a",
                "formula (= + - @, tab, carriage return first). Only for a program that reads the file, never a spreadsheet.");
    }

    @Override
    int execute() throws Exception {
        if (common.json && format != null && !format.equals("json")) {
            throw new IllegalArgumentException("--json and --format " + format + " ask for two formats; give one");
        }
        String f = common.json ? "json" : format == null ? "table" : format;
        if (!List.of("table", "csv", "json").contains(f)) {
            throw new IllegalArgumentException("--format is table, csv or json, not " + format);
        }
        if (nullText != null && !f.equals("csv")) {
            throw new IllegalArgumentException("--null is for --format csv; a table shows NULL as NULL and JSON as null");
        }
        ReadResult r;
        int cap;
        try (Deployment d = deployment(); DatabaseTools tools = DatabaseTools.over(d)) {
            r = tools.read(sql);
            cap = d.config().policy().read().maxRows();
        }
        String cut = "The result was cut at " + cap + " rows (policy.read.maxRows): more rows matched. Narrow the"
                + " query to see the rest.";
        switch (f) {
            case "json" -> {
                List<Map<String, Object>> columns = new ArrayList<>();
                for (ReadResult.Column c : r.columns()) {
                    columns.add(Map.of("name", c.name(), "type", c.type()));
                }
                out().println(Json.write(Json.object("columns", columns, "rows", jsonRows(r), "rowCount",
                        r.rows().size(), "truncated", r.truncated())));
            }
            case "csv" -> {
                out().print(r.csv(!csvRaw, nullText));
                if (r.truncated()) {
                    err().println(cut);
                }
            }
            default -> {
                table(out(), r);
                out().println(r.rows().size() + (r.rows().size() == 1 ? " row" : " rows"));
                if (r.truncated()) {
                    out().println(cut);
                }
            }
        }
        out().flush();
        return Main.OK;
    }

    /** The rows for JSON: binary as its typed, exact form (R13), everything else as it is. */
    private static List<List<Object>> jsonRows(ReadResult r) {
        List<List<Object>> rows = new ArrayList<>(r.rows().size());
        for (List<Object> row : r.rows()) {
            List<Object> values = new ArrayList<>(row.size());
            for (Object v : row) {
                values.add(v instanceof ReadResult.Bytes b ? b.json() : v);
            }
            rows.add(values);
        }
        return rows;
    }

    /**
     * Columns aligned under their names; NULL spelled out; names and values shown as the card shows a
     * text (C5: line breaks, tabs, invisible and bidi characters as escapes, {@link Visible}).
     */
    static void table(PrintWriter out, ReadResult r) {
        int n = r.columns().size();
        List<String[]> cells = new ArrayList<>();
        String[] header = new String[n];
        for (int i = 0; i < n; i++) {
            header[i] = Visible.text(r.columns().get(i).name());
        }
        cells.add(header);
        for (List<Object> row : r.rows()) {
            String[] line = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = row.get(i);
                line[i] = v == null ? "NULL" : Visible.text(v.toString());
            }
            cells.add(line);
        }
        int[] width = new int[n];
        for (String[] line : cells) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }
        for (int l = 0; l < cells.size(); l++) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
                b.append(i == 0 ? "" : " | ").append(String.format("%-" + Math.max(1, width[i]) + "s", cells.get(l)[i]));
            }
            out.println(b.toString().stripTrailing());
            if (l == 0) {
                StringBuilder rule = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    rule.append(i == 0 ? "" : "-+-").append("-".repeat(Math.max(1, width[i])));
                }
                out.println(rule);
            }
        }
    }
}
