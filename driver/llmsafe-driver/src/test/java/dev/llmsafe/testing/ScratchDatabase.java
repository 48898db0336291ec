package dev.llmsafe.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * A fresh, empty, uniquely named place to run a test: a schema on PostgreSQL, a database on
 * MySQL/MariaDB, a file on SQLite, with an administrator connection to it. {@link #close()} drops it
 * and the roles made for it. Get one through {@link ScratchDatabases}, or open one directly with
 * {@link #create(Engine)} in a try-with-resources.
 */
public final class ScratchDatabase implements AutoCloseable {

    private final Engine engine;
    private final TestServers.Server server;
    private final String name;
    private final String url;
    private final Path directory;
    private final List<TestRole> roles = new ArrayList<>();
    private Connection admin;
    private Family family;

    private ScratchDatabase(Engine engine, TestServers.Server server, String name, String url, Path directory) {
        this.engine = engine;
        this.server = server;
        this.name = name;
        this.url = url;
        this.directory = directory;
    }

    /**
     * Creates a scratch database on the engine's test server. When there is no server, the calling
     * test is skipped with a notice, or failed when LLMSAFE_TEST_REQUIRE names the engine.
     */
    public static ScratchDatabase create(Engine engine) {
        try {
            if (engine == Engine.SQLITE) {
                Path dir = Files.createTempDirectory("llmsafe-test-");
                Path file = dir.resolve("test.db");
                return new ScratchDatabase(engine, null, file.toString(), "jdbc:sqlite:" + file, dir);
            }
            TestServers.Server server = TestServers.require(engine);
            String name = Leftovers.newName(Leftovers.DATABASE_PREFIX);
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                if (engine == Engine.POSTGRES) {
                    s.execute("CREATE SCHEMA " + name);
                } else {
                    s.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
                }
            }
            return new ScratchDatabase(engine, server, name, scratchUrl(engine, server.url(), name), null);
        } catch (SQLException e) {
            throw new AssertionError("cannot create a scratch database on " + engine.key() + ": " + e, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String scratchUrl(Engine engine, String serverUrl, String name) {
        if (engine == Engine.POSTGRES) {
            return serverUrl + (serverUrl.contains("?") ? "&" : "?") + "currentSchema=" + name;
        }
        // jdbc:mysql://host:port/db?params -> the same with the scratch database
        int hostStart = serverUrl.indexOf("//") + 2;
        int slash = serverUrl.indexOf('/', hostStart);
        int q = serverUrl.indexOf('?');
        String head = slash < 0 ? (q < 0 ? serverUrl : serverUrl.substring(0, q)) : serverUrl.substring(0, slash);
        String params = q < 0 ? "" : serverUrl.substring(q);
        return head + "/" + name + params;
    }

    /** The engine. */
    public Engine engine() {
        return engine;
    }

    /**
     * The server's family, read from its version string on first use: tells MariaDB and MySQL apart,
     * which are one {@link Engine}.
     */
    public synchronized Family family() throws SQLException {
        if (family == null) {
            family = Family.of(admin());
        }
        return family;
    }

    /** Whether this is MySQL proper (not MariaDB). */
    public boolean isMysql() throws SQLException {
        return family() == Family.MYSQL;
    }

    /** Whether this is MariaDB. */
    public boolean isMariadb() throws SQLException {
        return family() == Family.MARIADB;
    }

    /**
     * Whether Connector/J takes this server for MySQL 5.5: MariaDB 10.x announces itself as
     * "5.5.5-10.x-MariaDB", and Connector/J then drops fractional seconds from parameters and never sends
     * setReadOnly to the server. MariaDB 11 and MySQL announce their real version.
     */
    public boolean announcedAsMysql55() throws SQLException {
        return engine == Engine.MYSQL && admin().getMetaData().getDatabaseProductVersion().startsWith("5.5.5-");
    }

    /**
     * The database-level privileges that show a planning role the triggers and foreign keys of its tables:
     * REFERENCES, TRIGGER on MariaDB (the triggers are believed only with TRIGGER: 11.4.5 shows none without
     * it); SELECT, TRIGGER on MySQL (which shows a trigger only with TRIGGER, and a foreign key's columns only
     * with SELECT or REFERENCES), as samples/roles grants them (MariaDB's TRIGGER on the written tables).
     */
    public String catalogPrivilege() throws SQLException {
        return isMysql() ? "SELECT, TRIGGER" : "REFERENCES, TRIGGER";
    }

    /**
     * The name of the scratch place: the schema (PostgreSQL), the database (MySQL/MariaDB), or the
     * file path (SQLite).
     */
    public String name() {
        return name;
    }

    /** A JDBC URL whose default schema or database is the scratch one, without credentials. */
    public String url() {
        return url;
    }

    /** The administrator user, or null (SQLite, or a URL that needs none). */
    public String user() {
        return server == null ? null : server.user();
    }

    /** The administrator password, or null. */
    public String password() {
        return server == null ? null : server.password();
    }

    /** The shared administrator connection (autocommit), opened on first use and closed with this. */
    public synchronized Connection admin() throws SQLException {
        if (admin == null || admin.isClosed()) {
            admin = connect();
        }
        return admin;
    }

    /** A new administrator connection; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user(), password());
    }

    /** A new connection as a role made by {@link #createRole}; the caller closes it. */
    public Connection connect(TestRole role) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", role.name());
        p.setProperty("password", role.password());
        return DriverManager.getConnection(url, p);
    }

    /** Runs statements on the administrator connection. */
    public void execute(String... sql) throws SQLException {
        try (Statement s = admin().createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    /**
     * Creates a login role and runs the given grants as the administrator. In each grant,
     * {@code {role}} stands for the role (quoted as the engine needs: {@code 'name'@'%'} on MySQL) and
     * {@code {db}} for the scratch schema or database. The role is dropped by {@link #close()}.
     */
    public TestRole createRole(String... grants) throws SQLException {
        if (engine == Engine.SQLITE) {
            throw new UnsupportedOperationException("SQLite has no roles");
        }
        String roleName = Leftovers.newName(Leftovers.ROLE_PREFIX);
        String password = "pw" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        TestRole role = new TestRole(roleName, password);
        String roleSql = engine == Engine.POSTGRES ? roleName : "'" + roleName + "'@'%'";
        roles.add(role);
        List<String> sql = new ArrayList<>();
        sql.add(engine == Engine.POSTGRES
                ? "CREATE ROLE " + roleName + " LOGIN PASSWORD '" + password + "'"
                : "CREATE USER " + roleSql + " IDENTIFIED BY '" + password + "'");
        for (String g : grants) {
            sql.add(g.replace("{role}", roleSql).replace("{db}", engine == Engine.POSTGRES ? name : "`" + name + "`"));
        }
        execute(sql.toArray(String[]::new));
        return role;
    }

    /** Every row of a table as text, in the order of its first column: what "nothing changed" is asserted on. */
    public List<String> snapshot(String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = admin().createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String[] row = new String[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getString(i + 1);
                }
                out.add(java.util.Arrays.toString(row));
            }
        }
        return out;
    }

    /** The server's product name and version, for test reports. */
    public String serverVersion() throws SQLException {
        var md = admin().getMetaData();
        return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
    }

    /** Drops the scratch schema, database or file and every role made for it. */
    @Override
    public synchronized void close() {
        try {
            if (admin != null) {
                admin.close();
            }
            if (engine == Engine.SQLITE) {
                try (Stream<Path> files = Files.walk(directory)) {
                    for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                return;
            }
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                if (engine == Engine.POSTGRES) {
                    s.execute("SET lock_timeout = '20s'");
                    s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
                    for (TestRole r : roles) {
                        s.execute("DROP OWNED BY " + r.name() + " CASCADE");
                        s.execute("DROP ROLE IF EXISTS " + r.name());
                    }
                } else {
                    s.execute("DROP DATABASE IF EXISTS `" + name + "`");
                    for (TestRole r : roles) {
                        s.execute("DROP USER IF EXISTS '" + r.name() + "'@'%'");
                    }
                }
            }
        } catch (SQLException | IOException e) {
            throw new AssertionError("cannot drop scratch database " + name + ": " + e, e);
        }
    }
}
