package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.DelegatingDataSource;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The wrappers checked by reflection, in the style of OpenTelemetry's WrapperTest: every method of every
 * JDBC interface llmsafe wraps is implemented by llmsafe's own class, so that no default method of a
 * newer JDBC version (4.5 arrives with Java 26) silently reaches the vendor object; the guarded surface
 * is declared in the guarded classes and never in the pass-through ones; and the write and leak surface
 * is invoked, method by method, and is refused or hands back llmsafe's own object.
 */
class WrapperTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final Map<Class<?>, Class<?>> WRAPPERS = new LinkedHashMap<>();

    static {
        WRAPPERS.put(Driver.class, LlmSafeDriver.class);
        WRAPPERS.put(DataSource.class, LlmSafeDataSource.class);
        WRAPPERS.put(Connection.class, GuardedConnection.class);
        WRAPPERS.put(Statement.class, GuardedStatement.class);
        WRAPPERS.put(PreparedStatement.class, GuardedPreparedStatement.class);
        WRAPPERS.put(ResultSet.class, GuardedResultSet.class);
        WRAPPERS.put(DatabaseMetaData.class, GuardedMetaData.class);
        WRAPPERS.put(ResultSetMetaData.class, GuardedResultSetMetaData.class);
        WRAPPERS.put(ParameterMetaData.class, GuardedParameterMetaData.class);
        WRAPPERS.put(Array.class, GuardedArray.class);
        WRAPPERS.put(Blob.class, ReadOnlyBlob.class);
        WRAPPERS.put(Clob.class, ReadOnlyClob.class);
        WRAPPERS.put(NClob.class, ReadOnlyNClob.class);
        WRAPPERS.put(Savepoint.class, GuardedSavepoint.class);
    }

    /** JDBC objects: a pass-through method may return none of them. */
    static final Set<Class<?>> JDBC_OBJECTS = Set.of(Connection.class, Statement.class, PreparedStatement.class,
            CallableStatement.class, ResultSet.class, DatabaseMetaData.class, ResultSetMetaData.class,
            ParameterMetaData.class, Array.class, Blob.class, Clob.class, NClob.class, Ref.class, Struct.class,
            Savepoint.class, Object.class);

    static final Set<String> ROW_WRITERS = Set.of("insertRow", "updateRow", "deleteRow", "refreshRow",
            "moveToInsertRow", "moveToCurrentRow", "cancelRowUpdates");

    static final List<Class<?>> PASS_THROUGH = List.of(DelegatingConnection.class, DelegatingStatement.class,
            DelegatingResultSet.class, DelegatingMetaData.class);

    /** The Connection methods that create statements or objects, or could widen the session (J6). */
    static final Set<String> CONNECTION_SURFACE = Set.of("setReadOnly", "isReadOnly", "setCatalog", "setSchema",
            "setAutoCommit", "setTransactionIsolation", "commit", "rollback", "setSavepoint", "releaseSavepoint",
            "setShardingKey", "setShardingKeyIfValid", "abort", "close", "isValid", "getWarnings", "clearWarnings");

    private static Method implementation(Class<?> wrapper, Method m) {
        try {
            return wrapper.getMethod(m.getName(), m.getParameterTypes());
        } catch (NoSuchMethodException e) {
            throw new AssertionError(wrapper.getSimpleName() + " has no " + m, e);
        }
    }

    private static Stream<Method> interfaceMethods(Class<?> iface) {
        return Stream.of(iface.getMethods()).filter(m -> !Modifier.isStatic(m.getModifiers()));
    }

    @Test
    void J1_everyMethodOfEveryWrappedJdbcInterfaceIsImplementedByLlmsafe() {
        List<String> inherited = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<Class<?>, Class<?>> e : WRAPPERS.entrySet()) {
            for (Method m : interfaceMethods(e.getKey()).toList()) {
                Method impl = implementation(e.getValue(), m);
                Class<?> owner = impl.getDeclaringClass();
                checked++;
                // DelegatingDataSource is the plumbing llmsafe's three data sources share (in assembly, for the pools')
                boolean ours = owner.getPackageName().equals("dev.llmsafe.jdbc") || owner == DelegatingDataSource.class;
                if (owner.isInterface() || !ours || Modifier.isAbstract(impl.getModifiers())) {
                    inherited.add(e.getValue().getSimpleName() + "." + m.getName() + " comes from " + owner.getName());
                }
            }
        }
        assertThat(inherited).as("methods that would reach a default method or the vendor object").isEmpty();
        // The JDK's java.sql has some 600 methods across these interfaces: none was skipped.
        assertThat(checked).isGreaterThan(550);
    }

    @Test
    void J1_theGuardedSurfaceIsDeclaredInTheGuardedClassesNeverInThePassThrough() {
        // Nothing that runs SQL, writes, unwraps or hands out a JDBC object is a pass-through.
        for (Class<?> pass : PASS_THROUGH) {
            for (Method m : pass.getDeclaredMethods()) {
                if (m.isSynthetic() || !Modifier.isPublic(m.getModifiers())) {
                    continue;
                }
                String n = m.getName();
                assertThat(JDBC_OBJECTS).as(pass.getSimpleName() + "." + n + " returns a JDBC object")
                        .doesNotContain(m.getReturnType());
                // (DatabaseMetaData's updatesAreDetected is a fact, not an update.)
                boolean update = n.startsWith("update") && pass != DelegatingMetaData.class;
                assertThat(n.startsWith("execute") || update || n.equals("addBatch") || n.equals("unwrap")
                        || n.equals("isWrapperFor") || n.equals("next") || ROW_WRITERS.contains(n) || n.equals("close"))
                        .as(pass.getSimpleName() + "." + n + " belongs to the guarded surface").isFalse();
            }
        }
        for (Method m : interfaceMethods(Connection.class).toList()) {
            String n = m.getName();
            if (CONNECTION_SURFACE.contains(n) || n.startsWith("create") || n.startsWith("prepare") || n.equals("unwrap")
                    || n.equals("isWrapperFor") || JDBC_OBJECTS.contains(m.getReturnType())) {
                assertThat(PASS_THROUGH).as("Connection." + n).doesNotContain(implementation(GuardedConnection.class, m)
                        .getDeclaringClass());
            }
        }
        Map<Class<?>, Class<?>> surface = new LinkedHashMap<>();
        surface.put(Statement.class, GuardedStatement.class);
        surface.put(PreparedStatement.class, GuardedPreparedStatement.class);
        surface.put(ResultSet.class, GuardedResultSet.class);
        surface.put(DatabaseMetaData.class, GuardedMetaData.class);
        for (Map.Entry<Class<?>, Class<?>> e : surface.entrySet()) {
            for (Method m : interfaceMethods(e.getKey()).toList()) {
                String n = m.getName();
                Class<?> owner = implementation(e.getValue(), m).getDeclaringClass();
                boolean writesRow = e.getKey() == ResultSet.class && (n.startsWith("update") || ROW_WRITERS.contains(n));
                boolean runs = e.getKey() != DatabaseMetaData.class && (n.startsWith("execute") || n.contains("Batch"));
                boolean guarded = runs || n.equals("unwrap")
                        || n.equals("isWrapperFor") || n.equals("getConnection") || n.equals("getStatement")
                        || n.equals("close") || JDBC_OBJECTS.contains(m.getReturnType());
                if (writesRow) {
                    assertThat(owner).as(e.getKey().getSimpleName() + "." + n).isEqualTo(ReadOnlyResultSet.class);
                } else if (guarded) {
                    assertThat(PASS_THROUGH).as(e.getKey().getSimpleName() + "." + n + " is in " + owner.getSimpleName())
                            .doesNotContain(owner);
                }
            }
        }
    }

    @Test
    void J1_onlyTheDocumentedTypesArePublicAndNoneHasAnEscapeHatch() throws IOException {
        Path dir = Path.of(LlmSafeDriver.class.getProtectionDomain().getCodeSource().getLocation().getPath(),
                "dev", "llmsafe", "jdbc");
        List<String> publicTypes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                Class<?> c;
                try {
                    c = Class.forName("dev.llmsafe.jdbc." + name);
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(e);
                }
                if (Modifier.isPublic(c.getModifiers())) {
                    publicTypes.add(c.getSimpleName());
                }
            }
        }
        assertThat(publicTypes).containsExactlyInAnyOrder("LlmSafeDriver", "LlmSafeDataSource", "PlanPendingException",
                "LlmSafeConnection", "ReadEstimate", "GuardListener", "LlmSafeGuard");
        for (Class<?> c : List.of(LlmSafeDriver.class, LlmSafeDataSource.class, PlanPendingException.class,
                LlmSafeConnection.class, ReadEstimate.class, GuardListener.class, LlmSafeGuard.class)) {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers())) {
                    assertThat(m.getName()).as(c.getSimpleName()).doesNotContain("elegate").doesNotContain("arget")
                            .doesNotContain("aw");
                }
            }
        }
    }

    // ---- the write and leak surface, invoked ----

    private interface Call {
        Object invoke() throws Exception;
    }

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    /**
     * Every method that can write or leak, on a live connection (SQLite, which needs no server; the same
     * surfaces are attempted on every database in SurfaceTest, WriteTest and ReadTest): each is refused
     * with its code, becomes a plan, or hands back llmsafe's own object.
     */
    @Test
    void J1_J2_J3_J4_J6_everyWriteAndLeakMethodIsRefusedPlannedOrWrapped() throws Exception {
        ScratchDatabase db = dbs.get(Engine.SQLITE);
        db.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        Guarded g = Guarded.of(db, Policy.define(p -> p.table("t", x -> x.impact("test rows"))));
        try (Connection c = g.connect()) {
            Statement s = c.createStatement();
            PreparedStatement ps = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?");
            ps.setString(1, "z");
            ps.setInt(2, 1);
            PreparedStatement read = c.prepareStatement("SELECT id, v FROM t");
            ResultSet rs = c.createStatement().executeQuery("SELECT id, v FROM t");
            rs.next();
            String w = "UPDATE t SET v = 'x' WHERE id = 2";
            Map<String, Call> refused = new LinkedHashMap<>();
            refused.put("Connection.unwrap(SQLiteConnection)", () -> c.unwrap(Class.forName("org.sqlite.SQLiteConnection")));
            refused.put("Statement.unwrap(JDBC3Statement)", () -> s.unwrap(Class.forName("org.sqlite.jdbc3.JDBC3Statement")));
            refused.put("ResultSet.unwrap(ResultSet impl)", () -> rs.unwrap(Class.forName("org.sqlite.jdbc3.JDBC3ResultSet")));
            refused.put("Connection.prepareCall", () -> c.prepareCall("SELECT 1"));
            refused.put("Connection.setSchema", () -> { c.setSchema("other"); return null; });
            refused.put("Connection.setCatalog", () -> { c.setCatalog("other"); return null; });
            refused.put("Connection.createBlob", c::createBlob);
            refused.put("Connection.createClob", c::createClob);
            refused.put("Connection.setShardingKey", () -> { c.setShardingKey(null); return null; });
            refused.put("ResultSet.updateString", () -> { rs.updateString(2, "x"); return null; });
            refused.put("ResultSet.updateRow", () -> { rs.updateRow(); return null; });
            refused.put("ResultSet.insertRow", () -> { rs.insertRow(); return null; });
            refused.put("ResultSet.deleteRow", () -> { rs.deleteRow(); return null; });
            refused.put("ResultSet.moveToInsertRow", () -> { rs.moveToInsertRow(); return null; });
            refused.put("ResultSet.refreshRow", () -> { rs.refreshRow(); return null; });
            refused.put("ResultSet.getRef", () -> rs.getRef(1));
            refused.put("ResultSet.absolute", () -> rs.absolute(2));
            refused.put("Statement.execute(COMMIT; DELETE)", () -> s.execute("COMMIT; DELETE FROM t WHERE id = 1"));
            refused.put("Statement.execute(PRAGMA)", () -> s.execute("PRAGMA query_only = 0"));
            refused.put("Statement.executeUpdate(INSERT)", () -> s.executeUpdate("INSERT INTO t VALUES (3, 'c')"));
            refused.put("Statement.executeUpdate(SELECT)", () -> s.executeUpdate("SELECT * FROM t"));
            refused.put("Statement.executeQuery({call})", () -> s.executeQuery("{call f()}"));
            for (Map.Entry<String, Call> e : refused.entrySet()) {
                Map<String, List<String>> before = g.checksum();
                assertThatThrownBy(e.getValue()::invoke).as(e.getKey()).isInstanceOf(RefusedException.class);
                assertThat(g.checksum()).as(e.getKey()).isEqualTo(before);
            }
            Map<String, Call> planned = new LinkedHashMap<>();
            planned.put("Statement.executeQuery(UPDATE RETURNING)", () -> s.executeQuery(w + " RETURNING *"));
            planned.put("Statement.execute", () -> s.execute(w));
            planned.put("Statement.executeLargeUpdate(keys)", () -> s.executeLargeUpdate(w, Statement.RETURN_GENERATED_KEYS));
            planned.put("Statement.executeBatch", () -> {
                s.addBatch(w);
                return s.executeBatch();
            });
            planned.put("PreparedStatement.executeQuery", ps::executeQuery);
            planned.put("PreparedStatement.execute", ps::execute);
            planned.put("PreparedStatement.executeLargeBatch", () -> {
                ps.addBatch();
                return ps.executeLargeBatch();
            });
            for (Map.Entry<String, Call> e : planned.entrySet()) {
                g.plannedUnchanged(e.getValue()::invoke);
            }
            Map<String, Call> ours = new LinkedHashMap<>();
            ours.put("Connection.unwrap(Connection)", () -> c.unwrap(Connection.class));
            ours.put("Connection.getMetaData", c::getMetaData);
            ours.put("DatabaseMetaData.getConnection", () -> c.getMetaData().getConnection());
            ours.put("DatabaseMetaData.getTables", () -> c.getMetaData().getTables(null, null, "%", null));
            ours.put("Statement.getConnection", s::getConnection);
            ours.put("ResultSet.getStatement", rs::getStatement);
            ours.put("ResultSet.getMetaData", rs::getMetaData);
            ours.put("PreparedStatement.executeQuery (read)", read::executeQuery);
            ours.put("PreparedStatement.getMetaData", read::getMetaData);
            ours.put("PreparedStatement.getParameterMetaData", read::getParameterMetaData);
            ours.put("Statement.executeQuery", () -> s.executeQuery("SELECT v FROM t"));
            ours.put("Statement.getResultSet", () -> {
                s.execute("SELECT v FROM t");
                return s.getResultSet();
            });
            ours.put("Connection.setSavepoint", () -> {
                c.setAutoCommit(false);
                return c.setSavepoint();
            });
            for (Map.Entry<String, Call> e : ours.entrySet()) {
                Object o = e.getValue().invoke();
                assertThat(o).as(e.getKey()).isNotNull();
                assertThat(o.getClass().getPackageName()).as(e.getKey() + " gave " + o.getClass().getName())
                        .isEqualTo("dev.llmsafe.jdbc");
            }
            c.rollback();
        }
        assertThat(Refusal.FORBIDDEN_JDBC.sqlState()).isEqualTo("42501");
    }

    @Test
    void J6_setReadOnlyIsAcceptedAndTheConnectionStaysReadOnly() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.SQLITE);
        db.execute("CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY, v VARCHAR(10))");
        Guarded g = Guarded.of(db, Policy.define(p -> p.table("t")));
        try (Connection c = g.connect()) {
            c.setReadOnly(false);
            assertThat(c.isReadOnly()).isTrue();
            assertThat(c.getMetaData().isReadOnly()).isTrue();
        }
    }
}
