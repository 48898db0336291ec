package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.value.LookAlike.Reason;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** C6: a change whose two sides look alike is flagged; an ordinary change is not. */
class LookAlikeTest {

    record Pair(String before, String after, Set<Reason> reasons) {
    }

    static final List<Pair> LOOK_ALIKE = List.of(
            // Cyrillic and Greek letters drawn like Latin ones, in a Latin word and as a whole word.
            new Pair("admin", "\u0430dmin", Set.of(Reason.CONFUSABLE, Reason.MIXED_SCRIPT)),
            new Pair("paypal", "\u0440\u0430\u0443\u0440\u0430l", Set.of(Reason.CONFUSABLE, Reason.MIXED_SCRIPT)),
            new Pair("COPE", "\u0421\u041E\u0420\u0415", Set.of(Reason.CONFUSABLE)),
            new Pair("scope", "\u0455\u0441\u043E\u0440\u0435", Set.of(Reason.CONFUSABLE)),
            new Pair("role:user", "role:\u03C5ser", Set.of(Reason.CONFUSABLE, Reason.MIXED_SCRIPT)),
            new Pair("ALPHA", "\u0391LPH\u0391", Set.of(Reason.CONFUSABLE, Reason.MIXED_SCRIPT)),
            new Pair("{\"role\":\"admin\"}", "{\"role\":\"\u0430dmin\"}", Set.of(Reason.CONFUSABLE, Reason.MIXED_SCRIPT)),
            // Fullwidth, mathematical and ligature forms; combining marks against precomposed letters.
            new Pair("admin", "\uFF41\uFF44\uFF4D\uFF49\uFF4E", Set.of(Reason.NORMALIZATION)),
            new Pair("admin", "\uD835\uDC1Admin", Set.of(Reason.NORMALIZATION)),
            new Pair("office", "o\uFB03ce", Set.of(Reason.NORMALIZATION)),
            new Pair("caf\u00E9", "cafe\u0301", Set.of(Reason.NORMALIZATION)),
            // Invisible characters inserted.
            new Pair("admin", "ad\u200Bmin", Set.of(Reason.INVISIBLE)),
            new Pair("admin", "admin\uFEFF", Set.of(Reason.INVISIBLE)),
            new Pair("admin", "ad\u00ADmin", Set.of(Reason.INVISIBLE)),
            new Pair("admin", "admin\uDB40\uDC41", Set.of(Reason.INVISIBLE)),
            new Pair("ad\u200Dmin", "admin", Set.of(Reason.INVISIBLE)),
            // Spaces: another kind, another number, at the ends.
            new Pair("John Smith", "John\u00A0Smith", Set.of(Reason.SPACING)),
            new Pair("John Smith", "John  Smith", Set.of(Reason.SPACING)),
            new Pair("admin", "admin ", Set.of(Reason.SPACING)),
            new Pair("admin", " admin", Set.of(Reason.SPACING)),
            new Pair("a b", "a\tb", Set.of(Reason.SPACING)),
            // Digits and signs drawn like letters, typographic dashes and quotes.
            new Pair("user1", "userl", Set.of(Reason.CONFUSABLE)),
            new Pair("Illinois", "lllinois", Set.of(Reason.CONFUSABLE)),
            new Pair("COOL", "C00L", Set.of(Reason.CONFUSABLE)),
            new Pair("ab-12", "ab\u201312", Set.of(Reason.CONFUSABLE)),
            new Pair("it's", "it\u2019s", Set.of(Reason.CONFUSABLE)),
            // A new word mixing scripts, even when the sides are otherwise different.
            new Pair("hello", "w\u043Erld", Set.of(Reason.MIXED_SCRIPT)));

    static final List<String[]> ORDINARY = List.of(
            new String[] {"packed", "shipped"},
            new String[] {"admin", "user"},
            new String[] {"Admin", "admin"},
            new String[] {"PACKED", "packed"},
            new String[] {"v1", "v2"},
            new String[] {"100", "200"},
            new String[] {"cafe", "caf\u00E9"},
            new String[] {"naive", "na\u00EFve"},
            new String[] {"\u041F\u0440\u0438\u0432\u0435\u0442", "\u041F\u043E\u043A\u0430"},
            new String[] {"\u041C\u043E\u0441\u043A\u0432\u0430", "\u041A\u0438\u0435\u0432"},
            new String[] {"\u0391\u03B8\u03AE\u03BD\u03B1", "\u0391\u03B8\u03B7\u03BD\u03B1"},
            new String[] {"\u05E9\u05DC\u05D5\u05DD", "\u05E2\u05D5\u05DC\u05DD"},
            new String[] {"Tokyo", "Tokyo\u6771\u4EAC"},
            new String[] {"\u6771\u4EAC\u30BF\u30EF\u30FC", "\u5927\u962A\u57CE"},
            new String[] {"Seoul \uC11C\uC6B8", "Busan \uBD80\uC0B0"},
            new String[] {"Moscow \u041C\u043E\u0441\u043A\u0432\u0430", "Moscow \u041C\u043E\u0441\u043A\u0432\u0430 City"},
            new String[] {"{\"role\":\"user\"}", "{\"role\":\"admin\"}"},
            new String[] {"", "x"},
            new String[] {"a", "b"});

    @Test
    void C6_lookAlikePairsAreFlaggedWithTheirReason() {
        for (Pair p : LOOK_ALIKE) {
            Optional<LookAlike> flag = LookAlike.ofText(p.before(), p.after());
            assertThat(flag).as("%s -> %s", Visible.quoted(p.before()), Visible.quoted(p.after())).isPresent();
            assertThat(flag.get().reasons()).as("%s -> %s", Visible.quoted(p.before()), Visible.quoted(p.after()))
                    .containsExactlyInAnyOrderElementsOf(p.reasons());
            assertThat(flag.get().describe().codePoints().filter(Visible::hidden)).isEmpty();
        }
    }

    @Test
    void C6_ordinaryEditsAndOtherLanguagesAreNotFlagged() {
        for (String[] p : ORDINARY) {
            assertThat(LookAlike.ofText(p[0], p[1])).as("%s -> %s", p[0], p[1]).isEmpty();
        }
    }

    @Test
    void C6_theDetailNamesTheCharactersThatDiffer() {
        assertThat(LookAlike.ofText("admin", "\u0430dmin").orElseThrow().describe()).isEqualTo(
                "they differ only in characters that are drawn alike; a word of the new value mixes letters of"
                        + " different scripts: char 1 was U+0061 LATIN SMALL LETTER A and is U+0430 CYRILLIC SMALL"
                        + " LETTER A; the word '\u0430dmin' mixes Latin and Cyrillic letters (U+0430 CYRILLIC SMALL"
                        + " LETTER A)");
        assertThat(LookAlike.ofText("admin", "ad\u200Bmin").orElseThrow().detail())
                .isEqualTo("from char 3, nothing became U+200B ZERO WIDTH SPACE");
        assertThat(LookAlike.ofText("a b", "a\u00A0b").orElseThrow().detail())
                .isEqualTo("char 2 was U+0020 SPACE and is U+00A0 NO-BREAK SPACE");
    }

    @Test
    void C6_valuesOfTheKindsAPersonReadsAreCompared() {
        assertThat(LookAlike.of(new TextValue("admin"), new TextValue("\u0430dmin"))).isPresent();
        assertThat(LookAlike.of(new EnumValue("admin"), new EnumValue("\u0430dmin"))).isPresent();
        assertThat(LookAlike.of(new JsonbValue("{\"r\":\"admin\"}"), new JsonbValue("{\"r\":\"admin\u200B\"}"))).isPresent();
        assertThat(LookAlike.of(new TextValue("admin"), new TextValue("admin"))).isEmpty();
        assertThat(LookAlike.of(IntegerValue.of(1), IntegerValue.of(2))).isEmpty();
        assertThat(LookAlike.of(new TextValue("admin"), Value.NULL)).isEmpty();
        assertThat(LookAlike.of(new TextValue("x").masked(), new TextValue("y").masked())).isEmpty();
    }
}
