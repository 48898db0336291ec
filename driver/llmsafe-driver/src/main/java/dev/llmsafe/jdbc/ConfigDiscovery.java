package dev.llmsafe.jdbc;

import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.LlmSafeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Where the driver finds {@code llmsafe.json} (J8), first match wins:
 * <ol>
 *   <li>the connection property or URL parameter {@code llmsafe.config} (a path; given both ways, they
 *       must agree);</li>
 *   <li>the system property {@code llmsafe.config};</li>
 *   <li>the environment variable {@code LLMSAFE_CONFIG};</li>
 *   <li>a resource {@code llmsafe.json} on the class path (the thread's context class loader, then
 *       llmsafe's own).</li>
 * </ol>
 * None found is an error that lists the four places. A file's {@code ${NAME}} values come from the
 * same environment. A relative SQLite path in a file is read from the file's directory; in a class
 * path resource, from the working directory.
 */
final class ConfigDiscovery {

    static final String PROPERTY = "llmsafe.config";
    static final String VARIABLE = "LLMSAFE_CONFIG";
    static final String RESOURCE = "llmsafe.json";

    /**
     * Where a configuration was found.
     *
     * @param id the absolute path, or the resource's URL: what engines are told apart by
     * @param path the file, or null for a class path resource
     * @param resource the resource, or null for a file
     */
    record Location(String id, Path path, URL resource) {
    }

    private final UnaryOperator<String> systemProperties;
    private final UnaryOperator<String> environment;
    private final Supplier<ClassLoader[]> loaders;

    ConfigDiscovery(UnaryOperator<String> systemProperties, UnaryOperator<String> environment, ClassLoader... loaders) {
        this(systemProperties, environment, loaders::clone);
    }

    private ConfigDiscovery(UnaryOperator<String> systemProperties, UnaryOperator<String> environment,
            Supplier<ClassLoader[]> loaders) {
        this.systemProperties = systemProperties;
        this.environment = environment;
        this.loaders = loaders;
    }

    /**
     * The JVM's own system properties, environment and class loaders. The context class loader is the
     * one of the thread that connects, not of the one that loaded the driver: DriverManager registers the
     * driver once, often before an application server or a Spring Boot jar sets up the application's
     * class path, where its llmsafe.json is.
     */
    static ConfigDiscovery standard() {
        return new ConfigDiscovery(System::getProperty, System::getenv,
                () -> new ClassLoader[] {Thread.currentThread().getContextClassLoader(), ConfigDiscovery.class.getClassLoader()});
    }

    /**
     * Finds the configuration.
     *
     * @param given the value of {@code llmsafe.config} from the connection's properties or URL, or null
     */
    Location locate(String given) throws SQLException {
        if (given != null && !given.isBlank()) {
            return file(given);
        }
        String property = systemProperties.apply(PROPERTY);
        if (property != null && !property.isBlank()) {
            return file(property);
        }
        String variable = environment.apply(VARIABLE);
        if (variable != null && !variable.isBlank()) {
            return file(variable);
        }
        for (ClassLoader loader : loaders.get()) {
            URL url = loader == null ? null : loader.getResource(RESOURCE);
            if (url != null) {
                return new Location(url.toString(), null, url);
            }
        }
        throw new SQLException("llmsafe found no configuration. Give the path of an llmsafe.json as the connection"
                + " property or URL parameter " + PROPERTY + " (jdbc:llmsafe:...?" + PROPERTY + "=/etc/app/llmsafe.json),"
                + " the system property " + PROPERTY + ", or the environment variable " + VARIABLE + ", or put an "
                + RESOURCE + " on the class path.", "08001");
    }

    private static Location file(String path) {
        Path p = Path.of(path).toAbsolutePath().normalize();
        return new Location(p.toString(), p, null);
    }

    /** Reads and checks the configuration; its errors name the file, line and key. */
    LlmSafeConfig load(Location location) throws SQLException {
        try {
            if (location.path() != null) {
                return LlmSafeConfig.load(location.path(), environment);
            }
            String text;
            try (InputStream in = location.resource().openStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            // A resource has no directory of its own: its relative SQLite paths are the working directory's,
            // like those of the application's own jdbc:llmsafe:sqlite: URL; a file's are the file's (README).
            return LlmSafeConfig.parse(text, location.id(), Path.of("").toAbsolutePath(), environment);
        } catch (ConfigException e) {
            throw new SQLException("llmsafe cannot use its configuration: " + e.getMessage(), "08001", e);
        } catch (IOException e) {
            throw new SQLException("llmsafe cannot read its configuration " + location.id() + ": " + e, "08001", e);
        }
    }
}
