package dev.llmsafe.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent in a real application (com.acme.shop, started in a JVM of its own with the built agent jar,
 * HikariCP with one connection): the assistant package's UPDATE is a plan with nothing changed, the
 * application's same UPDATE on the same physical connection commits, in turn and again; a URL the agent
 * names is guarded through plain DriverManager; a pool over jdbc:llmsafe: is not guarded twice; a broken
 * configuration stops the JVM with the reader's located message.
 */
class AgentApplicationTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GUARDED = "connection=dev.llmsafe.jdbc.GuardedConnection";
    private static final String PROXY = "connection=com.zaxxer.hikari.pool.HikariProxyConnection";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theScopeIsGuardedAndTheRestOfTheApplicationKeepsItsRawConnectionsFromTheSamePool(Engine engine)
            throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed'), (3, 'packed')");
        Path config = Files.createTempDirectory("llmsafe-agent").resolve("llmsafe.json");
        Files.writeString(config, configuration(db));
        migrateStore(db, config);
        String marker = switch (engine) {
            case POSTGRES -> "ApplicationName=llmsafe-agent-url";
            case MYSQL -> "connectTimeout=10001";
            case SQLITE -> "busy_timeout=3001";
        };
        // The application's URLs carry the credential, as an application's own would: without it a driver
        // connects as the operating system's user (root), which the machine's MariaDB 10.11 let in and a
        // MariaDB 11.8 of servers.sh does not.
        String url = db.url();
        if (db.user() != null) {
            url += (url.contains("?") ? "&" : "?") + "user=" + URLEncoder.encode(db.user(), StandardCharsets.UTF_8)
                    + (db.password() == null ? "" : "&password=" + URLEncoder.encode(db.password(), StandardCharsets.UTF_8));
        }
        String sep = url.contains("?") ? "&" : "?";

        AgentJvm.Run run = AgentJvm.run("config=" + config + ",scope=com.acme.shop.assistant,url=*" + marker,
                "com.acme.shop.ShopApp", url, url + sep + marker,
                "jdbc:llmsafe:" + url.substring("jdbc:".length()) + sep + "llmsafe.config=" + config);

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("APP done");
        assertThat(run.err()).doesNotContain("could not weave");
        assertThat(run.err().lines().filter(l -> l.contains("llmsafe agent: guarding"))).singleElement().asString()
                .contains("[com.acme.shop.assistant]", "[*" + marker + "]", config.toString());
        Map<String, String> r = run.results();
        for (String round : List.of("1", "2")) {
            assertThat(r.get("scoped-update-" + round)).startsWith("PlanPendingException 25L01 plan=").endsWith(GUARDED);
            assertThat(r.get("unscoped-update-" + round)).isEqualTo("rows=1 " + PROXY);
        }
        assertThat(r.get("scoped-read")).isEqualTo("packed " + GUARDED);
        assertThat(r.get("pool-connections")).isEqualTo("1");
        assertThat(r.get("url-mode")).startsWith("PlanPendingException 25L01 plan=");
        assertThat(r.get("unscoped-driver-manager")).startsWith("rows=1 connection=").doesNotContain("llmsafe");
        assertThat(r.get("scoped-driver-manager")).startsWith("PlanPendingException 25L01 plan=").endsWith(GUARDED);
        // Already llmsafe's through its URL: Hikari's proxy over the driver's connection, not guarded again.
        assertThat(r.get("scoped-llmsafe-url")).startsWith("PlanPendingException 25L01 plan=").endsWith(PROXY);

        // Every UPDATE the agent guarded changed nothing; the application's committed.
        assertThat(db.snapshot("orders")).containsExactly("[1, packed]", "[2, paid2]", "[3, paid-dm]");
        List<String> planIds = r.values().stream().map(AgentApplicationTest::planId).flatMap(Optional::stream).toList();
        assertThat(planIds).hasSize(5).doesNotHaveDuplicates();
        assertThat(db.snapshot("llmsafe_plans")).hasSize(5)
                .allSatisfy(row -> assertThat(planIds).anyMatch(row::contains));
    }

    @Test
    void aConfigurationThatDoesNotLoadStopsTheJvmWithTheLocatedMessage() throws Exception {
        Path config = Files.createTempDirectory("llmsafe-agent").resolve("llmsafe.json");
        Files.writeString(config, "{\"connection\": {\"url\": \"jdbc:sqlite:shop.db\"},\n"
                + "  \"policy\": {\"allw\": [\"orders\"]}\n}\n");

        AgentJvm.Run run = AgentJvm.run("config=" + config + ",scope=com.acme.shop.assistant", "com.acme.shop.ShopApp");

        assertThat(run.exit()).isEqualTo(78);
        assertThat(run.out()).doesNotContain("APP started");
        assertThat(run.err()).contains("llmsafe agent: " + config + ":2:", "policy.allw", "unknown key",
                "the JVM stops rather than run unguarded");
    }

    private static Optional<String> planId(String outcome) {
        Matcher m = Pattern.compile("plan=([0-9a-f-]{36})").matcher(outcome);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static void migrateStore(ScratchDatabase db, Path config) throws Exception {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(db.url());
        hc.setUsername(db.user());
        hc.setPassword(db.password());
        hc.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(hc)) {
            Assembly.store(pool, Optional.of(LlmSafeConfig.load(config)), Clock.systemUTC()).migrate();
        }
    }

    static String configuration(ScratchDatabase db) throws Exception {
        String connection = "{\"url\": " + JSON.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "}";
        return "{\"connection\": " + connection + ","
                + (db.engine() == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Shipping an order bills it.\"}}}";
    }
}
