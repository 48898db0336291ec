package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.assembly.Pools;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D7 and the pools: a connection the engine discards leaves its HikariCP pool once, is not touched again, and
 * the pool's close does not wait for it. Measured on HikariCP 7.1.0 first, with a connection left in a
 * transaction: evicting it while borrowed and then closing it, as the engine did, made that close throw a
 * NullPointerException out of HikariCP's resetConnectionState on MariaDB 10.11 and SQLite (the evicted entry's
 * physical connection is already gone), and roll back on PostgreSQL 15 a connection HikariCP's close executor was
 * closing at the same time; the close then hands HikariCP the removed entry again (its warning "not borrowed or
 * reserved").
 */
class ConnectionsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String TWICE = "not borrowed or reserved";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D7_aDiscardedLeaseLeavesThePoolOnceAndItsCloseIsNoSecondReturn(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        HikariDataSource pool = pool(db);
        Object[] physical = new Object[2];
        String log = stderrOf(() -> {
            try (Connection c = Connections.lease(pool)) {
                physical[0] = c.unwrap(Connection.class);
                dirty(c);
                Connections.discard(pool, c);
                Connections.discard(pool, c); // the planner's rollback and its session restore both discard
                assertThat(c.isClosed()).isTrue();
                assertThatThrownBy(() -> c.createStatement()).isInstanceOf(SQLException.class)
                        .hasMessageContaining("discarded");
            }
            try (Connection next = Connections.lease(pool)) {
                physical[1] = next.unwrap(Connection.class);
                assertThat(next.isValid(2)).isTrue();
            }
        });
        assertThat(log).doesNotContain(TWICE);
        assertThat(physical[1]).as("the discarded connection is never handed out again").isNotSameAs(physical[0]);
        long start = System.nanoTime();
        pool.close();
        long closeMs = (System.nanoTime() - start) / 1_000_000;
        System.out.println("D7 " + engine + ": pool closed " + closeMs + " ms after a discard");
        // HikariCP waits up to 10 s for its close executor; a physical connection closed once, by it alone, is quick
        assertThat(closeMs).isLessThan(5_000);
    }

    private static HikariDataSource pool(ScratchDatabase db) throws SQLException {
        return Pools.open("discard", ConnectionSettings.of(db.url(), db.user(), db.password()), 2,
                Pools.Start.ON_FIRST_USE);
    }

    /** A transaction left open with a write in it, so that HikariCP's close rolls back and resets the connection. */
    private static void dirty(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS discard_t (id INT PRIMARY KEY)");
            s.executeUpdate("DELETE FROM discard_t WHERE id = 1");
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    private static String stderrOf(Body body) throws Exception {
        PrintStream was = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(was);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        was.print(text);
        return text;
    }
}
