package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * LlmSafeGuard, the javaagent's way in: a connection a pool of one already lent is guarded, its UPDATE is a
 * plan with nothing changed (the dry run on the configuration's connection, not on the full pool), and once
 * closed the same physical connection serves the application read-write; a connection that is already
 * llmsafe's is not guarded twice.
 */
class LlmSafeGuardTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_aLentConnectionIsGuardedAndGoesBackToItsPoolReadWrite(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')");
        LlmSafeConfig config = config(db);
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(db.url());
        hc.setUsername(db.user());
        hc.setPassword(db.password());
        hc.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(hc); LlmSafeGuard guard = LlmSafeGuard.over(pool, config)) {
            Assembly.store(pool, Optional.of(config), Clock.systemUTC()).migrate();
            for (int round = 0; round < 2; round++) {
                List<String> before = db.snapshot("orders");
                try (Connection model = guard.guard(pool.getConnection(), "assistant"); Statement s = model.createStatement()) {
                    assertThat(LlmSafeGuard.isGuarded(model)).isTrue();
                    assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 1"))
                            .isInstanceOf(PlanPendingException.class);
                    assertThat(guard.guard(model, "assistant")).isSameAs(model);
                }
                assertThat(db.snapshot("orders")).isEqualTo(before);
                try (Connection app = pool.getConnection(); Statement s = app.createStatement()) {
                    assertThat(LlmSafeGuard.isGuarded(app)).isFalse();
                    assertThat(s.executeUpdate("UPDATE orders SET status = 'paid" + round + "' WHERE id = 2")).isEqualTo(1);
                }
                assertThat(db.snapshot("orders")).contains("[2, paid" + round + "]");
            }
            assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
            assertThat(db.snapshot("llmsafe_plans")).hasSize(2);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void J8_aConnectionOfTheDriversIsNotGuardedTwice(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)");
        Path file = Files.writeString(Files.createTempFile("llmsafe", ".json"), json(db));
        Properties p = new Properties();
        p.setProperty("llmsafe.config", file.toString());
        try (Connection c = DriverManager.getConnection("jdbc:llmsafe:" + db.url().substring(5), p);
                HikariDataSource unused = new HikariDataSource();
                LlmSafeGuard guard = LlmSafeGuard.over(unused, LlmSafeConfig.load(file))) {
            assertThat(guard.guard(c, "assistant")).isSameAs(c);
        }
    }

    private static LlmSafeConfig config(ScratchDatabase db) throws Exception {
        return LlmSafeConfig.parse(json(db), "test", n -> null);
    }

    private static String json(ScratchDatabase db) throws Exception {
        String connection = "{\"url\": " + JSON.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "}";
        return "{\"connection\": " + connection + ","
                + (db.engine() == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Moves money.\"}}}";
    }
}
