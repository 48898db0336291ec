package dev.llmsafe.jdbc;

import dev.llmsafe.policy.LlmSafeConfig;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code jdbc:llmsafe:} driver (J8). Put {@code jdbc:llmsafe:} in front of a PostgreSQL,
 * MySQL/MariaDB or SQLite URL, and the connection that comes back is the model's: reads are guarded and
 * run in a read-only session, every UPDATE and DELETE becomes a measured plan and
 * {@link PlanPendingException}, everything else is refused.
 *
 * <pre>{@code
 * Connection c = DriverManager.getConnection(
 *         "jdbc:llmsafe:postgresql://db:5432/app?llmsafe.config=/etc/app/llmsafe.json", "app", password);
 * }</pre>
 *
 * <p>It is found by {@link DriverManager} (it registers itself, and is listed in
 * {@code META-INF/services/java.sql.Driver}) and by pools given only the URL (HikariCP's
 * {@code jdbcUrl}); a pool that instantiates it by class name shares the same engines. The real driver
 * is found among the registered drivers, never this one, else loaded by name from the class path.
 * Where the configuration comes from, and which options of the real URL are removed, is in the README
 * ("Using the driver"). The dry run runs on a small pool of the driver's own to the same URL and
 * credential, one per configuration, URL and credential, closed when their last connection closes.
 */
public final class LlmSafeDriver implements Driver {

    private static final LlmSafeDriver REGISTERED = new LlmSafeDriver();

    static {
        try {
            DriverManager.registerDriver(REGISTERED);
        } catch (SQLException e) {
            LoggerFactory.getLogger(LlmSafeDriver.class).error("could not register the jdbc:llmsafe: driver", e);
        }
    }

    private final Engines engines;
    private final ConfigDiscovery discovery;

    /** The driver, sharing the engines of every other instance (DriverManager's, a pool's). */
    public LlmSafeDriver() {
        this(Engines.shared(), ConfigDiscovery.standard());
    }

    LlmSafeDriver(Engines engines, ConfigDiscovery discovery) {
        this.engines = engines;
        this.discovery = discovery;
    }

    /** Whether the URL begins with {@code jdbc:llmsafe:} and names something after it. */
    @Override
    public boolean acceptsURL(String url) {
        return DriverUrl.accepts(url);
    }

    /**
     * Opens the real connection, puts it in its read-only session and guards it.
     *
     * @return the guarded connection, or null for a URL that is not {@code jdbc:llmsafe:} (JDBC's rule)
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        DriverUrl.Parsed parsed = DriverUrl.parse(url, info);
        ConfigDiscovery.Location location = discovery.locate(parsed.own(DriverUrl.CONFIG));
        String proposer = Optional.ofNullable(parsed.own(DriverUrl.PROPOSER)).orElse("assistant");
        Driver real = RealDrivers.find(parsed.realUrl());
        Map<String, String> credential = new TreeMap<>();
        parsed.properties().stringPropertyNames().forEach(k -> credential.put(k, parsed.properties().getProperty(k)));
        List<Object> key = List.of(location.id(), parsed.realUrl(), credential);
        Properties forReads = DriverUrl.forReads(parsed, () -> {
            Optional<Engine> known = engines.existing(key);
            return (known.isPresent() ? known.get().policy() : discovery.load(location).policy()).read().maxBytes();
        });
        Connection raw = RealDrivers.connect(real, parsed.realUrl(), forReads);
        try {
            Engine engine = engines.acquire(key, sinks -> {
                LlmSafeConfig config = discovery.load(location);
                if (!parsed.removed().isEmpty()) {
                    LoggerFactory.getLogger(LlmSafeDriver.class).warn("llmsafe removed {} from the connection to {}:"
                            + " they would defeat the guard", parsed.removed(), DriverUrl.redacted(parsed.realUrl()));
                }
                return new Engine(Optional.of(config), config.policy(), Engine.dialect(raw, Optional.of(config)),
                        Engine.pool(real, parsed.realUrl(), parsed.properties(), Optional.of(config)), sinks);
            });
            return GuardedConnection.open(engine, raw, true, proposer, () -> engines.release(engine));
        } catch (SQLException | RuntimeException e) {
            try {
                raw.close();
            } catch (SQLException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
    }

    /**
     * The real driver's properties for the real URL, and llmsafe's own. No value the caller gave (in the
     * URL or the properties) is handed back, the password among them (J9): a property shows the value the
     * real driver answers for the URL without parameters or credentials, its default, and none otherwise.
     */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        DriverPropertyInfo config = new DriverPropertyInfo(DriverUrl.CONFIG, info == null ? null
                : info.getProperty(DriverUrl.CONFIG));
        config.description = "the path of llmsafe.json (else the system property llmsafe.config, the environment"
                + " variable LLMSAFE_CONFIG, or llmsafe.json on the class path)";
        DriverPropertyInfo proposer = new DriverPropertyInfo(DriverUrl.PROPOSER, "assistant");
        proposer.description = "who proposes this connection's plans, as recorded (not an authorisation boundary)";
        if (!acceptsURL(url)) {
            return new DriverPropertyInfo[] {config, proposer};
        }
        DriverUrl.Parsed p = DriverUrl.parse(url, info);
        Driver driver = RealDrivers.find(p.realUrl());
        DriverPropertyInfo[] real = driver.getPropertyInfo(p.realUrl(), p.properties());
        Map<String, String> defaults = new TreeMap<>();
        try {
            for (DriverPropertyInfo d : driver.getPropertyInfo(DriverUrl.redacted(p.realUrl()), new Properties())) {
                defaults.put(d.name, d.value);
            }
        } catch (SQLException | RuntimeException e) {
            // no defaults known: no value is shown
        }
        for (DriverPropertyInfo d : real) {
            if (d.value != null && !d.value.equals(defaults.get(d.name))) {
                d.value = null;
            }
        }
        DriverPropertyInfo[] all = Arrays.copyOf(real, real.length + 2);
        all[real.length] = config;
        all[real.length + 1] = proposer;
        return all;
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    /** Not compliant: it refuses much of JDBC on purpose (writes, calls, updatable result sets). */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    /** llmsafe logs through SLF4J, not java.util.logging. */
    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("llmsafe logs through SLF4J");
    }
}
