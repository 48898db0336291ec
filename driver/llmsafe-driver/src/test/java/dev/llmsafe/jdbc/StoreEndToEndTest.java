package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The whole way with the driver's default sink, the plan store: an application's HikariCP pool over
 * {@code jdbc:llmsafe:} proposes, a person approves, the applier commits; and without a migrated store
 * the proposal is refused with what to run, the database unchanged.
 */
class StoreEndToEndTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact("A shipped order is invoiced the same night.")));

    private static Guarded fresh(ScratchDatabase db) throws SQLException {
        db.execute("DROP TABLE IF EXISTS orders",
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')");
        return Guarded.of(db, POLICY);
    }

    private static HikariDataSource pool(String url, ScratchDatabase db, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        config.setPoolName(name + "-" + db.engine().key());
        return new HikariDataSource(config);
    }

    /** The applier, on the administrator's connections (the credential separation is RolesEndToEndTest's). */
    private static Applier applier(PlanStore store, DataSource admin, Guarded g) throws SQLException {
        try (Connection c = admin.getConnection()) {
            Dialect dialect = Dialects.of(c, g.engine() == Engine.POSTGRES ? Identifier.of(g.db.name()) : null);
            return new Applier(store, admin, dialect, POLICY, Bounds.DEFAULT, false, null);
        }
    }

    private static int updateOrderStatus(DataSource ds, int id, String status) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = ? WHERE id = ?")) {
            ps.setString(1, status);
            ps.setInt(2, id);
            return ps.executeUpdate();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_A1_aPlanProposedThroughTheDriverIsInTheStoreAndAppliesAfterApproval(Engine engine) throws Exception {
        Guarded g = fresh(dbs.get(engine));
        try (HikariDataSource admin = pool(g.db.url(), g.db, "store"); HikariDataSource app = pool(g.url(), g.db, "app")) {
            PlanStore store = new PlanStore(admin, null, Duration.ofHours(24), Clock.systemUTC());
            store.migrate();
            List<String> before = g.db.snapshot("orders");

            PlanPendingException pending = catchThrowableOfType(PlanPendingException.class,
                    () -> updateOrderStatus(app, 2, "shipped"));
            assertThat((Throwable) pending).as("the UPDATE became a plan").isNotNull();
            assertThat(g.db.snapshot("orders")).isEqualTo(before);
            StoredPlan stored = store.load(pending.planId());
            assertThat(stored.status()).isEqualTo(PlanStatus.PROPOSED);
            assertThat(stored.plan().card()).isEqualTo(pending.plan().card()).contains("status: 'packed' -> 'shipped'");

            new Approver(store, false).approve(pending.planId(), "alice@example.com");
            applier(store, admin, g).apply(pending.planId(), "bob@example.com");
            assertThat(g.db.snapshot("orders")).containsExactly("[1, packed]", "[2, shipped]");
            assertThat(store.load(pending.planId()).status()).isEqualTo(PlanStatus.APPLIED);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void T1_withoutAMigratedStoreTheProposalIsRefusedWithWhatToRun(Engine engine) throws Exception {
        // A database of its own: the other test migrates the store in the class's database.
        try (ScratchDatabase db = ScratchDatabase.create(engine)) {
            Guarded g = fresh(db);
            try (HikariDataSource app = pool(g.url(), g.db, "app")) {
                g.refusedUnchanged(Refusal.STORE_MISSING, () -> updateOrderStatus(app, 1, "lost"));
                assertThatThrownBy(() -> updateOrderStatus(app, 1, "lost"))
                        .hasMessageStartingWith("Refused (STORE_MISSING): the change was measured but not proposed")
                        .hasMessageContaining("nothing in the database has changed")
                        .hasMessageContaining("Run `llmsafe migrate` to create it")
                        .hasMessageContaining("The store is in jdbc:")
                        .hasMessageContaining("(llmsafe migrate --config " + g.config + ")")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}-"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J5_A4_aBatchIsOnePlanAppliedWholeOrNotAtAll(Engine engine) throws Exception {
        Guarded g = fresh(dbs.get(engine));
        try (HikariDataSource admin = pool(g.db.url(), g.db, "store"); HikariDataSource app = pool(g.url(), g.db, "app")) {
            PlanStore store = new PlanStore(admin, null, Duration.ofHours(24), Clock.systemUTC());
            store.migrate();
            Applier applier = applier(store, admin, g);

            PlanPendingException whole = batch(app);
            assertThat(whole.plan().statements()).hasSize(2);
            new Approver(store, false).approve(whole.planId(), "alice");
            applier.apply(whole.planId(), "bob");
            assertThat(g.db.snapshot("orders")).containsExactly("[1, shipped]", "[2, lost]");

            g.db.execute("UPDATE orders SET status = 'packed'");
            PlanPendingException notAtAll = batch(app);
            new Approver(store, false).approve(notAtAll.planId(), "alice");
            // Someone edits the row of the second statement after approval: the first must not be applied alone.
            g.db.execute("UPDATE orders SET status = 'returned' WHERE id = 2");
            assertThatThrownBy(() -> applier.apply(notAtAll.planId(), "bob")).isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.ROW_CHANGED));
            assertThat(g.db.snapshot("orders")).containsExactly("[1, packed]", "[2, returned]");
            assertThat(store.load(notAtAll.planId()).status()).isEqualTo(PlanStatus.FAILED);
        }
    }

    private static PlanPendingException batch(DataSource app) throws SQLException {
        try (Connection c = app.getConnection(); java.sql.Statement s = c.createStatement()) {
            s.addBatch("UPDATE orders SET status = 'shipped' WHERE id = 1");
            s.addBatch("UPDATE orders SET status = 'lost' WHERE id = 2");
            return catchThrowableOfType(PlanPendingException.class, s::executeBatch);
        }
    }

    /**
     * T1 where PostgreSQL's configured {@code schema} is not the schema the URL opens in: the store that the
     * command line's deployment migrates is in the configured schema, and the driver's and the data source's
     * plans are written there and found there, plan after plan. (The store had followed whatever the
     * connection last did: migrate on a fresh connection put it in the URL's schema, and a connection that had
     * run a dry run looked for it in the pinned one, STORE_MISSING; through a data source, the store's
     * borrowed connection never had the pin.) The application's connections keep their own schema.
     */
    @org.junit.jupiter.api.Test
    void T1_withAConfiguredSchemaThatIsNotTheUrlsTheStoreIsThereForTheCommandLineTheDriverAndTheDataSource()
            throws Exception {
        ScratchDatabase tables = dbs.fresh(Engine.POSTGRES);
        fresh(tables);
        ScratchDatabase other = dbs.fresh(Engine.POSTGRES); // the URL's currentSchema
        dev.llmsafe.policy.LlmSafeConfig config = dev.llmsafe.policy.LlmSafeConfig.builder()
                .connection(dev.llmsafe.policy.ConnectionSettings.of(other.url(), other.user(), other.password()))
                .schema(tables.name())
                .policy(POLICY).build();
        java.nio.file.Path file = java.nio.file.Files.createTempFile("llmsafe-schema-", ".json");
        file.toFile().deleteOnExit();
        java.nio.file.Files.writeString(file, config.toJson());

        try (dev.llmsafe.assembly.Deployment d = new dev.llmsafe.assembly.Deployment(config, Clock.systemUTC())) {
            d.store().migrate();
        }
        List<String> where = new java.util.ArrayList<>();
        try (var s = tables.admin().createStatement(); var rs = s.executeQuery("SELECT table_schema FROM"
                + " information_schema.tables WHERE table_name = 'llmsafe_plans' AND table_schema IN ('" + tables.name()
                + "', '" + other.name() + "')")) {
            while (rs.next()) {
                where.add(rs.getString(1));
            }
        }
        assertThat(where).as("where migrate put the store").containsExactly(tables.name());

        PlanStore store;
        try (HikariDataSource admin = pool(tables.url(), tables, "schema-store")) {
            store = new PlanStore(admin, null, Duration.ofHours(24), Clock.systemUTC());
            String url = DriverUrl.PREFIX + other.url().substring("jdbc:".length()) + "&llmsafe.config="
                    + java.net.URLEncoder.encode(file.toString(), java.nio.charset.StandardCharsets.UTF_8);
            try (HikariDataSource driver = pool(url, other, "schema-driver")) {
                for (int i = 0; i < 3; i++) {
                    PlanPendingException pending = catchThrowableOfType(PlanPendingException.class,
                            () -> updateOrderStatus(driver, 2, "shipped"));
                    assertThat((Throwable) pending).as("plan %d through the driver", i).isNotNull();
                    assertThat(store.load(pending.planId()).status()).isEqualTo(PlanStatus.PROPOSED);
                }
            }
            try (HikariDataSource application = pool(other.url(), other, "schema-app");
                    LlmSafeDataSource guarded = new LlmSafeDataSource(application, config)) {
                for (int i = 0; i < 3; i++) {
                    PlanPendingException pending = catchThrowableOfType(PlanPendingException.class,
                            () -> updateOrderStatus(guarded, 2, "shipped"));
                    assertThat((Throwable) pending).as("plan %d through the data source", i).isNotNull();
                    assertThat(store.load(pending.planId()).status()).isEqualTo(PlanStatus.PROPOSED);
                }
                try (Connection a = application.getConnection(); Connection b = application.getConnection()) {
                    assertThat(List.of(a.getSchema(), b.getSchema())).as("the application's connections")
                            .containsOnly(other.name());
                }
            }
            assertThat(tables.snapshot("orders")).containsExactly("[1, packed]", "[2, packed]");
        }
    }
}
