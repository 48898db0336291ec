package dev.llmsafe.sql;

import static dev.llmsafe.sql.Cases.MY;
import static dev.llmsafe.sql.Cases.PG;
import static dev.llmsafe.sql.Cases.SL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.RefusedException;
import org.junit.jupiter.api.Test;

/** S10: the text the parser reads, and how its offsets map back to the lexer's. */
class ParserTextTest {

    private static ParserText of(String sql, LexSettings s) throws RefusedException {
        return ParserText.of(Lexer.lex(sql, s), s);
    }

    @Test
    void S10_theParserReadsTheDialectsFormsSpelledAsItCanReadThem() throws Exception {
        assertThat(of("SELECT 5--3, v MOD 7, 'it''s \\'x\\'', \"a'b\"", MY).text())
                .isEqualTo("SELECT 5-  (-3), v  %  7, 'it''s ''x''', 'a''b'");
        assertThat(of("SELECT E'it\\'s', U&'\\00e9', U&\"!0061\" UESCAPE '!', v ~~* 'A%', arr[2:]", PG).text())
                .isEqualTo("SELECT E'it''s', 'é', \"a\", v  ILIKE  'A%', arr[2:0]");
        assertThat(of("SELECT x IS 5, x IS NOT 'a', x == 1, w GLOB 'y*', 'y\\''', x IS NULL", SL).text())
                .isEqualTo("SELECT x IS NOT DISTINCT FROM 5, x IS DISTINCT FROM 'a', x  =  1, w LIKE 'y*', 'y/''',"
                        + " x IS NULL");
        // A word left out leaves a space, so that what stood on either side of it is never joined.
        assertThat(of("SELECT BINARY'x', v SOUNDS LIKE 'y'", MY).text()).isEqualTo("SELECT  'x', v   LIKE 'y'");
        // The forms JSqlParser reads as they are are handed to it as they are.
        for (LexSettings s : Cases.ALL) {
            String plain = "UPDATE t SET a = 'x', b = -1 WHERE id = ? AND c IS NOT NULL";
            assertThat(of(plain, s).edits()).as(s.dialect().name()).isEmpty();
            assertThat(of(plain, s).text()).isEqualTo(plain);
        }
    }

    @Test
    void S10_everyOffsetOfTheParsersTextMapsBackIntoTheLexersText() throws Exception {
        String sql = "SELECT U&'\\00e9' AS a, 2 WHERE b";
        ParserText p = of(sql, PG);
        assertThat(p.text()).isEqualTo("SELECT 'é' AS a, 2 WHERE b");
        // The replaced literal starts where the lexer's starts; a token inside it maps inside it.
        assertThat(p.original(7)).isEqualTo(7);
        assertThat(p.original(8)).isEqualTo(8);
        assertThat(p.original(9)).isEqualTo(9);
        // After it, the offsets move by the difference in length.
        assertThat(p.original(p.text().indexOf("WHERE"))).isEqualTo(sql.indexOf("WHERE"));
        assertThat(p.original(p.text().length() - 1)).isEqualTo(sql.length() - 1);

        String my = "SELECT 5--3 WHERE b";
        ParserText q = of(my, MY);
        assertThat(q.text()).isEqualTo("SELECT 5-  (-3) WHERE b");
        // An inserted parenthesis maps to where it was inserted; the tokens around it to themselves.
        assertThat(q.original(q.text().indexOf('('))).isEqualTo(my.indexOf("-3"));
        assertThat(q.original(q.text().indexOf('3'))).isEqualTo(my.indexOf('3'));
        assertThat(q.original(q.text().indexOf(')'))).isEqualTo(my.indexOf('3') + 1);
        assertThat(q.original(q.text().indexOf("WHERE"))).isEqualTo(my.indexOf("WHERE"));
    }

    @Test
    void S10_aLiteralKeepsItsValueWhereTheParserCanSpellIt() {
        assertThat(ParserText.literal("E", "it\\'s", '\'', '\'', true))
                .isEqualTo(new ParserText.Literal("E'it''s'", true));
        assertThat(ParserText.literal("", "it''s \\'x\\'", '\'', '\'', true))
                .isEqualTo(new ParserText.Literal("'it''s ''x'''", true));
        assertThat(ParserText.literal("", "say \"\"hi\"\" it's", '"', '\'', true))
                .isEqualTo(new ParserText.Literal("'say \"hi\" it''s'", true));
        assertThat(ParserText.literal("", "C:\\dir\\", '\'', '\'', false))
                .isEqualTo(new ParserText.Literal("'C:\\dir\\'", true));
        // A backslash before a quote inside is an escape to JSqlParser in every mode: not the same value.
        assertThat(ParserText.literal("", "a\\''b", '\'', '\'', false))
                .isEqualTo(new ParserText.Literal("'a/''b'", false));
    }
}
