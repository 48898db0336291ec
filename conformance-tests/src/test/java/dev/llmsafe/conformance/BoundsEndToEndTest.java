package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bounds on what a read may cost the database and the application (R11, R12, S9), end to end on
 * the four-role deployment: the application's {@code jdbc:llmsafe:} URL (reads on the read role's
 * connection of {@code readConnection}), the configuration file with short bounds, the command line.
 */
class BoundsEndToEndTest {

    static final int HOLD_MS = 1000;
    static final int MAX_BYTES = 65536;

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(BoundsEndToEndTest::schema,
            List.of("orders", "wide"), List.of(), List.of(), """
              "policy": {
                "allow": ["orders", "wide"],
                "maxStatementLength": 100000,
                "read": {"maxRows": 1000, "timeoutMs": 1000, "holdMs": %d, "maxBytes": %d}
              }
            """.formatted(HOLD_MS, MAX_BYTES));

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    /** orders: 3 rows; wide: 200 rows of 1 KiB of text. */
    private static List<String> schema(Engine engine) {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed'), (2, 'packed'), (3, 'shipped')",
                "CREATE TABLE wide (id INT PRIMARY KEY, t VARCHAR(2000))"));
        StringBuilder wide = new StringBuilder("INSERT INTO wide VALUES ");
        for (int i = 1; i <= 200; i++) {
            wide.append(i == 1 ? "" : ", ").append('(').append(i).append(", '").append("x".repeat(1024)).append("')");
        }
        sql.add(wide.toString());
        return sql;
    }

    /**
     * Whether the administrator can change orders' schema now, waiting 300 ms at most (MariaDB: not at all).
     * MySQL waits for a metadata lock 1 s at least (it reads lock_wait_timeout = 0 as 1), as long as holdMs
     * here: there the server's own table of metadata locks is asked instead, which waits for nothing.
     */
    private static boolean schemaChangeRuns(Deployed d) throws SQLException {
        try (Connection c = d.app().connect(); Statement s = c.createStatement()) {
            if (d.flavor() == Flavor.MYSQL) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM performance_schema.metadata_locks"
                        + " WHERE OBJECT_TYPE = 'TABLE' AND OBJECT_SCHEMA = DATABASE() AND OBJECT_NAME = 'orders'"
                        + " AND OWNER_THREAD_ID <> PS_CURRENT_THREAD_ID()")) {
                    rs.next();
                    return rs.getLong(1) == 0;
                }
            }
            try {
                switch (d.engine()) {
                    case POSTGRES -> {
                        c.setAutoCommit(false);
                        s.execute("SET LOCAL lock_timeout = '300ms'");
                        s.execute("ALTER TABLE orders ADD COLUMN probe INT");
                        c.rollback();
                    }
                    case MYSQL -> {
                        s.execute("SET SESSION lock_wait_timeout = 0");
                        s.execute("ALTER TABLE orders ADD COLUMN probe INT");
                        s.execute("ALTER TABLE orders DROP COLUMN probe");
                    }
                    case SQLITE -> {
                        s.execute("PRAGMA busy_timeout = 300");
                        c.setAutoCommit(false);
                        s.execute("UPDATE orders SET status = status WHERE id = 1");
                        c.commit();
                    }
                }
                return true;
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState()) || e.getErrorCode() == 1205 || (e.getErrorCode() & 0xff) == 5) {
                    return false;
                }
                throw e;
            }
        }
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_aTransactionTheModelLeavesOpenIsEndedAtHoldMsAndItsLocksReleased(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        try (Connection c = d.connect()) {
            c.setAutoCommit(false);
            assertThat(column(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
            assertThat(schemaChangeRuns(d)).as("held while the transaction is open").isFalse();
            Thread.sleep(HOLD_MS);
            long deadline = System.nanoTime() + 6_000_000_000L;
            while (!schemaChangeRuns(d)) {
                assertThat(System.nanoTime()).as("released after policy.read.holdMs").isLessThan(deadline);
                Thread.sleep(100);
            }
            SQLException e = catchThrowableOfType(SQLException.class, () -> column(c, "SELECT status FROM orders"));
            assertThat(e.getMessage()).contains("policy.read.holdMs (" + HOLD_MS + " ms)");
            if (engine == Engine.POSTGRES) {
                // The server closed the connection: a state that makes pools drop it.
                assertThat(e.getSQLState()).isEqualTo("08006");
            } else {
                assertThat((Throwable) e).isInstanceOf(RefusedException.class);
                assertThat(((RefusedException) e).code()).isEqualTo(Refusal.HOLD_EXPIRED);
                assertThat(column(c, "SELECT status FROM orders WHERE id = 3")).containsExactly("shipped");
                c.commit();
            }
        }
        // A transaction well inside the bound is untouched.
        try (Connection c = d.connect()) {
            c.setAutoCommit(false);
            assertThat(column(c, "SELECT count(*) FROM orders")).containsExactly("3");
            assertThat(column(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("packed");
            c.commit();
            assertThat(schemaChangeRuns(d)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R12_aReadReturnsAtMostMaxBytesAndSaysSo(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // 100 rows of 1 KiB: the result is cut after 64 of them, at 64 KiB, through JDBC and the command line.
        try (Connection c = d.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT t FROM wide WHERE id <= 100 ORDER BY id")) {
            int rows = 0;
            while (rs.next()) {
                assertThat(rs.getString(1)).hasSize(1024);
                rows++;
            }
            assertThat(rows).isEqualTo(MAX_BYTES / 1024);
            assertThat(rs.getWarnings().getSQLState()).isEqualTo("01L01");
            assertThat(rs.getWarnings().getMessage()).contains("policy.read.maxBytes is " + MAX_BYTES);
        }
        Run cut = d.llmsafe("read", "SELECT t FROM wide WHERE id <= 100 ORDER BY id", "--format", "json");
        assertThat(cut.status()).as(cut.all()).isEqualTo(Main.OK);
        assertThat(cut.out()).contains("\"truncated\" : true");
        // Big but allowed: 40 KiB in 40 rows, whole, no warning.
        try (Connection c = d.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT t FROM wide WHERE id <= 40")) {
            int rows = 0;
            while (rs.next()) {
                rows++;
            }
            assertThat(rows).isEqualTo(40);
            assertThat((Throwable) rs.getWarnings()).isNull();
        }
        // A value computed past the bound never fills the application's memory; the failure names the bound
        // (MariaDB's own max_allowed_packet makes it NULL first).
        String huge = engine == Engine.SQLITE ? "SELECT printf('%.*c', 1000000, 'x') FROM orders WHERE id = 1"
                : "SELECT repeat('x', 1000000) FROM orders WHERE id = 1";
        try (Connection c = d.connect()) {
            if (engine == Engine.MYSQL) {
                SQLException e = catchThrowableOfType(SQLException.class, () -> column(c, huge));
                assertThat((Throwable) e).isInstanceOf(RefusedException.class);
                assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TOO_LARGE);
            } else {
                SQLException e = catchThrowableOfType(SQLException.class, () -> column(c, huge));
                assertThat(e.getMessage()).contains("policy.read.maxBytes (" + MAX_BYTES + " bytes)");
                assertThat(e.getSQLState()).isIn("08006", Refusal.TOO_LARGE.sqlState());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S9_statementsNestedOrChainedTooDeeplyAreRefusedAsTooComplex(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> attacks = List.of("SELECT 1" + "+1".repeat(10_000),
                "SELECT id FROM orders WHERE " + "NOT ".repeat(5_000) + "id = 1",
                "SELECT " + "(".repeat(40) + "1" + ")".repeat(40),
                "SELECT " + "CASE WHEN id = 1 THEN ".repeat(40) + "1" + " END".repeat(40) + " FROM orders",
                "UPDATE orders SET status = 'x' WHERE id = 1" + " OR id = 1".repeat(2_000));
        for (String sql : attacks) {
            try (Connection c = d.connect()) {
                SQLException e = catchThrowableOfType(SQLException.class, () -> column(c, sql));
                assertThat((Throwable) e).as(sql.substring(0, 40)).isInstanceOf(RefusedException.class);
                assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TOO_COMPLEX);
                assertThat(e.getMessage()).contains("are accepted");
            }
        }
        Run cli = d.llmsafe("read", attacks.get(0));
        assertThat(cli.status()).isEqualTo(Main.REFUSED);
        assertThat(cli.err()).startsWith("Refused (TOO_COMPLEX)");
        // Long lists pass.
        try (Connection c = d.connect()) {
            StringBuilder in = new StringBuilder("SELECT status FROM orders WHERE id IN (1");
            for (int i = 2; i <= 5_000; i++) {
                in.append(", ").append(i);
            }
            assertThat(column(c, in.append(") ORDER BY id").toString())).containsExactly("packed", "packed", "shipped");
        }
    }
}
