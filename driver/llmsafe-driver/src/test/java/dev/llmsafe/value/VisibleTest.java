package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** C5: every text a person is shown shows its invisible, control and bidi characters as escapes. */
class VisibleTest {

    /** Each class of character that hides, reorders or commands, with the escape it is shown as. */
    static final List<String[]> HIDDEN = List.of(
            new String[] {"\u202E", "\\u{202E}"},   // RIGHT-TO-LEFT OVERRIDE: reverses the rest of the line
            new String[] {"\u202D", "\\u{202D}"},   // LEFT-TO-RIGHT OVERRIDE
            new String[] {"\u202A", "\\u{202A}"},   // LEFT-TO-RIGHT EMBEDDING
            new String[] {"\u202C", "\\u{202C}"},   // POP DIRECTIONAL FORMATTING
            new String[] {"\u2066", "\\u{2066}"},   // LEFT-TO-RIGHT ISOLATE
            new String[] {"\u2067", "\\u{2067}"},   // RIGHT-TO-LEFT ISOLATE
            new String[] {"\u2069", "\\u{2069}"},   // POP DIRECTIONAL ISOLATE
            new String[] {"\u200F", "\\u{200F}"},   // RIGHT-TO-LEFT MARK
            new String[] {"\u061C", "\\u{61C}"},    // ARABIC LETTER MARK
            new String[] {"\u200B", "\\u{200B}"},   // ZERO WIDTH SPACE
            new String[] {"\u200D", "\\u{200D}"},   // ZERO WIDTH JOINER
            new String[] {"\u2060", "\\u{2060}"},   // WORD JOINER
            new String[] {"\uFEFF", "\\u{FEFF}"},   // ZERO WIDTH NO-BREAK SPACE (BOM)
            new String[] {"\u00AD", "\\u{AD}"},     // SOFT HYPHEN
            new String[] {"\uDB40\uDC41", "\\u{E0041}"}, // TAG LATIN CAPITAL LETTER A: hides text
            new String[] {"\uDB40\uDC7F", "\\u{E007F}"}, // CANCEL TAG
            new String[] {"\u001B", "\\u{1B}"},     // ESC: starts a terminal command
            new String[] {"\u0007", "\\u{7}"},      // BEL
            new String[] {"\u007F", "\\u{7F}"},     // DEL
            new String[] {"\u0085", "\\u{85}"},     // NEXT LINE
            new String[] {"\u000B", "\\u{B}"},      // LINE TABULATION
            new String[] {"\u2028", "\\u{2028}"},   // LINE SEPARATOR
            new String[] {"\u2029", "\\u{2029}"},   // PARAGRAPH SEPARATOR
            new String[] {"\u00A0", "\\u{A0}"},     // NO-BREAK SPACE: looks like a space
            new String[] {"\u3000", "\\u{3000}"},   // IDEOGRAPHIC SPACE
            new String[] {"\u3164", "\\u{3164}"},   // HANGUL FILLER: a letter that prints nothing
            new String[] {"\uFE0F", "\\u{FE0F}"},   // VARIATION SELECTOR-16
            new String[] {"\uDB40\uDD00", "\\u{E0100}"}, // VARIATION SELECTOR-17: smuggles data
            new String[] {"\u2800", "\\u{2800}"},   // BRAILLE PATTERN BLANK
            new String[] {"\uE000", "\\u{E000}"},   // private use
            new String[] {"\u0378", "\\u{378}"},    // unassigned
            new String[] {"\uFFFF", "\\u{FFFF}"},   // noncharacter
            new String[] {"\uD800", "\\u{D800}"});  // a lone surrogate

    @Test
    void C5_everyHiddenCharacterIsAnEscapeInEveryKindOfText() {
        for (String[] c : HIDDEN) {
            String s = "ad" + c[0] + "min";
            assertThat(Visible.text(s)).as(c[1]).isEqualTo("ad" + c[1] + "min");
            assertThat(Visible.statementLine(s)).as(c[1]).isEqualTo("ad" + c[1] + "min");
            assertThat(Visible.quoted(s)).as(c[1]).isEqualTo("'ad" + c[1] + "min'");
            assertThat(new TextValue(s).render()).as(c[1]).isEqualTo("'ad" + c[1] + "min'");
            assertThat(new JsonValue("{\"a\":\"" + s + "\"}").render()).as(c[1]).isEqualTo("{\"a\":\"ad" + c[1] + "min\"}");
            assertThat(new EnumValue(s).render()).as(c[1]).isEqualTo("'ad" + c[1] + "min'");
            assertThat(Visible.text(s).codePoints().filter(Visible::hidden)).as(c[1]).isEmpty();
        }
    }

    @Test
    void C5_lettersOfEveryScriptAndEmojiAreShownAsTheyAre() {
        for (String s : List.of("héllo wörld", "Привет, мир", "שלום עולם", "مرحبا", "日本語のテキスト", "한국어", "😀 🇯🇵",
                "naïve café", "Ελληνικά", "it's", "a\\b", "C:\\path\\to")) {
            assertThat(Visible.text(s)).isEqualTo(s);
        }
        assertThat(Visible.quoted("it's")).isEqualTo("'it''s'");
    }

    @Test
    void C5_aCombiningMarkAtTheStartWouldDrawOnTheQuoteAndIsAnEscape() {
        assertThat(Visible.quoted("\u0338x")).isEqualTo("'\\u{338}x'");
        assertThat(Visible.quoted("e\u0301")).isEqualTo("'e\u0301'");
    }

    @Test
    void C5_layoutDecisions() {
        assertThat(Visible.quoted("a\nb\r\tc")).isEqualTo("'a\\nb\\r\\tc'");
        assertThat(Visible.statementLine("SET\tx = 1")).isEqualTo("SET\tx = 1");
        assertThat(Visible.text("a\tb\nc\rd")).isEqualTo("a\\u{9}b\\u{A}c\\u{D}d");
        assertThat(Visible.text("a b")).isEqualTo("a b");
    }

    @Test
    void C5_textThatSpellsAnEscapeLooksDifferentFromTheCharacter() {
        assertThat(Visible.text("\\u{202E}")).isEqualTo("\\\\u{202E}");
        assertThat(Visible.text("\u202E")).isEqualTo("\\u{202E}");
        assertThat(Visible.text("\\\u202E")).isEqualTo("\\\\\\u{202E}");
        assertThat(Visible.text("it\\'s")).isEqualTo("it\\'s");
        assertThat(Visible.quoted("\\u{202E}")).isEqualTo("'\\\\u{202E}'");
        assertThat(new TextValue("\\u{202E}").render()).isNotEqualTo(new TextValue("\u202E").render());
        assertThat(new JsonValue("\"\\u{202E}\"").render()).isNotEqualTo(new JsonValue("\"\u202E\"").render());
    }

    /** The renderings are one-to-one: read back, each gives the text it came from. */
    @Test
    void C5_everyRenderingReadsBackToTheTextItShows() {
        Random random = new Random(13);
        String[] pool = {"\\", "u", "{", "}", "2", "E", "'", "a", " ", "\t", "\n", "\u202E", "\u200B", "\u00A0",
                "\uDB40\uDC41", "é", "\u0301"};
        Set<String> seen = new HashSet<>();
        Set<String> texts = new HashSet<>();
        Set<String> quoted = new HashSet<>();
        for (int n = 0; n < 20_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int k = random.nextInt(9); k > 0; k--) {
                b.append(pool[random.nextInt(pool.length)]);
            }
            String s = b.toString();
            if (!seen.add(s)) {
                continue;
            }
            assertThat(readText(Visible.text(s))).as("text of %s", s).isEqualTo(s);
            assertThat(readQuoted(Visible.quoted(s))).as("quoted %s", s).isEqualTo(s);
            assertThat(texts.add(Visible.text(s))).isTrue();
            assertThat(quoted.add(Visible.quoted(s))).isTrue();
        }
    }

    @Test
    void C5_jsonKeepsItsValuesAndPrintsNoHiddenCharacter() throws Exception {
        ObjectMapper m = new ObjectMapper();
        String value = "a\u202Eb\u200B\uDB40\uDC41c 😀 Привет";
        String json = Visible.escapeJson(m.writeValueAsString(List.of(value)));
        assertThat(json).isEqualTo("[\"a\\u202eb\\u200b\\udb40\\udc41c 😀 Привет\"]");
        assertThat(m.readTree(json).get(0).textValue()).isEqualTo(value);
    }

    /** Unquoted form: an odd run of backslashes before u{ begins an escape, an even one is literal. */
    static String readText(String shown) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < shown.length(); ) {
            if (shown.charAt(i) != '\\') {
                out.append(shown.charAt(i++));
                continue;
            }
            int run = 0;
            while (i < shown.length() && shown.charAt(i) == '\\') {
                run++;
                i++;
            }
            if (!shown.startsWith("u{", i)) {
                out.append("\\".repeat(run));
                continue;
            }
            out.append("\\".repeat(run / 2));
            if (run % 2 == 1) {
                int end = shown.indexOf('}', i);
                out.appendCodePoint(Integer.parseInt(shown.substring(i + 2, end), 16));
                i = end + 1;
            }
        }
        return out.toString();
    }

    static String readQuoted(String shown) {
        assertThat(shown).startsWith("'").endsWith("'");
        String s = shown.substring(1, shown.length() - 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); ) {
            char c = s.charAt(i);
            if (c == '\'') {
                assertThat(s.charAt(i + 1)).isEqualTo('\'');
                out.append('\'');
                i += 2;
            } else if (c == '\\') {
                char e = s.charAt(i + 1);
                switch (e) {
                    case '\\' -> out.append('\\');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        int end = s.indexOf('}', i);
                        out.appendCodePoint(Integer.parseInt(s.substring(i + 3, end), 16));
                        i = end + 1;
                        continue;
                    }
                    default -> throw new AssertionError("a lone backslash in " + shown);
                }
                i += 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
