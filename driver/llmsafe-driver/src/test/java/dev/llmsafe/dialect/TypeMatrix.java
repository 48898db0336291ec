package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The type matrix every dialect's reader passes (D13, A10): a table with a column of every type the
 * dialect has; for each column an UPDATE that changes only it by the smallest possible step must
 * change exactly that column's value, a same-value UPDATE must change nothing, NULL to a value is a
 * change, and every value read survives its JSON form. The JVM runs in a half-hour, DST-observing
 * zone throughout, so that a reader leaning on the JVM's zone shifts something and fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TypeMatrix {

    /** A column: its SQL type, the value of the base row, and the smallest change of it, as SQL. */
    record Col(String name, String type, String base, String step) {

        /** The type's first word, as the catalog's DATA_TYPE would name it. */
        String dataType() {
            return type.split("[ (]")[0];
        }
    }

    /** The matrix of an engine's reader test, on another scratch database. */
    static TypeMatrix on(dev.llmsafe.testing.Engine engine, ScratchDatabase db) {
        return switch (engine) {
            case POSTGRES -> new PostgresValueReaderTest() {
                @Override
                ScratchDatabase db() {
                    return db;
                }
            };
            case MYSQL -> new MySqlValueReaderTest() {
                @Override
                ScratchDatabase db() {
                    return db;
                }
            };
            case SQLITE -> new SqliteValueReaderTest() {
                @Override
                ScratchDatabase db() {
                    return db;
                }
            };
        };
    }

    private static TimeZone jvmZone;

    @BeforeAll
    static void jvmInAnUnusualTimeZone() {
        jvmZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/St_Johns"));
    }

    @AfterAll
    static void jvmZoneBack() {
        TimeZone.setDefault(jvmZone);
    }

    /** The scratch database, created on first use. */
    abstract ScratchDatabase db();

    /** The reader under test. */
    abstract ValueReader reader() throws SQLException;

    /** The columns, in table order. */
    abstract List<Col> columns() throws SQLException;

    /** SQL run before the table is created (types it uses), and on every connection opened. */
    List<String> setup() {
        return List.of();
    }

    List<String> sessionSetup() {
        return List.of();
    }

    private boolean created;

    /** The administrator connection with the table created: row 1 at base values, row 2 all NULL. */
    Connection table() throws SQLException {
        Connection c = db().admin();
        if (!created) {
            for (String s : sessionSetup()) {
                execute(c, s);
            }
            for (String s : setup()) {
                execute(c, s);
            }
            execute(c, "CREATE TABLE matrix (id INT PRIMARY KEY, " + columns().stream()
                    .map(col -> col.name() + " " + col.type()).collect(Collectors.joining(", ")) + ")");
            execute(c, "INSERT INTO matrix (id, " + names() + ") VALUES (1, " + columns().stream()
                    .map(Col::base).collect(Collectors.joining(", ")) + ")");
            execute(c, "INSERT INTO matrix (id) VALUES (2)");
            created = true;
        }
        return c;
    }

    /** A second connection to the scratch database with extra URL parameters; the caller closes it. */
    Connection connect(String params) throws SQLException {
        String url = db().url() + (params.isEmpty() ? "" : (db().url().contains("?") ? "&" : "?") + params);
        Connection c = DriverManager.getConnection(url, db().user(), db().password());
        for (String s : sessionSetup()) {
            execute(c, s);
        }
        return c;
    }

    String names() throws SQLException {
        return columns().stream().map(Col::name).collect(Collectors.joining(", "));
    }

    String select() throws SQLException {
        ValueReader r = reader();
        return "SELECT " + columns().stream().map(col -> r.selectExpression(col.name(), col.dataType()))
                .collect(Collectors.joining(", ")) + " FROM matrix WHERE id = ";
    }

    /** Row {@code id} read through a prepared statement. */
    List<Value> read(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(select() + "?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                RowReader row = reader().rowReader(c, rs.getMetaData());
                assertThat(rs.next()).isTrue();
                return row.read(rs);
            }
        }
    }

    /** Row {@code id} read through a plain statement (text transfer on every driver). */
    List<Value> readPlain(Connection c, int id) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(select() + id)) {
            RowReader row = reader().rowReader(c, rs.getMetaData());
            assertThat(rs.next()).isTrue();
            return row.read(rs);
        }
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs an UPDATE in a transaction, reads the row before and after, and rolls back. */
    List<List<Value>> dryRun(Connection c, int id, String set) throws SQLException {
        c.setAutoCommit(false);
        try {
            List<Value> before = read(c, id);
            execute(c, "UPDATE matrix SET " + set + " WHERE id = " + id);
            List<Value> after = read(c, id);
            return List.of(before, after);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    @Test
    void D13_eachSmallestStepChangesExactlyItsColumn() throws SQLException {
        Connection c = table();
        List<Col> cols = columns();
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            Col col = cols.get(i);
            List<List<Value>> ba = dryRun(c, 1, col.name() + " = " + col.step());
            for (int j = 0; j < cols.size(); j++) {
                boolean changed = !ba.get(0).get(j).equals(ba.get(1).get(j));
                if (changed != (i == j)) {
                    wrong.add("setting " + col.name() + " to " + abbreviate(col.step()) + ": " + cols.get(j).name()
                            + (changed ? " changed too" : " did not change") + " (" + abbreviate(ba.get(0).get(j).render())
                            + " -> " + abbreviate(ba.get(1).get(j).render()) + ")");
                }
            }
            roundTrips(ba.get(1), wrong);
        }
        assertThat(wrong).isEmpty();
        assertThat(read(c, 1)).as("the dry runs rolled back").isEqualTo(readPlain(c, 1));
    }

    @Test
    void D13_aSameValueUpdateChangesNothing() throws SQLException {
        Connection c = table();
        String set = columns().stream().map(col -> col.name() + " = " + col.name()).collect(Collectors.joining(", "));
        for (int id : new int[] {1, 2}) {
            List<List<Value>> ba = dryRun(c, id, set);
            assertThat(ba.get(1)).isEqualTo(ba.get(0));
        }
    }

    @Test
    void D13_nullToAValueIsAChangeToTheSameValueTheBaseRowHolds() throws SQLException {
        Connection c = table();
        List<Col> cols = columns();
        List<Value> base = read(c, 1);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            List<List<Value>> ba = dryRun(c, 2, cols.get(i).name() + " = " + cols.get(i).base());
            if (!ba.get(0).get(i).isNull() || !ba.get(1).get(i).equals(base.get(i))) {
                wrong.add(cols.get(i).name() + ": " + ba.get(0).get(i) + " -> " + ba.get(1).get(i) + ", base " + base.get(i));
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(read(c, 2)).allMatch(Value::isNull);
    }

    @Test
    void A10_everyValueReadSurvivesItsJsonForm() throws SQLException {
        Connection c = table();
        List<String> wrong = new ArrayList<>();
        roundTrips(read(c, 1), wrong);
        roundTrips(read(c, 2), wrong);
        assertThat(wrong).isEmpty();
    }

    @Test
    void D13_aPlainAndAPreparedReadGiveTheSameValues() throws SQLException {
        Connection c = table();
        assertThat(read(c, 1)).isEqualTo(readPlain(c, 1));
        assertThat(read(c, 2)).isEqualTo(readPlain(c, 2));
    }

    @Test
    void D13_theReaderIsFoundFromTheConnection() throws SQLException {
        assertThat(ValueReader.detect(table()).name()).isEqualTo(reader().name());
    }

    private static void roundTrips(List<Value> row, List<String> wrong) {
        for (Value v : row) {
            Value back = Value.fromJson(v.toJson());
            if (!back.equals(v) || !back.toJson().equals(v.toJson())) {
                wrong.add("JSON round trip of " + v + " gave " + back);
            }
        }
    }

    /** The value of one column of row 1. */
    Value base(String column) throws SQLException {
        return valueOf(read(table(), 1), column);
    }

    Value valueOf(List<Value> row, String column) throws SQLException {
        List<Col> cols = columns();
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(column)) {
                return row.get(i);
            }
        }
        throw new IllegalArgumentException("no column " + column);
    }

    private static String abbreviate(String s) {
        return s.length() <= 70 ? s : s.substring(0, 70) + "…";
    }
}
