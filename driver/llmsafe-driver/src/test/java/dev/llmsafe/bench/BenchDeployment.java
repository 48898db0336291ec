package dev.llmsafe.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.ScratchDatabase;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * The deployment the benchmarks and the concurrency tests stand up over a scratch database, in one place: a
 * configuration over a URL (the database's own, or a {@link CountingProxy}'s in front of it), the plan store
 * migrated through an admin pool, the configuration written to a temporary file, and the {@code jdbc:llmsafe:}
 * URL that names that file, with the credential to open it. The table to write is the caller's
 * ({@code PlanBenchmark.benchTable}, or its own).
 *
 * @param config the configuration the file holds
 * @param file the temporary file, deleted when the JVM exits
 * @param guardedUrl {@code jdbc:llmsafe:} over the URL, with {@code llmsafe.config} naming the file
 * @param credentials the database's user and password, for {@link DriverManager}
 */
public record BenchDeployment(LlmSafeConfig config, Path file, String guardedUrl, Properties credentials) {

    /** Over the database's own URL. */
    public static BenchDeployment of(ScratchDatabase db, Policy policy) throws SQLException, IOException {
        return of(db, db.url(), policy, b -> b);
    }

    /**
     * @param db the database the store is migrated in
     * @param url the URL the configuration connects to (the database's, or a proxy's in front of it)
     * @param policy the policy of the configuration
     * @param tune what else the configuration sets (bounds, schema, a connection with a credential)
     */
    public static BenchDeployment of(ScratchDatabase db, String url, Policy policy,
            UnaryOperator<LlmSafeConfig.Builder> tune) throws SQLException, IOException {
        LlmSafeConfig config = tune.apply(LlmSafeConfig.builder().connection(ConnectionSettings.of(url)).policy(policy))
                .build();
        try (HikariDataSource admin = new HikariDataSource()) {
            admin.setJdbcUrl(db.url());
            admin.setUsername(db.user());
            admin.setPassword(db.password());
            Assembly.store(admin, Optional.of(config), Clock.systemUTC()).migrate();
        }
        Path file = Files.createTempFile("llmsafe-bench-", ".json");
        file.toFile().deleteOnExit();
        Files.writeString(file, config.toJson());
        String guardedUrl = "jdbc:llmsafe:" + url.substring("jdbc:".length()) + (url.contains("?") ? "&" : "?")
                + "llmsafe.config=" + URLEncoder.encode(file.toString(), StandardCharsets.UTF_8);
        Properties credentials = new Properties();
        if (db.user() != null) {
            credentials.setProperty("user", db.user());
        }
        if (db.password() != null) {
            credentials.setProperty("password", db.password());
        }
        return new BenchDeployment(config, file, guardedUrl, credentials);
    }

    /** A connection through {@code jdbc:llmsafe:}, as the application's. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(guardedUrl, credentials);
    }
}
