package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.jdbc.PlanPendingException;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.testing.Engine;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * S1-S8, accepting a statement, end to end: each statement is sent as a user sends it, through the
 * application's {@code jdbc:llmsafe:} URL with the planning role's credential and through
 * {@code llmsafe plan} and {@code llmsafe read}, on the server whose own reading of the text is what
 * counts. A refusal changes nothing in the table; a statement that must be accepted becomes a plan,
 * and where what the server runs matters, the plan is approved and applied and the rows are read back.
 * Each test that changes rows works on rows of its own (ids in the test's comment), so order does not
 * matter.
 */
class StatementRulesEndToEndTest {

    /** policy.maxStatementLength (S1). */
    private static final int MAX_LENGTH = 200;

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> List.of(
            "CREATE TABLE notes (id INT PRIMARY KEY, note VARCHAR(100) NOT NULL, call_count INT NOT NULL)",
            "INSERT INTO notes VALUES (1, 'one', 0), (2, 'two', 0), (3, 'three', 0), (4, 'four', 0), (5, 'five', 0),"
                    + " (6, 'six', 0), (7, 'seven', 0), (8, 'eight', 0)"),
            List.of("notes"), List.of("notes"), List.of(), """
              "policy": {
                "allow": ["notes"],
                "impact": {"notes": "A note is what the support team reads before calling a customer back."},
                "maxStatementLength": %d
              }
            """.formatted(MAX_LENGTH));

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    // ---- S1 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S1_emptyInputAndInputLongerThanTheConfiguredMaximumAreRefusedFirst(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String empty : List.of("", "   \n\t ", "-- nothing but a comment", "/* nothing */", ";")) {
            RefusedException e = d.refused(empty, "notes");
            assertThat(e.code()).as("[%s]", empty).isEqualTo(Refusal.EMPTY);
            assertThat(e.getMessage()).as("[%s]", empty).startsWith("Refused (EMPTY): the statement ")
                    .contains("Send one SELECT, UPDATE or DELETE.");
        }
        refusedByPlan(d, "   ", Refusal.EMPTY);
        refusedByRead(d, "/* nothing */", Refusal.EMPTY);

        // The configured maximum, not a built-in one: one character more than policy.maxStatementLength is
        // refused before anything is read, an UPDATE that would otherwise be a plan included.
        String update = "UPDATE notes SET note = 'x' WHERE id = 1";
        String tooLong = update + " ".repeat(MAX_LENGTH + 1 - update.length());
        String sayMax = "at most " + MAX_LENGTH + " are accepted";
        RefusedException overlong = d.refused(tooLong, "notes");
        assertThat(overlong.code()).isEqualTo(Refusal.TOO_LONG);
        assertThat(overlong.getMessage()).contains("is " + (MAX_LENGTH + 1) + " characters long", sayMax);
        assertThat(refusedByPlan(d, tooLong, Refusal.TOO_LONG)).contains(sayMax);
        String read = "SELECT id FROM notes WHERE note <> '" + "x".repeat(MAX_LENGTH) + "'";
        assertThat(refusedByRead(d, read, Refusal.TOO_LONG)).contains(sayMax);
        // At the maximum it is accepted.
        String atMax = "SELECT id FROM notes WHERE id = 1" + " ".repeat(MAX_LENGTH - 33);
        assertThat(atMax).hasSize(MAX_LENGTH);
        assertThat(ids(d, atMax)).containsExactly(1);
    }

    // ---- S2 ---------------------------------------------------------------------------------------

    /** Row 1. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void S2_commentsAreStrippedFromWhatRunsAndWhatTheCardShows(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String sent = "/* the model's reasoning: id 2 */ UPDATE notes -- really 3\nSET note = 'a -- b /* kept */'"
                + " /* inside */ WHERE id = 1";
        String commentFree = "UPDATE notes \nSET note = 'a -- b /* kept */'  WHERE id = 1";
        PlanPendingException pending = proposeApproveApply(d, sent, "notes");
        PlannedStatement s = pending.plan().statements().get(0);
        // What ran in the dry run, and is stored to run at apply, is the comment-free text.
        assertThat(s.sql()).isEqualTo(commentFree);
        assertThat(pending.getMessage()).contains("  UPDATE notes \n  SET note = 'a -- b /* kept */'  WHERE id = 1\n")
                .doesNotContain("reasoning").doesNotContain("really").doesNotContain("inside")
                .contains("id = 1\n    note: 'one' -> 'a -- b /* kept */'\n");
        Run show = d.llmsafe("show", pending.planId().toString());
        assertThat(show.out()).as(show.all()).contains("SET note = 'a -- b /* kept */'  WHERE id = 1")
                .doesNotContain("reasoning").contains("Status: applied");
        // A comment's look-alike inside a literal is data, written as the card showed.
        assertThat(d.rows("notes")).contains("[1, a -- b /* kept */, 0]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S2_textTheLexerCannotReadIsLex(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> unreadable = new ArrayList<>(List.of("SELECT id FROM notes WHERE note = 'unterminated",
                "UPDATE notes SET note = 'x' WHERE id = 1 /* unterminated comment"));
        unreadable.add(d.mysql() ? "SELECT `unterminated FROM notes" : "SELECT \"unterminated FROM notes");
        if (engine == Engine.POSTGRES) {
            unreadable.add("SELECT $$unterminated FROM notes");
            unreadable.add("UPDATE notes SET note = $a$x$b$ WHERE id = 1");
        }
        if (engine == Engine.SQLITE) {
            unreadable.add("SELECT [unterminated FROM notes");
        }
        for (String sql : unreadable) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql).isEqualTo(Refusal.LEX);
            assertThat(e.getMessage()).as(sql).startsWith("Refused (LEX): the statement cannot be read: ")
                    .contains("nothing was run");
        }
        assertThat(refusedByPlan(d, "UPDATE notes SET note = 'x WHERE id = 1", Refusal.LEX))
                .contains("Check the quotes and comments");
        refusedByRead(d, "SELECT id FROM notes /* open", Refusal.LEX);
    }

    // ---- S3 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S3_aSecondStatementIsRefusedWholeAndNothingOfItRuns(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("SELECT id FROM notes; DELETE FROM notes WHERE id = 8",
                "COMMIT; DELETE FROM notes WHERE id = 8",
                "UPDATE notes SET note = 'x' WHERE id = 8; DELETE FROM notes WHERE id = 8",
                "SELECT id FROM notes /* ; */ ; UPDATE notes SET note = 'x' WHERE id = 8",
                "SELECT 1;; SELECT 2")) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql).isEqualTo(Refusal.MULTIPLE_STATEMENTS);
            assertThat(e.getMessage()).as(sql).contains("the text holds more than one statement")
                    .contains("trailing ';' are fine");
        }
        assertThat(refusedByPlan(d, "DELETE FROM notes WHERE id = 8; DELETE FROM notes WHERE id = 7",
                Refusal.MULTIPLE_STATEMENTS)).contains("(a ';' at character 31 is followed by more)");
        refusedByRead(d, "SELECT id FROM notes; SELECT 1", Refusal.MULTIPLE_STATEMENTS);
    }

    /** Row 2. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void S3_aSemicolonInsideALiteralOrAQuotedIdentifierIsNoSeparator(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // A trailing ';' is accepted too, and is not part of what runs.
        PlanPendingException pending = proposeApproveApply(d, "UPDATE notes SET note = 'a;b; DELETE FROM notes' WHERE id = 2;",
                "notes");
        assertThat(pending.plan().statements().get(0).sql())
                .isEqualTo("UPDATE notes SET note = 'a;b; DELETE FROM notes' WHERE id = 2");
        assertThat(pending.getMessage()).contains("1 row would change, in 1 column: note")
                .contains("id = 2\n    note: 'two' -> 'a;b; DELETE FROM notes'\n");
        assertThat(d.rows("notes")).hasSize(8).contains("[2, a;b; DELETE FROM notes, 0]");

        String quoted = d.mysql() ? "`semi;colon`" : "\"semi;colon\"";
        try (Connection c = d.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id AS " + quoted + " FROM notes WHERE id = 2")) {
            assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("semi;colon");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }
        Run read = d.llmsafe("read", "SELECT note FROM notes WHERE note = 'a;b; DELETE FROM notes'", "--format", "csv");
        assertThat(read.status()).as(read.all()).isEqualTo(Main.OK);
        assertThat(read.out()).isEqualTo("note\r\na;b; DELETE FROM notes\r\n");
    }

    // ---- S4 ---------------------------------------------------------------------------------------

    /** Row 3. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void S4_wordsAreJudgedAsTokensSoPleaseCallMeIsAPlanNotACall(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // call_count holds CALL, and the literal holds CALL, COMMIT and GRANT: none is a word of the statement.
        for (String sql : List.of("UPDATE notes SET note = 'please call me' WHERE id = 3",
                "UPDATE notes SET call_count = call_count + 1 WHERE id = 3",
                "UPDATE notes SET note = 'grant access; commit' WHERE id = 3")) {
            PlanPendingException pending = d.propose(sql, "notes");
            assertThat(pending.plan().statements().get(0).sql()).isEqualTo(sql);
            assertThat(pending.plan().rowCount()).as(sql).isEqualTo(1);
        }
        // The same through the command line, then approved and applied.
        Run plan = d.plan("UPDATE notes SET note = 'please call me' WHERE id = ?", "--param", "3");
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.OK);
        assertThat(plan.out()).contains("  UPDATE notes SET note = 'please call me' WHERE id = ?      [1: 3 (setLong)]\n")
                .contains("id = 3\n    note: 'three' -> 'please call me'\n");
        Run apply = d.approveAndApply(EndToEnd.planId(plan));
        assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
        assertThat(d.rows("notes")).contains("[3, please call me, 0]");
        // And a read whose literal holds statement words reads.
        Run read = d.llmsafe("read", "SELECT id, call_count FROM notes WHERE note LIKE '%call me%' OR note = 'set role admin'",
                "--format", "csv");
        assertThat(read.status()).as(read.all()).isEqualTo(Main.OK);
        assertThat(read.out()).isEqualTo("id,call_count\r\n3,0\r\n");
        // A real CALL is refused.
        assertThat(d.refused("CALL please_call_me()", "notes").code()).isEqualTo(Refusal.FORBIDDEN);
    }

    // ---- S5 ---------------------------------------------------------------------------------------

    /** Row 4 (planned, never applied). */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void S5_updateAndDeleteBecomePlansInsertIsRefusedWithItsReasonAndTheRestIsUnsupported(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        PlanPendingException delete = d.propose("DELETE FROM notes WHERE id = 4", "notes");
        assertThat(delete.getMessage()).contains("1 row would be deleted outright").contains("id = 4  (deleted)");
        PlanPendingException update = d.propose("UPDATE notes SET note = 'FOUR' WHERE id = 4", "notes");
        assertThat(update.getMessage()).contains("note: 'four' -> 'FOUR'");

        List<String> inserts = new ArrayList<>(List.of("INSERT INTO notes (id, note, call_count) VALUES (9, 'nine', 0)",
                "insert into notes select id + 100, note, call_count from notes"));
        switch (engine) {
            case POSTGRES -> {
                inserts.add("INSERT INTO notes VALUES (4, 'x', 0) ON CONFLICT (id) DO UPDATE SET note = 'x'");
                inserts.add("MERGE INTO notes USING notes n2 ON notes.id = n2.id WHEN MATCHED THEN DELETE");
            }
            case MYSQL -> {
                inserts.add("REPLACE INTO notes VALUES (4, 'x', 0)");
                inserts.add("INSERT INTO notes VALUES (4, 'x', 0) ON DUPLICATE KEY UPDATE note = 'x'");
            }
            case SQLITE -> {
                inserts.add("REPLACE INTO notes VALUES (4, 'x', 0)");
                inserts.add("INSERT INTO notes VALUES (4, 'x', 0) ON CONFLICT (id) DO UPDATE SET note = 'x'");
            }
        }
        for (String sql : inserts) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql).isEqualTo(Refusal.UNSUPPORTED_INSERT);
            assertThat(e.getMessage()).as(sql).contains("adds rows, and a row that does not exist yet has no before-image")
                    .contains("add rows through the application or a migration");
        }
        assertThat(refusedByPlan(d, "INSERT INTO notes VALUES (9, 'nine', 0)", Refusal.UNSUPPORTED_INSERT))
                .startsWith("Refused (UNSUPPORTED_INSERT): INSERT adds rows");

        List<String> others = new ArrayList<>(List.of("VALUES (1)", "EXPLAIN ANALYZE DELETE FROM notes WHERE id = 4",
                "SELECT {fn NOW()} FROM notes", "{call please_call_me()}"));
        switch (engine) {
            case POSTGRES -> others.add("WITH x AS (SELECT 4 AS id) DELETE FROM notes WHERE id IN (SELECT id FROM x)");
            case MYSQL -> others.addAll(List.of("SHOW TABLES", "UPDATE IGNORE notes SET note = 'x' WHERE id = 4",
                    "DELETE QUICK FROM notes WHERE id = 4"));
            case SQLITE -> others.add("UPDATE OR REPLACE notes SET id = 5 WHERE id = 4");
        }
        for (String sql : others) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.UNSUPPORTED_STATEMENT);
        }
        // A read is not a write: plan refuses it, and says where it belongs; and the other way round.
        assertThat(refusedByPlan(d, "SELECT id FROM notes", Refusal.UNSUPPORTED_STATEMENT))
                .contains("Run it with `llmsafe read`");
        refusedByRead(d, "DELETE FROM notes WHERE id = 4", Refusal.UNSUPPORTED_STATEMENT);
    }

    // ---- S6 ---------------------------------------------------------------------------------------

    /**
     * Only MySQL and MariaDB run the text inside {@code /*! ... *}{@code /} and read {@code /*+ ... *}{@code /}
     * as hints; PostgreSQL and SQLite read both as comments (S2), so there is nothing to refuse there.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void S6_mysqlExecutableCommentsAndOptimizerHintsAreRefused(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        for (String sql : List.of("/*!50000 DELETE FROM notes WHERE id = 8 */ SELECT 1",
                "DELETE FROM notes /*! WHERE id = 8 */",
                "SELECT id /*! , note */ FROM notes",
                "/*M!100000 DELETE FROM notes WHERE 1=1 OR */ (SELECT 1)")) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql).isEqualTo(Refusal.FORBIDDEN_DIALECT);
            assertThat(e.getMessage()).as(sql).contains("MySQL executable comment")
                    .contains("MySQL and MariaDB run the text inside it, so it is not a comment");
        }
        for (String sql : List.of("SELECT /*+ MAX_EXECUTION_TIME(1) */ id FROM notes",
                "UPDATE /*+ NO_INDEX(notes) */ notes SET note = 'x' WHERE id = 8")) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql).isEqualTo(Refusal.FORBIDDEN_DIALECT);
            assertThat(e.getMessage()).as(sql).contains("optimizer hint");
        }
        refusedByPlan(d, "UPDATE notes SET note = 'x' WHERE id = 8 /*! OR 1=1 */", Refusal.FORBIDDEN_DIALECT);
        refusedByRead(d, "SELECT id FROM notes WHERE id = 8 /*!50000 UNION SELECT 1 */", Refusal.FORBIDDEN_DIALECT);
        // Inside a literal it is data.
        assertThat(ids(d, "SELECT id FROM notes WHERE note <> '/*! not a comment */' AND id = 8")).containsExactly(8);
    }

    // ---- S7 ---------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Engine.class)
    void S7_transactionControlAndSessionStateInSqlTextAreForbidden(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        List<String> forbidden = new ArrayList<>(List.of("BEGIN", "START TRANSACTION", "COMMIT", "ROLLBACK",
                "SAVEPOINT s1", "RELEASE SAVEPOINT s1", "SET TRANSACTION READ WRITE", "SET ROLE admin", "RESET ALL",
                "DISCARD ALL", "PRAGMA query_only = 0", "ATTACH DATABASE 'other.db' AS other", "USE mysql",
                "LOCK TABLE notes IN EXCLUSIVE MODE", "GRANT ALL ON notes TO public", "REVOKE SELECT ON notes FROM public",
                "COPY notes TO STDOUT", "LOAD DATA INFILE '/etc/passwd' INTO TABLE notes", "CALL p()", "DO 1",
                "EXECUTE stmt", "PREPARE stmt FROM 'DELETE FROM notes'", "/* harmless */ SET TRANSACTION READ WRITE",
                "-- note\nSET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE"));
        switch (engine) {
            case POSTGRES -> forbidden.addAll(List.of("SET search_path = public", "DO $$ BEGIN DELETE FROM notes; END $$",
                    "COPY notes FROM PROGRAM 'id'"));
            case MYSQL -> forbidden.addAll(List.of("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'",
                    "UPDATE notes SET note = @x WHERE id = 8", "HANDLER notes OPEN"));
            case SQLITE -> forbidden.add("PRAGMA writable_schema = 1");
        }
        for (String sql : forbidden) {
            RefusedException e = d.refused(sql, "notes");
            assertThat(e.code()).as(sql + ": " + e.getMessage()).isEqualTo(Refusal.FORBIDDEN);
        }
        assertThat(d.refused("SET TRANSACTION READ WRITE", "notes").getMessage())
                .contains("controls the transaction, the session or runs procedural code");
        refusedByPlan(d, "BEGIN", Refusal.FORBIDDEN);
        refusedByRead(d, "SET ROLE admin", Refusal.FORBIDDEN);
        // A refusal costs the application nothing: the same connection goes on reading.
        try (Connection c = d.connect(); Statement s = c.createStatement()) {
            RefusedException commit = catchThrowableOfType(RefusedException.class,
                    () -> s.execute("COMMIT"));
            assertThat(commit.code()).isEqualTo(Refusal.FORBIDDEN);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM notes")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(8);
            }
        }
    }

    // ---- S8 ---------------------------------------------------------------------------------------

    /** Rows 5, 6 and 7: PostgreSQL reads dollar quotes and E'' strings, and a plain '\' is one backslash. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "POSTGRES")
    void S8_postgresDollarQuotesAndEscapeStringsAreReadAsTheServerReadsThem(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        // Inside $t$...$t$ a quote, $$ and -- are data.
        PlanPendingException dollar = proposeApproveApply(d, "UPDATE notes SET note = $t$it's $$ -- x$t$ WHERE id = 5",
                "notes");
        assertThat(dollar.plan().rowCount()).isEqualTo(1);
        assertThat(d.rows("notes")).contains("[5, it's $$ -- x, 0]");
        // With standard_conforming_strings on, '\' is a whole string: WHERE is outside it, one row.
        PlanPendingException backslash = proposeApproveApply(d, "UPDATE notes SET note = '\\' WHERE id = 6 -- '", "notes");
        assertThat(backslash.plan().rowCount()).isEqualTo(1);
        assertThat(d.rows("notes")).contains("[6, \\, 0]");
        // In E'...' a backslash escapes: E'back\\slash' holds one backslash. The card shows the value the
        // server read (a card's text doubles a backslash, so that every escape is unambiguous), and that is what
        // is written.
        PlanPendingException escape = proposeApproveApply(d, "UPDATE notes SET note = E'back\\\\slash' WHERE id = 7",
                "notes");
        assertThat(escape.getMessage()).contains("id = 7\n    note: 'seven' -> 'back\\\\slash'\n");
        assertThat(d.rows("notes")).contains("[7, back\\slash, 0]");
        // An escaped quote is one quote (S10: the parser is handed E'it''s').
        assertThat(d.propose("UPDATE notes SET note = E'it\\'s' WHERE id = 8", "notes").getMessage())
                .contains("id = 8\n    note: 'eight' -> 'it''s'\n");
        // E'\' escapes the quote: the server reads no WHERE and would change every row. Refused, not planned.
        RefusedException e = d.refused("UPDATE notes SET note = E'\\' WHERE id = 8 -- '", "notes");
        assertThat(e.code()).isEqualTo(Refusal.NO_WHERE);
        refusedByPlan(d, "UPDATE notes SET note = E'\\' WHERE id = 8 -- '", Refusal.NO_WHERE);
    }

    /** Rows 5 and 6: MySQL and MariaDB read backslash escapes, {@code #} comments, and {@code --} only before a space. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void S8_mysqlBackslashEscapesAndHashCommentsAreReadAsTheServerReadsThem(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        PlanPendingException escaped = proposeApproveApply(d, "UPDATE notes SET note = 'it\\'s' WHERE id = 5", "notes");
        assertThat(escaped.plan().rowCount()).isEqualTo(1);
        assertThat(d.rows("notes")).contains("[5, it's, 0]");
        // Everything after # is a comment, up to the end of the line: the WHERE that counts is on the next.
        PlanPendingException hash = proposeApproveApply(d, "UPDATE notes SET note = 'hash' # WHERE id = 1\n WHERE id = 6",
                "notes");
        assertThat(hash.plan().statements().get(0).sql()).isEqualTo("UPDATE notes SET note = 'hash' \n WHERE id = 6");
        assertThat(hash.getMessage()).contains("id = 6\n    note: 'six' -> 'hash'\n");
        assertThat(d.rows("notes")).contains("[6, hash, 0]").contains("[1, one, 0]", "[7, seven, 0]");
        // '\' WHERE ... -- ' is one string on MySQL: no WHERE at all, so every row would change.
        RefusedException noWhere = d.refused("UPDATE notes SET note = '\\' WHERE id = 7 -- '", "notes");
        assertThat(noWhere.code()).isEqualTo(Refusal.NO_WHERE);
        refusedByPlan(d, "UPDATE notes SET note = '\\' WHERE id = 7 -- '", Refusal.NO_WHERE);
        // --1 is minus minus one, not a comment (S10: the parser is handed 1- (-1)).
        assertThat(ids(d, "SELECT id FROM notes WHERE id = 6--1")).containsExactly(7);
        assertThat(ids(d, "SELECT id FROM notes WHERE id = 7 -- AND id = 8\n")).containsExactly(7);
        // Without ANSI_QUOTES, "..." is a string, as the server reads it.
        PlanPendingException doubleQuoted = d.propose("UPDATE notes SET note = \"it's -- dq\" WHERE id = 8", "notes");
        assertThat(doubleQuoted.getMessage()).contains("id = 8\n    note: 'eight' -> 'it''s -- dq'\n");
    }

    /** Rows 5 and 6: SQLite reads "x", `x` and [x] as identifiers, and '\' as one backslash. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "SQLITE")
    void S8_sqliteQuotedIdentifiersAreReadAsTheServerReadsThem(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        PlanPendingException bracketed = proposeApproveApply(d, "UPDATE [notes] SET [note] = 'brackets' WHERE `id` = 5",
                "notes");
        assertThat(bracketed.getMessage()).contains("id = 5\n    note: 'five' -> 'brackets'\n");
        assertThat(d.rows("notes")).contains("[5, brackets, 0]");
        PlanPendingException backslash = proposeApproveApply(d, "UPDATE \"notes\" SET \"note\" = '\\' WHERE [id] = 6 -- '",
                "notes");
        assertThat(backslash.plan().rowCount()).isEqualTo(1);
        assertThat(d.rows("notes")).contains("[6, \\, 0]", "[7, seven, 0]");
        try (Connection c = d.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT [id] AS [a;b], \"note\" AS `c d` FROM [notes] WHERE [id] = 7")) {
            assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("a;b");
            assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo("c d");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo("seven");
        }
    }

    // ---- S10 --------------------------------------------------------------------------------------

    /**
     * Row 8's call_count: each dialect's ordinary syntax that JSqlParser cannot read by itself (trailing
     * semicolons, MariaDB's 5--3, MOD and mixed quote escapes, PostgreSQL's E'' and U&amp; literals,
     * SQLite's IS, GLOB and a string ending in a backslash) is planned, approved and applied as the server
     * reads it, and read back.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void S10_ordinarySyntaxOfEachDialectIsPlannedAndAppliedAsTheServerReadsIt(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        PlanPendingException semicolons = proposeApproveApply(d,
                "UPDATE notes SET call_count = call_count + 1 WHERE id = 8;;  ", "notes");
        assertThat(semicolons.plan().statements().get(0).sql())
                .isEqualTo("UPDATE notes SET call_count = call_count + 1 WHERE id = 8");
        String sql = switch (engine) {
            case POSTGRES -> "UPDATE notes SET call_count = call_count + 1 WHERE U&\"i\\0064\" = 8 AND note <> E'it\\'s'"
                    + " AND note <> U&'!00e9' UESCAPE '!'";
            case MYSQL -> "UPDATE notes SET call_count = call_count + 5--3 WHERE id MOD 100 = 8 AND note <> 'it''s \\'x\\''";
            case SQLITE -> "UPDATE notes SET call_count = call_count + 1 WHERE id IS 8 AND note IS NOT 'a\\'"
                    + " AND note GLOB 'e*'";
        };
        PlanPendingException pending = proposeApproveApply(d, sql, "notes");
        int expected = engine == Engine.MYSQL ? 9 : 2;
        assertThat(pending.plan().statements().get(0).sql()).isEqualTo(sql);
        assertThat(pending.getMessage()).contains("1 row would change, in 1 column: call_count")
                .contains("id = 8\n    call_count: 1 -> " + expected + "\n");
        assertThat(d.rows("notes")).contains("[8, eight, " + expected + "]");
        String read = switch (engine) {
            case POSTGRES -> "SELECT id FROM notes WHERE U&\"n!006fte\" UESCAPE '!' = U&'\\0065ight' AND note ~~* 'E%'";
            case MYSQL -> "SELECT id FROM notes WHERE id = 7--1 AND note SOUNDS LIKE 'eight' AND \"it''s\" <> 'it\\'s'";
            case SQLITE -> "SELECT id FROM notes WHERE id IS 8 AND note NOT GLOB 'x*' AND id == - -8";
        };
        assertThat(ids(d, read)).containsExactly(8);
        Run cli = d.llmsafe("read", read);
        assertThat(cli.status()).as(cli.all()).isEqualTo(Main.OK);
        assertThat(cli.out()).contains("8");
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /**
     * The statement through the URL becomes a plan, which {@code alice} approves and {@code bob} applies
     * with the command line.
     */
    static PlanPendingException proposeApproveApply(Deployed d, String sql, String table) throws Exception {
        PlanPendingException pending = d.propose(sql, table);
        Run apply = d.approveAndApply(pending.planId().toString());
        assertThat(apply.status()).as(apply.all()).isEqualTo(Main.OK);
        assertThat(apply.out()).contains("is applied: " + pending.plan().rowCount() + " row");
        return pending;
    }

    /** {@code llmsafe plan SQL --as assistant} is refused with the code; nothing changed. The message. */
    static String refusedByPlan(Deployed d, String sql, Refusal code) throws Exception {
        List<String> before = d.rows("notes");
        Run plan = d.plan(sql);
        assertThat(plan.status()).as(plan.all()).isEqualTo(Main.REFUSED);
        assertThat(plan.err()).as(sql).startsWith("Refused (" + code + ")");
        assertThat(plan.out()).isEmpty();
        assertThat(d.rows("notes")).isEqualTo(before);
        return plan.err();
    }

    /** {@code llmsafe read SQL} is refused with the code; nothing changed. The message. */
    static String refusedByRead(Deployed d, String sql, Refusal code) throws Exception {
        List<String> before = d.rows("notes");
        Run read = d.llmsafe("read", sql);
        assertThat(read.status()).as(read.all()).isEqualTo(Main.REFUSED);
        assertThat(read.err()).as(sql).startsWith("Refused (" + code + ")");
        assertThat(read.out()).isEmpty();
        assertThat(d.rows("notes")).isEqualTo(before);
        return read.err();
    }

    /** The ids a read through the URL returns, in order. */
    static List<Integer> ids(Deployed d, String sql) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (Connection c = d.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }
}
