package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.Refusal;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * J10 on every database: a LOB read through llmsafe is the column's own value, never a large object the
 * vendor driver reads by reference on its connection (pgjdbc reads one for any value it is given as an
 * oid: a number, a text, an element of an array).
 */
class LobTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);
    private static final Map<Engine, Long> VAULT = new EnumMap<>(Engine.class);
    static final String SECRET = "LARGE-OBJECT-SECRET";
    /** Longer than the smallest byte bound a policy may set (policy.read.maxBytes, 1024). */
    static final int BIG = 2000;

    static final Policy POLICY = Policy.define(p -> p.table("docs"));

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
            pg.admin("SELECT lo_unlink(lo) FROM docs", "SELECT lo_unlink(lo) FROM vault");
        }
    }

    /**
     * docs (allowlisted): binary, text, and on PostgreSQL an oid column, the same oid as a number and in
     * an array; vault (hidden) holds another large object, which no allowlisted table names.
     */
    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g != null) {
            return g;
        }
        ScratchDatabase db = dbs.get(engine);
        switch (engine) {
            case POSTGRES -> db.execute("CREATE TABLE vault (id INT PRIMARY KEY, lo OID)",
                    "INSERT INTO vault VALUES (1, lo_from_bytea(0, convert_to('" + SECRET + "', 'UTF8')))",
                    "CREATE TABLE docs (id INT PRIMARY KEY, body BYTEA, txt TEXT, lo OID, n INT8, oids OID[])",
                    "INSERT INTO docs SELECT 1, '\\x0102', 'hello', lo_from_bytea(0, convert_to('" + SECRET
                            + " of docs', 'UTF8')), lo, ARRAY[lo] FROM vault");
            case MYSQL, SQLITE -> db.execute("CREATE TABLE docs (id INT PRIMARY KEY, body BLOB, txt TEXT)",
                    "INSERT INTO docs VALUES (1, X'0102', 'hello')");
        }
        db.execute("ALTER TABLE docs ADD COLUMN big TEXT", "UPDATE docs SET big = '" + "x".repeat(BIG) + "'");
        if (engine == Engine.POSTGRES) {
            try (Statement s = db.admin().createStatement(); ResultSet rs = s.executeQuery("SELECT lo FROM vault")) {
                rs.next();
                VAULT.put(engine, rs.getLong(1));
            }
        }
        g = Guarded.of(db, POLICY);
        GUARDED.put(engine, g);
        return g;
    }

    /** One attempt on a current row. */
    @FunctionalInterface
    interface Read {
        Object on(ResultSet rs) throws Exception;
    }

    private static String text(Object v) throws Exception {
        if (v instanceof Blob b) {
            return new String(b.getBytes(1, (int) b.length()), StandardCharsets.UTF_8);
        }
        if (v instanceof Clob c) {
            return c.getSubString(1, (int) c.length());
        }
        if (v instanceof InputStream in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return String.valueOf(v);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J10_aLobAccessorNeverReadsALargeObjectByReference(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        // Every shape that pgjdbc turns into a large object read: an oid column, the oid as a number or a
        // text, a literal, an element of an array of oids; through getBlob, getClob, getNClob, getObject.
        Map<String, Read> refused = new LinkedHashMap<>();
        Map<String, Read> ownValue = new LinkedHashMap<>();
        String numbers = "SELECT id, 77 AS lit FROM docs";
        refused.put(numbers + " getBlob(id)", rs -> rs.getBlob(1));
        refused.put(numbers + " getClob(lit)", rs -> rs.getClob(2));
        refused.put(numbers + " getNClob(id)", rs -> rs.getNClob("id"));
        refused.put(numbers + " getObject(lit, Blob)", rs -> rs.getObject(2, Blob.class));
        refused.put(numbers + " getObject(id, Clob)", rs -> rs.getObject("id", Clob.class));
        if (engine == Engine.POSTGRES) {
            long vault = VAULT.get(engine);
            String oids = "SELECT lo, n, " + vault + " AS vault FROM docs";
            refused.put(oids + " getBlob(lo)", rs -> rs.getBlob(1));
            refused.put(oids + " getBlob(n)", rs -> rs.getBlob("n"));
            refused.put(oids + " getClob(vault)", rs -> rs.getClob(3));
            refused.put(oids + " getNClob(lo)", rs -> rs.getNClob(1));
            refused.put(oids + " getObject(lo, Blob)", rs -> rs.getObject(1, Blob.class));
            refused.put(oids + " getObject(vault, NClob)", rs -> rs.getObject(3, NClob.class));
            String array = "SELECT oids FROM docs";
            refused.put(array + " element getBlob", rs -> {
                Array a = rs.getArray(1);
                ResultSet elements = a.getResultSet();
                elements.next();
                return elements.getBlob(2);
            });
            refused.put(array + " element getObject(Clob)", rs -> {
                ResultSet elements = rs.getArray(1).getResultSet();
                elements.next();
                return elements.getObject(2, Clob.class);
            });
            // The oid as text: pgjdbc reads large object <vault> for getBlob or getClob of the text; llmsafe
            // gives the text itself.
            String asText = "SELECT CAST(" + vault + " AS TEXT) AS t, lo FROM docs";
            ownValue.put(asText + " getBlob(t)", rs -> rs.getBlob(1));
            ownValue.put(asText + " getClob(t)", rs -> rs.getClob(1));
            ownValue.put(asText + " getBinaryStream(lo)", rs -> rs.getBinaryStream(2));
            ownValue.put(asText + " getObject(lo)", rs -> rs.getObject(2));
        }
        try (Connection c = g.connect()) {
            // pgjdbc reads large objects only in a transaction: the attack sets one up first.
            c.setAutoCommit(false);
            for (Map.Entry<String, Read> e : refused.entrySet()) {
                String sql = e.getKey().substring(0, e.getKey().lastIndexOf(" get"));
                g.refusedUnchanged(Refusal.FORBIDDEN_JDBC, () -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        rs.next();
                        e.getValue().on(rs);
                    }
                });
            }
            for (Map.Entry<String, Read> e : ownValue.entrySet()) {
                String sql = e.getKey().substring(0, e.getKey().lastIndexOf(" get"));
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    rs.next();
                    String v = text(e.getValue().on(rs));
                    assertThat(v).as(e.getKey()).doesNotContain(SECRET).matches("[0-9]+");
                }
            }
            c.rollback();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J10_aLobOfABinaryOrTextColumnIsItsOwnValueReadOnly(Engine engine) throws Exception {
        Guarded g = guarded(engine);
        try (Connection c = g.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT body, txt FROM docs WHERE id = 1")) {
            rs.next();
            // pgjdbc refuses getBlob of a bytea (it takes the value for an oid); sqlite-jdbc has no getBlob.
            Blob b = rs.getBlob(1);
            assertThat(b).isInstanceOf(ReadOnlyBlob.class);
            assertThat(b.length()).isEqualTo(2);
            assertThat(b.getBytes(1, 2)).containsExactly(1, 2);
            assertThat(b.getBinaryStream().readAllBytes()).containsExactly(1, 2);
            assertThat(b.position(new byte[] {2}, 1)).isEqualTo(2);
            assertThat(rs.getObject(1, Blob.class).getBytes(1, 2)).containsExactly(1, 2);
            assertThat(rs.getBlob("body").getBytes(2, 5)).containsExactly(2);
            Clob t = rs.getClob(2);
            assertThat(t).isInstanceOf(ReadOnlyClob.class);
            assertThat(t.getSubString(1, 5)).isEqualTo("hello");
            assertThat(t.position("llo", 1)).isEqualTo(3);
            assertThat(rs.getNClob("txt").getSubString(2, 3)).isEqualTo("ell");
            assertThat(rs.getObject(2, Clob.class).length()).isEqualTo(5);
            g.refusedUnchanged(Refusal.FORBIDDEN_JDBC, () -> b.setBytes(1, new byte[] {9}));
            g.refusedUnchanged(Refusal.FORBIDDEN_JDBC, () -> t.setString(1, "x"));
            g.refusedUnchanged(Refusal.FORBIDDEN_JDBC, () -> t.truncate(0));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J10_R12_aLobCountsItsBytesTowardTheReadsBound(Engine engine) throws Exception {
        Guarded small = Guarded.of(guarded(engine).db, Policy.define(p -> p.table("docs").read(r -> r.maxBytes(1024))));
        for (Read lob : List.<Read>of(rs -> rs.getBlob(1), rs -> rs.getClob(1), rs -> rs.getNClob("big"),
                rs -> rs.getObject(1, Clob.class))) {
            try (Connection c = small.connect()) {
                small.refusedUnchanged(Refusal.TOO_LARGE, () -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                            "SELECT big FROM docs WHERE id = 1")) {
                        rs.next();
                        lob.on(rs);
                    }
                });
            }
        }
        try (Connection c = guarded(engine).connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT big FROM docs WHERE id = 1")) {
            rs.next();
            assertThat(rs.getClob(1).length()).isEqualTo(BIG);
        }
    }
}
