package dev.llmsafe.value;

import java.util.Locale;

/**
 * C5: the one place that decides how a text is shown to a person, on the card, in {@code llmsafe show}
 * and {@code list}, and in the display forms of the plan's JSON. A character that would be invisible,
 * would move or reorder the text around it, or would command the terminal is shown as an escape,
 * <code>&#92;u{202E}</code> (its code point in hex), never raw:
 *
 * <ul>
 *   <li>controls (Cc: NUL, ESC, carriage return, ...), format characters (Cf: the bidi embeddings,
 *       overrides and isolates U+202A..U+202E and U+2066..U+2069, the marks U+200E, U+200F and U+061C,
 *       zero-width space, joiners, U+2060, U+FEFF, the soft hyphen U+00AD, the tag characters
 *       U+E0000..U+E007F), line and paragraph separators, every space other than U+0020 (NBSP and the
 *       other Zs), lone surrogates, unassigned code points and noncharacters, and private-use ones;
 *   <li>the other default-ignorable code points that are not Cf (variation selectors, the Hangul
 *       fillers, U+034F, U+17B4, U+17B5, U+180B..U+180F), and U+2800, which prints as blank;
 *   <li>a combining mark at the start of a text, which would draw itself on the quote or the
 *       character before the text.
 * </ul>
 *
 * The escape cannot be confused with text that spells it: in {@linkplain #quoted quoted} values every
 * backslash is doubled (and {@code '} too), so a single backslash always begins an escape, as on the
 * card before; elsewhere ({@linkplain #text names, statements, sentences}) backslashes stay as written,
 * so that a MySQL {@code 'it\'s'} reads as it ran, except that a run of backslashes directly before
 * {@code u&#123;} is doubled. An even run before {@code u&#123;} is therefore literal text, an odd one an escape.
 *
 * <p>Decisions: in a quoted value, line feed, carriage return and tab are {@code \n}, {@code \r},
 * {@code \t}; in a statement, line breaks (LF, CR LF, CR) start a new line of the card and a tab is
 * kept (layout that hides nothing); everywhere else they are escapes. Letters of every script are
 * shown as they are: telling look-alike letters apart is C6's job ({@link LookAlike}). Which code points
 * are unassigned is the running JDK's Unicode version (Java 17: Unicode 13), which is why the plan's JSON
 * carries the display forms instead of asking each reader to redo this.
 */
public final class Visible {

    private Visible() {
    }

    /** A text outside quotes: a name, a statement's line, an impact sentence, a message. */
    public static String text(String s) {
        return escape(s, false, false);
    }

    /** One line of a statement: as {@link #text}, with tabs kept. Split the statement at line breaks first. */
    public static String statementLine(String s) {
        return escape(s, false, true);
    }

    /** A text value as a quoted literal: {@code 'it''s'}, backslashes doubled, every escape visible. */
    public static String quoted(String s) {
        return "'" + escape(s, true, false) + "'";
    }

    /** The inside of {@link #quoted}, for a caller that elides a long text in parts. */
    static String quotedBody(String s) {
        return escape(s, true, false);
    }

    /** JSON text (it has escapes of its own, and never <code>&#92;u&#123;</code>): only raw invisible characters change. */
    static String json(String s) {
        return escape(s, false, false);
    }

    /**
     * A JSON document with every hidden character of its strings written as a standard JSON escape
     * ({@code \\u202e} as six characters): the same document to every parser, exact, and nothing
     * invisible or reordering when it is printed. Jackson escapes only the C0 controls; the JSON the
     * command line prints, the MCP server sends and the plan store keeps passes through here.
     */
    public static String escapeJson(String json) {
        StringBuilder b = null;
        for (int i = 0; i < json.length(); ) {
            int cp = json.codePointAt(i);
            int n = Character.charCount(cp);
            if (cp >= 0x80 && hidden(cp)) {
                if (b == null) {
                    b = new StringBuilder(json.length() + 16).append(json, 0, i);
                }
                for (char c : Character.toChars(cp)) {
                    b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                }
            } else if (b != null) {
                b.append(json, i, i + n);
            }
            i += n;
        }
        return b == null ? json : b.toString();
    }

    /** Whether the code point is shown as an escape wherever it appears. */
    public static boolean hidden(int cp) {
        if (cp == ' ') {
            return false;
        }
        switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.LINE_SEPARATOR,
                 Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR, Character.UNASSIGNED,
                 Character.PRIVATE_USE:
                return true;
            default:
                break;
        }
        return ignorable(cp) || cp == 0x2800 || (cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF);
    }

    /** Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties) outside Cf and Cn. */
    static boolean ignorable(int cp) {
        return cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5
                || (cp >= 0x180B && cp <= 0x180F) || cp == 0x3164 || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFFA0
                || (cp >= 0xE0000 && cp <= 0xE0FFF);
    }

    /** The escape of one code point: <code>&#92;u{202E}</code>. */
    public static String escape(int cp) {
        return "\\u{" + Integer.toHexString(cp).toUpperCase(Locale.ROOT) + "}";
    }

    private static String escape(String s, boolean quoted, boolean keepTabs) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        int backslashes = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int next = i + Character.charCount(cp);
            boolean combiningFirst = i == 0 && isMark(cp);
            if (!quoted && cp == '\\') {
                backslashes++;
                i = next;
                continue;
            }
            if (backslashes > 0) {
                // A run of backslashes before u{, whether the u{ is the text's or an escape's, is doubled.
                boolean beforeEscape = hidden(cp) || combiningFirst || s.startsWith("u{", i);
                b.append("\\".repeat(beforeEscape ? 2 * backslashes : backslashes));
                backslashes = 0;
            }
            if (quoted && cp == '\'') {
                b.append("''");
            } else if (quoted && cp == '\\') {
                b.append("\\\\");
            } else if (quoted && cp == '\n') {
                b.append("\\n");
            } else if (quoted && cp == '\r') {
                b.append("\\r");
            } else if (quoted && cp == '\t') {
                b.append("\\t");
            } else if (keepTabs && cp == '\t') {
                b.append('\t');
            } else if (hidden(cp) || combiningFirst) {
                b.append(escape(cp));
            } else {
                b.appendCodePoint(cp);
            }
            i = next;
        }
        b.append("\\".repeat(backslashes));
        return b.toString();
    }

    private static boolean isMark(int cp) {
        int t = Character.getType(cp);
        return t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK || t == Character.COMBINING_SPACING_MARK;
    }
}
