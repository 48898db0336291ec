package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JDBC surfaces a write-guarding wrapper must handle (shared/research/jdbc-wrappers.md, last
 * section), attempted through the driver on every database: nothing in the database changes, and the
 * caller gets the documented exception or llmsafe's own object.
 */
class SurfaceTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final Policy POLICY = Policy.define(p -> p
            .table("orders", t -> t.impact("Changing an order moves money."))
            .table("docs")
            .table("writing_view"));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() throws SQLException {
        Guarded.restoreSink();
        // Large objects belong to the database, not the schema: dropping the scratch schema leaves them.
        Guarded pg = GUARDED.get(Engine.POSTGRES);
        if (pg != null) {
            pg.admin("SELECT lo_unlink(lo) FROM docs");
        }
    }

    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, qty INT)",
                    "INSERT INTO orders VALUES (1, 'packed', 1), (2, 'packed', 2), (3, 'shipped', 3)",
                    "CREATE TABLE write_log (note VARCHAR(20))");
            switch (engine) {
                case POSTGRES -> db.execute("CREATE TABLE docs (id INT PRIMARY KEY, body BYTEA, tags INT[], lo OID)",
                        "INSERT INTO docs VALUES (1, '\\x0102', '{1,2,3}', lo_from_bytea(0, '\\x0a0b'))",
                        "CREATE FUNCTION log_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
                                + " INSERT INTO write_log VALUES ('written'); RETURN 1; END $$",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders",
                        "CREATE PROCEDURE wipe() LANGUAGE sql AS $$ DELETE FROM orders $$");
                case MYSQL -> db.execute("CREATE TABLE docs (id INT PRIMARY KEY, body BLOB)",
                        "INSERT INTO docs VALUES (1, X'0102')",
                        "CREATE FUNCTION log_write() RETURNS INT DETERMINISTIC MODIFIES SQL DATA"
                                + " BEGIN INSERT INTO write_log VALUES ('written'); RETURN 1; END",
                        "CREATE VIEW writing_view AS SELECT id, log_write() AS w FROM orders",
                        "CREATE PROCEDURE wipe() MODIFIES SQL DATA DELETE FROM orders");
                case SQLITE -> db.execute("CREATE TABLE docs (id INT PRIMARY KEY, body BLOB)",
                        "INSERT INTO docs VALUES (1, X'0102')",
                        "CREATE VIEW writing_view AS SELECT id, 1 AS w FROM orders");
            }
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    /** The vendor's own connection, statement and result set interfaces: what unwrap must never hand out. */
    static List<Class<?>> vendorTypes(Engine engine) {
        List<String> names = switch (engine) {
            case POSTGRES -> List.of("org.postgresql.PGConnection", "org.postgresql.core.BaseConnection",
                    "org.postgresql.PGStatement", "org.postgresql.jdbc.PgConnection");
            case MYSQL -> List.of("com.mysql.cj.jdbc.JdbcConnection", "com.mysql.cj.jdbc.ConnectionImpl",
                    "com.mysql.cj.jdbc.JdbcStatement");
            case SQLITE -> List.of("org.sqlite.SQLiteConnection", "org.sqlite.jdbc4.JDBC4Connection",
                    "org.sqlite.jdbc3.JDBC3Statement");
        };
        return names.stream().<Class<?>>map(n -> {
            try {
                return Class.forName(n);
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    private static void forbidden(Guarded g, org.assertj.core.api.ThrowableAssert.ThrowingCallable attempt)
            throws SQLException {
        g.refusedUnchanged(Refusal.FORBIDDEN_JDBC, attempt);
    }

    // ---- 1, 2, 24: unwrap ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_unwrapHandsOutTheWrapperItselfAndNeverTheVendorObject(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
            assertThat(c.unwrap(Connection.class)).isSameAs(c);
            assertThat(c.isWrapperFor(Connection.class)).isTrue();
            assertThat(s.unwrap(Statement.class)).isSameAs(s);
            assertThat(rs.unwrap(ResultSet.class)).isSameAs(rs);
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.unwrap(DatabaseMetaData.class)).isSameAs(md);
            for (Class<?> vendor : vendorTypes(engine)) {
                assertThat(c.isWrapperFor(vendor)).as(vendor.getName()).isFalse();
                assertThat(s.isWrapperFor(vendor)).isFalse();
                forbidden(g, () -> c.unwrap(vendor));
                forbidden(g, () -> s.unwrap(vendor));
                forbidden(g, () -> rs.unwrap(vendor));
                forbidden(g, () -> md.unwrap(vendor));
                forbidden(g, () -> rs.getMetaData().unwrap(vendor));
            }
            // The vendor APIs behind unwrap (pgjdbc's CopyManager and large objects) are out of reach, and so
            // is their SQL.
            g.refusedUnchanged(Refusal.FORBIDDEN, () -> s.execute("COPY orders FROM STDIN"));
            g.refusedUnchanged(Refusal.FORBIDDEN, () -> s.execute("LOAD DATA LOCAL INFILE '/etc/hosts' INTO TABLE orders"));
        }
    }

    // ---- 3, 4, 5, 6, 7, 28: back-references and every result set handed back ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_backReferencesAreTheWrappersAndEveryResultSetIsWrapped(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement();
                PreparedStatement ps = c.prepareStatement("SELECT id FROM orders WHERE id = ?")) {
            assertThat(s.getConnection()).isSameAs(c);
            assertThat(ps.getConnection()).isSameAs(c);
            ResultSet q = s.executeQuery("SELECT id FROM orders");
            assertThat(q.getStatement()).isSameAs(s);
            assertThat(s.execute("SELECT status FROM orders")).isTrue();
            ResultSet r = s.getResultSet();
            assertThat(r.getStatement()).isSameAs(s);
            assertThat(q.isClosed()).isTrue();
            assertThat(s.getMoreResults()).isFalse();
            assertThat(s.getResultSet()).isNull();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
            ps.setInt(1, 1);
            ResultSet p = ps.executeQuery();
            assertThat(p.getStatement()).isSameAs(ps);
            ResultSet keys;
            try {
                keys = s.getGeneratedKeys();
            } catch (SQLException e) {
                keys = null; // Connector/J: none were asked for
            }
            if (keys != null) {
                assertThat(keys.getStatement()).isSameAs(s);
                assertThat(keys).isInstanceOf(GuardedResultSet.class);
            }
            // Metadata: the connection is ours, its result sets are wrapped and read-only, and its own catalog
            // queries work although the guard refuses the catalogs in SQL (they never pass through it).
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getConnection()).isSameAs(c);
            assertThat(md.isReadOnly()).isTrue();
            assertThat(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)).isFalse();
            String catalog = engine == Engine.MYSQL ? g.db.name() : null;
            String schema = engine == Engine.POSTGRES ? g.db.name() : null;
            try (ResultSet tables = md.getTables(catalog, schema, "orders", null)) {
                assertThat(tables).isInstanceOf(GuardedResultSet.class);
                assertThat(tables.getStatement()).isNull();
                assertThat(tables.next()).isTrue();
                forbidden(g, () -> tables.updateString(1, "x"));
                forbidden(g, tables::deleteRow);
            }
            try (ResultSet columns = md.getColumns(catalog, schema, "orders", "%")) {
                assertThat(columns.next()).isTrue();
                assertThat(columns.getMetaData()).isInstanceOf(GuardedResultSetMetaData.class);
            }
        }
    }

    // ---- 8: arrays, LOBs, savepoints, metadata objects ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_arraysLobsSavepointsAndMetadataAreLlmsafesOwnAndCannotWrite(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            if (engine == Engine.POSTGRES) {
                try (ResultSet rs = s.executeQuery("SELECT tags, body FROM docs WHERE id = 1")) {
                    rs.next();
                    Array tags = rs.getArray(1);
                    assertThat(tags).isInstanceOf(GuardedArray.class);
                    assertThat((Integer[]) tags.getArray()).containsExactly(1, 2, 3);
                    assertThat(rs.getObject(1)).isInstanceOf(GuardedArray.class);
                    try (ResultSet elements = tags.getResultSet()) {
                        assertThat(elements).isInstanceOf(GuardedResultSet.class);
                        assertThat(elements.next()).isTrue();
                    }
                    assertThat(rs.getObject(1, Array.class)).isInstanceOf(GuardedArray.class);
                    assertThat(rs.getBytes(2)).containsExactly(1, 2);
                }
                // An array made by the caller is bound as a read's parameter.
                try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM orders WHERE id = ANY(?)")) {
                    ps.setArray(1, c.createArrayOf("int4", new Integer[] {1, 3}));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertThat(rs.getInt(1)).isEqualTo(2);
                    }
                }
            }
            // A LOB is a read-only copy of the column's own value (J10; the large objects are in LobTest).
            try (ResultSet rs = s.executeQuery("SELECT body FROM docs WHERE id = 1")) {
                rs.next();
                assertThat(rs.getBytes(1)).containsExactly(1, 2);
                Blob b = rs.getBlob(1);
                assertThat(b).isInstanceOf(ReadOnlyBlob.class);
                assertThat(b.getBytes(1, 2)).containsExactly(1, 2);
                forbidden(g, () -> b.setBytes(1, new byte[] {9, 9}));
                forbidden(g, () -> b.truncate(0));
                forbidden(g, () -> b.setBinaryStream(1));
            }
            forbidden(g, c::createBlob);
            forbidden(g, c::createClob);
            forbidden(g, c::createNClob);
            forbidden(g, c::createSQLXML);
            // Savepoints are llmsafe's; a foreign one is refused, ours go back to the vendor as its own.
            c.setAutoCommit(false);
            Savepoint sp = c.setSavepoint("before");
            assertThat(sp).isInstanceOf(GuardedSavepoint.class);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM orders")) {
                rs.next();
            }
            c.rollback(sp);
            assertThatThrownBy(() -> c.rollback(new Savepoint() {
                @Override
                public int getSavepointId() {
                    return 1;
                }

                @Override
                public String getSavepointName() {
                    return "x";
                }
            })).isInstanceOf(SQLException.class);
            c.rollback();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM orders WHERE id = ?")) {
                assertThat(ps.getMetaData()).isInstanceOf(GuardedResultSetMetaData.class);
                assertThat(ps.getParameterMetaData()).isInstanceOf(GuardedParameterMetaData.class);
                for (Class<?> vendor : vendorTypes(engine)) {
                    forbidden(g, () -> ps.getParameterMetaData().unwrap(vendor));
                }
            }
        }
    }

    // ---- 10: use after close ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_aClosedWrapperThrowsAndNeverReachesTheVendorObject(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        Connection c = g.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM orders");
        DatabaseMetaData md = c.getMetaData();
        rs.close();
        assertThat(rs.isClosed()).isTrue();
        assertThatThrownBy(rs::next).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        Statement open = c.createStatement();
        s.close();
        assertThatThrownBy(() -> s.executeQuery("SELECT 1")).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        assertThatThrownBy(s::getConnection).isInstanceOf(SQLException.class);
        c.close();
        assertThat(c.isClosed()).isTrue();
        assertThat(open.isClosed()).isTrue();
        assertThatThrownBy(c::createStatement).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> open.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> md.getTables(null, null, "%", null)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.unwrap(Connection.class)).isInstanceOf(SQLException.class);
        assertThat(c.isValid(1)).isFalse();
        c.close();
    }

    // ---- 23: updatable result sets ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J3_updatableResultSetsAreDowngradedAndCannotWrite(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE);
            assertThat(c.getWarnings().getMessage()).contains("forward-only");
            assertThat(s.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            ResultSet rs = s.executeQuery("SELECT id, status FROM orders WHERE id = 1");
            assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            assertThat(rs.next()).isTrue();
            forbidden(g, () -> rs.updateString("status", "hacked"));
            forbidden(g, rs::updateRow);
            forbidden(g, rs::deleteRow);
            forbidden(g, rs::moveToInsertRow);
            forbidden(g, rs::insertRow);
            forbidden(g, rs::refreshRow);
            forbidden(g, () -> rs.updateObject(2, "hacked"));
            // Forward only, so that no row past the cap can be reached by scrolling.
            forbidden(g, rs::previous);
            forbidden(g, () -> rs.absolute(3));
            PreparedStatement ps = c.prepareStatement("SELECT id, status FROM orders", ResultSet.TYPE_SCROLL_SENSITIVE,
                    ResultSet.CONCUR_UPDATABLE);
            ResultSet p = ps.executeQuery();
            assertThat(p.next()).isTrue();
            forbidden(g, () -> p.updateInt(1, 9));
            forbidden(g, p::updateRow);
        }
    }

    // ---- 19: calls ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J4_callableStatementsAndProcedureCallsAreRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            forbidden(g, () -> c.prepareCall("{call wipe()}"));
            forbidden(g, () -> c.prepareCall("CALL wipe()", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY));
            forbidden(g, () -> c.prepareCall("CALL wipe()", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                    ResultSet.HOLD_CURSORS_OVER_COMMIT));
            g.refusedUnchanged(Refusal.FORBIDDEN, () -> s.execute("CALL wipe()"));
            g.refusedUnchanged(Refusal.UNSUPPORTED_STATEMENT, () -> s.execute("{call wipe()}"));
            g.refusedUnchanged(Refusal.UNSUPPORTED_STATEMENT, () -> c.prepareStatement("{? = call log_write()}"));
        }
    }

    // ---- 21, 22, 29: the read-only session cannot be left ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J6_setReadOnlyFalseThenAWriteIsStillStoppedByTheServer(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            c.setReadOnly(false);
            assertThat(c.isReadOnly()).isTrue();
            assertWritesStopped(g, c);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J6_transactionSettingsCannotWidenTheSession(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertWritesStopped(g, c);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            assertWritesStopped(g, c);
            Savepoint sp = c.setSavepoint();
            c.rollback(sp);
            c.commit();
            c.setAutoCommit(true);
            assertWritesStopped(g, c);
            // A COMMIT through the API commits nothing: the next UPDATE is still only a plan.
            try (Statement s = c.createStatement()) {
                g.plannedUnchanged(() -> s.executeUpdate("UPDATE orders SET qty = 9 WHERE id = 1"));
            }
        }
    }

    /**
     * Around the guard, on the read connection, and through it (a view that writes) where there is one. In
     * a transaction, each failed write aborts it (PostgreSQL), so each is rolled back before the next.
     */
    private static void assertWritesStopped(Guarded g, Connection c) throws SQLException {
        Connection session = ((GuardedConnection) c).readConnectionForTests();
        try (Statement s = session.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate("UPDATE orders SET qty = 0 WHERE id = 1"))
                    .satisfies(e -> assertThat(((GuardedConnection) c).engine().dialect()
                            .isReadOnlyViolation((SQLException) e)).as(e.toString()).isTrue());
        }
        if (!c.getAutoCommit()) {
            c.rollback();
        }
        if (g.engine() != Engine.SQLITE) {
            g.refusedUnchanged(Refusal.MIXED, () -> ReadTest.rows(c, "SELECT * FROM writing_view"));
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        }
        assertThat(g.count("SELECT count(*) FROM write_log")).isZero();
        assertThat(g.count("SELECT qty FROM orders WHERE id = 1")).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J6_schemaCatalogAndShardingCannotMoveNameResolution(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            c.setSchema(c.getSchema());
            c.setCatalog(c.getCatalog());
            forbidden(g, () -> c.setSchema("public_elsewhere"));
            forbidden(g, () -> c.setCatalog("mysql"));
            forbidden(g, () -> c.setShardingKey(null));
            forbidden(g, () -> c.setShardingKeyIfValid(null, 1));
            assertThat(ReadTest.rows(c, "SELECT count(*) FROM orders")).containsExactly("3");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J6_transactionAndSessionControlInSqlIsRefused(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        List<String> attempts = switch (engine) {
            case POSTGRES -> List.of("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", "SET TRANSACTION READ WRITE",
                    "SET default_transaction_read_only = off", "RESET ALL", "BEGIN READ WRITE", "COMMIT", "END",
                    "SET ROLE postgres", "DISCARD ALL", "START TRANSACTION READ WRITE");
            case MYSQL -> List.of("SET SESSION TRANSACTION READ WRITE", "SET SESSION tx_read_only = 0",
                    "START TRANSACTION READ WRITE", "COMMIT", "SET autocommit = 1", "USE mysql", "LOCK TABLES orders WRITE");
            case SQLITE -> List.of("PRAGMA query_only = OFF", "BEGIN IMMEDIATE", "COMMIT", "ATTACH DATABASE 'x.db' AS x",
                    "DETACH DATABASE main");
        };
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            for (String sql : attempts) {
                g.refusedUnchanged(Refusal.FORBIDDEN, () -> s.execute(sql));
            }
            if (engine == Engine.POSTGRES) {
                g.refusedUnchanged(Refusal.MIXED,
                        () -> s.executeQuery("SELECT set_config('default_transaction_read_only', 'off', false)"));
            }
            assertWritesStopped(g, c);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J2_theStatementTextIsNeverRewrittenByTheDriver(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            s.setEscapeProcessing(true);
            g.refusedUnchanged(Refusal.UNSUPPORTED_STATEMENT, () -> s.executeQuery("SELECT {fn ucase(status)} FROM orders"));
            // Comments are removed before the judgement and what runs is the text judged.
            try (ResultSet rs = s.executeQuery("/* a comment */ SELECT status FROM orders -- trailing\n WHERE id = 3")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("shipped");
            }
            assertThat(c.nativeSQL("SELECT 1")).isNotNull();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J1_refusalsAreSqlExceptionsWithTheirCodeAndAReason(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            assertThatThrownBy(() -> c.prepareCall("CALL wipe()")).isInstanceOf(RefusedException.class)
                    .hasMessageStartingWith("Refused (FORBIDDEN_JDBC): prepareCall is refused:")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        }
    }
}
