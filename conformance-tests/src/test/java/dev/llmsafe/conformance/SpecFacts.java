package dev.llmsafe.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> out = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) {
            out.add(unescape(c.strip()));
        }
        return out;
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

    /** The cell of a fact under a server column, or null when the row or the column is missing. */
    String cell(String factId, String column) {
        Map<String, String> row = cells.get(factId);
        return row == null ? null : row.get(column);
    }
}
