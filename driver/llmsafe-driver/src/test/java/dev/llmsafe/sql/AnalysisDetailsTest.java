package dev.llmsafe.sql;

import static dev.llmsafe.sql.Cases.MY;
import static dev.llmsafe.sql.Cases.PG;
import static dev.llmsafe.sql.Cases.SL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the analysis extracts from a statement, exactly. */
class AnalysisDetailsTest {

    private final StatementAnalyzer analyzer = new StatementAnalyzer(20_000);

    private Analysis analyze(String sql, LexSettings s) throws RefusedException {
        return analyzer.analyze(sql, s);
    }

    @Test
    void S2_theTextJudgedIsTheCommentFreeTextAndThatIsWhatRuns() throws Exception {
        Analysis a = analyze("/* why */ UPDATE orders -- line\nSET note = 'a -- b' /* x */ WHERE id = ?;", PG);
        // A comment becomes one space unless white space is already there; other white space stays.
        assertThat(a.text()).isEqualTo("UPDATE orders \nSET note = 'a -- b'  WHERE id = ?");
        assertThat(analyze("DELETE/**/FROM orders/**/WHERE id = 1", SL).text()).isEqualTo("DELETE FROM orders WHERE id = 1");
        assertThat(analyze("UPDATE orders SET x = 1 # note\nWHERE id = 2", MY).text())
                .isEqualTo("UPDATE orders SET x = 1 \nWHERE id = 2");
    }

    @Test
    void W9_theWhereConditionStopsBeforeReturningSoNothingAfterItLeaks() throws Exception {
        Analysis a = analyze("UPDATE orders SET status = ? WHERE id = ? AND status <> 'x' RETURNING *, (SELECT 1)", PG);
        assertThat(a.where()).isEqualTo("id = ? AND status <> 'x'");
        assertThat(a.returning()).isTrue();
        assertThat(a.parameterCount()).isEqualTo(2);
        assertThat(a.whereFirstParameter()).isEqualTo(1);
        assertThat(a.whereParameterCount()).isEqualTo(1);
        Analysis b = analyze("DELETE FROM orders WHERE id = 1 -- ; DROP TABLE orders", SL);
        assertThat(b.where()).isEqualTo("id = 1");
        assertThat(b.text()).isEqualTo("DELETE FROM orders WHERE id = 1");
        Analysis c = analyze("DELETE FROM orders WHERE id IN (SELECT order_id FROM items WHERE sku = 'returning') RETURNING id", PG);
        assertThat(c.where()).isEqualTo("id IN (SELECT order_id FROM items WHERE sku = 'returning')");
    }

    @Test
    void W3_anEmptyWhereIsNoWhereAndSaysThatTheWhereIsEmpty() {
        for (LexSettings s : Cases.ALL) {
            assertThatThrownBy(() -> analyze("UPDATE t SET x = 1 WHERE", s))
                    .isInstanceOf(RefusedException.class)
                    .hasMessage("Refused (NO_WHERE): the WHERE clause of the UPDATE is empty, so it names no rows."
                            + " Write the condition after WHERE, for example WHERE id = ?.");
            assertThatThrownBy(() -> analyze("DELETE FROM t WHERE /* id = 1 */;", s))
                    .isInstanceOf(RefusedException.class)
                    .hasMessageContaining("the WHERE clause of the DELETE is empty");
        }
    }

    @Test
    void S10_whatRunsIsTheTextAsSentNotTheParsersRewriteAndNamesAreWhatTheyDecodeTo() throws Exception {
        Analysis my = analyze("UPDATE t SET a = 5--3, b = 'it''s \\'x\\'' WHERE id MOD 2 = 5--5", MY);
        assertThat(my.text()).isEqualTo("UPDATE t SET a = 5--3, b = 'it''s \\'x\\'' WHERE id MOD 2 = 5--5");
        assertThat(my.where()).isEqualTo("id MOD 2 = 5--5");
        Analysis sl = analyze("DELETE FROM t WHERE x IS NOT 'a\\''' AND w GLOB 'y*' RETURNING id", SL);
        assertThat(sl.where()).isEqualTo("x IS NOT 'a\\''' AND w GLOB 'y*'");
        Analysis pg = analyze("UPDATE U&\"t!0061ble\" UESCAPE '!' SET U&\"\\0061\" = U&'\\00e9'"
                + " WHERE U&\"s\\0065cret\" = E'\\''", PG);
        assertThat(pg.where()).isEqualTo("U&\"s\\0065cret\" = E'\\''");
        assertThat(pg.target()).hasToString("\"table\"");
        assertThat(pg.setColumns()).extracting(Identifier::text).containsExactly("a");
        // Secret columns, engine tables and catalogs are matched by what a name decodes to.
        assertThat(pg.identifiers()).contains("secret", "table", "a").doesNotContain("s\\0065cret");
        assertThat(pg.tables()).containsExactly(QualifiedName.parse("\"table\"", 3));
    }

    @Test
    void W4_theTargetIsKeptAsWrittenWithItsQuoting() throws Exception {
        assertThat(analyze("UPDATE public.\"Orders\" SET x = 1 WHERE id = 1", PG).target())
                .isEqualTo(new QualifiedName(List.of(Identifier.of("public"), new Identifier("Orders", true))));
        assertThat(analyze("UPDATE `shop`.`order lines` SET x = 1 WHERE id = 1", MY).target())
                .isEqualTo(new QualifiedName(List.of(new Identifier("shop", true), new Identifier("order lines", true))));
        assertThat(analyze("DELETE FROM [Order Lines] WHERE id = 1", SL).target())
                .isEqualTo(new QualifiedName(List.of(new Identifier("Order Lines", true))));
        assertThat(analyze("UPDATE Orders SET x = 1 WHERE id = 1", PG).target())
                .isEqualTo(new QualifiedName(List.of(Identifier.of("Orders"))));
    }

    @Test
    void W7_setColumnsAreListedInOrder() throws Exception {
        Analysis a = analyze("UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}', \"Nick\" = ?"
                + " WHERE id = 7", PG);
        assertThat(a.setColumns()).containsExactly(Identifier.of("quota"), Identifier.of("profile"),
                new Identifier("Nick", true));
        assertThat(analyze("UPDATE orders SET orders.qty = 1 WHERE id = 1", MY).setColumns())
                .containsExactly(Identifier.of("qty"));
    }

    @Test
    void R2_everyNameIsCollectedWhateverItsPositionSoAnAliasCannotHideIt() throws Exception {
        Analysis a = analyze("SELECT u.password_hash AS p FROM users u JOIN (SELECT \"Secret\" FROM t2) s ON true", PG);
        assertThat(a.identifiers()).contains("password_hash", "secret", "users", "t2", "u", "p");
        assertThat(a.tables()).containsExactlyInAnyOrder(QualifiedName.parse("users", 2), QualifiedName.parse("t2", 2));
        assertThat(a.kind()).isEqualTo(Analysis.Kind.READ);
    }

    @Test
    void W10_functionCallsAreCollectedWhereverTheyAre() throws Exception {
        Analysis a = analyze("SELECT lower(note), s.f(1) FROM orders, generate_series(1, 3) WHERE abs(qty) > 1", PG);
        assertThat(a.functions()).extracting(QualifiedName::toString)
                .containsExactlyInAnyOrder("lower", "s.f", "generate_series", "abs");
    }

    @Test
    void S1_theLengthLimitIsTheConfiguredOne() {
        StatementAnalyzer small = new StatementAnalyzer(20);
        assertThatThrownBy(() -> small.analyze("SELECT id FROM orders WHERE id = 1", PG))
                .isInstanceOf(RefusedException.class)
                .hasMessage("Refused (TOO_LONG): the statement is 34 characters long; at most 20 are accepted."
                        + " Send a shorter statement.");
    }

    @Test
    void S3_aRefusalSaysWhatWasRefusedWhyAndWhatToDoAndKeepsTheConnectionAlive() {
        assertThatThrownBy(() -> analyze("SELECT 1; DELETE FROM orders", PG))
                .isInstanceOf(RefusedException.class)
                .hasMessage("Refused (MULTIPLE_STATEMENTS): the text holds more than one statement (a ';' at"
                        + " character 9 is followed by more). Send one statement at a time; trailing ';' are"
                        + " fine.")
                .satisfies(e -> assertThat(((RefusedException) e).getSQLState()).doesNotStartWith("08"));
        for (Refusal r : Refusal.values()) {
            assertThat(r.sqlState()).as(r.name()).doesNotStartWith("08").isNotIn("0A000", "57P01", "57P02", "57P03");
        }
    }

    @Test
    void S2_aParseFailureGivesTheParsersPosition() {
        assertThatThrownBy(() -> analyze("SELECT id FROM orders WHERE id = = 1", PG))
                .isInstanceOf(RefusedException.class)
                .hasMessageStartingWith("Refused (PARSE): the statement cannot be parsed at line 1, column 34 near '='");
    }

    @Test
    void S2_verdictsAreCachedAndACachedRefusalIsAFreshException() throws Exception {
        Analysis first = analyze("SELECT id FROM orders WHERE id = 1", PG);
        assertThat(analyze("SELECT id FROM orders WHERE id = 1", PG)).isSameAs(first);
        assertThat(analyze("SELECT id FROM orders WHERE id = 1", SL)).isNotSameAs(first);
        RefusedException a = catchRefusal("DELETE FROM orders");
        RefusedException b = catchRefusal("DELETE FROM orders");
        assertThat((Object) b).isNotSameAs(a);
        assertThat(b.code()).isEqualTo(Refusal.NO_WHERE);
        assertThat(b.getMessage()).isEqualTo(a.getMessage());
    }

    private RefusedException catchRefusal(String sql) {
        try {
            analyze(sql, PG);
        } catch (RefusedException e) {
            return e;
        }
        throw new AssertionError("not refused: " + sql);
    }

    @Test
    void S8_sessionSettingsChangeTheReading() {
        assertThat(LexSettings.mysql("STRICT_TRANS_TABLES")).isEqualTo(new LexSettings(SqlDialect.MYSQL, true, true));
        assertThat(LexSettings.mysql("ANSI_QUOTES,NO_BACKSLASH_ESCAPES"))
                .isEqualTo(new LexSettings(SqlDialect.MYSQL, false, false));
        assertThat(LexSettings.mysql("ansi").doubleQuotedStrings()).isFalse();
        assertThat(LexSettings.postgres(true).backslashEscapes()).isFalse();
        assertThat(LexSettings.postgres(false).backslashEscapes()).isTrue();
    }
}
