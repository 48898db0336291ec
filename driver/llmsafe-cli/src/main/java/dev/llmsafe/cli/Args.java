package dev.llmsafe.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line's own argument parser and help. It replaced picocli, which cost a short command about
 * 0.15-0.19 s of its start on every run (its Java 5 class files cannot go into a class-data archive and are
 * checked by the old verifier each time; its model is built by reflection over annotations). What it
 * parses: {@code --name value} and {@code --name=value}, flags, positional parameters in order, {@code --}
 * before parameters that begin with a dash, and {@code -h}/{@code --help} anywhere.
 */
final class Args {

    static final int WIDTH = 80;

    /** A usage error: its message, then "See: llmsafe ... --help" on stderr, and exit status 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final List<String> suggestions;

        UsageException(String message) {
            this(message, List.of());
        }

        UsageException(String message, List<String> suggestions) {
            super(message);
            this.suggestions = suggestions;
        }
    }

    private Args() {
    }

    /**
     * Fills the command's options from {@code args[from..]}.
     *
     * @return true when help was asked for (then required options are not checked)
     */
    static boolean parse(Base cmd, String[] args, int from) {
        List<Base.Opt> positionals = new ArrayList<>();
        for (Base.Opt o : cmd.options) {
            if (o.positional()) {
                positionals.add(o);
            }
        }
        Set<Base.Opt> seen = new HashSet<>();
        boolean help = false;
        boolean onlyParameters = false;
        int next = 0;
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (!onlyParameters && a.equals("--")) {
                onlyParameters = true;
            } else if (!onlyParameters && (a.equals("-h") || a.equals("--help"))) {
                help = true;
            } else if (!onlyParameters && a.startsWith("-") && a.length() > 1) {
                int eq = a.indexOf('=');
                String name = eq < 0 ? a : a.substring(0, eq);
                Base.Opt o = find(cmd, name);
                if (o == null) {
                    throw new UsageException("Unknown option: '" + a + "'", nearest(name, optionNames(cmd)));
                }
                if (seen.contains(o) && !o.repeatable) {
                    throw new UsageException("option '" + o.name + "'" + (o.flag() ? "" : " (" + o.label + ")")
                            + " should be specified only once");
                }
                seen.add(o);
                if (o.flag()) {
                    if (eq >= 0) {
                        throw new UsageException("option '" + o.name + "' takes no value: '" + a + "'");
                    }
                    o.set.accept(null);
                } else if (eq >= 0) {
                    o.set.accept(a.substring(eq + 1));
                } else if (i + 1 < args.length && !isOption(cmd, args[i + 1])) {
                    o.set.accept(args[++i]);
                } else {
                    throw new UsageException("Missing required parameter for option '" + o.name + "' (" + o.label + ")");
                }
            } else if (next < positionals.size()) {
                Base.Opt p = positionals.get(next++);
                seen.add(p);
                p.set.accept(a);
            } else {
                throw new UsageException("Unmatched argument at index " + i + ": '" + a + "'");
            }
        }
        if (help) {
            return true;
        }
        for (Base.Opt p : positionals) {
            if (!seen.contains(p)) {
                throw new UsageException("Missing required parameter: '" + p.label + "'");
            }
        }
        for (Base.Opt o : cmd.options) {
            if (o.required && !o.positional() && !seen.contains(o)) {
                throw new UsageException("Missing required option: '" + o.shown() + "'");
            }
        }
        return false;
    }

    private static Base.Opt find(Base cmd, String name) {
        for (Base.Opt o : cmd.options) {
            if (!o.positional() && o.name.equals(name)) {
                return o;
            }
        }
        return null;
    }

    /** A word the parser would take for an option: the value of the one before is then missing. */
    private static boolean isOption(Base cmd, String a) {
        int eq = a.indexOf('=');
        String name = eq < 0 ? a : a.substring(0, eq);
        return a.equals("-h") || a.equals("--help") || a.equals("--") || find(cmd, name) != null;
    }

    private static List<String> optionNames(Base cmd) {
        List<String> names = new ArrayList<>();
        names.add("--help");
        for (Base.Opt o : cmd.options) {
            if (!o.positional()) {
                names.add(o.name);
            }
        }
        return names;
    }

    /** The names closest to a mistyped one (edit distance), closest first; none when nothing is close. */
    static List<String> nearest(String typed, Collection<String> names) {
        record Scored(String name, int distance) {
        }
        List<Scored> close = new ArrayList<>();
        for (String n : names) {
            int d = distance(typed, n);
            if (d <= Math.max(2, n.length() / 3) || n.startsWith(typed) && typed.length() >= 2) {
                close.add(new Scored(n, d));
            }
        }
        close.sort(Comparator.comparingInt(Scored::distance));
        List<String> out = new ArrayList<>();
        for (Scored s : close) {
            if (out.size() < 3) {
                out.add(s.name());
            }
        }
        return out;
    }

    /** Levenshtein distance, a swap of two neighbours counting as one edit. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** A command's help: the usage line, its description, and its options in a table. */
    static String help(Base cmd) {
        StringBuilder b = new StringBuilder();
        List<String> synopsis = new ArrayList<>();
        synopsis.add("[-h]");
        for (Base.Opt o : cmd.options) {
            if (!o.positional() && o.flag()) {
                synopsis.add("[" + o.name + "]");
            }
        }
        for (Base.Opt o : cmd.options) {
            if (!o.positional() && !o.flag()) {
                synopsis.add((o.required ? o.shown() : "[" + o.shown() + "]") + (o.repeatable ? "..." : ""));
            }
        }
        for (Base.Opt o : cmd.options) {
            if (o.positional()) {
                synopsis.add(o.label);
            }
        }
        String head = "Usage: llmsafe " + cmd.name + " ";
        wrap(b, head, " ".repeat(head.length()), String.join(" ", synopsis));
        b.append(cmd.description[0]).append('\n');
        if (cmd.description.length > 1) {
            wrap(b, "", "", String.join(" ", List.of(cmd.description).subList(1, cmd.description.length)));
        }
        List<String[]> rows = new ArrayList<>();
        for (Base.Opt o : cmd.options) {
            if (o.positional()) {
                rows.add(new String[] {"      " + o.label, String.join(" ", o.description)});
            }
        }
        List<Base.Opt> named = new ArrayList<>();
        for (Base.Opt o : cmd.options) {
            if (!o.positional()) {
                named.add(o);
            }
        }
        named.add(new Base.Opt("--help", null, v -> { }, "Show this help and exit."));
        named.sort(Comparator.comparing(o -> o.name.substring(2)));
        for (Base.Opt o : named) {
            rows.add(new String[] {o.name.equals("--help") ? "  -h, --help" : "      " + o.shown(),
                String.join(" ", o.description)});
        }
        table(b, rows);
        return b.toString();
    }

    /** The top level's help: what llmsafe is, and each command's summary. */
    static String help(List<Base> commands) {
        StringBuilder b = new StringBuilder();
        b.append("Usage: llmsafe [-hV] [COMMAND]\n");
        b.append("Guarded reads and approved writes for a database a language model can reach.\n");
        table(b, List.of(new String[] {"  -h, --help", "Show this help message and exit."},
                new String[] {"  -V, --version", "Print version information and exit."}));
        b.append("Commands:\n");
        List<String[]> rows = new ArrayList<>();
        for (Base c : commands) {
            rows.add(new String[] {"  " + c.name, c.description[0]});
        }
        rows.add(new String[] {"  help", "Display help information about the specified command."});
        table(b, rows);
        return b.toString();
    }

    /** Two columns: names, and descriptions wrapped at {@link #WIDTH} with continued lines indented. */
    private static void table(StringBuilder b, List<String[]> rows) {
        int width = 0;
        for (String[] r : rows) {
            width = Math.max(width, r[0].length());
        }
        width += 3;
        for (String[] r : rows) {
            String first = r[0] + " ".repeat(width - r[0].length());
            wrap(b, first, " ".repeat(width + 2), r[1]);
        }
    }

    /** Words after {@code first}, wrapped at {@link #WIDTH}; each further line begins with {@code indent}. */
    private static void wrap(StringBuilder b, String first, String indent, String text) {
        StringBuilder line = new StringBuilder(first);
        int start = line.length();
        for (String word : text.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                b.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(indent);
                start = line.length();
            }
            if (line.length() > start) {
                line.append(' ');
            }
            line.append(word);
        }
        b.append(line.toString().stripTrailing()).append('\n');
    }
}
