package dev.llmsafe.policy;

import java.util.regex.Pattern;

/**
 * One SQL identifier as it was written: its text and whether it was double-quoted.
 *
 * <p>The quoting is kept because it changes what the name means to the database (PostgreSQL folds
 * an unquoted {@code Orders} to {@code orders} but keeps {@code "Orders"}). The policy never
 * resolves names itself; the driver asks the database.
 *
 * @param text the identifier without quotes, never empty
 * @param quoted whether it was written in double quotes
 */
public record Identifier(String text, boolean quoted) {

    private static final Pattern BARE = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*");
    static final int MAX_LENGTH = 128;

    /** Checks the text: a bare identifier must look like one; a quoted one may hold anything but NUL. */
    public Identifier {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH || text.indexOf('\0') >= 0
                || (!quoted && !BARE.matcher(text).matches())) {
            throw new IllegalArgumentException("not a valid identifier: " + text);
        }
    }

    /** A bare (unquoted) identifier. */
    public static Identifier of(String text) {
        return new Identifier(text, false);
    }

    /** Whether {@code text} is a bare identifier that needs no quotes. */
    static boolean isBare(String text) {
        return BARE.matcher(text).matches();
    }

    /** The identifier as it would be written: quoted (with inner quotes doubled) when it was quoted. */
    @Override
    public String toString() {
        return quoted ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
}
