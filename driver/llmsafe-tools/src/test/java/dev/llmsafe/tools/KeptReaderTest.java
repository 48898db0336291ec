package dev.llmsafe.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.bench.CountingProxy;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's tools (the MCP server's {@code sql_read}) keep their guarded read connection: counted on
 * the wire through {@link CountingProxy}, a read sends exactly what a read on a guarded connection the
 * caller holds sends, and opens no connection; a connection broken under it is replaced and the read
 * answers; closing the tools gives the connection back to the pool.
 */
class KeptReaderTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String READ = "SELECT id, status FROM orders WHERE id = 3";

    private static ScratchDatabase seeded(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed'), (3, 'shipped')");
        return db;
    }

    private static LlmSafeConfig config(ScratchDatabase db, String url) throws Exception {
        return LlmSafeConfig.parse("{\"connection\": {\"url\": " + JSON.writeValueAsString(url)
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "},"
                + (db.engine() == Engine.POSTGRES ? "\"schema\": \"" + db.name() + "\"," : "")
                + "\"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"Moves money.\"}}}", "test", n -> null);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void aReadOfTheOperatorsToolsSendsWhatAReadOnAHeldGuardedConnectionSendsAndOpensNoConnection(Engine engine)
            throws Exception {
        ScratchDatabase db = seeded(engine);
        try (CountingProxy proxy = CountingProxy.forUrl(db.url())) {
            LlmSafeConfig config = config(db, proxy.url(db.url()));
            long toolTrips;
            int toolConnections;
            try (Deployment d = new Deployment(config, Clock.systemUTC()); DatabaseTools tools = DatabaseTools.over(d)) {
                assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                // A refusal is decided before anything runs: it keeps the connection too.
                assertThat(catchThrowableOfType(RefusedException.class, () -> tools.read("SELECT * FROM secrets")).code())
                        .isEqualTo(Refusal.TABLE_NOT_ALLOWED);
                long before = proxy.roundTrips();
                int connectionsBefore = proxy.connections();
                for (int i = 0; i < 10; i++) {
                    assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                }
                toolTrips = proxy.roundTrips() - before;
                toolConnections = proxy.connections() - connectionsBefore;
                HikariDataSource pool = (HikariDataSource) d.pool(Deployment.Role.PLAN);
                assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isEqualTo(1);
                tools.close();
                assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
            }
            long heldTrips;
            try (HikariDataSource pool = new HikariDataSource()) {
                pool.setJdbcUrl(proxy.url(db.url()));
                pool.setUsername(db.user());
                pool.setPassword(db.password());
                try (LlmSafeDataSource guarded = new LlmSafeDataSource(pool, config);
                        Connection c = guarded.getConnection(); Statement s = c.createStatement()) {
                    read(s);
                    long before = proxy.roundTrips();
                    for (int i = 0; i < 10; i++) {
                        read(s);
                    }
                    heldTrips = proxy.roundTrips() - before;
                }
            }
            assertThat(toolConnections).isZero();
            // A connection opened per call would add its session's set-up and tear-down to each of the ten
            // reads; one round trip of slack is for the driver's own occasional message (Connector/J's).
            assertThat(toolTrips).isBetween(heldTrips - 1, heldTrips + 1);
        }
    }

    private static void read(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery(READ)) {
            assertThat(rs.next()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void aKeptConnectionBrokenUnderTheToolsIsReplacedAndTheReadAnswers(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        try (CountingProxy proxy = CountingProxy.forUrl(db.url())) {
            LlmSafeConfig config = config(db, proxy.url(db.url()));
            try (Deployment d = new Deployment(config, Clock.systemUTC()); DatabaseTools tools = DatabaseTools.over(d)) {
                assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                proxy.cut();
                Thread.sleep(600); // past HikariCP's window without a validity check on borrowing
                assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                int after = proxy.connections();
                assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                assertThat(proxy.connections()).isEqualTo(after);
            }
        }
    }

    /** SQLite has no wire: the pool's count says the read kept its connection, and closing gives it back. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void onSqliteTheReadKeepsItsConnectionUntilTheToolsClose(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        try (Deployment d = new Deployment(config(db, db.url()), Clock.systemUTC()); DatabaseTools tools = DatabaseTools.over(d)) {
            HikariDataSource pool = (HikariDataSource) d.pool(Deployment.Role.PLAN);
            for (int i = 0; i < 3; i++) {
                assertThat(tools.read(READ).rows()).containsExactly(List.of(3L, "shipped"));
                assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isEqualTo(1);
            }
            tools.close();
            assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
    }
}
