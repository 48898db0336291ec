package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * D14 inside the images' round trips (issue 21). On MySQL and MariaDB the Handler counters ride at the
 * end of the image's select list: read there, under a role with table grants only, they are what SHOW
 * SESSION STATUS says at that point, the locking before-image itself counts nothing, and the difference
 * between the before-image's reading and the after-image's is exactly the statement's row (measured on
 * MariaDB 10.11.19 and 11.8.9, MySQL 8.0.31 and 9.7.4). On PostgreSQL the view rides as a query of its
 * own behind the image, and counts the same.
 */
class WriteCounterTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @Test
    void D14_mysqlCountersInTheImagesSelectListAgreeWithShowSessionStatus() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.MYSQL);
        db.execute("CREATE TABLE d14c (id INT PRIMARY KEY, v INT)", "INSERT INTO d14c VALUES (1, 1), (2, 2)");
        TestRole role = db.createRole("GRANT SELECT, UPDATE ON {db}.d14c TO {role}");
        try (Connection c = db.connect(role)) {
            Dialect dialect = Dialects.of(c, null);
            assertThat(dialect.joinsStatements()).isFalse();
            Dialect.WriteCounter counter = dialect.writeCounter().orElseThrow();
            String counted = ", " + String.join(", ", counter.columns());
            try (Statement s = c.createStatement()) {
                s.execute("START TRANSACTION");
                Writes before = riding(c, counter, "SELECT id, v" + counted + " FROM d14c WHERE id = 1 FOR UPDATE");
                assertThat(before).isEqualTo(show(c));
                assertThat(before).as("read on its own, the same").isEqualTo(alone(c, counter));
                assertThat(s.executeUpdate("UPDATE d14c SET v = v + 1 WHERE id = 1")).isEqualTo(1);
                Writes after = riding(c, counter, "SELECT id, v" + counted + " FROM d14c WHERE id IN (1)");
                assertThat(after).isEqualTo(show(c));
                assertThat(counter.between(before, after)).isEqualTo(Writes.session(new Writes.Counts(0, 1, 0)));
                s.execute("ROLLBACK");
            }
        }
        assertThat(db.snapshot("d14c")).containsExactly("[1, 1]", "[2, 2]");
    }

    @Test
    void D14_postgresCountsBehindTheImagesInTheirRoundTrip() throws SQLException {
        ScratchDatabase db = dbs.get(Engine.POSTGRES);
        db.execute("CREATE TABLE d14c (id INT PRIMARY KEY, v INT)", "INSERT INTO d14c VALUES (1, 1), (2, 2)");
        try (Connection c = db.connect()) {
            Dialect dialect = Dialects.of(c, null);
            assertThat(dialect.joinsStatements()).isTrue();
            Dialect.WriteCounter counter = dialect.writeCounter().orElseThrow();
            c.setAutoCommit(false);
            Writes before = joined(c, counter, "SELECT id, v FROM d14c WHERE id = 1 FOR UPDATE");
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE d14c SET v = v + 1 WHERE id = 1")).isEqualTo(1);
            }
            Writes after = joined(c, counter, "SELECT id, v FROM d14c WHERE id IN (1)");
            Writes delta = counter.between(before, after);
            assertThat(delta.perTable()).hasSize(1);
            assertThat(delta.perTable().values()).containsExactly(new Writes.Counts(0, 1, 0));
            c.rollback();
        }
        assertThat(db.snapshot("d14c")).containsExactly("[1, 1]", "[2, 2]");
    }

    /** The counters from the end of the first row of the image. */
    private static Writes riding(Connection c, Dialect.WriteCounter counter, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            int n = counter.columns().size();
            int first = rs.getMetaData().getColumnCount() - n + 1;
            List<Value> values = new ArrayList<>();
            for (int i = first; i < first + n; i++) {
                values.add(IntegerValue.of(rs.getLong(i)));
            }
            return counter.read(values);
        }
    }

    private static Writes alone(Connection c, Dialect.WriteCounter counter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(counter.query()); ResultSet rs = ps.executeQuery()) {
            return counter.read(rs);
        }
    }

    private static Writes show(Connection c) throws SQLException {
        Map<String, Long> n = new java.util.HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION STATUS WHERE Variable_name"
                + " IN ('Handler_write', 'Handler_update', 'Handler_delete')")) {
            while (rs.next()) {
                n.put(rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getLong(2));
            }
        }
        return Writes.session(new Writes.Counts(n.get("handler_write"), n.get("handler_update"), n.get("handler_delete")));
    }

    /** The image and the counter's query joined, one execute; the counter's result read. */
    private static Writes joined(Connection c, Dialect.WriteCounter counter, String image) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(image + "; " + counter.query())) {
            assertThat(ps.execute()).isTrue();
            assertThat(ps.getMoreResults()).isTrue();
            try (ResultSet rs = ps.getResultSet()) {
                return counter.read(rs);
            }
        }
    }
}
