package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.TestRole;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Roles for the catalog and side-effect facts. "Planning" is the role a first guess gives the dry
 * run: SELECT, UPDATE and DELETE on the table it writes and nothing else. The least-privilege role is
 * the one in {@code roles/planning-<flavor>.sql}: the grants these facts found necessary, kept as SQL
 * so that samples/roles can take them over.
 */
final class PlanningRole {

    private static final Pattern UNFILLED = Pattern.compile("\\{[a-z_]+}");

    private PlanningRole() {
    }

    /** SELECT, UPDATE, DELETE on one table, and on PostgreSQL USAGE on the schema to reach it. */
    static TestRole tableGrantsOnly(ScratchDatabase db, ServerId server, String table, String... extraGrants)
            throws SQLException {
        List<String> grants = new ArrayList<>();
        if (server.flavor() == Flavor.POSTGRES) {
            grants.add("GRANT USAGE ON SCHEMA {db} TO {role}");
        }
        grants.add("GRANT SELECT, UPDATE, DELETE ON {db}." + table + " TO {role}");
        grants.addAll(List.of(extraGrants));
        return db.createRole(grants.toArray(String[]::new));
    }

    /**
     * The role of roles/planning-&lt;flavor&gt;.sql for one written table and, when it has a trigger,
     * the table the trigger writes (null when there is none).
     */
    static TestRole leastPrivilege(ScratchDatabase db, ServerId server, String table, String triggerTable)
            throws SQLException {
        Map<String, String> values = triggerTable == null
                ? Map.of("{table}", table)
                : Map.of("{table}", table, "{trigger_table}", triggerTable);
        return db.createRole(grants(server.flavor(), values));
    }

    /** The statements of the flavor's role file, comments removed, placeholders other than {role} and {db} filled. */
    static String[] grants(Flavor flavor, Map<String, String> values) {
        String file = "/roles/planning-" + switch (flavor) {
            case POSTGRES -> "postgresql";
            case MARIADB -> "mariadb";
            case MYSQL -> "mysql";
            case SQLITE -> throw new IllegalArgumentException("SQLite has no roles");
        } + ".sql";
        String text;
        try (InputStream in = PlanningRole.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + file);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        String filled = sql.toString();
        for (var e : values.entrySet()) {
            filled = filled.replace(e.getKey(), e.getValue());
        }
        List<String> out = new ArrayList<>();
        for (String stmt : filled.split(";")) {
            // A statement whose placeholder has no value is left out: a table with no trigger has no
            // trigger table to grant on.
            if (!stmt.isBlank() && !UNFILLED.matcher(stmt.replace("{role}", "").replace("{db}", "")).find()) {
                out.add(stmt.strip());
            }
        }
        return out.toArray(String[]::new);
    }
}
