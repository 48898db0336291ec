package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Roles for the catalog and side-effect facts. "Planning" is the role a first guess gives the dry
 * run: SELECT, UPDATE and DELETE on the table it writes and nothing else. The least-privilege role is
 * the "plan" section of {@code samples/roles/<flavor>.sql}: the grants these facts found necessary,
 * in the file users run.
 */
final class PlanningRole {

    private PlanningRole() {
    }

    /** SELECT, UPDATE, DELETE on one table, and on PostgreSQL USAGE on the schema to reach it. */
    static ScratchRole tableGrantsOnly(Scratch db, ServerId server, String table, String... extraGrants)
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
     * The planning role of samples/roles/&lt;flavor&gt;.sql for one written table and, when it has a
     * trigger, the table the trigger writes (null when there is none).
     */
    static ScratchRole leastPrivilege(Scratch db, ServerId server, String table, String triggerTable)
            throws SQLException {
        return db.createRole(grants(server.flavor(), table, triggerTable).toArray(String[]::new));
    }

    /**
     * The "plan" section of the flavor's role script, without its CREATE, for a role that
     * {@link Scratch#createRole} makes: {@code {role}} and {@code {db}} are left for it to fill.
     */
    static List<String> grants(Flavor flavor, String table, String triggerTable) {
        String stem = switch (flavor) {
            case POSTGRES -> "postgresql";
            case MARIADB -> "mariadb";
            case MYSQL -> "mysql";
            case SQLITE -> throw new IllegalArgumentException("SQLite has no roles");
        };
        Map<String, String> values = Map.of(flavor == Flavor.POSTGRES ? "schema" : "database", "{db}",
                "plan_role", "{role}");
        Map<String, List<String>> lists = Map.of("read_table", List.of(table), "written_table", List.of(table),
                "trigger_table", triggerTable == null ? List.of() : List.of(triggerTable));
        return RoleScript.load(stem).grants(RoleScript.Role.PLAN, values, lists);
    }
}
