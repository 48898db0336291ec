package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.RoleScript.Role;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A deployment made as a user makes one, per engine, for the end-to-end tests of one class: a scratch
 * database with the class's tables; on PostgreSQL and MariaDB the four roles of samples/roles (read,
 * plan, apply, store, the store in a schema or database of its own); a config file whose four
 * connections are those roles; the command line run in-process on it; and the application's
 * {@code jdbc:llmsafe:} URL with the planning role's credential. SQLite runs the same without roles,
 * its store in a file of its own.
 *
 * <p>A JUnit extension: register it in a static field ({@code @RegisterExtension static final EndToEnd
 * e2e = new EndToEnd(SETUP);}). After the class it drops the roles, the store, the scratch databases and
 * its files.
 */
final class EndToEnd implements AfterAllCallback {

    /**
     * What a test class deploys.
     *
     * @param schema the statements that create and fill the application's tables, per engine
     * @param read the tables of policy.allow (granted to the read, plan and apply roles)
     * @param written the tables the model may propose writes to (granted UPDATE and DELETE)
     * @param triggerWritten tables that a trigger on a written table writes into (PostgreSQL runs triggers
     *     with the privileges of the role that fired them)
     * @param config the configuration's other top-level members, as JSON text without braces: at least
     *     {@code "policy": {...}}
     */
    record Setup(Function<Engine, List<String>> schema, List<String> read, List<String> written,
            List<String> triggerWritten, String config) {
    }

    /** A command line run: its exit status and what it wrote. */
    record Run(int status, String out, String err) {

        /** Both streams, for assertion messages. */
        String all() {
            return out + err;
        }
    }

    /** One engine's deployment. */
    record Deployed(Engine engine, ScratchDatabase app, FourRoles roles, Flavor flavor, Path home,
            Map<String, String> env, String url) {

        /** {@code llmsafe ARGS} run in-process with the config file of this deployment. */
        Run llmsafe(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = Main.run(new Main(env::get, home), new PrintWriter(out, true), new PrintWriter(err, true), args);
            return new Run(status, out.toString(), err.toString());
        }

        /** The application's connection: {@code jdbc:llmsafe:} with the planning role's credential. */
        Connection connect() throws SQLException {
            Properties credential = new Properties();
            if (roles != null) {
                credential.setProperty("user", roles.login(Role.PLAN).name());
                credential.setProperty("password", roles.login(Role.PLAN).password());
            }
            return DriverManager.getConnection(url, credential);
        }

        /** A plain connection as one of the roles (SQLite: the file). */
        Connection connectAs(Role role) throws SQLException {
            return roles == null ? app.connect() : roles.connect(role);
        }

        /** Runs statements as the administrator, outside llmsafe. */
        void admin(String... sql) throws SQLException {
            app.execute(sql);
        }

        /** The rows of a table, read as the administrator, ordered by its first column. */
        List<String> rows(String table) throws SQLException {
            return app.snapshot(table);
        }

        boolean mysql() {
            return flavor == Flavor.MARIADB || flavor == Flavor.MYSQL;
        }

        /** {@code llmsafe plan ARGS --as assistant}. */
        Run plan(String... args) {
            List<String> all = new ArrayList<>(List.of("plan"));
            all.addAll(List.of(args));
            all.addAll(List.of("--as", "assistant"));
            return llmsafe(all.toArray(String[]::new));
        }

        /**
         * The statement through the application's URL, which must become a plan. Nothing may have
         * changed in the table.
         */
        PlanPendingException propose(String sql, String table) throws Exception {
            List<String> before = rows(table);
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeUpdate(sql);
                throw new AssertionError(sql + " ran through jdbc:llmsafe: instead of becoming a plan");
            } catch (PlanPendingException e) {
                assertThat(rows(table)).as("the dry run changed nothing").isEqualTo(before);
                return e;
            }
        }

        /** The refusal the statement meets through the application's URL; nothing changed in the table. */
        RefusedException refused(String sql, String table) throws SQLException {
            List<String> before = rows(table);
            RefusedException e = catchThrowableOfType(RefusedException.class, () -> {
                try (Connection c = connect(); Statement s = c.createStatement()) {
                    s.execute(sql);
                }
            });
            assertThat((Throwable) e).as("%s was not refused", sql).isNotNull();
            assertThat(rows(table)).as("a refusal changes nothing").isEqualTo(before);
            return e;
        }

        /** {@code approve ID --as alice}, then {@code apply ID --as bob}. */
        Run approveAndApply(String id) {
            Run approve = llmsafe("approve", id, "--as", "alice");
            assertThat(approve.status()).as(approve.all()).isEqualTo(Main.OK);
            return llmsafe("apply", id, "--as", "bob");
        }
    }

    private final ScratchDatabases dbs = new ScratchDatabases();
    private final Setup setup;
    private final Map<Engine, Deployed> deployed = new EnumMap<>(Engine.class);
    private Path dir;

    EndToEnd(Setup setup) {
        this.setup = setup;
    }

    /** The engine's deployment, made on first use and migrated. */
    synchronized Deployed deployed(Engine engine) throws Exception {
        Deployed d = deployed.get(engine);
        if (d == null) {
            d = deploy(engine);
            deployed.put(engine, d);
            Run migrate = d.llmsafe("migrate");
            assertThat(migrate.status()).as(migrate.all()).isEqualTo(Main.OK);
        }
        return d;
    }

    private Deployed deploy(Engine engine) throws Exception {
        ScratchDatabase app = dbs.fresh(engine);
        app.execute(setup.schema().apply(engine).toArray(String[]::new));
        if (dir == null) {
            dir = Files.createTempDirectory("llmsafe-e2e-");
        }
        Path home = Files.createDirectories(dir.resolve(engine.key()));
        Map<String, String> env = new HashMap<>();
        FourRoles roles = null;
        Flavor flavor = ServerId.of(app.admin()).flavor();
        StringBuilder config = new StringBuilder("{\n");
        if (engine == Engine.SQLITE) {
            // No roles: the read connection opens the file read-only, the store is a file of its own.
            String file = app.name();
            config.append("  \"connection\": ").append(connection("jdbc:sqlite:" + file, null, null)).append(",\n")
                    .append("  \"readConnection\": ").append(connection("jdbc:sqlite:" + file + "?open_mode=1", null, null))
                    .append(",\n  \"applyConnection\": ").append(connection("jdbc:sqlite:" + file, null, null))
                    .append(",\n  \"storeConnection\": ").append(connection("jdbc:sqlite:" + home.resolve("store.db"), null,
                            null)).append(",\n");
        } else {
            roles = FourRoles.create(app, setup.read(), setup.written(), setup.triggerWritten());
            String server = TestServers.require(engine).url();
            String base = server.indexOf('?') < 0 ? server : server.substring(0, server.indexOf('?'));
            String appUrl;
            String storeUrl;
            if (flavor == Flavor.POSTGRES) {
                appUrl = base;
                // The store role reaches its own schema through the URL: the store does not use "schema".
                storeUrl = base + "?currentSchema=" + roles.store();
            } else {
                String host = base.substring(0, base.indexOf('/', base.indexOf("//") + 2));
                appUrl = host + "/" + app.name();
                storeUrl = host + "/" + roles.store();
            }
            for (Role r : Role.values()) {
                env.put("LLMSAFE_" + r.name() + "_PASSWORD", roles.login(r).password());
            }
            config.append("  \"connection\": ").append(connection(appUrl, roles.login(Role.PLAN).name(), "PLAN"))
                    // The read connection names its schema in the URL: check's read-only probe (E7) does not
                    // pin "schema" on it (the planning and applying connections get it from "schema").
                    .append(",\n  \"readConnection\": ").append(connection(flavor == Flavor.POSTGRES
                            ? appUrl + "?currentSchema=" + app.name() : appUrl, roles.login(Role.READ).name(), "READ"))
                    .append(",\n  \"applyConnection\": ").append(connection(appUrl, roles.login(Role.APPLY).name(), "APPLY"))
                    .append(",\n  \"storeConnection\": ").append(connection(storeUrl, roles.login(Role.STORE).name(), "STORE"))
                    .append(",\n");
            if (flavor == Flavor.POSTGRES) {
                config.append("  \"schema\": \"").append(app.name()).append("\",\n");
            }
        }
        config.append(setup.config().strip()).append("\n}\n");
        Files.writeString(home.resolve("llmsafe.json"), config);
        // The driver reads ${...} from the process environment; the application's copy of the file has the
        // passwords written in.
        String text = config.toString();
        for (Map.Entry<String, String> e : env.entrySet()) {
            text = text.replace("${" + e.getKey() + "}", e.getValue());
        }
        Path appConfig = Files.writeString(home.resolve("app-llmsafe.json"), text);
        String appUrl = new ObjectMapper().readTree(text).get("connection").get("url").asText();
        String url = "jdbc:llmsafe:" + appUrl.substring("jdbc:".length()) + (appUrl.contains("?") ? "&" : "?")
                + "llmsafe.config=" + URLEncoder.encode(appConfig.toString(), StandardCharsets.UTF_8);
        return new Deployed(engine, app, roles, flavor, home, env, url);
    }

    private static String connection(String url, String user, String passwordOf) throws Exception {
        ObjectMapper json = new ObjectMapper();
        return "{\"url\": " + json.writeValueAsString(url) + (user == null ? "" : ", \"user\": " + json.writeValueAsString(user)
                + ", \"password\": \"${LLMSAFE_" + passwordOf + "_PASSWORD}\"") + "}";
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) throws Exception {
        try {
            for (Deployed d : deployed.values()) {
                if (d.roles() != null) {
                    d.roles().close();
                }
            }
        } finally {
            deployed.clear();
            dbs.afterAll(context);
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                dir = null;
            }
        }
    }

    // ---- shared checks ----------------------------------------------------------------------------

    /** The id of the plan a {@code plan} command proposed. */
    static String planId(Run plan) {
        Matcher m = Pattern.compile("^Plan ([0-9a-f-]{36}) is proposed").matcher(plan.out());
        assertThat(m.find()).as(plan.all()).isTrue();
        return m.group(1);
    }

    /**
     * The statement fails for want of a privilege, as the database itself says: SQLState 42501 on
     * PostgreSQL, error 1142 (a command denied on a table) on MySQL and MariaDB.
     */
    static void assertRefusedByTheDatabase(Flavor flavor, Connection c, String sql) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        });
        // SQLException is an Iterable of its causes; as a Throwable it is checked for being there at all.
        assertThat((Throwable) e).as("%s was not refused", sql).isNotNull();
        if (flavor == Flavor.POSTGRES) {
            assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isEqualTo("42501");
        } else {
            assertThat(e.getErrorCode()).as(sql + ": " + e.getMessage()).isEqualTo(1142);
        }
    }
}
