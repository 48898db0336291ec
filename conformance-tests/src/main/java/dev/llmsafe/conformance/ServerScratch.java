package dev.llmsafe.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harness's scratch place on a user's server: a schema (PostgreSQL) or a database (MySQL,
 * MariaDB) that it creates, or a temporary copy of a SQLite file, and the roles it creates there when
 * the credential may. Every name it makes starts with its own name ({@code llmsafe_cf_<time>_<random>}),
 * so what it leaves behind, if anything, is found with one LIKE; {@link #close()} drops it all.
 * The user's own tables and file are never written.
 */
final class ServerScratch implements Scratch, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerScratch.class);

    /** The start of every name the harness creates. */
    static final String PREFIX = "llmsafe_cf_";

    private final Server server;
    private final String name;
    private final String url;
    private final Path directory;
    private final List<String> roles = new ArrayList<>();
    private Connection admin;
    private boolean closed;

    private ServerScratch(Server server, String name, String url, Path directory) {
        this.server = server;
        this.name = name;
        this.url = url;
        this.directory = directory;
    }

    /**
     * Creates the scratch place on the server.
     *
     * @throws SQLException when the server cannot be reached or the credential may not create a schema
     *     or database there
     */
    static ServerScratch create(Server server) throws SQLException, IOException {
        String name = PREFIX + System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(0x100000 + ThreadLocalRandom.current().nextInt(0xEFFFFF));
        if (server.sqlite()) {
            Path dir = Files.createTempDirectory(name);
            return new ServerScratch(server, dir.toString(), sqliteCopy(server.url(), dir), dir);
        }
        try (Connection c = server.connect(server.url()); Statement s = c.createStatement()) {
            s.execute(server.postgres() ? "CREATE SCHEMA " + name : "CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        }
        return new ServerScratch(server, name, scratchUrl(server, name), null);
    }

    /**
     * A copy of the user's SQLite file in {@code dir}, or a new file there when the URL names no file
     * that exists: the facts are about the library and the driver, measured with the file's own
     * settings, and never on the file itself. Parameters that open the file read-only are dropped,
     * the others (foreign_keys, for example) are kept: they are part of what is measured.
     */
    private static String sqliteCopy(String url, Path dir) throws IOException {
        String rest = url.substring("jdbc:sqlite:".length());
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        List<String> params = new ArrayList<>();
        if (q >= 0) {
            for (String p : rest.substring(q + 1).split("&")) {
                if (!p.isEmpty() && !p.startsWith("mode=") && !p.startsWith("open_mode=")) {
                    params.add(p);
                }
            }
        }
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        Path copy = dir.resolve("scratch.db");
        if (!path.isEmpty() && !path.startsWith(":") && Files.isRegularFile(Path.of(path))) {
            Files.copy(Path.of(path), copy);
        }
        return "jdbc:sqlite:" + copy + (params.isEmpty() ? "" : "?" + String.join("&", params));
    }

    private static String scratchUrl(Server server, String name) {
        String u = server.url();
        int q = u.indexOf('?');
        String base = q < 0 ? u : u.substring(0, q);
        List<String> params = new ArrayList<>();
        if (q >= 0) {
            for (String p : u.substring(q + 1).split("&")) {
                if (!p.isEmpty() && !p.startsWith("currentSchema=")) {
                    params.add(p);
                }
            }
        }
        if (server.postgres()) {
            params.add("currentSchema=" + name);
        } else {
            // jdbc:mysql://host:port/db -> the same host with the scratch database
            int hostStart = base.indexOf("//") + 2;
            int slash = base.indexOf('/', hostStart);
            base = (slash < 0 ? base : base.substring(0, slash)) + "/" + name;
        }
        return base + (params.isEmpty() ? "" : "?" + String.join("&", params));
    }

    /** The schema or database name, or the SQLite copy's directory. */
    String name() {
        return name;
    }

    /** What this is, for the harness's report: "schema x", "database x", "a temporary copy in x". */
    String describe() {
        if (server.sqlite()) {
            return "a temporary copy of the file, in " + name;
        }
        return (server.postgres() ? "schema " : "database ") + name;
    }

    /** The roles made so far, by name. */
    synchronized List<String> roles() {
        return List.copyOf(roles);
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public String user() {
        return server.user();
    }

    @Override
    public String password() {
        return server.password();
    }

    @Override
    public synchronized Connection admin() throws SQLException {
        if (admin == null || admin.isClosed()) {
            admin = connect();
        }
        return admin;
    }

    @Override
    public Connection connect() throws SQLException {
        return server.connect(url);
    }

    @Override
    public Connection connect(ScratchRole role) throws SQLException {
        return Server.connect(url, role.name(), role.password());
    }

    @Override
    public synchronized ScratchRole createRole(String... grants) throws SQLException {
        if (server.sqlite()) {
            throw new IllegalStateException("SQLite has no roles");
        }
        String role = name + "_r" + (roles.size() + 1);
        String password = "pw" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        String written = server.postgres() ? role : "'" + role + "'@'%'";
        try {
            execute(server.postgres() ? "CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'"
                    : "CREATE USER " + written + " IDENTIFIED BY '" + password + "'");
        } catch (SQLException e) {
            throw new RolesUnavailableException("this credential may not create a role (" + e.getMessage().strip()
                    + "); run the harness as one that may (PostgreSQL: CREATEROLE; MySQL, MariaDB: CREATE USER and"
                    + " GRANT OPTION on what samples/roles grants)", e);
        }
        roles.add(role);
        String db = server.postgres() ? name : "`" + name + "`";
        for (String g : grants) {
            String sql = g.replace("{role}", written).replace("{db}", db);
            try {
                execute(sql);
            } catch (SQLException e) {
                throw new RolesUnavailableException("this credential may not grant what the probe needs: " + sql
                        + " (" + e.getMessage().strip() + ")", e);
            }
        }
        return new ScratchRole(role, password);
    }

    /**
     * Drops the schema or database, or deletes the copy, then every role made here. Safe to call
     * twice (the harness also calls it from a shutdown hook).
     *
     * @throws SQLException naming everything that could not be dropped, with the statement to drop it
     */
    @Override
    public synchronized void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        List<String> failures = new ArrayList<>();
        try {
            if (admin != null) {
                admin.close();
            }
        } catch (SQLException e) {
            LOG.debug("closing the administrator connection", e);
        }
        if (server.sqlite()) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                failures.add("could not delete " + directory + ": " + e.getMessage());
            }
        } else {
            try (Connection c = server.connect(server.url()); Statement s = c.createStatement()) {
                if (server.postgres()) {
                    // A probe's session that is still closing may hold a lock for a moment.
                    s.execute("SET lock_timeout = '20s'");
                }
                drop(s, server.postgres() ? "DROP SCHEMA IF EXISTS " + name + " CASCADE"
                        : "DROP DATABASE IF EXISTS `" + name + "`", failures);
                for (String r : roles) {
                    if (server.postgres()) {
                        // Its grants went with the schema; what is left of it elsewhere goes with DROP OWNED.
                        if (!drop(s, "DROP ROLE IF EXISTS " + r, null)) {
                            drop(s, "DROP OWNED BY " + r + " CASCADE", failures);
                            drop(s, "DROP ROLE IF EXISTS " + r, failures);
                        }
                    } else {
                        drop(s, "DROP USER IF EXISTS '" + r + "'@'%'", failures);
                    }
                }
            } catch (SQLException e) {
                failures.add("could not connect to drop " + describe() + " and roles " + roles + ": " + e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            throw new SQLException(String.join("; ", failures));
        }
    }

    private static boolean drop(Statement s, String sql, List<String> failures) {
        try {
            s.execute(sql);
            return true;
        } catch (SQLException e) {
            if (failures != null) {
                failures.add(sql + " failed (" + e.getMessage().strip() + "): run it by hand");
            }
            return false;
        }
    }
}
