package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An application as it would be written: HikariCP as its pool, given only {@code jdbc:llmsafe:...}, and
 * plain JDBC "tools" that an agent framework calls. The write tool catches {@link PlanPendingException}
 * and returns the card, which is what the model sees.
 */
class HikariApplicationTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);
    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                    "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed')",
                    "CREATE TABLE write_log (note VARCHAR(20))");
            switch (engine) {
                case POSTGRES -> db.execute("CREATE FUNCTION log_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                                + " INSERT INTO write_log VALUES ('written'); RETURN 1; END $$",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case MYSQL -> db.execute("CREATE FUNCTION log_write() RETURNS INT DETERMINISTIC MODIFIES SQL DATA"
                                + " BEGIN INSERT INTO write_log VALUES ('written'); RETURN 1; END",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders");
                case SQLITE -> db.execute("CREATE VIEW writing_view AS SELECT id, 1 AS w FROM orders");
            }
            g = Guarded.of(db, Policy.define(p -> p.table("orders", t -> t.impact(IMPACT)).table("writing_view")));
            GUARDED.put(engine, g);
        }
        return g;
    }

    /** The application's pool: HikariCP with nothing but the URL (and the credential). */
    static HikariDataSource pool(Guarded g, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(g.url());
        config.setUsername(g.db.user());
        config.setPassword(g.db.password());
        config.setMaximumPoolSize(size);
        config.setPoolName("app-" + g.engine().key());
        return new HikariDataSource(config);
    }

    // ---- the application's tools, plain JDBC ----

    /** A tool that changes an order's status: what the model gets back is the card, or why not. */
    static String updateOrderStatus(DataSource ds, int id, String status) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = ? WHERE id = ?")) {
            ps.setString(1, status);
            ps.setInt(2, id);
            int n = ps.executeUpdate();
            return "updated " + n + " rows";
        } catch (PlanPendingException pending) {
            return pending.getMessage();
        } catch (SQLException e) {
            return "failed: " + e.getMessage();
        }
    }

    /** A tool that runs the model's query. */
    static String query(DataSource ds, String sql) {
        StringBuilder out = new StringBuilder();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
            return out.toString();
        } catch (SQLException e) {
            return "failed: " + e.getMessage();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_J8_aToolOnAHikariPoolOverJdbcLlmsafeReturnsTheCardAndChangesNothing(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (HikariDataSource ds = pool(g, 2)) {
            var before = g.checksum();
            int saved = Guarded.SINK.plans.size();
            String card = updateOrderStatus(ds, 2, "shipped");
            assertThat(g.checksum()).isEqualTo(before);
            assertThat(Guarded.SINK.plans).hasSize(saved + 1);
            Plan plan = Guarded.SINK.plans.get(saved);
            assertThat(card).isEqualTo(plan.card())
                    .startsWith("Plan " + plan.id() + " is proposed, not applied. Nothing in the database has changed.")
                    .contains("UPDATE orders SET status = ? WHERE id = ?      [1: 'shipped' (setString), 2: 2 (setInt)]")
                    .contains(IMPACT).contains("id = 2\n    status: 'packed' -> 'shipped'")
                    .contains("llmsafe approve " + plan.id());
            assertThat(query(ds, "SELECT status FROM orders ORDER BY id")).isEqualTo("packed\npacked\n");
            assertThat(query(ds, "DELETE FROM orders WHERE id = 1")).startsWith("failed: Plan ");
            assertThat(query(ds, "DROP TABLE orders")).startsWith("failed: Refused (DDL)");
            assertThat(g.checksum()).isEqualTo(before);
            // Approve and apply of a plan proposed this way, through the store: StoreEndToEndTest.
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J7_refusalsAndPendingPlansDoNotEvictThePooledConnection(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (HikariDataSource ds = pool(g, 1)) {
            Connection physical;
            try (Connection c = ds.getConnection()) {
                // HikariCP's unwrap hands out what it wraps: llmsafe's connection, whose identity shows eviction.
                physical = c.unwrap(Connection.class);
                assertThat(physical).isInstanceOf(GuardedConnection.class);
            }
            List<ThrowingUse> uses = new java.util.ArrayList<>(List.of(
                    c -> c.createStatement().executeQuery("SELECT * FROM hidden_or_missing"),
                    c -> c.createStatement().executeUpdate("UPDATE orders SET status = 'x' WHERE id = 1"),
                    c -> c.createStatement().execute("COMMIT; DELETE FROM orders WHERE id = 1"),
                    c -> c.prepareCall("CALL x()"),
                    c -> {
                        c.setSchema("elsewhere");
                        return null;
                    },
                    c -> c.unwrap(Class.forName("java.lang.Runnable"))));
            if (engine != Engine.SQLITE) {
                // The server's own refusal (25006) reaches HikariCP as MIXED, and costs no connection either.
                uses.add(c -> c.createStatement().executeQuery("SELECT * FROM writing_view").next());
            }
            for (ThrowingUse use : uses) {
                try (Connection c = ds.getConnection()) {
                    assertThatThrownBy(() -> use.run(c)).isInstanceOf(SQLException.class)
                            .satisfies(e -> assertThat(e).isInstanceOfAny(RefusedException.class, PlanPendingException.class));
                }
                try (Connection c = ds.getConnection()) {
                    assertThat(c.unwrap(Connection.class)).isSameAs(physical);
                }
            }
            assertThat(ds.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
        }
    }

    private interface ThrowingUse {
        Object run(Connection c) throws Exception;
    }
}
