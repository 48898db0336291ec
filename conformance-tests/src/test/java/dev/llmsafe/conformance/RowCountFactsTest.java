package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D9 and E2: the database's own count of affected rows is compared with the rows on the card, so
 * what that count means must be known: rows matched by the WHERE clause, or rows whose value changed.
 */
class RowCountFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    // ---- probes -------------------------------------------------------------------------------

    static String sameValueUpdateWithDriverDefaults(ScratchDatabase db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f09 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f09 VALUES (1, 5)");
        try (Connection c = db.connect()) {
            return sameValueUpdate(c, "f09");
        }
    }

    static String sameValueUpdateWithUseAffectedRows(ScratchDatabase db, ServerId server) throws SQLException {
        if (server.flavor() != Flavor.MARIADB && server.flavor() != Flavor.MYSQL) {
            return "n/a (a Connector/J setting)";
        }
        db.execute("CREATE TABLE f10 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f10 VALUES (1, 5)");
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "useAffectedRows=true";
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            return sameValueUpdate(c, "f10");
        }
    }

    private static String sameValueUpdate(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            int n = s.executeUpdate("UPDATE " + table + " SET v = 5 WHERE id = 1");
            return n + (n == 1 ? " (rows matched)" : " (rows changed)");
        }
    }

    // ---- facts --------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F09_aSameValueUpdateCountsTheRowAsAffectedWithDriverDefaults(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F09, dbs.get(engine));
        // Connector/J asks the server for "found rows" unless told otherwise (CLIENT_FOUND_ROWS).
        assertThat(a.text()).isEqualTo("1 (rows matched)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F10_aSameValueUpdateCountsNothingWithUseAffectedRows(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F10, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case MARIADB, MYSQL -> "0 (rows changed)";
            default -> "n/a (a Connector/J setting)";
        });
    }
}
