package dev.llmsafe.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The test-database helper itself: each engine gives an isolated place, roles work, close cleans up. */
class ScratchDatabaseTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void createsATableInItsOwnPlaceAndDropsIt(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                "INSERT INTO orders VALUES (1, 'packed')");
        try (Statement s = db.admin().createStatement();
             ResultSet rs = s.executeQuery("SELECT status FROM orders WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("packed");
        }
        assertThat(tableCount(db, "orders")).isEqualTo(1);
        db.execute("DROP TABLE orders");
        assertThat(tableCount(db, "orders")).isZero();
        System.out.println(engine.key() + ": " + db.serverVersion());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFreshDatabaseIsEmptyAndGoneAfterClose(Engine engine) throws Exception {
        ScratchDatabase db = ScratchDatabase.create(engine);
        String name = db.name();
        try {
            db.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            assertThat(exists(engine, name)).isTrue();
        } finally {
            db.close();
        }
        assertThat(exists(engine, name)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void createsALeastPrivilegeRoleThatCanReadButNotWrite(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        db.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))", "INSERT INTO items VALUES (1, 'a')");
        TestRole reader = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON {db}.items TO {role}")
                : db.createRole("GRANT SELECT ON {db}.items TO {role}");
        try (Connection c = db.connect(reader); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT name FROM items")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("a");
            }
            assertThatThrownBy(() -> s.executeUpdate("UPDATE items SET name = 'b' WHERE id = 1"))
                    .isInstanceOf(SQLException.class);
        }
        try (Statement s = db.admin().createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM items")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("a");
        }
    }

    @Test
    void urlsPointAtTheScratchPlace() {
        assertThat(ScratchDatabase.scratchUrl(Engine.MYSQL, "jdbc:mysql://127.0.0.1:3306/test?useSSL=false", "x"))
                .isEqualTo("jdbc:mysql://127.0.0.1:3306/x?useSSL=false");
        assertThat(ScratchDatabase.scratchUrl(Engine.MYSQL, "jdbc:mysql://h:1", "x")).isEqualTo("jdbc:mysql://h:1/x");
        assertThat(ScratchDatabase.scratchUrl(Engine.POSTGRES, "jdbc:postgresql://h/test", "x"))
                .isEqualTo("jdbc:postgresql://h/test?currentSchema=x");
        var s = TestServers.fromUrl(Engine.POSTGRES, "jdbc:postgresql://h/test?user=u&password=p%40ss&ssl=false");
        assertThat(s.url()).isEqualTo("jdbc:postgresql://h/test?ssl=false");
        assertThat(s.user()).isEqualTo("u");
        assertThat(s.password()).isEqualTo("p@ss");
    }

    @Test
    void oldLeftoversAreRecognisedByTheTimeInTheirName() {
        assertThat(Leftovers.isOld("llmsafe_t_1000_abcdef", Leftovers.DATABASE_PREFIX)).isTrue();
        assertThat(Leftovers.isOld(Leftovers.newName(Leftovers.DATABASE_PREFIX), Leftovers.DATABASE_PREFIX)).isFalse();
    }

    private static int tableCount(ScratchDatabase db, String table) throws SQLException {
        try (ResultSet rs = db.admin().getMetaData().getTables(
                db.engine() == Engine.MYSQL ? db.name() : null,
                db.engine() == Engine.POSTGRES ? db.name() : null, table, null)) {
            int n = 0;
            while (rs.next()) {
                n++;
            }
            return n;
        }
    }

    private static boolean exists(Engine engine, String name) throws SQLException {
        if (engine == Engine.SQLITE) {
            return Files.exists(Path.of(name));
        }
        try (Connection c = TestServers.require(engine).connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(engine == Engine.POSTGRES
                     ? "SELECT 1 FROM pg_namespace WHERE nspname = '" + name + "'"
                     : "SELECT 1 FROM information_schema.schemata WHERE schema_name = '" + name + "'")) {
            return rs.next();
        }
    }
}
