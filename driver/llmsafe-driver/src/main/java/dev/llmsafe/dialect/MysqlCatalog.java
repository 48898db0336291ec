package dev.llmsafe.dialect;

import dev.llmsafe.policy.QualifiedName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's answer about one MySQL or MariaDB table in one round trip, as PostgreSQL's is: the
 * session's database and name-case rule and the credential's name ({@code d}), the table's row
 * ({@code t}), its columns ({@code c}), primary key ({@code k}), triggers ({@code g}), the foreign keys
 * that reference it ({@code f}), the credential's global, table and database privileges ({@code u},
 * {@code p}, {@code s}) that decide what the catalog hides (D15), and on MariaDB the column checks that
 * mark a JSON column ({@code j}). It was eleven queries. Nothing is cached: every plan asks again, so a
 * trigger or a foreign key added between two plans is seen by the second.
 *
 * <p>Every text is converted to one character set and collation: information_schema's columns differ in
 * collation (MySQL 8's dictionary views), and a UNION of two collations of equal coercibility is an
 * error. Each part is filtered by the name as written, with the catalog's own comparison, and the rows
 * are then kept for the table it resolved to exactly, except foreign keys and triggers, which are all
 * kept: one too many is a refusal, one too few a cascade unseen.
 */
final class MysqlCatalog {

    /** The credential as information_schema's GRANTEE column spells it: {@code 'user'@'host'}. */
    private static final String GRANTEE = "CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''',"
            + " SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')";
    private static final String SCHEMA = "COALESCE(?, DATABASE())";

    private MysqlCatalog() {
    }

    /** One part's values, as text in one collation. */
    private static String t(String expression) {
        return "CAST(" + expression + " AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin";
    }

    private static String row(String tag, String ord, String... values) {
        StringBuilder sb = new StringBuilder("SELECT '").append(tag).append("', ").append(ord);
        for (int i = 0; i < 9; i++) {
            sb.append(", ").append(i < values.length && values[i] != null ? t(values[i]) : "NULL");
        }
        return sb.toString();
    }

    /** The query; its parameters are the schema as written (or null) and the table's name, in pairs. */
    static String query(boolean mariadb, boolean partialRevokes) {
        List<String> parts = new ArrayList<>();
        parts.add(row("d", "0", "DATABASE()", "@@lower_case_table_names", GRANTEE,
                partialRevokes ? "@@GLOBAL.partial_revokes" : null));
        parts.add(row("t", "0", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE", "COALESCE(ENGINE, '')", "TABLE_COMMENT")
                + " FROM information_schema.TABLES WHERE TABLE_SCHEMA = " + SCHEMA + " AND TABLE_NAME = ?");
        parts.add(row("c", "ORDINAL_POSITION", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "COLUMN_TYPE", "DATA_TYPE",
                "IS_NULLABLE", "EXTRA", "COLUMN_COMMENT") + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                + SCHEMA + " AND TABLE_NAME = ?");
        parts.add(row("k", "ORDINAL_POSITION", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME")
                + " FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = " + SCHEMA + " AND TABLE_NAME = ?"
                + " AND CONSTRAINT_NAME = 'PRIMARY'");
        parts.add(row("g", "0", "EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE", "TRIGGER_NAME", "ACTION_TIMING",
                "EVENT_MANIPULATION") + " FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = " + SCHEMA
                + " AND EVENT_OBJECT_TABLE = ? AND EVENT_MANIPULATION IN ('UPDATE', 'DELETE')");
        parts.add(row("f", "k.ORDINAL_POSITION", "k.TABLE_SCHEMA", "k.TABLE_NAME", "k.CONSTRAINT_NAME", "k.COLUMN_NAME",
                "k.REFERENCED_TABLE_SCHEMA", "k.REFERENCED_TABLE_NAME", "k.REFERENCED_COLUMN_NAME", "rc.DELETE_RULE",
                "rc.UPDATE_RULE") + " FROM information_schema.KEY_COLUMN_USAGE k"
                + " JOIN information_schema.REFERENTIAL_CONSTRAINTS rc ON rc.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA"
                + " AND rc.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND rc.TABLE_NAME = k.TABLE_NAME"
                + " WHERE k.REFERENCED_TABLE_SCHEMA = " + SCHEMA + " AND k.REFERENCED_TABLE_NAME = ?");
        parts.add(row("u", "0", null, null, "PRIVILEGE_TYPE") + " FROM information_schema.USER_PRIVILEGES"
                + " WHERE GRANTEE = " + GRANTEE);
        parts.add(row("p", "0", "TABLE_SCHEMA", "TABLE_NAME", "PRIVILEGE_TYPE")
                + " FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = " + GRANTEE + " AND TABLE_SCHEMA = "
                + SCHEMA + " AND TABLE_NAME = ?");
        parts.add(row("s", "0", "TABLE_SCHEMA", null, "PRIVILEGE_TYPE") + " FROM information_schema.SCHEMA_PRIVILEGES"
                + " WHERE GRANTEE = " + GRANTEE);
        if (mariadb) {
            parts.add(row("j", "0", "CONSTRAINT_SCHEMA", "TABLE_NAME", "CHECK_CLAUSE")
                    + " FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = " + SCHEMA
                    + " AND TABLE_NAME = ?");
        }
        return String.join(" UNION ALL ", parts) + " ORDER BY 1, 2";
    }

    /** How many (schema, table) parameter pairs {@link #query} takes. */
    static int pairs(boolean mariadb) {
        return mariadb ? 7 : 6;
    }

    /** The rows of the answer, by tag, each as its nine texts after the tag and the position. */
    record Answer(Map<String, List<String[]>> rows) {

        List<String[]> get(String tag) {
            return rows.getOrDefault(tag, List.of());
        }
    }

    /** Asks the catalog about a table, as written in the statement. */
    static Answer ask(Connection c, QualifiedName name, boolean mariadb, boolean partialRevokes) throws SQLException {
        String schema = name.qualifier() == null ? null : name.qualifier().last().text();
        String table = name.last().text();
        Map<String, List<String[]>> rows = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(query(mariadb, partialRevokes))) {
            for (int i = 0; i < pairs(mariadb); i++) {
                ps.setString(2 * i + 1, schema);
                ps.setString(2 * i + 2, table);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String[] r = new String[10];
                    r[0] = String.valueOf(rs.getLong(2));
                    for (int i = 0; i < 9; i++) {
                        r[i + 1] = rs.getString(i + 3);
                    }
                    rows.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(r);
                }
            }
        }
        return new Answer(rows);
    }

    /** Builds the table's description from the answer; empty when the name resolves to no table. */
    static Optional<TableInfo> table(Answer a, QualifiedName name, boolean mariadb) {
        String[] session = a.get("d").get(0);
        if (name.qualifier() == null && session[1] == null) {
            return Optional.empty();
        }
        boolean lowerCaseNames = !"0".equals(session[2]);
        String written = name.last().text();
        List<String[]> found = a.get("t");
        if (found.size() > 1) {
            // The catalog compares names without case; keep the one spelled as written, if there is one.
            found = found.stream().filter(r -> r[2].equals(written)).toList();
        }
        if (found.size() != 1) {
            return Optional.empty();
        }
        String[] row = found.get(0);
        TableRef ref = new TableRef(row[1], row[2]);
        Comparator<String[]> byOrd = Comparator.comparingLong(r -> Long.parseLong(r[0]));
        Map<String, String> jsonChecked = new LinkedHashMap<>();
        for (String[] j : a.get("j")) {
            String column = MySqlCatalogTypes.jsonValidColumn(j[3]);
            if (same(ref, j[1], j[2], lowerCaseNames) && column != null) {
                jsonChecked.put(column.toLowerCase(Locale.ROOT), column);
            }
        }
        List<ColumnInfo> columns = new ArrayList<>();
        for (String[] r : a.get("c").stream().filter(r -> same(ref, r[1], r[2], lowerCaseNames)).sorted(byOrd).toList()) {
            String extra = r[7].toLowerCase(Locale.ROOT);
            String dataType = r[5];
            if (mariadb && dataType.equalsIgnoreCase("longtext") && jsonChecked.containsKey(r[3].toLowerCase(Locale.ROOT))) {
                dataType = MySqlCatalogTypes.MARIADB_JSON;
            }
            columns.add(new ColumnInfo(r[3], r[4], dataType, r[6].equals("YES"),
                    extra.contains("generated") && !extra.contains("default_generated"), extra.contains("on update"),
                    Optional.ofNullable(r[8] == null || r[8].isEmpty() ? null : r[8])));
        }
        List<String> primaryKey = a.get("k").stream().filter(r -> same(ref, r[1], r[2], lowerCaseNames)).sorted(byOrd)
                .map(r -> r[3]).toList();
        Map<String, TableInfo.Trigger> triggers = new LinkedHashMap<>();
        for (String[] g : a.get("g")) {
            triggers.put(g[3], new TableInfo.Trigger(g[3], g[4], List.of(g[5])));
        }
        List<String[]> fkRows = a.get("f").stream().sorted(Comparator.<String[], String>comparing(r -> r[1])
                .thenComparing(r -> r[2]).thenComparing(r -> r[3]).thenComparing(byOrd)).toList();
        Map<String, List<String[]>> byConstraint = new LinkedHashMap<>();
        for (String[] r : fkRows) {
            byConstraint.computeIfAbsent(r[1] + "." + r[2] + "." + r[3], k -> new ArrayList<>()).add(r);
        }
        List<TableInfo.ForeignKey> inbound = new ArrayList<>();
        for (List<String[]> parts : byConstraint.values()) {
            String[] f = parts.get(0);
            inbound.add(new TableInfo.ForeignKey(new TableRef(f[1], f[2]), parts.stream().map(p -> p[4]).toList(),
                    new TableRef(f[5], f[6]), parts.stream().map(p -> p[7]).toList(), f[8], f[9]));
        }
        List<String[]> privileges = new ArrayList<>();
        a.get("u").forEach(u -> privileges.add(new String[] {u[3], "global"}));
        a.get("p").stream().filter(p -> same(ref, p[1], p[2], lowerCaseNames))
                .forEach(p -> privileges.add(new String[] {p[3], "table"}));
        List<String[]> databaseGrants = a.get("s").stream().map(s -> new String[] {s[1], s[3]}).toList();
        boolean wildcards = !"1".equals(session[4]);
        for (String p : MysqlGrants.onDatabase(databaseGrants, ref.schema(), lowerCaseNames, wildcards)) {
            privileges.add(new String[] {p, "schema"});
        }
        TableInfo.Kind kind = row[3].equalsIgnoreCase("VIEW") ? TableInfo.Kind.VIEW : TableInfo.Kind.TABLE;
        String engine = row[4];
        return Optional.of(new TableInfo(ref, kind, engine, engine.equalsIgnoreCase("InnoDB"), columns, primaryKey,
                new ArrayList<>(triggers.values()), inbound,
                Optional.ofNullable(row[5] == null || row[5].isEmpty() ? null : row[5]),
                MysqlGrants.visibility(ref, session[3], privileges, mariadb)));
    }

    /** Whether a part's row is about the table, as the server compares names. */
    private static boolean same(TableRef ref, String schema, String table, boolean lowerCaseNames) {
        return lowerCaseNames ? ref.schema().equalsIgnoreCase(schema) && ref.name().equalsIgnoreCase(table)
                : ref.schema().equals(schema) && ref.name().equals(table);
    }
}
