package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * D8 and D15: a trigger or an inbound cascade that the planning credential cannot see is answered
 * "none" by a catalog that filters by privilege: a zero, not an error. Each fact asks the catalog
 * the question the dialect will ask, as an administrator and as roles with more and more grants.
 */
final class CatalogFacts {

    static final String ADMIN = "admin";
    static final String PLANNING = "planning";
    static final String LEAST = "least-privilege role";

    private CatalogFacts() {
    }

    static String triggersSeenByRole(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "n/a (no roles: whoever opens the file reads the whole schema)";
        }
        Ddl.tableWithAuditTrigger(db, server.flavor(), "f20_accounts", "f20_audit");
        Answer.Parts parts = new Answer.Parts();
        for (var role : roles(db, server, "f20_accounts", "f20_audit").entrySet()) {
            try (Connection c = role.getValue() == null ? db.connect() : db.connect(role.getValue())) {
                parts.put(role.getKey(), server.flavor() == Flavor.POSTGRES
                        ? "pg_trigger " + Sql.count(c, "SELECT count(*) FROM pg_trigger"
                                + " WHERE tgrelid = 'f20_accounts'::regclass AND NOT tgisinternal")
                                + ", information_schema " + Sql.count(c, "SELECT count(*) FROM information_schema.triggers"
                                + " WHERE event_object_schema = current_schema() AND event_object_table = 'f20_accounts'")
                        : String.valueOf(Sql.count(c, "SELECT count(*) FROM information_schema.TRIGGERS"
                                + " WHERE EVENT_OBJECT_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 'f20_accounts'")));
            }
        }
        return parts.toString();
    }

    static String inboundForeignKeysSeenByRole(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "n/a (no roles: whoever opens the file reads the whole schema)";
        }
        Ddl.parentAndChild(db, "f21_accounts", "f21_orders", "id", "ON DELETE CASCADE");
        Answer.Parts parts = new Answer.Parts();
        for (var role : roles(db, server, "f21_accounts", null).entrySet()) {
            try (Connection c = role.getValue() == null ? db.connect() : db.connect(role.getValue())) {
                parts.put(role.getKey(), server.flavor() == Flavor.POSTGRES ? postgresForeignKeys(c) : mysqlForeignKeys(c));
            }
        }
        return parts.toString();
    }

    private static String postgresForeignKeys(Connection c) throws SQLException {
        String catalog = Sql.one(c, "SELECT string_agg(CASE confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL'"
                + " ELSE confdeltype::text END, ',') FROM pg_constraint"
                + " WHERE confrelid = 'f21_accounts'::regclass AND contype = 'f'");
        String standard = Sql.one(c, "SELECT string_agg(rc.delete_rule, ',')"
                + " FROM information_schema.referential_constraints rc"
                + " JOIN information_schema.table_constraints tc ON tc.constraint_schema = rc.unique_constraint_schema"
                + " AND tc.constraint_name = rc.unique_constraint_name"
                + " WHERE tc.table_schema = current_schema() AND tc.table_name = 'f21_accounts'");
        return "pg_constraint " + (catalog == null ? "hidden" : catalog)
                + ", information_schema " + (standard == null ? "hidden" : standard);
    }

    /**
     * The delete rule lives in REFERENTIAL_CONSTRAINTS; KEY_COLUMN_USAGE only says that a foreign key
     * exists. A role that sees the second but not the first knows there is a cascade risk and not
     * what it is.
     */
    private static String mysqlForeignKeys(Connection c) throws SQLException {
        String rule = Sql.one(c, "SELECT GROUP_CONCAT(DELETE_RULE) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE UNIQUE_CONSTRAINT_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME = 'f21_accounts'");
        long columns = Sql.count(c, "SELECT count(*) FROM information_schema.KEY_COLUMN_USAGE"
                + " WHERE REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME = 'f21_accounts'");
        if (rule != null) {
            return rule;
        }
        return columns > 0 ? "FK seen, rule hidden" : "hidden";
    }

    /**
     * The roles each catalog fact is asked as, in order; null is the administrator. On MySQL and
     * MariaDB each extra grant is tried alone, to find the ones that are necessary.
     */
    private static Map<String, ScratchRole> roles(Scratch db, ServerId server, String table, String triggerTable)
            throws SQLException {
        Map<String, ScratchRole> roles = new LinkedHashMap<>();
        roles.put(ADMIN, null);
        roles.put(PLANNING, PlanningRole.tableGrantsOnly(db, server, table));
        if (server.flavor() != Flavor.POSTGRES) {
            // "planning + database X" is the planning role with GRANT X ON <database>.* as well.
            for (String extra : new String[] {"SELECT", "TRIGGER", "REFERENCES"}) {
                roles.put(PLANNING + " + database " + extra,
                        PlanningRole.tableGrantsOnly(db, server, table, "GRANT " + extra + " ON {db}.* TO {role}"));
            }
            roles.put(PLANNING + " + database SELECT, TRIGGER (the seed)",
                    PlanningRole.tableGrantsOnly(db, server, table, "GRANT SELECT, TRIGGER ON {db}.* TO {role}"));
        }
        roles.put(LEAST, PlanningRole.leastPrivilege(db, server, table, triggerTable));
        return roles;
    }

}
