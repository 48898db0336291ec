package dev.llmsafe.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lexer against the real servers: each tricky statement is run on the server, in a transaction
 * that is rolled back, and the number of rows the server really touched is compared with what the
 * analysis concluded. An accepted statement's WHERE condition must select exactly those rows, and
 * its comment-free text must touch them too; a NO_WHERE refusal must be a statement that really
 * touches every row.
 */
class ServerReadingTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final StatementAnalyzer ANALYZER = new StatementAnalyzer(10_000, 0);

    /** A statement, the session settings it runs under, and the rows the server really touches. */
    record Differential(Engine engine, String sessionSetup, LexSettings settings, String sql, int serverRows) {
        @Override
        public String toString() {
            return engine.key() + (sessionSetup.isEmpty() ? "" : " [" + sessionSetup + "]") + ": "
                    + sql.replace("\n", "\\n").replace("\r", "\\r") + " -> " + serverRows;
        }
    }

    static List<Differential> cases() {
        LexSettings pg = LexSettings.postgres(true);
        LexSettings pgOff = LexSettings.postgres(false);
        LexSettings my = LexSettings.mysql("STRICT_TRANS_TABLES");
        LexSettings myNoBackslash = LexSettings.mysql("ANSI_QUOTES,NO_BACKSLASH_ESCAPES");
        LexSettings sl = LexSettings.sqlite();
        String setScsOff = "SET standard_conforming_strings = off";
        String setMyMode = "SET SESSION sql_mode = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES'";
        return List.of(
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'x' WHERE id = 1", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", 1),
                new Differential(Engine.POSTGRES, setScsOff, pgOff, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", 3),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = E'\\' WHERE id = 1 -- '", 3),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = $$' WHERE id = 1 --$$ WHERE id = 2", 1),
                new Differential(Engine.POSTGRES, "", pg,
                        "/* a /* nested */ UPDATE orders SET note = 'x' */ UPDATE orders SET note = 'y' WHERE id = 3", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'x' WHERE id = 1 -- c\r AND id = 2", 0),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'a;b' WHERE id = 2;", 1),
                new Differential(Engine.POSTGRES, "", pg, "DELETE FROM orders WHERE id = 1 -- ; DELETE FROM orders", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id = 1", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", 3),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = \"\\\" WHERE id = 1 -- \"", 3),
                new Differential(Engine.MYSQL, setMyMode, myNoBackslash, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' # WHERE id = 1\n WHERE id = 2", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id = 3--1", 0),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id = 2 -- c\r AND id = 3\n", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'a;b' WHERE id = 2;", 1),
                new Differential(Engine.MYSQL, "", my, "DELETE FROM orders WHERE id = 1 -- ; DELETE FROM orders", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE [orders] SET [note] = 'x' WHERE `id` = 2", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE id = 1 -- c\r AND id = 2\n", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'a;b' WHERE id = 2;", 1),
                new Differential(Engine.SQLITE, "", sl, "DELETE FROM orders WHERE id = 1 -- ; DELETE FROM orders", 1),
                // S10: the dialect's own syntax that JSqlParser is handed rewritten, and the same forms as attacks.
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'x' WHERE id = 2;;  ", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = U&'\\0027 WHERE id = 1 --' WHERE id = 2", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = U&'!0027 WHERE id = 1 --' UESCAPE '!'", 3),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = E'it\\'s' WHERE id = 2", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = E'it''s \\' WHERE id = 1 -- ' WHERE id = 2", 1),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'x' WHERE note = U&'\\0062' OR U&\"i\\0064\" = 3", 2),
                new Differential(Engine.POSTGRES, "", pg, "UPDATE orders SET note = 'x' WHERE note ~~* 'A' OR id = - -2", 2),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id = 2;;  ", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'it''s \\'x\\'' WHERE id = 2", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id = 1--1", 1),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE id MOD 2 = 1", 2),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = 'x' WHERE note = 'it''s \\' OR id = 1 -- '", 0),
                new Differential(Engine.MYSQL, "", my, "UPDATE orders SET note = \"it''s \\\" WHERE id = 1 -- \"", 3),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE id = 2;;  ", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE id IS 2", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE note IS NOT 'a'", 2),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE note GLOB 'b*' OR id == 3", 2),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x\\' WHERE id = 1", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x' WHERE note = 'y\\''' OR id = 3", 1),
                new Differential(Engine.SQLITE, "", sl, "UPDATE orders SET note = 'x\\''' -- ' WHERE id = 1", 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void S8_theServerTouchesTheRowsTheAnalysisSays(Differential d) throws SQLException {
        ScratchDatabase db = dbs.get(d.engine());
        try (Connection c = db.connect()) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS orders");
                s.execute("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(200))");
                s.execute("INSERT INTO orders VALUES (1, 'a'), (2, 'b'), (3, 'c')");
                if (!d.sessionSetup().isEmpty()) {
                    s.execute(d.sessionSetup());
                }
            }
            int server = touched(c, d.sql());
            assertThat(server).as("rows the server touches").isEqualTo(d.serverRows());
            Analysis a;
            try {
                a = ANALYZER.analyze(d.sql(), d.settings());
            } catch (RefusedException e) {
                // Refusing is always allowed, but these statements are refused only because they read
                // differently than they look; a NO_WHERE must really touch every row.
                assertThat(e.code()).as(e.getMessage()).isIn(Refusal.NO_WHERE, Refusal.PARSE_DISAGREEMENT);
                if (e.code() == Refusal.NO_WHERE) {
                    assertThat(server).as("a NO_WHERE refusal must be a statement that touches every row").isEqualTo(3);
                }
                return;
            }
            assertThat(count(c, a.where())).as("rows the analysed WHERE selects").isEqualTo(server);
            assertThat(touched(c, a.text())).as("rows the comment-free text touches").isEqualTo(server);
        }
    }

    private static int touched(Connection c, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    private static int count(Connection c, String where) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders WHERE " + where)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
