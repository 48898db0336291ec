package dev.llmsafe.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link DatabaseTools#over(javax.sql.DataSource, LlmSafeConfig)}, an application's pool: plans go to the
 * store the configuration names (its own database when {@code storeConnection} is set) and plan status
 * reads them there; one instance serves concurrent callers; a malformed or unknown plan id is no plan.
 */
class DatabaseToolsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String connection(ScratchDatabase db) throws Exception {
        return "{\"url\": " + JSON.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "}";
    }

    private static ScratchDatabase seeded(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed'), (3, 'shipped')");
        return db;
    }

    private static HikariDataSource pool(ScratchDatabase db) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(db.url());
        hc.setUsername(db.user());
        hc.setPassword(db.password());
        hc.setMaximumPoolSize(3);
        return new HikariDataSource(hc);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void plansGoToTheStoreConnectionsDatabaseAndPlanStatusReadsThemThere(Engine engine) throws Exception {
        ScratchDatabase app = seeded(engine);
        ScratchDatabase storeDb = dbs.fresh(engine);
        LlmSafeConfig config = LlmSafeConfig.parse("{\"connection\": " + connection(app) + ","
                + (engine == Engine.POSTGRES ? "\"schema\": \"" + app.name() + "\"," : "")
                + "\"storeConnection\": " + connection(storeDb) + ","
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Moves money.\"}}}", "test", n -> null);
        try (HikariDataSource pool = pool(app); HikariDataSource store = pool(storeDb);
                DatabaseTools tools = DatabaseTools.over(pool, config)) {
            Assembly.store(store, Optional.of(config), Clock.systemUTC()).migrate();
            List<String> before = app.snapshot("orders");

            ProposedPlan plan = tools.plan("UPDATE orders SET status = 'shipped' WHERE id = 1", "tester");

            assertThat(plan.card()).startsWith("Plan " + plan.planId() + " is proposed, not applied.");
            assertThat(ModelText.plan(plan)).isEqualTo(plan.card());
            assertThat(app.snapshot("orders")).isEqualTo(before);
            assertThat(storeDb.snapshot("llmsafe_plans")).hasSize(1);
            Optional<PlanStatus> status = tools.planStatus(plan.planId());
            assertThat(status).map(PlanStatus::state).contains(PlanStatus.State.PROPOSED);
            assertThat(ModelText.status(plan.planId(), status)).startsWith("Plan " + plan.planId() + " is proposed.");
            // Not an id, and an id no plan has: no plan, said so to the model.
            assertThat(tools.planStatus("not-a-plan")).isEmpty();
            assertThat(tools.planStatus("00000000-0000-0000-0000-000000000000")).isEmpty();
            assertThat(ModelText.status("not-a-plan", Optional.empty())).startsWith("No plan has the id not-a-plan.");
        }
    }

    /**
     * T1 over an application's pool whose connections open in another schema than the configured one
     * (PostgreSQL): the plan goes to the store in the configured schema, where migrate made it, and its status
     * is read there too; the pool's connections keep their own schema.
     */
    @org.junit.jupiter.api.Test
    void T1_withAConfiguredSchemaThatIsNotThePoolsThePlanAndItsStatusAreInOneStore() throws Exception {
        ScratchDatabase app = seeded(Engine.POSTGRES);
        ScratchDatabase other = dbs.fresh(Engine.POSTGRES);
        LlmSafeConfig config = LlmSafeConfig.parse("{\"connection\": " + connection(other) + ", \"schema\": \""
                + app.name() + "\", \"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Moves money.\"}}}",
                "test", n -> null);
        try (dev.llmsafe.assembly.Deployment d = new dev.llmsafe.assembly.Deployment(config, Clock.systemUTC())) {
            d.store().migrate();
        }
        try (HikariDataSource pool = pool(other); DatabaseTools tools = DatabaseTools.over(pool, config)) {
            // The model's read resolves in the configured schema too (its lent connection is pinned, then put back).
            try (var g = tools.guarded().getConnectionFor("x"); var st = g.createStatement();
                    var rs = st.executeQuery("SELECT status FROM orders WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("packed");
            }
            try (var c = pool.getConnection()) {
                assertThat(c.getSchema()).as("the pool's connection after a read").isEqualTo(other.name());
            }
            ProposedPlan plan = tools.plan("UPDATE orders SET status = 'shipped' WHERE id = 1", "tester");
            assertThat(tools.planStatus(plan.planId())).map(PlanStatus::state).contains(PlanStatus.State.PROPOSED);
            assertThat(app.snapshot("llmsafe_plans")).hasSize(1);
        }
    }

    /** O5: a deployment with the read connection and no planning one (the console's) reads and plans nothing. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void O5_aDeploymentWithoutThePlanningConnectionReadsOnItsReadConnectionAndRefusesToPlan(Engine engine)
            throws Exception {
        ScratchDatabase app = seeded(engine);
        LlmSafeConfig config = LlmSafeConfig.parse("{\"readConnection\": " + connection(app) + ","
                + (engine == Engine.POSTGRES ? "\"schema\": \"" + app.name() + "\"," : "")
                + "\"storeConnection\": " + connection(app) + ","
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Moves money.\"}}}", "test", n -> null);
        try (dev.llmsafe.assembly.Deployment d = new dev.llmsafe.assembly.Deployment(config, Clock.systemUTC());
                DatabaseTools tools = DatabaseTools.over(d)) {
            d.store().migrate();
            assertThat(tools.read("SELECT id FROM orders WHERE status = 'packed' ORDER BY id").rows())
                    .containsExactly(List.of(1L), List.of(2L));
            assertThat(tools.explain("SELECT id FROM orders").estimate()).isPositive();
            List<String> before = app.snapshot("orders");
            Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                    () -> tools.plan("UPDATE orders SET status = 'shipped' WHERE id = 1", "tester"));
            assertThat(refused).isInstanceOf(dev.llmsafe.policy.ConfigException.class)
                    .hasMessageContaining("names no connection");
            assertThat(app.snapshot("orders")).isEqualTo(before);
            assertThat(app.snapshot("llmsafe_plans")).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void oneInstanceServesConcurrentCallersOnThePool(Engine engine) throws Exception {
        ScratchDatabase app = seeded(engine);
        LlmSafeConfig config = LlmSafeConfig.parse("{\"connection\": " + connection(app) + ","
                + (engine == Engine.POSTGRES ? "\"schema\": \"" + app.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\"]}}", "test", n -> null);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (HikariDataSource pool = pool(app); DatabaseTools tools = DatabaseTools.over(pool, config)) {
            List<Future<ReadResult>> reads = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                reads.add(threads.submit(() -> tools.read("SELECT id, status FROM orders WHERE id = 3")));
            }
            for (Future<ReadResult> r : reads) {
                assertThat(r.get().rows()).containsExactly(List.of(3L, "shipped"));
            }
            // A read is refused as such, and a write sent to the read tool never becomes a plan.
            RefusedException write = catchThrowableOfType(RefusedException.class,
                    () -> tools.read("UPDATE orders SET status = 'x' WHERE id = 1"));
            assertThat(write.code()).isEqualTo(Refusal.UNSUPPORTED_STATEMENT);
            assertThat(ModelText.failure(write)).isEqualTo(write.getMessage()).startsWith("Refused (UNSUPPORTED_STATEMENT): ");
            assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isLessThanOrEqualTo(3);
        } finally {
            threads.shutdownNow();
        }
    }
}
