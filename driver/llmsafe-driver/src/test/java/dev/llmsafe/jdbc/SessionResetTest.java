package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R8: the model's session is proven read-only before every read, and a connection goes back to the
 * application's pool with its session as the application had it. "Somehow" is played by changing the
 * session around the guard, on the vendor connection, which is what a function that escaped R7 would do.
 */
class SessionResetTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.")));

    private static HikariDataSource pool(ScratchDatabase db, String initSql) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(db.url());
        c.setUsername(db.user());
        c.setPassword(db.password());
        c.setMaximumPoolSize(1);
        if (initSql != null) {
            c.setConnectionInitSql(initSql);
        }
        return new HikariDataSource(c);
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void run(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    /** The settings a model would change to steer the application's next use of the connection. */
    private static String settings(Engine engine, Connection c) throws SQLException {
        return switch (engine) {
            case POSTGRES -> one(c, "SELECT current_setting('search_path') || ' | ' || current_setting('session_replication_role')"
                    + " || ' | ' || current_setting('default_transaction_read_only') || ' | ' || current_setting('TimeZone')"
                    + " || ' | ' || current_setting('statement_timeout') || ' | ' || current_user");
            // MariaDB's names (10.11 has no transaction_read_only), MySQL's (8.0 has no tx_read_only).
            case MYSQL -> c.getMetaData().getDatabaseProductVersion().contains("MariaDB")
                    ? one(c, "SELECT CONCAT_WS(' | ', @@SESSION.sql_mode, @@SESSION.time_zone, @@SESSION.tx_read_only,"
                    + " @@SESSION.foreign_key_checks, @@SESSION.max_statement_time, @@SESSION.autocommit)")
                    : one(c, "SELECT CONCAT_WS(' | ', @@SESSION.sql_mode, @@SESSION.time_zone, @@SESSION.transaction_read_only,"
                    + " @@SESSION.foreign_key_checks, @@SESSION.max_execution_time, @@SESSION.autocommit)");
            case SQLITE -> one(c, "SELECT (SELECT query_only FROM pragma_query_only) || ' | ' || (SELECT foreign_keys FROM"
                    + " pragma_foreign_keys) || ' | ' || (SELECT recursive_triggers FROM pragma_recursive_triggers)");
        };
    }

    private static String[] changes(Engine engine, ScratchDatabase db) {
        return switch (engine) {
            case POSTGRES -> new String[] {"SET search_path = fns_other", "SET session_replication_role = replica",
                    "SET default_transaction_read_only = off", "SET TimeZone = 'Asia/Tokyo'", "SET statement_timeout = 0"};
            case MYSQL -> new String[] {"SET SESSION sql_mode = ''", "SET SESSION time_zone = '+09:00'",
                    "SET SESSION foreign_key_checks = 0", "SET SESSION TRANSACTION READ WRITE"};
            case SQLITE -> new String[] {"PRAGMA foreign_keys = OFF", "PRAGMA recursive_triggers = ON", "PRAGMA query_only = OFF"};
        };
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R8_aPooledConnectionGoesBackWithTheApplicationsSessionWhateverTheModelChanged(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        String init = switch (engine) {
            case POSTGRES -> "SET search_path = " + db.name();
            case MYSQL -> "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'";
            case SQLITE -> "PRAGMA foreign_keys = ON";
        };
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20))", "INSERT INTO orders VALUES (1, 'a')");
        if (engine == Engine.POSTGRES) {
            db.execute("DROP SCHEMA IF EXISTS fns_other CASCADE", "CREATE SCHEMA fns_other",
                    "CREATE TABLE fns_other.orders (id INT PRIMARY KEY, note VARCHAR(20))",
                    "INSERT INTO fns_other.orders VALUES (1, 'a')");
        }
        try (HikariDataSource app = pool(db, init); LlmSafeDataSource ds = new LlmSafeDataSource(app, POLICY)) {
            String before;
            try (Connection c = app.getConnection()) {
                before = settings(engine, c);
            }
            for (int round = 0; round < 2; round++) {
                try (Connection model = ds.getConnection()) {
                    assertThat(ReadTest.rows(model, "SELECT id FROM orders WHERE id = 1")).containsExactly("1");
                    run(((GuardedConnection) model).readConnectionForTests(), changes(engine, db));
                    assertThat(settings(engine, ((GuardedConnection) model).readConnectionForTests())).isNotEqualTo(before);
                }
                try (Connection c = app.getConnection()) {
                    assertThat(settings(engine, c)).isEqualTo(before);
                    // The application's own write goes to its own table, with its triggers and checks on.
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("UPDATE orders SET note = 'b" + round + "' WHERE id = 1")).isEqualTo(1);
                    }
                }
                assertThat(one(db.admin(), "SELECT note FROM orders WHERE id = 1")).isEqualTo("b" + round);
            }
            assertThat(app.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
        } finally {
            if (engine == Engine.POSTGRES) {
                assertThat(one(db.admin(), "SELECT note FROM fns_other.orders WHERE id = 1")).isEqualTo("a");
                db.execute("DROP SCHEMA fns_other CASCADE");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R8_beforeEveryReadTheSessionIsProvenReadOnlyAndSetAgainIfNot(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20))", "INSERT INTO orders VALUES (1, 'a')");
        try (Connection model = Guarded.of(db, POLICY).connect()) {
            Connection read = ((GuardedConnection) model).readConnectionForTests();
            assertThat(ReadTest.rows(model, "SELECT note FROM orders WHERE id = 1")).containsExactly("a");
            run(read, switch (engine) {
                case POSTGRES -> "SET default_transaction_read_only = off";
                case MYSQL -> "SET SESSION TRANSACTION READ WRITE";
                case SQLITE -> "PRAGMA query_only = OFF";
            });
            assertThatThrownBy(() -> ReadTest.rows(model, "SELECT note FROM orders WHERE id = 1"))
                    .isInstanceOfSatisfying(RefusedException.class, e -> {
                        assertThat(e.code()).isEqualTo(Refusal.READ_SESSION_CHANGED);
                        assertThat(e.getMessage()).contains("nothing ran");
                    });
            // set again: the next read runs, and a write around the guard is stopped by the server again
            assertThat(ReadTest.rows(model, "SELECT note FROM orders WHERE id = 1")).containsExactly("a");
            assertThatThrownBy(() -> run(read, "UPDATE orders SET note = 'x' WHERE id = 1")).isInstanceOf(SQLException.class);
        }
        assertThat(one(db.admin(), "SELECT note FROM orders WHERE id = 1")).isEqualTo("a");
    }

    /** R8's cost: the time of the proof before a read, measured on each server (SPEC.md). */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R8_theProofBeforeAReadIsCheap(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        try (Connection model = Guarded.of(db, POLICY).connect()) {
            Connection read = ((GuardedConnection) model).readConnectionForTests();
            var dialect = ((GuardedConnection) model).engine().dialect();
            List<Long> ns = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                long t = System.nanoTime();
                assertThat(dialect.readSessionChanged(read)).isEqualTo(Optional.empty());
                ns.add(System.nanoTime() - t);
            }
            ns.sort(null);
            long median = ns.get(ns.size() / 2);
            org.slf4j.LoggerFactory.getLogger(SessionResetTest.class).info("R8 proof on {}: median {} us", engine,
                    median / 1000);
            System.err.println("R8 proof on " + engine + ": median " + median / 1000 + " us");
            assertThat(median).isLessThan(20_000_000L);
            // what taking a connection from an application's pool adds: one snapshot of the session
            List<Long> snapshot = new ArrayList<>();
            var reset = dialect.sessionReset();
            for (int i = 0; i < 50; i++) {
                long t = System.nanoTime();
                assertThat(reset.take(read).values()).isNotEmpty();
                snapshot.add(System.nanoTime() - t);
            }
            snapshot.sort(null);
            System.err.println("R8 session snapshot on " + engine + ": median " + snapshot.get(25) / 1000 + " us, "
                    + reset.take(read).values().size() + " settings");
        }
    }

    /**
     * A setting no session can set moved by itself between snapshot and return (MySQL 9.7 lists the
     * read-only gtid_executed and statement_id among the session's variables; a global-only one changes when an
     * operator sets it): nothing is put back, and the connection is not taken out of the pool for it. One that a
     * session can set still is.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void R8_aSettingNoSessionCanSetIsNotPutBackAndDoesNotCostTheConnection(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        try (Connection c = db.connect()) {
            var reset = dev.llmsafe.dialect.Dialects.of(c, null).sessionReset();
            java.util.Map<String, String> values = new java.util.HashMap<>(reset.take(c).values());
            values.put("version", "forged"); // read-only: error 1238
            values.put("max_connections", "7"); // global-only: error 1229
            values.put("div_precision_increment", "9");
            assertThat(reset.restore(c, new dev.llmsafe.dialect.SessionReset.Snapshot(values)))
                    .containsExactly("div_precision_increment");
            assertThat(ReadTest.rows(c, "SELECT @@SESSION.div_precision_increment")).containsExactly("9");
        }
    }
}
