package dev.llmsafe.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names of scratch schemas, databases and roles, and the sweep that removes what a crashed run left
 * behind. A name carries its creation time, so only old leftovers are dropped and a run going on in
 * parallel is never disturbed.
 */
final class Leftovers {

    static final String DATABASE_PREFIX = "llmsafe_t_";
    static final String ROLE_PREFIX = "llmsafe_r_";
    private static final long MAX_AGE_SECONDS = 3 * 3600;

    private Leftovers() {
    }

    static String newName(String prefix) {
        return prefix + (System.currentTimeMillis() / 1000) + "_"
                + Integer.toHexString(0x100000 + ThreadLocalRandom.current().nextInt(0xEFFFFF));
    }

    static boolean isOld(String name, String prefix) {
        String[] parts = name.substring(prefix.length()).split("_");
        try {
            return Long.parseLong(parts[0]) < System.currentTimeMillis() / 1000 - MAX_AGE_SECONDS;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static void sweep(TestServers.Server server) {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            if (server.engine() == Engine.POSTGRES) {
                for (String schema : old(s, "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'llmsafe\\_t\\_%'",
                        DATABASE_PREFIX)) {
                    s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                }
                for (String role : old(s, "SELECT rolname FROM pg_roles WHERE rolname LIKE 'llmsafe\\_r\\_%'",
                        ROLE_PREFIX)) {
                    s.execute("DROP OWNED BY " + role + " CASCADE");
                    s.execute("DROP ROLE IF EXISTS " + role);
                }
            } else {
                for (String db : old(s, "SELECT schema_name FROM information_schema.schemata"
                        + " WHERE schema_name LIKE 'llmsafe\\_t\\_%'", DATABASE_PREFIX)) {
                    s.execute("DROP DATABASE IF EXISTS `" + db + "`");
                }
                List<String> users = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT user, host FROM mysql.user WHERE user LIKE 'llmsafe\\_r\\_%'")) {
                    while (rs.next()) {
                        if (isOld(rs.getString(1), ROLE_PREFIX)) {
                            users.add("'" + rs.getString(1) + "'@'" + rs.getString(2) + "'");
                        }
                    }
                }
                for (String u : users) {
                    s.execute("DROP USER IF EXISTS " + u);
                }
            }
        } catch (SQLException e) {
            // A sweep that fails leaves old names in place; they never collide with new ones.
            System.err.println("NOTICE: could not sweep old test schemas on " + server.engine().key() + ": " + e);
        }
    }

    private static List<String> old(Statement s, String query, String prefix) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                if (isOld(rs.getString(1), prefix)) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
