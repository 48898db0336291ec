package dev.llmsafe.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "## Measured facts" section of SPEC.md, read as data: every table row whose first cell is a
 * fact id, and its cells under each server column ("PostgreSQL 15.20", "MariaDB 10.11.19", ...).
 */
final class SpecFacts {

    static final String HEADING = "## Measured facts";
    private static final Pattern FACT_ID = Pattern.compile("F\\d\\d");
    private static final Pattern MARKDOWN_ESCAPE = Pattern.compile("\\\\([!-/:-@\\[-`{-~])");
    private static final Pattern SERVER = Pattern.compile("(PostgreSQL|MariaDB|MySQL|SQLite) (\\d+(?:\\.\\d+)*)");

    /** fact id -> server column label -> cell */
    private final Map<String, Map<String, String>> cells = new LinkedHashMap<>();
    private final List<String> duplicates = new ArrayList<>();

    private SpecFacts() {
    }

    static Path specFile() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("SPEC.md")) && Files.isDirectory(d.resolve("conformance-tests"))) {
                return d.resolve("SPEC.md");
            }
        }
        throw new IllegalStateException("no SPEC.md above " + dir);
    }

    static SpecFacts read(Path spec) throws IOException {
        List<String> lines = Files.readAllLines(spec);
        int start = lines.indexOf(HEADING);
        if (start < 0) {
            throw new IllegalStateException(spec + " has no \"" + HEADING + "\" section");
        }
        SpecFacts facts = new SpecFacts();
        List<String> header = null;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            List<String> row = cells(line);
            if (header == null) {
                header = row;
                continue;
            }
            if (row.isEmpty() || !FACT_ID.matcher(row.get(0)).matches()) {
                continue; // the |---| line
            }
            Map<String, String> byServer = new LinkedHashMap<>();
            for (int c = 1; c < Math.min(row.size(), header.size()); c++) {
                if (SERVER.matcher(header.get(c)).matches()) {
                    byServer.put(header.get(c), row.get(c));
                }
            }
            if (facts.cells.put(row.get(0), byServer) != null) {
                facts.duplicates.add(row.get(0));
            }
        }
        return facts;
    }

    private static List<String> cells(String line) {
        return rawCells(line).stream().map(SpecFacts::unescape).toList();
    }

    /**
     * The text a reader sees: Markdown's backslash escapes removed ({@code \*} shows "*", and two
     * backslashes show one).
     */
    static String unescape(String cell) {
        return MARKDOWN_ESCAPE.matcher(cell).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    }

    /** The fact ids with a row, in order. */
    List<String> ids() {
        return List.copyOf(cells.keySet());
    }

    List<String> duplicates() {
        return List.copyOf(duplicates);
    }

    /**
     * The column that speaks for a server: the one naming its exact version, else one naming another
     * release of the same series (whose answers are expected to agree), else none.
     */
    Optional<String> columnFor(ServerId server) {
        List<String> columns = cells.values().stream().flatMap(m -> m.keySet().stream()).distinct().toList();
        if (columns.contains(server.label())) {
            return Optional.of(server.label());
        }
        return columns.stream().filter(c -> {
            var m = SERVER.matcher(c);
            if (!m.matches()) {
                return false;
            }
            ServerId other = new ServerId(flavorOf(m.group(1)), m.group(2));
            return other.series().equals(server.series());
        }).findFirst();
    }

    private static ServerId.Flavor flavorOf(String product) {
        for (ServerId.Flavor f : ServerId.Flavor.values()) {
            if (f.product.equals(product)) {
                return f;
            }
        }
        throw new IllegalArgumentException(product);
    }

    /**
     * SPEC.md's lines with a column for {@code server} added to every table of the measured-facts section:
     * after the columns of the same product with a lower version, else before the next product's, else
     * before the table's first column that names no server. Each fact row gets its answer, escaped for
     * Markdown (a backslash, an asterisk and a bar); the |---| line gets a cell. This is how a column measured
     * on a new server version gets into SPEC.md unchanged ({@code -Dllmsafe.facts.insert=true}).
     *
     * @throws IllegalArgumentException when SPEC.md already has the column, or an answer or a row is missing
     */
    static List<String> withColumn(List<String> lines, ServerId server, Map<String, String> answers) {
        int start = lines.indexOf(HEADING);
        if (start < 0) {
            throw new IllegalArgumentException("no \"" + HEADING + "\" section");
        }
        List<String> out = new ArrayList<>(lines.subList(0, start + 1));
        int at = -1; // where the new column goes in the current table, -1 outside a table
        List<String> filled = new ArrayList<>();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean section = !line.startsWith("## ");
            if (!section || !line.strip().startsWith("|")) {
                at = -1;
                out.add(line);
                if (!section) {
                    out.addAll(lines.subList(i + 1, lines.size()));
                    break;
                }
                continue;
            }
            List<String> raw = rawCells(line.strip());
            if (at < 0) { // a header
                at = insertionPoint(raw.stream().map(SpecFacts::unescape).toList(), server);
                raw.add(at, server.label());
            } else if (FACT_ID.matcher(unescape(raw.get(0))).matches()) {
                String id = unescape(raw.get(0));
                String answer = answers.get(id);
                if (answer == null) {
                    throw new IllegalArgumentException("no answer for " + id);
                }
                raw.add(at, escape(answer));
                filled.add(id);
            } else {
                raw.add(at, "---");
            }
            out.add("| " + String.join(" | ", raw) + " |");
        }
        if (!filled.containsAll(answers.keySet())) {
            throw new IllegalArgumentException("SPEC.md has no row for "
                    + answers.keySet().stream().filter(id -> !filled.contains(id)).toList());
        }
        return out;
    }

    private static int insertionPoint(List<String> header, ServerId server) {
        if (header.contains(server.label())) {
            throw new IllegalArgumentException("SPEC.md already has a column " + server.label());
        }
        List<String> order = Arrays.stream(ServerId.Flavor.values()).map(f -> f.product).toList();
        int mine = order.indexOf(server.flavor().product);
        for (int c = 1; c < header.size(); c++) {
            Matcher m = SERVER.matcher(header.get(c));
            if (!m.matches()) {
                if (c > 1) {
                    return c; // the first column after the servers ("what it means")
                }
                continue; // "fact"
            }
            int theirs = order.indexOf(m.group(1));
            if (theirs > mine || theirs == mine && compareVersions(m.group(2), server.version()) > 0) {
                return c;
            }
        }
        return header.size();
    }

    private static int compareVersions(String a, String b) {
        String[] x = a.split("\\."), y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.compare(i < x.length ? Integer.parseInt(x[i]) : 0, i < y.length ? Integer.parseInt(y[i]) : 0);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    /** A table line's cells as written, split at the bars that are not escaped. */
    private static List<String> rawCells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> out = new ArrayList<>();
        for (String c : inner.split("(?<!\\\\)\\|", -1)) {
            out.add(c.strip());
        }
        return out;
    }

    /** The inverse of {@link #unescape} for what an answer can hold. */
    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|");
    }

    /** The cell of a fact under a server column, or null when the row or the column is missing. */
    String cell(String factId, String column) {
        Map<String, String> row = cells.get(factId);
        return row == null ? null : row.get(column);
    }
}
