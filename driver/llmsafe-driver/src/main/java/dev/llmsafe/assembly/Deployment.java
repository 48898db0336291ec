package dev.llmsafe.assembly;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.store.PlanStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The four connections of a configuration, opened as small pools of the engine's own ({@link Pools}),
 * and what is built on them ({@link Assembly}), for the operator's tools (the command line, the MCP
 * server): the planner on {@code connection}, the store on {@code storeConnection}, the applier
 * on {@code applyConnection}, reads on {@code readConnection}. A connection left out of the
 * configuration falls back to {@code connection}, and {@link #role} says so. Pools are opened when
 * first used and closed with this. Thread-safe.
 */
public final class Deployment implements AutoCloseable {

    /** The four places a guard can sit. */
    public enum Role {
        /** Runs reads. */
        READ("readConnection"),
        /** Runs dry runs; must be able to write, always rolls back. */
        PLAN("connection"),
        /** Commits approved plans. */
        APPLY("applyConnection"),
        /** Holds plans and the audit trail. */
        STORE("storeConnection");

        private final String key;

        Role(String key) {
            this.key = key;
        }

        /** The configuration key. */
        public String key() {
            return key;
        }
    }

    private final LlmSafeConfig config;
    private final Clock clock;
    private final boolean outlastsDatabase;
    private final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
    private final Map<Role, Dialect> dialects = new java.util.EnumMap<>(Role.class);
    private PlanStore store;

    /**
     * @param config the configuration
     * @param clock the clock plans are dated and expired by
     */
    public Deployment(LlmSafeConfig config, Clock clock) {
        this(config, clock, false);
    }

    /**
     * @param config the configuration
     * @param clock the clock plans are dated and expired by
     * @param outlastsDatabase whether the pools outlast a database that is down: opened without a first
     *     connection, each use waits at most 5 s and fails with the driver's reason until it is back (a
     *     long-running server such as {@code llmsafe mcp}); otherwise a database that cannot be reached is
     *     reported at once (a command)
     */
    public Deployment(LlmSafeConfig config, Clock clock, boolean outlastsDatabase) {
        this.config = config;
        this.clock = clock;
        this.outlastsDatabase = outlastsDatabase;
    }

    /** The configuration. */
    public LlmSafeConfig config() {
        return config;
    }

    /** The connection settings a role uses, and whether they are its own or {@code connection}'s. */
    public ConnectionSettings settings(Role role) {
        Optional<ConnectionSettings> own = switch (role) {
            case READ -> config.readConnection();
            case PLAN -> Optional.of(config.connection());
            case APPLY -> config.applyConnection();
            case STORE -> config.storeConnection();
        };
        // A configuration for approving or applying only names no planning connection: connection() says so.
        return own.orElseGet(config::connection);
    }

    /** Whether the role has its own entry in the configuration. */
    public boolean configured(Role role) {
        return switch (role) {
            case PLAN -> true;
            case READ -> config.readConnection().isPresent();
            case APPLY -> config.applyConnection().isPresent();
            case STORE -> config.storeConnection().isPresent();
        };
    }

    /**
     * The pool for a role; roles with identical settings share one.
     *
     * @throws SQLException when the database cannot be reached, with the driver's reason
     */
    public synchronized DataSource pool(Role role) throws SQLException {
        ConnectionSettings s = settings(role);
        if (!(role == Role.STORE && configured(Role.STORE))) {
            // Only a store of its own may be a new file: migrate creates it.
            requireSqliteFile(role, s.url());
        }
        // The configured schema is pinned on every connection from the start (Dialects.schemaPin): a store that
        // shares the pool finds its tables where migrate made them, whatever ran on the connection before. A
        // store of its own (storeConnection) keeps its connections' default schema (samples/roles:
        // currentSchema in its URL), in a pool of its own even on the planning credential.
        boolean ownStore = role == Role.STORE && configured(Role.STORE);
        Optional<String> pin = ownStore ? Optional.empty() : Dialects.schemaPin(s.url(), config.schema().orElse(null));
        boolean apart = ownStore && Dialects.schemaPin(s.url(), config.schema().orElse(null)).isPresent();
        String key = s.url() + "\u0000" + s.user().orElse("") + (apart ? "\u0000store" : "");
        HikariDataSource pool = pools.get(key);
        if (pool == null) {
            pool = Pools.open(role.name(), s, Pools.DEPLOYMENT_SIZE,
                    outlastsDatabase ? Pools.Start.OUTLASTING : Pools.Start.AT_ONCE, pin);
            pools.put(key, pool);
        }
        return pool;
    }

    /**
     * SQLite creates a missing file on connect: an application database given by a path that does not
     * exist (a relative path read from another working directory) would be an empty new file, and
     * migrate would put a store in it and report success.
     */
    private void requireSqliteFile(Role role, String url) {
        if (!url.startsWith("jdbc:sqlite:")) {
            return;
        }
        String path = url.substring("jdbc:sqlite:".length());
        int q = path.indexOf('?');
        path = q < 0 ? path : path.substring(0, q);
        if (path.isEmpty() || path.startsWith(":memory:") || path.startsWith("file:")) {
            return;
        }
        java.nio.file.Path file = java.nio.file.Path.of(path).toAbsolutePath();
        if (!java.nio.file.Files.exists(file)) {
            throw new ConfigException(config.source(), 0, 0, (configured(role) ? role.key() : "connection") + ".url",
                    "there is no SQLite database at "
                    + file + (java.nio.file.Path.of(path).isAbsolute() ? ". Give the path of the application's database."
                    : " (a relative path given in code is read from the working directory, "
                    + java.nio.file.Path.of("").toAbsolutePath() + "). Give an absolute path."));
        }
    }


    /** The dialect of the application's database, asked of the planning connection. */
    public Dialect dialect() throws SQLException {
        return dialect(Role.PLAN);
    }

    /**
     * The dialect as the role's own connection answers: an applying process may hold the apply
     * credential only, and must not need the planning one to learn what database it talks to.
     */
    public synchronized Dialect dialect(Role role) throws SQLException {
        Dialect d = dialects.get(role);
        if (d == null) {
            try (Connection c = pool(role).getConnection()) {
                d = Dialects.of(c, config.schema().orElse(null));
            }
            dialects.put(role, d);
        }
        return d;
    }

    /** The bounds of dry runs and applies. */
    public Bounds bounds() {
        return Assembly.bounds(Optional.of(config));
    }

    /** The seal key's bytes, also the key secret values are hashed with; null when none is set. */
    public byte[] sealKey() {
        return Assembly.sealKey(Optional.of(config));
    }

    /** The plan store on the store connection. */
    public synchronized PlanStore store() throws SQLException {
        if (store == null) {
            store = Assembly.store(pool(Role.STORE), Optional.of(config), clock);
        }
        return store;
    }

    /** A planner on the planning connection. */
    public Planner planner() throws SQLException {
        return Assembly.planner(pool(Role.PLAN), dialect(), config.policy(), Optional.of(config), clock);
    }

    /** The approver. */
    public Approver approver() throws SQLException {
        return new Approver(store(), config.allowSelfApprove());
    }

    /** An applier on the apply connection. */
    public Applier applier() throws SQLException {
        return new Applier(store(), pool(Role.APPLY), dialect(Role.APPLY), config.policy(), bounds(),
                config.allowSelfApprove(), sealKey());
    }

    /** Closes every pool this opened. */
    @Override
    public synchronized void close() {
        List<HikariDataSource> all = new ArrayList<>(pools.values());
        pools.clear();
        all.forEach(HikariDataSource::close);
    }
}
