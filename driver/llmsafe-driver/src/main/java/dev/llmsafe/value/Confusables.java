package dev.llmsafe.value;

import java.util.HashMap;
import java.util.Map;

/**
 * The confusable skeleton of C6, small and targeted: the letters of other scripts that are drawn like a
 * Latin letter in common fonts (Cyrillic, Greek, Armenian, Cherokee, a few Latin extensions and IPA
 * letters), the digits and signs drawn like a letter (1, I and | like l; 0 like O, as in Unicode's
 * confusables.txt), and the dashes, quotes, slashes and colons drawn like the ASCII ones. Width, font
 * variants, ligatures and accents are Unicode's own compatibility decomposition (NFKD), applied first.
 *
 * <p>Why not ICU4J's {@code SpoofChecker}, which has all of confusables.txt: ICU4J 77.1 is a 14.7 MB
 * jar (14,663,227 bytes, measured from Maven Central), three times the driver's whole dependency set
 * (JSqlParser, Jackson, HikariCP: about 4.5 MB), and the driver is embedded in applications. The
 * spoofs that matter on a card are Latin look-alikes, which this table and the mixed-script test of
 * {@link LookAlike} cover; a pair it misses is still shown exactly, character by character (C5).
 */
final class Confusables {

    private static final Map<Integer, String> MAP = new HashMap<>();

    static {
        // Cyrillic.
        pairs("аa вʙ еe оo рp сc уy хx ѕs іi јj һh ԁd ԛq ԝw ӏl үy ɡg"
                + " АA ВB ЕE КK МM НH ОO РP СC ТT УY ХX ЅS Іl ЈJ ҮY ԚQ ԜW ҺH Ӏl");
        // Greek.
        pairs("αa οo νv ρp ιi κk υu χx γy ϲc ϳj"
                + " ΑA ΒB ΕE ΖZ ΗH Ιl ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX ϹC ͿJ");
        // Armenian, Cherokee, Latin extensions and IPA.
        pairs("օo սu հh ոn զq ՕO ՏS ԼL"
                + " ᎪA ᏴB ᏟC ᎬE ᎻH ᎫJ ᏦK ᎷM ᏢP ᏚS ᎢT ᏔW ᏃZ"
                + " ıi ȷj ɑa ɩi ǀl ʟL ꓲl");
        // Digits and signs drawn like letters, as confusables.txt maps them.
        pairs("1l Il |l 0O");
        // Dashes, quotes, slashes, colons.
        for (int cp : new int[] {0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE58, 0x02D7}) {
            MAP.put(cp, "-");
        }
        for (int cp : new int[] {0x2018, 0x2019, 0x201B, 0x2032, 0x02BC, 0x02B9, 0x00B4, 0x0060}) {
            MAP.put(cp, "'");
        }
        for (int cp : new int[] {0x201C, 0x201D, 0x201F, 0x2033, 0x02BA}) {
            MAP.put(cp, "\"");
        }
        for (int cp : new int[] {0x2215, 0x2044, 0x29F8}) {
            MAP.put(cp, "/");
        }
        for (int cp : new int[] {0x02D0, 0xA789, 0x2236}) {
            MAP.put(cp, ":");
        }
    }

    private Confusables() {
    }

    private static void pairs(String spec) {
        for (String pair : spec.split(" ")) {
            int source = pair.codePointAt(0);
            MAP.put(source, pair.substring(Character.charCount(source)));
        }
    }

    /** The Latin (or ASCII) character this code point is drawn like, or the code point itself. */
    static String prototype(int cp) {
        String p = MAP.get(cp);
        return p == null ? new String(Character.toChars(cp)) : p;
    }
}
