package dev.llmsafe.sql;

import static dev.llmsafe.sql.Cases.MY;
import static dev.llmsafe.sql.Cases.MY_ANSI;
import static dev.llmsafe.sql.Cases.PG;
import static dev.llmsafe.sql.Cases.PG_NON_STANDARD;
import static dev.llmsafe.sql.Cases.SL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.sql.Token.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lexer reads each dialect's literals, identifiers and comments as its server does. */
class LexerTest {

    private static List<String> strings(String sql, LexSettings s) throws RefusedException {
        return Lexer.lex(sql, s).tokens().stream().filter(t -> t.kind() == Kind.STRING).map(Token::text).toList();
    }

    private static List<Kind> kinds(String sql, LexSettings s) throws RefusedException {
        return Lexer.lex(sql, s).tokens().stream().map(Token::kind).toList();
    }

    @Test
    void S8_postgresEscapeStringsDollarQuotesAndStandardConformingStrings() throws Exception {
        assertThat(strings("SELECT E'\\' WHERE id=1 -- '", PG)).containsExactly("E'\\' WHERE id=1 -- '");
        assertThat(strings("SELECT e'a\\'b', 'c\\'", PG)).containsExactly("e'a\\'b'", "'c\\'");
        assertThat(strings("SELECT 'c\\' x '", PG_NON_STANDARD)).containsExactly("'c\\' x '");
        assertThat(strings("SELECT $$a'b$$, $t$x$$y$t$, $1", PG)).containsExactly("$$a'b$$", "$t$x$$y$t$");
        assertThat(kinds("SELECT $1", PG)).containsExactly(Kind.WORD, Kind.OTHER_PARAMETER);
        assertThat(kinds("SELECT a$b", PG)).containsExactly(Kind.WORD, Kind.WORD);
        assertThat(strings("SELECT U&'d\\0061t', X'1F', B'101', N'n'", PG))
                .containsExactly("U&'d\\0061t'", "X'1F'", "B'101'", "N'n'");
        assertThat(Lexer.lex("SELECT /* a /* b */ c */ 1", PG).text()).isEqualTo("SELECT  1");
        assertThat(Lexer.lex("SELECT 1 -- x\r2", PG).text()).isEqualTo("SELECT 1 \r2");
    }

    @Test
    void S8_mysqlBackslashesDoubleQuotesAndComments() throws Exception {
        assertThat(strings("SELECT '\\' WHERE id=1 -- '", MY)).containsExactly("'\\' WHERE id=1 -- '");
        assertThat(strings("SELECT '\\' WHERE id=1 -- '", MY_ANSI)).containsExactly("'\\'");
        assertThat(strings("SELECT \"a\\\"b\"", MY)).containsExactly("\"a\\\"b\"");
        assertThat(kinds("SELECT \"a\"", MY_ANSI)).containsExactly(Kind.WORD, Kind.QUOTED_IDENTIFIER);
        assertThat(Lexer.lex("SELECT 1 # c\n, 2", MY).text()).isEqualTo("SELECT 1 \n, 2");
        assertThat(Lexer.lex("SELECT 1--1", MY).text()).isEqualTo("SELECT 1--1");
        assertThat(Lexer.lex("SELECT 1-- 1", MY).text()).isEqualTo("SELECT 1");
        assertThat(Lexer.lex("SELECT 1--\t1", MY).text()).isEqualTo("SELECT 1");
        assertThat(Lexer.lex("SELECT 1 -- x\r2", MY).text()).isEqualTo("SELECT 1");
        assertThat(Lexer.lex("SELECT /* a /* b */ 1", MY).text()).isEqualTo("SELECT  1");
        assertThat(kinds("SELECT `a``b`", MY)).containsExactly(Kind.WORD, Kind.QUOTED_IDENTIFIER);
        assertThat(kinds("SELECT 1abc", MY)).containsExactly(Kind.WORD, Kind.WORD);
    }

    @Test
    void S6_mysqlExecutableCommentsAndHintsAreRefusedBeforeAnythingElse() {
        for (String sql : List.of("SELECT /*! 1 */", "SELECT /*!50000 1 */", "SELECT /*M! 1 */", "SELECT /*M!100000 1 */",
                "SELECT /*+ BKA(t) */ 1")) {
            assertThatThrownBy(() -> Lexer.lex(sql, MY)).isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.FORBIDDEN_DIALECT));
        }
    }

    @Test
    void S8_sqliteIdentifiersParametersAndComments() throws Exception {
        assertThat(kinds("SELECT \"a\", `b`, [c d]", SL)).containsExactly(Kind.WORD, Kind.QUOTED_IDENTIFIER,
                Kind.SYMBOL, Kind.QUOTED_IDENTIFIER, Kind.SYMBOL, Kind.QUOTED_IDENTIFIER);
        assertThat(kinds("SELECT ?, ?2, :a, @b, $c", SL)).containsExactly(Kind.WORD, Kind.PARAMETER, Kind.SYMBOL,
                Kind.OTHER_PARAMETER, Kind.SYMBOL, Kind.OTHER_PARAMETER, Kind.SYMBOL, Kind.OTHER_PARAMETER,
                Kind.SYMBOL, Kind.OTHER_PARAMETER);
        assertThat(strings("SELECT 'a\\', X'00'", SL)).containsExactly("'a\\'", "X'00'");
        assertThat(Lexer.lex("SELECT 1 -- x\r2\n", SL).text()).isEqualTo("SELECT 1");
    }

    @Test
    void S2_unterminatedThingsAreLexErrorsWithTheirPosition() {
        assertThatThrownBy(() -> Lexer.lex("SELECT 'abc", PG))
                .hasMessage("Refused (LEX): the statement cannot be read: an unterminated string at character 8"
                        + " ('abc). Check the quotes and comments; nothing was run.");
        assertThatThrownBy(() -> Lexer.lex("SELECT /* /* */ 1", PG))
                .hasMessageStartingWith("Refused (LEX): the statement cannot be read: an unterminated /* comment");
        assertThatThrownBy(() -> Lexer.lex("SELECT $a$ x $b$", PG))
                .hasMessageStartingWith("Refused (LEX): the statement cannot be read: an unterminated dollar quote $a$");
    }

    @Test
    void S2_offsetsPointIntoTheTrimmedText() throws Exception {
        Lexed l = Lexer.lex("  /* c */ SELECT 'x' ; ", PG);
        assertThat(l.text()).isEqualTo("SELECT 'x'");
        Token s = l.tokens().get(1);
        assertThat(l.text().substring(s.start(), s.end())).isEqualTo("'x'");
    }

    @Test
    void S8_digitSeparatorsAreReadWhereTheServerReadsThem() throws Exception {
        // sqlite-jdbc 3.54 reads 1_000 as 1000 and 0x1_F as 31; MySQL reads 1_000 as a name.
        assertThat(kinds("SELECT 1_000, 0x1_F, 1_0.5_0, 1e1_0", SL)).containsExactly(Kind.WORD, Kind.NUMBER, Kind.SYMBOL,
                Kind.NUMBER, Kind.SYMBOL, Kind.NUMBER, Kind.SYMBOL, Kind.NUMBER);
        assertThat(kinds("SELECT 1_000", MY)).containsExactly(Kind.WORD, Kind.WORD);
        // A separator stands between two digits only: 1_a is a number and a name, as SQLite reads neither.
        assertThat(kinds("SELECT 1_a, 1__0", SL)).containsExactly(Kind.WORD, Kind.NUMBER, Kind.WORD, Kind.SYMBOL,
                Kind.NUMBER, Kind.WORD);
    }

    @Test
    void S3_everyTrailingSemicolonIsTrimmedFromWhatRuns() throws Exception {
        for (LexSettings settings : Cases.ALL) {
            Lexed l = Lexer.lex("UPDATE t SET a = 2 WHERE id = 1;;  ", settings);
            assertThat(l.text()).isEqualTo("UPDATE t SET a = 2 WHERE id = 1");
            assertThat(l.tokens()).noneMatch(t -> t.kind() == Kind.SEMICOLON);
            assertThat(Lexer.lex("SELECT 1 ; /* c */ ;\n; ", settings).text()).isEqualTo("SELECT 1");
            assertThat(Lexer.lex("SELECT 1;; SELECT 2", settings).tokens()).filteredOn(t -> t.kind() == Kind.SEMICOLON)
                    .hasSize(2);
        }
    }
}
