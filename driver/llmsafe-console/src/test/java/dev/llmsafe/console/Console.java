package dev.llmsafe.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.policy.ConsoleSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.MovableClock;
import dev.llmsafe.testing.ScratchDatabase;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Properties;
import java.util.UUID;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * A console on a scratch database, as deployed: the application's file (the planning connection, for
 * proposing through {@code jdbc:llmsafe:}) and the console's (read, apply and store connections, the
 * seal key and the users, no planning connection), one store in the database, and a console on an
 * ephemeral port of 127.0.0.1.
 */
final class Console implements AutoCloseable {

    static final String SEAL = "a-seal-key-of-the-console-tests-0123";
    /** Every test user's password; BCrypt at cost 4 keeps sign-ins fast, and the server takes any cost. */
    static final String PASSWORD = "correct horse battery staple";
    private static final ObjectMapper JSON = new ObjectMapper();

    final ScratchDatabase db;
    final Path dir;
    final Path appConfig;
    final Deployment deployment;
    final ConsoleServer server;
    final MovableClock clock = new MovableClock();

    Console(ScratchDatabase db, Path dir, String proxy) throws Exception {
        this.db = db;
        this.dir = dir;
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(200))",
                "INSERT INTO orders VALUES (1, 'packed', NULL), (2, 'packed', NULL), (3, 'packed', NULL), (4, 'packed', NULL)");
        String connection = connection(db);
        String schema = db.engine() == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "";
        String policy = "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"A shipped order is invoiced"
                + " the same night.\"}}";
        appConfig = dir.resolve("app.json");
        Files.writeString(appConfig, "{\"connection\": " + connection + ", " + schema + " \"sealKey\": \"" + SEAL + "\", "
                + policy + "}");
        String hash = BCrypt.hashpw(PASSWORD, BCrypt.gensalt(4));
        String users = "[" + user("alice", "reader\", \"approver", hash) + ", " + user("bob", "reader\", \"applier", hash)
                + ", " + user("carol", "approver", hash) + ", " + user("dave", "reader", hash) + "]";
        Path consoleConfig = dir.resolve("console.json");
        Files.writeString(consoleConfig, "{\"readConnection\": " + connection + ", \"applyConnection\": " + connection
                + ", \"storeConnection\": " + connection + ", " + schema + " \"sealKey\": \"" + SEAL + "\", " + policy
                + ", \"console\": {\"users\": " + users + (proxy == null ? "" : ", \"trustedProxy\": " + proxy) + "}}");
        LlmSafeConfig config = LlmSafeConfig.load(consoleConfig, n -> null);
        deployment = new Deployment(config, Clock.systemUTC());
        deployment.store().migrate();
        server = ConsoleServer.start(deployment, new InetSocketAddress("127.0.0.1", 0), clock);
    }

    private static String user(String name, String roles, String hash) {
        return "{\"name\": \"" + name + "\", \"roles\": [\"" + roles + "\"], \"passwordHash\": \"" + hash + "\"}";
    }

    static String connection(ScratchDatabase db) throws Exception {
        return "{\"url\": " + JSON.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "}";
    }

    String base() {
        return "http://127.0.0.1:" + server.port();
    }

    ConsoleSettings settings() {
        return deployment.config().console().orElseThrow();
    }

    /** Proposes a write through jdbc:llmsafe:, as the application does, and returns the plan's id. */
    UUID propose(String proposer, String sql) throws SQLException {
        Properties p = new Properties();
        if (db.user() != null) {
            p.setProperty("user", db.user());
        }
        if (db.password() != null) {
            p.setProperty("password", db.password());
        }
        p.setProperty("llmsafe.config", appConfig.toString());
        p.setProperty("llmsafe.proposer", proposer);
        try (Connection c = DriverManager.getConnection("jdbc:llmsafe:" + db.url().substring("jdbc:".length()), p);
                Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        } catch (PlanPendingException pending) {
            return pending.planId();
        }
        throw new AssertionError("the write was not made a plan: " + sql);
    }

    @Override
    public void close() {
        server.close();
        deployment.close();
    }
}
