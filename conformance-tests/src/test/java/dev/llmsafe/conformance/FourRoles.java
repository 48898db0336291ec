package dev.llmsafe.conformance;

import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.ScratchDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The four roles of samples/roles/&lt;flavor&gt;.sql, made by running the whole file as a person would
 * after filling in its placeholders, for the application tables of one scratch database, with the plan
 * store in a schema (PostgreSQL) or database (MariaDB, MySQL) of its own. {@link #close()} drops the
 * roles and the store. Names follow the test helper's scheme ({@code llmsafe_r_<time>_...},
 * {@code llmsafe_t_<time>_...}), so that what a crashed run leaves is swept by a later one.
 */
final class FourRoles implements AutoCloseable {

    /** One role's login. */
    record Login(String name, String password) {
    }

    private final ScratchDatabase app;
    private final Flavor flavor;
    private final String store;
    private final Map<Role, Login> logins = new EnumMap<>(Role.class);

    private FourRoles(ScratchDatabase app, Flavor flavor, String store) {
        this.app = app;
        this.flavor = flavor;
        this.store = store;
    }

    /**
     * Runs the flavor's role script on the scratch database's server.
     *
     * @param readTables the tables of policy.allow
     * @param writtenTables the tables with an impact sentence
     */
    static FourRoles create(ScratchDatabase app, List<String> readTables, List<String> writtenTables)
            throws SQLException {
        return create(app, readTables, writtenTables, List.of());
    }

    /**
     * Runs the flavor's role script on the scratch database's server.
     *
     * @param readTables the tables of policy.allow
     * @param writtenTables the tables with an impact sentence
     * @param triggerTables tables a trigger on a written table writes into
     */
    static FourRoles create(ScratchDatabase app, List<String> readTables, List<String> writtenTables,
            List<String> triggerTables) throws SQLException {
        Flavor flavor = ServerId.of(app.admin()).flavor();
        String stamp = System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(0x10000 + ThreadLocalRandom.current().nextInt(0xEFFFF));
        FourRoles roles = new FourRoles(app, flavor, "llmsafe_t_" + stamp + "_store");
        Map<String, String> values = new java.util.HashMap<>();
        for (Role r : Role.values()) {
            Login login = new Login("llmsafe_r_" + stamp + "_" + r.key(),
                    "pw" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE));
            roles.logins.put(r, login);
            values.put(r.key() + "_role", flavor == Flavor.POSTGRES ? login.name() : "'" + login.name() + "'@'%'");
            values.put(r.key() + "_password", login.password());
        }
        values.put(flavor == Flavor.POSTGRES ? "schema" : "database", app.name());
        values.put(flavor == Flavor.POSTGRES ? "store_schema" : "store_database", roles.store);
        List<String> sql = RoleScript.load(switch (flavor) {
            case POSTGRES -> "postgresql";
            case MARIADB -> "mariadb";
            case MYSQL -> "mysql";
            case SQLITE -> throw new IllegalArgumentException("SQLite has no roles");
        }).statements(EnumSet.allOf(Role.class), values, Map.of("read_table", readTables,
                "written_table", writtenTables, "trigger_table", triggerTables));
        try {
            app.execute(sql.toArray(String[]::new));
        } catch (SQLException e) {
            roles.close();
            throw e;
        }
        return roles;
    }

    Login login(Role role) {
        return logins.get(role);
    }

    /** The plan store's schema (PostgreSQL) or database. */
    String store() {
        return store;
    }

    /**
     * A new connection as one of the four roles: to the application's scratch database, or for the
     * store role on MySQL and MariaDB to the store's database, the only one it may connect to.
     */
    Connection connect(Role role) throws SQLException {
        String url = app.url();
        if (role == Role.STORE && flavor != Flavor.POSTGRES) {
            url = url.replace("/" + app.name(), "/" + store);
        }
        return DriverManager.getConnection(url, login(role).name(), login(role).password());
    }

    @Override
    public void close() throws SQLException {
        List<String> sql = new ArrayList<>();
        if (flavor == Flavor.POSTGRES) {
            sql.add("DROP SCHEMA IF EXISTS " + store + " CASCADE");
            for (Login l : logins.values()) {
                sql.add("DROP OWNED BY " + l.name() + " CASCADE");
                sql.add("DROP ROLE IF EXISTS " + l.name());
            }
        } else {
            sql.add("DROP DATABASE IF EXISTS `" + store + "`");
            for (Login l : logins.values()) {
                sql.add("DROP USER IF EXISTS '" + l.name() + "'@'%'");
            }
        }
        try (Connection c = app.connect(); Statement s = c.createStatement()) {
            for (String q : sql) {
                try {
                    s.execute(q);
                } catch (SQLException e) {
                    // DROP OWNED BY a role that was never created; the DROP ROLE after it says the rest.
                    if (!q.startsWith("DROP OWNED")) {
                        throw e;
                    }
                }
            }
        }
    }
}
