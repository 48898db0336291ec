package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.dialect.SessionReset;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** LlmSafeDataSource: any DataSource guarded as the driver guards a URL; its connections go back read-write. */
class LlmSafeDataSourceTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money."))
            .secret("password_hash", "a stored credential"));

    static HikariDataSource applicationPool(ScratchDatabase db) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(db.url());
        c.setUsername(db.user());
        c.setPassword(db.password());
        c.setMaximumPoolSize(2);
        return new HikariDataSource(c);
    }

    static ScratchDatabase database(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, password_hash VARCHAR(40))",
                "INSERT INTO orders VALUES (1, 'packed', 'h1'), (2, 'packed', 'h2')");
        return db;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_R3_aGuardedDataSourceReadsPlansAndGivesItsConnectionsBackReadWrite(Engine engine) throws SQLException {
        ScratchDatabase db = database(engine);
        Guarded g = Guarded.of(db, POLICY);
        Guarded.MemorySink sink = new Guarded.MemorySink();
        try (HikariDataSource pool = applicationPool(db);
                LlmSafeDataSource ds = new LlmSafeDataSource(pool, Optional.empty(), POLICY, (c, p, d) -> sink)) {
            Connection raw;
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                raw = ((GuardedConnection) c).readConnectionForTests().unwrap(Connection.class);
                assertThat(ReadTest.rows(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
                if (engine == Engine.MYSQL && !db.isMariadb()) {
                    try (Statement t = raw.createStatement(); var rs = t.executeQuery("SELECT @@SESSION.optimizer_trace")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).startsWith("enabled=on"); // R9's plan check reads the trace
                    }
                }
                g.refusedUnchanged(Refusal.DENIED_IDENTIFIER, () -> s.executeQuery("SELECT * FROM orders"));
                var before = g.checksum();
                assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2"))
                        .isInstanceOf(PlanPendingException.class);
                assertThat(g.checksum()).isEqualTo(before);
                assertThat(sink.plans).hasSize(1);
                try (Statement around = ((GuardedConnection) c).readConnectionForTests().createStatement()) {
                    assertThatThrownBy(() -> around.executeUpdate("UPDATE orders SET status = 'x' WHERE id = 1"))
                            .isInstanceOf(SQLException.class);
                }
            }
            // Every connection of the pool (two: the model's and the dry run's) is read-write again.
            try (Connection a = pool.getConnection(); Connection b = pool.getConnection()) {
                assertThat(List.of(a.unwrap(Connection.class), b.unwrap(Connection.class))).contains(raw);
                for (Connection c : List.of(a, b)) {
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("UPDATE orders SET status = 'packed' WHERE id = 1")).isEqualTo(1);
                    }
                    if (engine == Engine.MYSQL) {
                        // R9 on MySQL switched the read connection's optimizer trace on: the pool gets it back off
                        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT @@SESSION.optimizer_trace")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).startsWith("enabled=off");
                        }
                    }
                }
            }
        }
    }

    /**
     * The dry run borrows its connection from the application's pool: what it sets there for itself
     * (isolation, time zone, bounds, search path) must not outlast the plan. Every connection of the pool
     * has, afterwards, exactly the session settings it had before.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R8_D17_theDryRunLeavesTheApplicationsPooledConnectionsWithTheirOwnSettings(Engine engine) throws SQLException {
        ScratchDatabase db = database(engine);
        Guarded.MemorySink sink = new Guarded.MemorySink();
        try (HikariDataSource pool = applicationPool(db);
                LlmSafeDataSource ds = new LlmSafeDataSource(pool, Optional.empty(), POLICY, (c, p, d) -> sink)) {
            SessionReset reset;
            java.util.Map<Connection, SessionReset.Snapshot> before = new java.util.HashMap<>();
            try (Connection a = pool.getConnection(); Connection b = pool.getConnection()) {
                reset = dev.llmsafe.dialect.Dialects.of(a, null).sessionReset();
                for (Connection c : List.of(a, b)) {
                    before.put(c.unwrap(Connection.class), reset.take(c));
                }
            }
            for (int i = 0; i < 2; i++) {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2"))
                            .isInstanceOf(PlanPendingException.class);
                }
            }
            assertThat(sink.plans).hasSize(2);
            try (Connection a = pool.getConnection(); Connection b = pool.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    SessionReset.Snapshot was = before.get(c.unwrap(Connection.class));
                    assertThat(was).as("the pool lends the same two connections").isNotNull();
                    // Nothing to put back; and what the server will not let a session set (MySQL 9.7's statement_id
                    // counts every statement, error 1238) is no setting: the reset learns it and reads it no more.
                    assertThat(reset.restore(c, was)).as(engine + ": put back after two plans").isEmpty();
                    java.util.Map<String, String> now = reset.take(c).values();
                    java.util.Map<String, String> settable = new java.util.HashMap<>(was.values());
                    settable.keySet().retainAll(now.keySet());
                    assertThat(now).as(engine + ": a pooled connection after two plans").isEqualTo(settable);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_theDataSourceUnwrapsToNothingButItself(Engine engine) throws SQLException {
        ScratchDatabase db = database(engine);
        try (HikariDataSource pool = applicationPool(db); LlmSafeDataSource ds = new LlmSafeDataSource(pool, POLICY)) {
            assertThat(ds.unwrap(DataSource.class)).isSameAs(ds);
            assertThat(ds.isWrapperFor(HikariDataSource.class)).isFalse();
            assertThatThrownBy(() -> ds.unwrap(HikariDataSource.class)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("FORBIDDEN_JDBC");
            assertThatThrownBy(() -> ds.getConnection("other", "pw")).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(ds::createConnectionBuilder).isInstanceOf(SQLFeatureNotSupportedException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_T1_withoutAMigratedPlanStoreTheDataSourceRefusesToPropose(Engine engine) throws SQLException {
        ScratchDatabase db = database(engine);
        Guarded g = Guarded.of(db, POLICY);
        LlmSafeConfig config = LlmSafeConfig.builder().connection(ConnectionSettings.of(db.url())).policy(POLICY).build();
        try (HikariDataSource pool = applicationPool(db); LlmSafeDataSource ds = new LlmSafeDataSource(pool, config);
                Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            g.refusedUnchanged(Refusal.STORE_MISSING, () -> s.executeUpdate("UPDATE orders SET status = 'x' WHERE id = 1"));
        }
    }

    /** Counts what the data source tells; a failing one proves that watching changes no outcome. */
    static final class Counting implements GuardListener {
        final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        final boolean fails;

        Counting(boolean fails) {
            this.fails = fails;
        }

        private void told(String event) {
            events.add(event);
            if (fails) {
                throw new IllegalStateException("a listener that fails");
            }
        }

        @Override
        public void read(long nanos) {
            told("read" + (nanos > 0 ? "" : " without a time"));
        }

        @Override
        public void proposed(PlanPendingException pending, long nanos) {
            told("plan of " + pending.plan().rowCount() + " row" + (nanos > 0 ? "" : " without a time"));
        }

        @Override
        public void refused(Refusal code) {
            told("refused " + code);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J12_aListenerIsToldOfEveryReadPlanAndRefusalAndCannotChangeOne(Engine engine) throws SQLException {
        ScratchDatabase db = database(engine);
        Guarded g = Guarded.of(db, POLICY);
        Guarded.MemorySink sink = new Guarded.MemorySink();
        for (boolean fails : new boolean[] {false, true}) {
            Counting listener = new Counting(fails);
            try (HikariDataSource pool = applicationPool(db);
                    LlmSafeDataSource ds = new LlmSafeDataSource(pool, Optional.empty(), POLICY, (c, p, d) -> sink)) {
                ds.setListener(listener);
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    assertThat(ReadTest.rows(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
                    // Refused in the analysis, in the read's checks, and in the dry run.
                    g.refusedUnchanged(Refusal.DENIED_IDENTIFIER, () -> s.executeQuery("SELECT password_hash FROM orders"));
                    g.refusedUnchanged(Refusal.TABLE_NOT_ALLOWED, () -> s.executeQuery("SELECT * FROM customers"));
                    g.refusedUnchanged(Refusal.DENIED_WRITE_COLUMN, () -> s.executeUpdate(
                            "UPDATE orders SET nothing = 'x' WHERE id = 1"));
                    var before = g.checksum();
                    assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE id = 2"))
                            .isInstanceOf(PlanPendingException.class);
                    assertThat(g.checksum()).isEqualTo(before);
                }
            }
            assertThat(listener.events).as("failing: " + fails).containsExactly("read", "refused DENIED_IDENTIFIER",
                    "refused TABLE_NOT_ALLOWED", "refused DENIED_WRITE_COLUMN", "plan of 1 row");
        }
    }
}
