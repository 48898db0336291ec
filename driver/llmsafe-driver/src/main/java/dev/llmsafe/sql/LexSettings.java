package dev.llmsafe.sql;

import java.util.Locale;

/**
 * The session settings that change how a server reads text: whether a backslash escapes inside an
 * ordinary string, and whether {@code "x"} is an identifier or a string. They are read from the live
 * connection (a server's settings, not its defaults, decide what a statement means).
 *
 * @param dialect the dialect
 * @param backslashEscapes a backslash escapes the next character in an ordinary {@code '...'} string
 *     (MySQL without NO_BACKSLASH_ESCAPES; PostgreSQL with standard_conforming_strings off)
 * @param doubleQuotedStrings {@code "x"} is a string literal (MySQL without ANSI_QUOTES), not an identifier
 */
public record LexSettings(SqlDialect dialect, boolean backslashEscapes, boolean doubleQuotedStrings) {

    /** SQLite: no backslash escapes; {@code "x"} is an identifier. */
    public static LexSettings sqlite() {
        return new LexSettings(SqlDialect.SQLITE, false, false);
    }

    /** PostgreSQL with the given value of {@code standard_conforming_strings}. */
    public static LexSettings postgres(boolean standardConformingStrings) {
        return new LexSettings(SqlDialect.POSTGRESQL, !standardConformingStrings, false);
    }

    /** MySQL or MariaDB with the given {@code @@sql_mode}. */
    public static LexSettings mysql(String sqlMode) {
        String mode = "," + sqlMode.toUpperCase(Locale.ROOT).replace(" ", "") + ",";
        // ANSI is a combination mode that includes ANSI_QUOTES.
        boolean ansiQuotes = mode.contains(",ANSI_QUOTES,") || mode.contains(",ANSI,");
        return new LexSettings(SqlDialect.MYSQL, !mode.contains(",NO_BACKSLASH_ESCAPES,"), !ansiQuotes);
    }
}
