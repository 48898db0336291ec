package dev.llmsafe.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * S10: the ordinary syntax of each dialect is not refused. A corpus of each dialect's everyday
 * expressions (s10-*.txt next to this class: operators, literals of every kind, functions, CASE,
 * casts, collations, JSON operators, date arithmetic, arrays) is run on the real server first, so that
 * it holds only what the server accepts, then through the analysis, which must accept every entry,
 * as a read and inside a write's WHERE clause. Where the parser is handed a rewritten text
 * ({@link ParserText}), that text must be a statement the server accepts too, with the same answer
 * wherever the rewrite claims to keep the meaning.
 */
class OrdinarySyntaxTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final StatementAnalyzer ANALYZER = new StatementAnalyzer(10_000, 0);

    /** MySQL's ER_SP_DOES_NOT_EXIST: a name that is no built-in function there, and no stored one. */
    private static final int NO_SUCH_FUNCTION = 1305;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S10_ordinarySyntaxOfEachDialectIsNotRefused(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        db.execute(fixture(engine));
        List<String> statements = corpus(engine);
        List<String> versioned = corpus(engine, true);
        List<String> refused = new ArrayList<>();
        List<String> notServer = new ArrayList<>();
        List<String> notEquivalent = new ArrayList<>();
        int rewritten = 0;
        try (Connection c = db.connect()) {
            LexSettings settings = settings(engine, c);
            for (String sql : statements) {
                List<String> server;
                try {
                    server = runOnServer(c, sql);
                } catch (SQLException e) {
                    if (e.getErrorCode() == NO_SUCH_FUNCTION && versioned.contains(sql)) {
                        System.out.println("S10: this server has no function of: " + sql); // a line marked ?
                    } else {
                        notServer.add(sql + "\n    -> " + e.getMessage());
                    }
                    continue;
                }
                try {
                    ANALYZER.analyze(sql, settings);
                } catch (RefusedException e) {
                    refused.add(sql + "\n    -> " + e.code() + ": " + e.detail());
                    continue;
                }
                ParserText parser = ParserText.of(Lexer.lex(sql, settings), settings);
                if (parser.edits().isEmpty()) {
                    continue;
                }
                rewritten++;
                // What the parser read is the same statement in the dialect's own grammar: the server
                // accepts it, and where every edit keeps the meaning, it gives the same answer.
                try {
                    List<String> again = runOnServer(c, parser.text());
                    if (parser.sameValue() && !again.equals(server)) {
                        notEquivalent.add(sql + "\n    read as " + parser.text() + "\n    -> " + again + " instead of "
                                + server);
                    }
                } catch (SQLException e) {
                    notEquivalent.add(sql + "\n    read as " + parser.text() + "\n    -> " + e.getMessage());
                }
            }
        }
        assertThat(notServer).as("corpus entries the server does not accept:\n%s", String.join("\n", notServer))
                .isEmpty();
        assertThat(refused.size()).as("%d of the %d ordinary %s statements are refused:\n%s", refused.size(),
                statements.size(), engine.key(), String.join("\n", refused)).isZero();
        assertThat(notEquivalent).as("rewrites for the parser that are not the same statement:\n%s",
                String.join("\n", notEquivalent)).isEmpty();
        assertThat(rewritten).as("statements the parser reads rewritten").isPositive();
    }

    private static String[] fixture(Engine engine) {
        return switch (engine) {
            case POSTGRES -> new String[] {"CREATE TABLE t (id INT PRIMARY KEY, n INT, v TEXT, d DATE, ts TIMESTAMP,"
                    + " b BOOLEAN, j JSONB, arr INT[], x NUMERIC(10, 2))",
                    "INSERT INTO t VALUES (1, 1, 'abc', '2024-01-15', '2024-01-15 10:00:00', true,"
                    + " '{\"a\":1,\"b\":{\"c\":2}}', '{1,2,3}', 1.5)"};
            case MYSQL -> new String[] {"CREATE TABLE t (id INT PRIMARY KEY, n INT, v VARCHAR(50), d DATE,"
                    + " ts DATETIME, b BOOLEAN, j JSON, x DECIMAL(10, 2))",
                    "INSERT INTO t VALUES (1, 1, 'abc', '2024-01-15', '2024-01-15 10:00:00', true,"
                    + " '{\"a\":1,\"b\":{\"c\":2}}', 1.5)"};
            case SQLITE -> new String[] {"CREATE TABLE t (id INTEGER PRIMARY KEY, n INT, v TEXT, w TEXT, d TEXT,"
                    + " ts TEXT, b INT, j TEXT, x REAL)",
                    "INSERT INTO t VALUES (1, 1, 'abc', 'yes', '2024-01-15', '2024-01-15 10:00:00', 1,"
                    + " '{\"a\":1,\"b\":{\"c\":2}}', 1.5)"};
        };
    }

    /** The session's own settings decide how the text reads (MySQL's sql_mode; PostgreSQL's default). */
    private static LexSettings settings(Engine engine, Connection c) throws SQLException {
        return switch (engine) {
            case POSTGRES -> LexSettings.postgres(true);
            case MYSQL -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
                    rs.next();
                    yield LexSettings.mysql(rs.getString(1));
                }
            }
            case SQLITE -> LexSettings.sqlite();
        };
    }

    /**
     * Each expression as a read and inside a write's WHERE clause; a line beginning with {@code R } as a
     * read only (clocks, aggregates, windows: ordinary in a read, refused in a write by rule); a line
     * beginning with {@code > } as it is.
     */
    static List<String> corpus(Engine engine) throws IOException {
        return corpus(engine, false);
    }

    /**
     * The corpus's statements; with {@code versioned}, only those of lines marked {@code ?}: a function that
     * some releases of the server lack (MySQL 9.7 has no MD5).
     */
    static List<String> corpus(Engine engine, boolean versioned) throws IOException {
        String name = "s10-" + switch (engine) {
            case POSTGRES -> "postgresql";
            case MYSQL -> "mysql";
            case SQLITE -> "sqlite";
        } + ".txt";
        String text;
        try (InputStream in = Objects.requireNonNull(OrdinarySyntaxTest.class.getResourceAsStream(name), name)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            boolean marked = line.startsWith("? ");
            if (marked) {
                line = line.substring(2);
            }
            if (versioned && !marked) {
                continue;
            }
            if (line.startsWith("> ")) {
                out.add(line.substring(2));
            } else if (line.startsWith("R ")) {
                out.add("SELECT " + line.substring(2) + " FROM t WHERE id = 1");
            } else {
                out.add("SELECT " + line + " FROM t WHERE id = 1");
                out.add("UPDATE t SET n = n WHERE id = 1 AND (" + line + ") IS NOT NULL");
            }
        }
        return out;
    }

    /**
     * Runs a statement on the server, a write in a transaction that is rolled back, binding 1 to every
     * {@code ?}.
     */
    static List<String> runOnServer(Connection c, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 1; i <= ps.getParameterMetaData().getParameterCount(); i++) {
                ps.setInt(i, 1);
            }
            List<String> values = new ArrayList<>();
            if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    while (rs.next()) {
                        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                            values.add(rs.getString(i));
                        }
                    }
                }
            } else {
                values.add(ps.getUpdateCount() + " rows");
            }
            return values;
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }
}
