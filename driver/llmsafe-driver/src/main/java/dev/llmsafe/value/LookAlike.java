package dev.llmsafe.value;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * C6: a changed value whose two sides a person would read as the same. {@code admin} changed to
 * {@code аdmin} (a Cyrillic а) shows two identical sides; the card flags it with the reason and the
 * characters that differ. Compared: the text of text, enum, set, JSON and other values; the tests are,
 * in order (the first that holds is the reason, and a mixed-script word is reported besides):
 *
 * <ol>
 *   <li>{@link Reason#INVISIBLE}: equal once invisible characters (format, control, default-ignorable)
 *       are removed: a zero-width space, a soft hyphen, a bidi mark inserted;
 *   <li>{@link Reason#SPACING}: equal once every run of spaces (any Unicode space, tab, line break) is
 *       one space and the ends are trimmed: NBSP for a space, a trailing space, a doubled space;
 *   <li>{@link Reason#NORMALIZATION}: equal under NFKC: fullwidth letters, ligatures, mathematical
 *       letters, an accent composed or combining;
 *   <li>{@link Reason#CONFUSABLE}: equal confusable skeletons ({@link Confusables}): Cyrillic, Greek,
 *       Armenian or Cherokee letters drawn like Latin ones, {@code 1}, {@code I} and {@code |} for
 *       {@code l}, {@code 0} for {@code O}, typographic dashes and quotes;
 *   <li>{@link Reason#MIXED_SCRIPT}: the new value has a word (letters, digits, marks and {@code _})
 *       that mixes scripts the way no real word does (UTS #39's "highly restrictive" level: one
 *       script, or Latin with Han, Hiragana and Katakana, with Han and Bopomofo, or with Han and
 *       Hangul), and the old value did not have that word.
 * </ol>
 *
 * A change of letter case alone is not flagged: it is visible, and an ordinary edit. Neither is a
 * change between two texts of another script that differ in what they say.
 *
 * @param reasons why the two sides look alike, in the order above
 * @param detail which characters differ, by code point and name, for the card
 */
public record LookAlike(Set<Reason> reasons, String detail) {

    /** Why two sides look alike. */
    public enum Reason {
        /** They differ only in invisible characters. */
        INVISIBLE("they differ only in invisible characters"),
        /** They differ only in spaces. */
        SPACING("they differ only in spaces (their kind, their number, or at the ends)"),
        /** They differ only in how the same characters are encoded. */
        NORMALIZATION("they differ only in how the same characters are encoded (Unicode NFKC: width, ligatures,"
                + " accents composed or combining)"),
        /** They differ only in characters drawn alike. */
        CONFUSABLE("they differ only in characters that are drawn alike"),
        /** A word of the new value mixes scripts. */
        MIXED_SCRIPT("a word of the new value mixes letters of different scripts");

        private final String sentence;

        Reason(String sentence) {
            this.sentence = sentence;
        }

        /** The reason as the card says it. */
        public String sentence() {
            return sentence;
        }
    }

    /** Copies the set, keeping the order of the reasons. */
    public LookAlike {
        reasons = java.util.Collections.unmodifiableSet(EnumSet.copyOf(reasons));
    }

    /** The card's line: the reasons, then the detail. */
    public String describe() {
        List<String> s = new ArrayList<>();
        reasons.forEach(r -> s.add(r.sentence()));
        return String.join("; ", s) + ": " + detail;
    }

    /** The flag for a changed value, when its two sides look alike. */
    public static Optional<LookAlike> of(Value before, Value after) {
        if (before == null || after == null || before.equals(after)) {
            return Optional.empty();
        }
        Optional<String> b = text(before);
        Optional<String> a = text(after);
        if (b.isEmpty() || a.isEmpty()) {
            return Optional.empty();
        }
        return ofText(b.get(), a.get());
    }

    /** The flag for two texts, when they look alike. */
    public static Optional<LookAlike> ofText(String before, String after) {
        if (before.equals(after)) {
            return Optional.empty();
        }
        Set<Reason> reasons = new LinkedHashSet<>();
        String b = stripInvisible(before);
        String a = stripInvisible(after);
        if (b.equals(a)) {
            reasons.add(Reason.INVISIBLE);
        } else if ((b = spaced(b)).equals(a = spaced(a))) {
            reasons.add(Reason.SPACING);
        } else if ((b = Normalizer.normalize(b, Normalizer.Form.NFKC)).equals(a = Normalizer.normalize(a,
                Normalizer.Form.NFKC))) {
            reasons.add(Reason.NORMALIZATION);
        } else if (skeleton(b).equals(skeleton(a))) {
            reasons.add(Reason.CONFUSABLE);
        }
        Optional<String> mixed = mixedWord(after, before);
        mixed.ifPresent(w -> reasons.add(Reason.MIXED_SCRIPT));
        if (reasons.isEmpty()) {
            return Optional.empty();
        }
        String detail = reasons.equals(Set.of(Reason.MIXED_SCRIPT)) ? "" : difference(before, after);
        if (mixed.isPresent()) {
            detail = (detail.isEmpty() ? "" : detail + "; ") + "the word " + Visible.quoted(mixed.get()) + " mixes "
                    + scriptsOf(mixed.get()) + " (" + minority(mixed.get()) + ")";
        }
        return Optional.of(new LookAlike(reasons, detail));
    }

    /** The text a value holds, for the kinds whose text a person reads. */
    static Optional<String> text(Value v) {
        if (v instanceof TextValue x) {
            return Optional.of(x.value());
        } else if (v instanceof EnumValue x) {
            return Optional.of(x.label());
        } else if (v instanceof SetValue x) {
            return Optional.of(x.text());
        } else if (v instanceof JsonValue x) {
            return Optional.of(x.text());
        } else if (v instanceof JsonbValue x) {
            return Optional.of(x.text());
        } else if (v instanceof OtherValue x) {
            return Optional.of(x.text());
        }
        return Optional.empty();
    }

    private static String stripInvisible(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().filter(cp -> !Visible.hidden(cp) || isSpace(cp)).forEach(b::appendCodePoint);
        return b.toString();
    }

    private static boolean isSpace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
    }

    private static String spaced(String s) {
        StringBuilder b = new StringBuilder(s.length());
        boolean space = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (isSpace(cp)) {
                space = true;
                continue;
            }
            if (space && b.length() > 0) {
                b.append(' ');
            }
            space = false;
            b.appendCodePoint(cp);
        }
        return b.toString();
    }

    /** NFKD, each code point replaced by the one it is drawn like, then NFD again (UTS #39's shape). */
    static String skeleton(String s) {
        String d = Normalizer.normalize(s, Normalizer.Form.NFKD);
        StringBuilder b = new StringBuilder(d.length());
        d.codePoints().forEach(cp -> b.append(Confusables.prototype(cp)));
        return Normalizer.normalize(b.toString(), Normalizer.Form.NFD);
    }

    private static Optional<String> mixedWord(String text, String other) {
        Set<String> before = new LinkedHashSet<>(words(other));
        for (String w : words(text)) {
            if (!before.contains(w) && mixes(w)) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    private static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i <= s.length(); ) {
            int cp = i < s.length() ? s.codePointAt(i) : ' ';
            i += i < s.length() ? Character.charCount(cp) : 1;
            if (Character.isLetterOrDigit(cp) || cp == '_' || Character.getType(cp) == Character.NON_SPACING_MARK
                    || Character.getType(cp) == Character.COMBINING_SPACING_MARK) {
                w.appendCodePoint(cp);
            } else if (w.length() > 0) {
                out.add(w.toString());
                w.setLength(0);
            }
        }
        return out;
    }

    private static final Set<Character.UnicodeScript> JAPANESE = EnumSet.of(Character.UnicodeScript.LATIN,
            Character.UnicodeScript.HAN, Character.UnicodeScript.HIRAGANA, Character.UnicodeScript.KATAKANA);
    private static final Set<Character.UnicodeScript> CHINESE = EnumSet.of(Character.UnicodeScript.LATIN,
            Character.UnicodeScript.HAN, Character.UnicodeScript.BOPOMOFO);
    private static final Set<Character.UnicodeScript> KOREAN = EnumSet.of(Character.UnicodeScript.LATIN,
            Character.UnicodeScript.HAN, Character.UnicodeScript.HANGUL);

    static boolean mixes(String word) {
        Set<Character.UnicodeScript> s = scripts(word);
        return s.size() > 1 && !JAPANESE.containsAll(s) && !CHINESE.containsAll(s) && !KOREAN.containsAll(s);
    }

    private static Set<Character.UnicodeScript> scripts(String word) {
        Set<Character.UnicodeScript> s = EnumSet.noneOf(Character.UnicodeScript.class);
        word.codePoints().mapToObj(Character.UnicodeScript::of)
                .filter(x -> x != Character.UnicodeScript.COMMON && x != Character.UnicodeScript.INHERITED
                        && x != Character.UnicodeScript.UNKNOWN)
                .forEach(s::add);
        return s;
    }

    private static String scriptsOf(String word) {
        List<String> names = new ArrayList<>();
        for (Character.UnicodeScript s : scripts(word)) {
            String n = s.name().toLowerCase(Locale.ROOT).replace('_', ' ');
            names.add(Character.toUpperCase(n.charAt(0)) + n.substring(1));
        }
        return String.join(" and ", names) + " letters";
    }

    /** The letters of a word that are not of its most frequent script, at most three, by name. */
    private static String minority(String word) {
        java.util.Map<Character.UnicodeScript, Integer> counts = new java.util.EnumMap<>(Character.UnicodeScript.class);
        int[] cps = word.codePoints().toArray();
        for (int cp : cps) {
            counts.merge(Character.UnicodeScript.of(cp), 1, Integer::sum);
        }
        Set<Character.UnicodeScript> scripts = scripts(word);
        Character.UnicodeScript major = scripts.stream().max(java.util.Comparator.comparing(counts::get)).orElseThrow();
        List<String> out = new ArrayList<>();
        int more = 0;
        for (int cp : cps) {
            if (scripts.contains(Character.UnicodeScript.of(cp)) && Character.UnicodeScript.of(cp) != major) {
                if (out.size() < 3) {
                    out.add(name(cp));
                } else {
                    more++;
                }
            }
        }
        return String.join(", ", out) + (more > 0 ? " and " + more + " more" : "");
    }

    /** Where the two texts differ, code point by code point, at most three of them. */
    static String difference(String before, String after) {
        int[] b = before.codePoints().toArray();
        int[] a = after.codePoints().toArray();
        int p = 0;
        while (p < b.length && p < a.length && b[p] == a[p]) {
            p++;
        }
        int q = 0;
        while (q < b.length - p && q < a.length - p && b[b.length - 1 - q] == a[a.length - 1 - q]) {
            q++;
        }
        int nb = b.length - p - q;
        int na = a.length - p - q;
        List<String> parts = new ArrayList<>();
        if (nb == na) {
            for (int i = 0; i < nb && parts.size() < 3; i++) {
                if (b[p + i] != a[p + i]) {
                    parts.add("char " + (p + i + 1) + " was " + name(b[p + i]) + " and is " + name(a[p + i]));
                }
            }
            int differing = 0;
            for (int i = 0; i < nb; i++) {
                differing += b[p + i] != a[p + i] ? 1 : 0;
            }
            return String.join(", ", parts) + (differing > parts.size() ? ", and " + (differing - parts.size())
                    + " more" : "");
        }
        return "from char " + (p + 1) + ", " + names(b, p, nb) + " became " + names(a, p, na);
    }

    private static String names(int[] cps, int from, int n) {
        if (n == 0) {
            return "nothing";
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(n, 3); i++) {
            out.add(name(cps[from + i]));
        }
        return String.join(", ", out) + (n > 3 ? " and " + (n - 3) + " more" : "");
    }

    /** {@code U+0430 CYRILLIC SMALL LETTER A}. */
    static String name(int cp) {
        String n = Character.getName(cp);
        return String.format(Locale.ROOT, "U+%04X %s", cp, n == null ? "(unassigned)" : n);
    }
}
