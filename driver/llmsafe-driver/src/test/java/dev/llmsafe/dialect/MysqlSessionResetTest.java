package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R8 on MySQL and MariaDB, measured on the server the tests run on: the variables the snapshot leaves out are
 * only those a session can set that move by themselves; one that moves only when set is put back; and what no
 * session can set is the server's answer, asked once.
 */
class MysqlSessionResetTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void R8_theVariablesLeftOutAreSettableAndMoveByThemselves(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Map<String, String> listed = variables(s);
            for (String name : SessionReset.Mysql.MOVING) {
                assertThat(listed).as("MySQL 8.0, 9.7 and MariaDB 10.11 list " + name).containsKey(name);
                // settable: were it not, the server's 1238 would decide it, and it would need no name here
                s.execute("SET SESSION " + name + " = @@SESSION." + name);
            }
        }
        try (Connection c = db.connect(); Statement s = c.createStatement()) { // a session whose clock still runs
            Map<String, String> before = variables(s);
            s.execute("CREATE TEMPORARY TABLE moving (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO moving (v) VALUES (1)");
            s.execute("DO SLEEP(0.01)");
            Map<String, String> after = variables(s);
            assertThat(after.get("timestamp")).isNotEqualTo(before.get("timestamp"));
            assertThat(after.get("last_insert_id")).isNotEqualTo(before.get("last_insert_id"));
            assertThat(after.get("identity")).isEqualTo(after.get("last_insert_id"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void R8_aVariableThatMovesOnlyWhenASessionSetsItIsPutBack(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            SessionReset reset = Dialects.of(c, null).sessionReset();
            SessionReset.Snapshot lent = reset.take(c);
            assertThat(lent.values()).containsEntry("insert_id", "0");
            // a trigger's SET outlasts the rollback: the application's next INSERT would get the id it chose
            s.execute("SET SESSION insert_id = 4242");
            assertThat(reset.restore(c, lent)).containsExactly("insert_id");
            assertThat(variables(s)).containsEntry("insert_id", "0");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void R8_whatNoSessionCanSetIsTheServersAnswerAskedOnce(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        try (Connection c = db.connect()) {
            SessionReset.Mysql reset = (SessionReset.Mysql) Dialects.of(c, null).sessionReset();
            Map<String, String> values = new HashMap<>(reset.take(c).values());
            // MySQL 9.7 lists its statement counter among the session's variables: read-only, and it has moved by
            // the time the snapshot is compared
            boolean counter = values.containsKey("statement_id");
            values.put("version", "forged"); // read-only: 1238
            assertThat(reset.restore(c, new SessionReset.Snapshot(values))).isEmpty();
            assertThat(reset.unsettable()).contains("version");
            if (counter) {
                assertThat(reset.unsettable()).contains("statement_id");
            }
            // never read again, so never set again: one refused SET per server, not one per connection given back
            assertThat(reset.take(c).values()).doesNotContainKeys(reset.unsettable().toArray(String[]::new))
                    .containsKey("sql_mode");
        }
    }

    private static Map<String, String> variables(Statement s) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (ResultSet rs = s.executeQuery("SHOW SESSION VARIABLES")) {
            while (rs.next()) {
                out.put(rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getString(2));
            }
        }
        return out;
    }
}
