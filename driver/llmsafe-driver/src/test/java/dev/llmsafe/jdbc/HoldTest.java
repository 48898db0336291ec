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
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R11 on every database, through jdbc:llmsafe: with a second session: a transaction or a result set
 * the model's connection leaves open holds locks only until policy.read.holdMs, every end of a hold
 * is a SQLException that says why, no isolation level makes reads lock, and transactions well inside
 * the bound work as before.
 */
class HoldTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final int HOLD_MS = 1000;
    static final Policy POLICY = Policy.define(p -> p.table("t").table("big")
            .read(r -> r.maxRows(3).timeoutMs(1000).holdMs(HOLD_MS)));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    /** t: five rows; on MySQL, big: enough rows that a streaming read of it fills the socket. */
    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)",
                    "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)",
                    "CREATE TABLE big (id INT PRIMARY KEY, pad VARCHAR(1000))");
            if (engine == Engine.MYSQL) {
                db.execute((db.isMysql() ? "SET SESSION cte_max_recursion_depth = 100000"
                        : "SET SESSION max_recursive_iterations = 100000"), "INSERT INTO big WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                        + " WHERE i < 50000) SELECT i, REPEAT('x', 1000) FROM n");
            }
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    /**
     * Whether another session can change t's schema right now (SQLite: write and commit, which its
     * database lock decides alike), waiting at most 300 ms (MariaDB: not at all, its lock waits are whole
     * seconds, as long as the bound); the change is undone.
     */
    static boolean otherSessionChangesSchema(ScratchDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try {
                switch (db.engine()) {
                    case POSTGRES -> {
                        c.setAutoCommit(false);
                        s.execute("SET LOCAL lock_timeout = '300ms'");
                        s.execute("ALTER TABLE t ADD COLUMN probe INT");
                        c.rollback();
                    }
                    case MYSQL -> {
                        if (db.isMysql()) {
                            return noOtherMetadataLock(s, "t");
                        }
                        s.execute("SET SESSION lock_wait_timeout = 0");
                        s.execute("ALTER TABLE t ADD COLUMN probe INT");
                        s.execute("ALTER TABLE t DROP COLUMN probe");
                    }
                    case SQLITE -> {
                        s.execute("PRAGMA busy_timeout = 300");
                        c.setAutoCommit(false);
                        s.execute("UPDATE t SET v = v WHERE id = 1");
                        c.commit();
                    }
                }
                return true;
            } catch (SQLException e) {
                String state = String.valueOf(e.getSQLState());
                if (state.equals("55P03") || e.getErrorCode() == 1205 || (e.getErrorCode() & 0xff) == 5) {
                    return false; // lock timeout (PostgreSQL), lock wait timeout (MariaDB), SQLITE_BUSY
                }
                throw e;
            }
        }
    }

    /**
     * Whether another session can change t's schema within half the bound: MariaDB's lock waits being
     * whole seconds, its attempts do not wait, and a lock the server itself takes for a moment (after the
     * previous ALTER) must not count as a hold.
     */
    static boolean schemaChangeRunsSoon(ScratchDatabase db) throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            if (otherSessionChangesSchema(db)) {
                return true;
            }
            Thread.sleep(HOLD_MS / 10);
        }
        return false;
    }

    /** Whether another session can update row 1 of t right now, waiting at most 300 ms (MariaDB: not at all). */
    static boolean otherSessionUpdatesRow(ScratchDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            switch (db.engine()) {
                case POSTGRES -> s.execute("SET lock_timeout = '300ms'");
                case MYSQL -> s.execute("SET SESSION innodb_lock_wait_timeout = 0");
                case SQLITE -> s.execute("PRAGMA busy_timeout = 300");
            }
            c.setAutoCommit(false);
            try {
                s.execute("UPDATE t SET v = v WHERE id = 1");
                c.rollback();
                return true;
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState()) || e.getErrorCode() == 1205 || (e.getErrorCode() & 0xff) == 5) {
                    return false;
                }
                throw e;
            }
        }
    }

    /** Waits for the hold to end, up to well past the bound (the build machine is shared). */
    static void awaitReleased(ScratchDatabase db) throws Exception {
        long deadline = System.nanoTime() + (HOLD_MS + 6000) * 1_000_000L;
        Thread.sleep(HOLD_MS);
        while (!otherSessionChangesSchema(db)) {
            assertThat(System.nanoTime()).as("the hold ended within the bound").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** What the model's next read on a connection whose hold was ended gets. */
    static void assertTheNextReadSaysWhy(Engine engine, Connection c) throws SQLException {
        if (engine == Engine.POSTGRES) {
            // The server closed the connection (idle_in_transaction_session_timeout).
            assertThatThrownBy(() -> ReadTest.rows(c, "SELECT v FROM t WHERE id = 1"))
                    .isInstanceOf(SQLException.class).isNotInstanceOf(RefusedException.class)
                    .hasMessageContaining("policy.read.holdMs (" + HOLD_MS + " ms)")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"));
            assertThatThrownBy(c::commit).hasMessageContaining("policy.read.holdMs")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"));
            assertThat(c.isValid(1)).isFalse();
        } else {
            assertThatThrownBy(() -> ReadTest.rows(c, "SELECT v FROM t WHERE id = 1"))
                    .isInstanceOf(RefusedException.class).hasMessageContaining("policy.read.holdMs")
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.HOLD_EXPIRED));
            // Said once; the connection works, in a new transaction.
            assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 2")).containsExactly("2");
            c.rollback();
        }
    }

    interface Hold {
        void open(Connection c) throws SQLException;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_anIdleTransactionHoldsUntilTheBoundAndThenTheLockIsReleased(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        Map<String, Hold> holds = new LinkedHashMap<>();
        holds.put("one SELECT, then nothing", c -> {
            c.setAutoCommit(false);
            ReadTest.rows(c, "SELECT v FROM t WHERE id = 1");
        });
        holds.put("a result set left open and unread in the transaction", c -> {
            c.setAutoCommit(false);
            c.createStatement().executeQuery("SELECT v FROM t");
        });
        holds.put("a result set read to its cap and not closed", c -> {
            c.setAutoCommit(false);
            ResultSet rs = c.createStatement().executeQuery("SELECT v FROM t");
            while (rs.next()) {
                rs.getInt(1);
            }
        });
        holds.put("a metadata question, then a read at REPEATABLE READ", c -> {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.getMetaData().getTables(null, null, "t", null).close();
            ReadTest.rows(c, "SELECT count(*) FROM t");
        });
        for (var hold : holds.entrySet()) {
            try (Connection c = g.connect()) {
                hold.getValue().open(c);
                assertThat(otherSessionChangesSchema(g.db)).as(hold.getKey() + ": held at first").isFalse();
                awaitReleased(g.db);
                assertTheNextReadSaysWhy(engine, c);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_aTransactionKeptBusyIsEndedByItsAgeNotOnlyWhenIdle(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            c.setAutoCommit(false);
            long started = System.nanoTime();
            RefusedException ended = null;
            // Never idle for long: PostgreSQL's idle bound alone would let this hold forever.
            while (ended == null && System.nanoTime() - started < (HOLD_MS + 5000) * 1_000_000L) {
                try {
                    ReadTest.rows(c, "SELECT v FROM t WHERE id = 1");
                    Thread.sleep(200);
                } catch (RefusedException e) {
                    ended = e;
                }
            }
            assertThat((Throwable) ended).as("a refusal once the transaction was older than the bound").isNotNull();
            assertThat(ended.code()).isEqualTo(Refusal.HOLD_EXPIRED);
            assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(HOLD_MS);
            assertThat(ended.getMessage()).contains("policy.read.holdMs").contains("rolled");
            // Rolled back: another session can change the schema while the connection is still open.
            assertThat(schemaChangeRunsSoon(g.db)).isTrue();
            assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 3")).containsExactly("3");
            c.rollback();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_aResultSetLeftOpenInAutoCommitIsClosedAtTheBoundWhereItHolds(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        // MySQL: Connector/J streams a result with fetch size MIN_VALUE, and while the server still has rows
        // to send it holds big's metadata lock; a cap of 3 rows would let the whole result fit the socket.
        Guarded reader = engine == Engine.MYSQL ? Guarded.of(g.db, Policy.define(p -> p.table("t").table("big")
                .read(r -> r.maxRows(100_000).timeoutMs(1000).holdMs(HOLD_MS)))) : g;
        String table = engine == Engine.MYSQL ? "big" : "t";
        try (Connection c = reader.connect(); Statement s = c.createStatement()) {
            if (engine == Engine.MYSQL) {
                s.setFetchSize(Integer.MIN_VALUE);
            }
            ResultSet rs = s.executeQuery(engine == Engine.MYSQL ? "SELECT id, pad FROM big" : "SELECT id FROM t");
            assertThat(rs.next()).isTrue();
            if (engine == Engine.POSTGRES) {
                // pgjdbc read the whole result: an open result set in auto-commit mode holds nothing (measured).
                assertThat(schemaChangeRunsSoon(g.db)).isTrue();
                assertThat(rs.next()).isTrue();
                return;
            }
            assertThat(schemaChangeRuns(g.db, table)).as("an open result set holds").isFalse();
            long deadline = System.nanoTime() + (HOLD_MS + 6000) * 1_000_000L;
            Thread.sleep(HOLD_MS);
            while (!schemaChangeRuns(g.db, table)) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(100);
            }
            assertThatThrownBy(rs::next).isInstanceOf(RefusedException.class)
                    .hasMessageContaining("policy.read.holdMs")
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.HOLD_EXPIRED));
            assertThat(rs.isClosed()).isTrue();
            s.setFetchSize(0);
            assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 4")).containsExactly("4");
        }
    }

    private static boolean schemaChangeRuns(ScratchDatabase db, String table) throws SQLException {
        return table.equals("t") ? otherSessionChangesSchema(db) : otherSessionChangesSchemaOf(db, table);
    }

    /**
     * MySQL's lock_wait_timeout is at least 1 s, as long as the hold under test (0 is read as 1, measured on
     * 8.0.31): instead of waiting for a lock, ask the server whether another session holds one on the table.
     */
    private static boolean noOtherMetadataLock(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM performance_schema.metadata_locks"
                + " WHERE OBJECT_TYPE = 'TABLE' AND OBJECT_SCHEMA = DATABASE() AND OBJECT_NAME = '" + table + "'"
                + " AND OWNER_THREAD_ID <> PS_CURRENT_THREAD_ID()")) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    static boolean otherSessionChangesSchemaOf(ScratchDatabase db, String table) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            if (db.isMysql()) {
                return noOtherMetadataLock(s, table);
            }
            s.execute("SET SESSION lock_wait_timeout = 0");
            try {
                s.execute("ALTER TABLE " + table + " ADD COLUMN probe INT");
                s.execute("ALTER TABLE " + table + " DROP COLUMN probe");
                return true;
            } catch (SQLException e) {
                if (e.getErrorCode() == 1205) {
                    return false;
                }
                throw e;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_noIsolationLevelMakesTheModelsReadsLockRows(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        int[] levels = {Connection.TRANSACTION_READ_COMMITTED, Connection.TRANSACTION_REPEATABLE_READ,
                Connection.TRANSACTION_SERIALIZABLE};
        for (int level : levels) {
            if (engine == Engine.SQLITE && level != Connection.TRANSACTION_SERIALIZABLE) {
                continue; // sqlite-jdbc knows SERIALIZABLE (and READ_UNCOMMITTED with a shared cache) only
            }
            try (Connection c = g.connect()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(level);
                SQLWarning w = c.getWarnings();
                boolean lowered = engine == Engine.MYSQL && level == Connection.TRANSACTION_SERIALIZABLE;
                if (lowered) {
                    assertThat((Throwable) w).isNotNull();
                    assertThat(w.getSQLState()).isEqualTo(ReadOnlySessionConnection.ISOLATION_LOWERED);
                    assertThat(w.getMessage()).contains("shared row locks");
                    assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
                } else {
                    assertThat(w == null ? null : w.getSQLState()).isNotEqualTo(ReadOnlySessionConnection.ISOLATION_LOWERED);
                    assertThat(c.getTransactionIsolation()).isEqualTo(level);
                }
                assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 1")).containsExactly("1");
                // SQLite: one lock for the whole database whatever the level, held until the bound (above).
                if (engine != Engine.SQLITE) {
                    assertThat(otherSessionUpdatesRow(g.db)).as("level " + level).isTrue();
                }
                c.commit();
            }
        }
        if (engine == Engine.MYSQL) {
            // What the lowering prevents, measured around the guard: a read-only SERIALIZABLE transaction
            // on InnoDB takes shared row locks, and the other session's UPDATE waits.
            try (Connection raw = g.db.connect(); Statement s = raw.createStatement()) {
                s.execute("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
                s.execute("SET SESSION TRANSACTION READ ONLY");
                raw.setAutoCommit(false);
                s.executeQuery("SELECT v FROM t WHERE id = 1").close();
                assertThat(otherSessionUpdatesRow(g.db)).isFalse();
                raw.rollback();
            }
        }
    }

    @Test
    void R11_aMySqlSessionWhoseDefaultIsSerializableReadsAtRepeatableReadAndGetsItsLevelBack() throws Exception {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        guarded(Engine.MYSQL);
        try (Connection app = db.connect(); Statement s = app.createStatement()) {
            // An application's pooled connection whose session default is SERIALIZABLE; the pool's close
            // hands it back, so it stays open for the check below.
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            Connection lent = (Connection) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, m, args) -> {
                        if (m.getName().equals("close")) {
                            return null;
                        }
                        try {
                            return m.invoke(app, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            javax.sql.DataSource pool = new javax.sql.DataSource() {
                @Override public Connection getConnection() { return lent; }
                @Override public Connection getConnection(String u, String p) { return lent; }
                @Override public java.io.PrintWriter getLogWriter() { return null; }
                @Override public void setLogWriter(java.io.PrintWriter out) { }
                @Override public void setLoginTimeout(int seconds) { }
                @Override public int getLoginTimeout() { return 0; }
                @Override public java.util.logging.Logger getParentLogger() { return null; }
                @Override public <T> T unwrap(Class<T> iface) { return null; }
                @Override public boolean isWrapperFor(Class<?> iface) { return false; }
            };
            try (LlmSafeDataSource ds = new LlmSafeDataSource(pool, Optional.empty(), POLICY, (x, p, d) -> Guarded.SINK);
                    Connection c = ds.getConnection()) {
                assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
                c.setAutoCommit(false);
                assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 1")).containsExactly("1");
                assertThat(otherSessionUpdatesRow(db)).isTrue();
                c.rollback();
            }
            try (ResultSet rs = s.executeQuery("SELECT @@" + (db.isMysql() ? "transaction_isolation" : "tx_isolation"))) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("SERIALIZABLE");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R11_transactionsWellInsideTheBoundWorkAsBefore(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            for (int round = 0; round < 2; round++) {
                c.setAutoCommit(false);
                List<String> seen = new ArrayList<>();
                for (int id = 1; id <= 3; id++) {
                    seen.addAll(ReadTest.rows(c, "SELECT v FROM t WHERE id = " + id));
                    Thread.sleep(HOLD_MS / 10);
                }
                assertThat(seen).containsExactly("1", "2", "3");
                if (round == 0) {
                    c.commit();
                } else {
                    c.rollback();
                }
                assertThat(schemaChangeRunsSoon(g.db)).isTrue();
            }
            c.setAutoCommit(true);
            // A result set read to its end and closed, in auto-commit mode, holds nothing.
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id < 3")) {
                while (rs.next()) {
                    rs.getInt(1);
                }
            }
            assertThat(schemaChangeRunsSoon(g.db)).isTrue();
        }
    }

    /** The bound is ended from the timer's thread while the caller keeps reading: only HOLD_EXPIRED comes back. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL", "SQLITE"})
    void R11_theTimerEndsTheHoldSafelyWhileTheCallerReads(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            c.setAutoCommit(false);
            List<Throwable> other = new ArrayList<>();
            int expired = 0;
            long until = System.nanoTime() + (3L * HOLD_MS) * 1_000_000L;
            while (System.nanoTime() < until) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                } catch (RefusedException e) {
                    if (e.code() == Refusal.HOLD_EXPIRED) {
                        expired++;
                    } else {
                        other.add(e);
                    }
                } catch (SQLException | RuntimeException e) {
                    other.add(e);
                }
            }
            assertThat(other).isEmpty();
            assertThat(expired).as("the bound passed at least twice").isGreaterThanOrEqualTo(2);
            c.rollback();
        }
        assertThat(schemaChangeRunsSoon(g.db)).isTrue();
    }

    /** A pool lends no dead connection after the server ended one (PostgreSQL closes it). */
    @Test
    void R11_aConnectionTheServerEndedIsDroppedByThePool() throws Exception {
        Guarded g = guarded(Engine.POSTGRES);
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(g.url());
        hc.setDataSourceProperties(g.credentials());
        hc.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(hc)) {
            AtomicBoolean failed = new AtomicBoolean();
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                ReadTest.rows(c, "SELECT v FROM t WHERE id = 1");
                awaitReleased(g.db);
                try {
                    ReadTest.rows(c, "SELECT v FROM t WHERE id = 1");
                } catch (SQLException e) {
                    failed.set(true);
                    assertThat(e.getSQLState()).isEqualTo("08006");
                    assertThat(e.getMessage()).contains("policy.read.holdMs");
                }
            }
            assertThat(failed).isTrue();
            try (Connection c = pool.getConnection()) {
                assertThat(ReadTest.rows(c, "SELECT v FROM t WHERE id = 2")).containsExactly("2");
            }
        }
    }
}
