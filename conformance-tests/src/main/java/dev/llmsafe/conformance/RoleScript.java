package dev.llmsafe.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the least-privilege role scripts of {@code samples/roles/} (on the classpath under
 * {@code /roles/}), read as the statements a person would run after replacing its placeholders. The
 * same file serves people (psql, mariadb) and code (the fact probes, the harness, the end-to-end
 * tests), so that what the README recommends is what was measured.
 *
 * <p>The format: SQL statements, each ending with {@code ;} at the end of a line; {@code --} comment
 * lines; a comment line {@code -- role: read|plan|apply|store} opens the section of one role.
 * Placeholders are {@code {name}}. A statement naming a list placeholder ({@code {read_table}},
 * {@code {written_table}}, {@code {trigger_table}}) is run once per value, and left out when the list
 * is empty. A placeholder with no value is an error, never left in the SQL.
 */
final class RoleScript {

    /** The four connections of a deployment, each a role of its own. */
    enum Role {
        READ, PLAN, APPLY, STORE;

        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Placeholders that stand for a list of tables. */
    static final Set<String> LISTS = Set.of("read_table", "written_table", "trigger_table");

    private static final Pattern SECTION = Pattern.compile("^--\\s*role:\\s*(read|plan|apply|store)\\b.*");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");
    private static final Pattern CREATES_LOGIN = Pattern.compile("(?is)^CREATE\\s+(ROLE|USER)\\b.*");

    /** A statement as written in the file, with the role section it belongs to. */
    private record Statement(Role role, String sql) {
    }

    private final String file;
    private final List<Statement> statements;

    private RoleScript(String file, List<Statement> statements) {
        this.file = file;
        this.statements = List.copyOf(statements);
    }

    /**
     * The script for a database, from the classpath.
     *
     * @param stem the file name without {@code .sql}: postgresql, mariadb or mysql
     */
    static RoleScript load(String stem) {
        String file = "/roles/" + stem + ".sql";
        try (InputStream in = RoleScript.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + file + " (samples/roles/" + stem + ".sql)");
            }
            return parse(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RoleScript parse(String file, String text) {
        List<Statement> out = new ArrayList<>();
        Role role = null;
        StringBuilder sql = new StringBuilder();
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            Matcher section = SECTION.matcher(line);
            if (section.matches()) {
                if (sql.length() > 0) {
                    throw new IllegalArgumentException(file + ": a statement runs into the section " + line);
                }
                role = Role.valueOf(section.group(1).toUpperCase(Locale.ROOT));
                continue;
            }
            if (line.isEmpty() || line.startsWith("--")) {
                continue;
            }
            sql.append(sql.length() == 0 ? "" : " ").append(line);
            if (line.endsWith(";")) {
                if (role == null) {
                    throw new IllegalArgumentException(file + ": a statement before the first -- role: section");
                }
                out.add(new Statement(role, sql.substring(0, sql.length() - 1).strip()));
                sql.setLength(0);
            }
        }
        if (sql.length() > 0) {
            throw new IllegalArgumentException(file + ": the last statement has no ';'");
        }
        return new RoleScript(file, out);
    }

    /**
     * Every statement of the given roles' sections, in file order, with placeholders replaced.
     *
     * @param values the value of each single placeholder, used as given (it may itself contain
     *     braces, which are not read again)
     * @param lists the values of each list placeholder; a missing list is empty
     */
    List<String> statements(Set<Role> roles, Map<String, String> values, Map<String, List<String>> lists) {
        List<String> out = new ArrayList<>();
        for (Statement s : statements) {
            if (roles.contains(s.role())) {
                out.addAll(fill(s.sql(), values, lists));
            }
        }
        return out;
    }

    /**
     * One role's grants: its section without the statement that creates the login, for a role that
     * already exists.
     */
    List<String> grants(Role role, Map<String, String> values, Map<String, List<String>> lists) {
        List<String> out = new ArrayList<>();
        for (Statement s : statements) {
            if (s.role() == role && !CREATES_LOGIN.matcher(s.sql()).matches()) {
                out.addAll(fill(s.sql(), values, lists));
            }
        }
        return out;
    }

    /** The placeholders the file uses, for documentation checks. */
    Set<String> placeholders() {
        Set<String> out = new LinkedHashSet<>();
        for (Statement s : statements) {
            Matcher m = PLACEHOLDER.matcher(s.sql());
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private List<String> fill(String sql, Map<String, String> values, Map<String, List<String>> lists) {
        String list = null;
        Matcher m = PLACEHOLDER.matcher(sql);
        while (m.find()) {
            String name = m.group(1);
            if (LISTS.contains(name)) {
                if (list != null && !list.equals(name)) {
                    throw new IllegalArgumentException(file + ": two list placeholders in one statement: " + sql);
                }
                list = name;
            } else if (!values.containsKey(name)) {
                throw new IllegalArgumentException(file + ": no value for {" + name + "} in: " + sql);
            }
        }
        List<String> rows = list == null ? List.of("") : lists.getOrDefault(list, List.of());
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            String listName = list;
            out.add(PLACEHOLDER.matcher(sql).replaceAll(p -> Matcher.quoteReplacement(
                    p.group(1).equals(listName) ? row : values.get(p.group(1)))));
        }
        return out;
    }
}
