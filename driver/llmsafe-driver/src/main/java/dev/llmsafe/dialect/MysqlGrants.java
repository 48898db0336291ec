package dev.llmsafe.dialect;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which database-level grants of MySQL and MariaDB apply to one database, as the server picks them
 * (D15, E1). A grant {@code ON `app%`.*} or {@code ON `app\_db`.*} is listed in
 * information_schema.SCHEMA_PRIVILEGES under its pattern, never under the databases it matches, so a
 * privilege given that way was read as missing and every write was CASCADES_UNKNOWN.
 *
 * <p>Measured on MariaDB 10.11.19: {@code %} matches any run of characters, {@code _} any one, and
 * a backslash makes the next character literal; names compare case-sensitively with
 * lower_case_table_names 0 and in lower case otherwise. The privileges are not the union of every
 * matching grant: the server takes one entry, the most specific (a grant on the database's own
 * name before any pattern: SELECT on {@code app1} and REFERENCES on {@code app%} hide the foreign
 * key rules of {@code app1}; of two patterns, {@code app%} before {@code a%}). So a grant naming
 * the database exactly decides alone, and where only patterns match, a privilege counts only when
 * every one of them gives it: whichever the server picks, it has it. MySQL 8 with partial_revokes
 * on reads {@code %} and {@code _} literally; then only an exact name matches.
 */
final class MysqlGrants {

    private MysqlGrants() {
    }

    /**
     * The privileges the database-level grants give on one database.
     *
     * @param grants pairs of TABLE_SCHEMA (the database or pattern as granted) and PRIVILEGE_TYPE
     * @param database the database, as the server names it
     * @param lowerCaseNames whether lower_case_table_names is not 0
     * @param wildcards whether {@code %} and {@code _} are wildcards (not MySQL's partial_revokes)
     */
    static Set<String> onDatabase(List<String[]> grants, String database, boolean lowerCaseNames, boolean wildcards) {
        Map<String, Set<String>> byPattern = new LinkedHashMap<>();
        for (String[] g : grants) {
            byPattern.computeIfAbsent(g[0], k -> new HashSet<>()).add(g[1].toUpperCase(Locale.ROOT));
        }
        List<Set<String>> exact = new ArrayList<>();
        List<Set<String>> patterns = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : byPattern.entrySet()) {
            String pattern = e.getKey();
            if (!matches(database, pattern, lowerCaseNames, wildcards)) {
                continue;
            }
            (isPattern(pattern, wildcards) ? patterns : exact).add(e.getValue());
        }
        List<Set<String>> applying = exact.isEmpty() ? patterns : exact;
        if (applying.isEmpty()) {
            return Set.of();
        }
        Set<String> common = new HashSet<>(applying.get(0));
        for (Set<String> s : applying) {
            common.retainAll(s);
        }
        return Set.copyOf(common);
    }

    /**
     * What the credential's catalog shows, from its privileges (information_schema lists a
     * non-administrator's own). Triggers are believed only with TRIGGER on the table, its database or
     * globally, on both servers: MySQL shows a trigger only then, and so does MariaDB 11.4.5, while
     * MariaDB 10.11.19 and 11.8.9 show it to a role with a write privilege on the table (SPEC.md F20): a
     * patch-level difference that no version number predicts, so "no trigger" without TRIGGER is an answer
     * that depends on the server. Measured on MariaDB 10.11 (F21): a foreign key onto the table is hidden
     * without a privilege on the referencing table, and with only SELECT on the database its ON DELETE rule
     * is still hidden, while REFERENCES or TRIGGER on the database shows both. A foreign key's
     * columns only with REFERENCES or SELECT on the database (measured on MySQL 8.0.31: with TRIGGER alone
     * the rule is listed and its columns are not). A database-level
     * privilege may come from a grant on a pattern ({@code app%}), matched as the server matches it
     * ({@link MysqlGrants}). Privileges that come through a role are not listed there and read as
     * missing: a refusal, never a wrong "none".
     *
     * @param grantee the credential as {@code 'user'@'host'}
     * @param privileges pairs of PRIVILEGE_TYPE and where it was granted: global, schema or table
     */
    static TableInfo.Visibility visibility(TableRef ref, String grantee, List<String[]> privileges, boolean mariadb) {
        boolean triggers = privileges.stream().anyMatch(p -> p[0].equalsIgnoreCase("TRIGGER"));
        // The second privilege that shows foreign keys: TRIGGER on MariaDB; SELECT on MySQL, where TRIGGER shows
        // the rule (REFERENTIAL_CONSTRAINTS) but not its columns (KEY_COLUMN_USAGE).
        String alsoShowsKeys = mariadb ? "TRIGGER" : "SELECT";
        boolean foreignKeys = privileges.stream().anyMatch(p -> !p[1].equals("table")
                && (p[0].equalsIgnoreCase("REFERENCES") || p[0].equalsIgnoreCase(alsoShowsKeys)));
        String user = grantee == null ? "<planning user>" : grantee;
        Optional<String> hint = Optional.empty();
        if (!mariadb && (!foreignKeys || !triggers)) {
            hint = Optional.of("GRANT SELECT, TRIGGER ON " + quote(ref.schema()) + ".* TO " + user + ";");
        } else if (!foreignKeys || !triggers) {
            // REFERENCES reads and writes nothing; TRIGGER on the table alone shows its triggers (measured on 11.4.5).
            hint = Optional.of(!triggers && !foreignKeys
                    ? "GRANT REFERENCES, TRIGGER ON " + quote(ref.schema()) + ".* TO " + user + ";"
                    : !foreignKeys ? "GRANT REFERENCES ON " + quote(ref.schema()) + ".* TO " + user + ";"
                    : "GRANT TRIGGER ON " + quote(ref.schema()) + "." + quote(ref.name()) + " TO " + user + ";");
        }
        return new TableInfo.Visibility(triggers, foreignKeys, hint);
    }

    private static String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /** Whether a pattern holds a wildcard the server reads as one. */
    static boolean isPattern(String pattern, boolean wildcards) {
        if (!wildcards) {
            return false;
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '%' || c == '_') {
                return true;
            }
        }
        return false;
    }

    /** Whether a database name matches a granted name or pattern, as the server compares them. */
    static boolean matches(String name, String pattern, boolean lowerCaseNames, boolean wildcards) {
        String n = lowerCaseNames ? name.toLowerCase(Locale.ROOT) : name;
        String p = lowerCaseNames ? pattern.toLowerCase(Locale.ROOT) : pattern;
        if (!wildcards) {
            return n.equals(p);
        }
        return matches(n, 0, p, 0);
    }

    private static boolean matches(String n, int i, String p, int j) {
        while (j < p.length()) {
            char c = p.charAt(j);
            if (c == '%') {
                while (j < p.length() && p.charAt(j) == '%') {
                    j++;
                }
                if (j == p.length()) {
                    return true;
                }
                for (int k = i; k <= n.length(); k++) {
                    if (matches(n, k, p, j)) {
                        return true;
                    }
                }
                return false;
            }
            if (i >= n.length()) {
                return false;
            }
            if (c == '_') {
                i++;
                j++;
                continue;
            }
            if (c == '\\' && j + 1 < p.length()) {
                c = p.charAt(++j);
            }
            if (n.charAt(i) != c) {
                return false;
            }
            i++;
            j++;
        }
        return i == n.length();
    }
}
