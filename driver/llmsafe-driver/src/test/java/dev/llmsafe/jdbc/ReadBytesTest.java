package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.InputStream;
import java.io.Reader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R12 on every database, through jdbc:llmsafe:: a read returns at most policy.read.maxBytes, cut at a
 * row boundary with the row cap's warning; a value larger than the bound is refused; a driver that
 * would buffer past it is stopped first (pgjdbc's maxResultBuffer, SQLite's length limit); every
 * failure is a SQLException with its code; and big but allowed reads work.
 */
class ReadBytesTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);

    static final int MAX_BYTES = 64 * 1024;
    static final Policy POLICY = Policy.define(p -> p.table("wide").table("huge")
            .read(r -> r.maxRows(1000).maxBytes(MAX_BYTES)));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    /** wide: 200 rows of 1 KiB of text and 1 KiB of bytes; huge: one row of 100 KB. */
    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            String bin = switch (engine) {
                case POSTGRES -> "BYTEA";
                case MYSQL -> "BLOB";
                case SQLITE -> "BLOB";
            };
            String text = engine == Engine.MYSQL ? "MEDIUMTEXT" : "TEXT";
            db.execute("CREATE TABLE wide (id INT PRIMARY KEY, t " + text + ", b " + bin + ")",
                    "CREATE TABLE huge (id INT PRIMARY KEY, t " + text + ")");
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                try (var ps = c.prepareStatement("INSERT INTO wide VALUES (?, ?, ?)")) {
                    for (int i = 1; i <= 200; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "x".repeat(1024));
                        ps.setBytes(3, new byte[1024]);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                try (var ps = c.prepareStatement("INSERT INTO huge VALUES (1, ?)")) {
                    ps.setString(1, "y".repeat(100_000));
                    ps.executeUpdate();
                }
                c.commit();
            }
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    static String warningState(ResultSet rs) throws SQLException {
        SQLWarning w = rs.getWarnings();
        return w == null ? null : w.getSQLState() + " " + w.getMessage();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R12_aReadIsCutAtTheByteBoundWithTheRowCapsWarning(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            // PostgreSQL: in a transaction, pgjdbc fetches in batches, and the guard cuts the result.
            c.setAutoCommit(engine != Engine.POSTGRES);
            for (String column : new String[] {"t", "b"}) {
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT " + column + " FROM wide ORDER BY id")) {
                    int rows = 0;
                    while (rs.next()) {
                        if (column.equals("t")) {
                            assertThat(rs.getString(1)).hasSize(1024);
                        } else {
                            assertThat(rs.getBytes(1)).hasSize(1024);
                        }
                        rows++;
                    }
                    // 64 rows of 1 KiB reach 64 KiB: the result ends at that row boundary.
                    assertThat(rows).as(column).isEqualTo(MAX_BYTES / 1024);
                    assertThat(warningState(rs)).startsWith(GuardedResultSet.TRUNCATED)
                            .contains("policy.read.maxBytes is " + MAX_BYTES);
                    assertThatThrownBy(() -> rs.getString(1)).isInstanceOf(SQLException.class);
                }
            }
            if (engine == Engine.POSTGRES) {
                c.rollback();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R12_aValueLargerThanTheBoundIsRefusedAndTheConnectionGoesOn(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        try (Connection c = g.connect()) {
            for (String how : new String[] {"getString", "getObject", "getCharacterStream"}) {
                assertThatThrownBy(() -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT t FROM huge")) {
                        rs.next();
                        switch (how) {
                            case "getString" -> rs.getString(1);
                            case "getObject" -> rs.getObject(1);
                            default -> {
                                try (Reader r = rs.getCharacterStream(1)) {
                                    char[] buf = new char[8192];
                                    while (r.read(buf) >= 0) {
                                        // read it all
                                    }
                                }
                            }
                        }
                    }
                }).as(how).satisfies(e -> {
                    RefusedException r = e instanceof RefusedException x ? x : (RefusedException) e.getCause();
                    assertThat(r.code()).isEqualTo(Refusal.TOO_LARGE);
                    assertThat(r.getMessage()).contains("policy.read.maxBytes (" + MAX_BYTES + " bytes)");
                });
            }
            assertThat(ReadTest.rows(c, "SELECT id FROM huge")).containsExactly("1");
        }
    }

    /**
     * A result the vendor driver would buffer whole: PostgreSQL in auto-commit (pgjdbc reads it all
     * before the first row), a value computed far past the bound on each database.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R12_theDriverIsStoppedBeforeItBuffersPastTheBound(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        String hundredMegabytes = switch (engine) {
            case POSTGRES -> "SELECT repeat('x', 100000000)";
            case MYSQL -> "SELECT repeat('x', 100000000)";
            case SQLITE -> "SELECT printf('%.*c', 100000000, 'x')";
        };
        try (Connection c = g.connect(); Statement s = c.createStatement()) {
            switch (engine) {
                case POSTGRES -> {
                    // pgjdbc's maxResultBuffer (twice the bound) stops reading and closes the connection.
                    for (String sql : new String[] {hundredMegabytes, "SELECT t FROM wide"}) {
                        try (Connection fresh = g.connect(); Statement fs = fresh.createStatement()) {
                            assertThatThrownBy(() -> fs.executeQuery(sql)).isInstanceOf(SQLException.class)
                                    .isNotInstanceOf(RefusedException.class)
                                    .hasMessageContaining("policy.read.maxBytes (" + MAX_BYTES + " bytes)")
                                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"));
                            assertThat(fresh.isValid(1)).isFalse();
                        }
                    }
                }
                case MYSQL -> {
                    // The server bounds every value by max_allowed_packet: NULL and warning 1301 (measured).
                    try (ResultSet rs = s.executeQuery(hundredMegabytes)) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isNull();
                        SQLWarning w = rs.getWarnings() != null ? rs.getWarnings() : s.getWarnings();
                        assertThat(w == null ? 0 : w.getErrorCode()).isEqualTo(1301);
                    }
                }
                case SQLITE -> {
                    // SQLITE_LIMIT_LENGTH is the bound on the read connection: SQLite refuses to make the value.
                    assertThatThrownBy(() -> ReadTest.rows(c, hundredMegabytes)).isInstanceOf(RefusedException.class)
                            .hasMessageContaining("policy.read.maxBytes")
                            .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.TOO_LARGE));
                    assertThat(ReadTest.rows(c, "SELECT id FROM wide WHERE id = 1")).containsExactly("1");
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R12_bigButAllowedReadsWorkThroughEveryGetter(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, t, b FROM wide WHERE id <= 20 ORDER BY id")) {
            int rows = 0;
            while (rs.next()) {
                rows++;
                switch (rows % 4) {
                    case 0 -> assertThat(rs.getString("t")).hasSize(1024);
                    case 1 -> assertThat((String) rs.getObject(2)).hasSize(1024);
                    case 2 -> {
                        try (InputStream in = rs.getBinaryStream(3)) {
                            assertThat(in.readAllBytes()).hasSize(1024);
                        }
                    }
                    default -> {
                        try (Reader r = rs.getCharacterStream(2)) {
                            assertThat(r.transferTo(java.io.Writer.nullWriter())).isEqualTo(1024);
                        }
                    }
                }
                assertThat(rs.getInt(1)).isEqualTo(rows);
            }
            assertThat(rows).isEqualTo(20);
            assertThat(warningState(rs)).isNull();
        }
    }
}
