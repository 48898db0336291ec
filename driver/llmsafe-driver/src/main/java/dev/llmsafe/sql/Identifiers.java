package dev.llmsafe.sql;

import java.nio.charset.StandardCharsets;

/**
 * Identifiers as the server will compare them. PostgreSQL truncates every identifier to 63 bytes
 * (NAMEDATALEN - 1) at a character boundary, so a longer spelling names the same column or table:
 * a secret is matched on what the server keeps, never on what was written.
 */
final class Identifiers {

    /** PostgreSQL's NAMEDATALEN - 1. */
    static final int POSTGRES_MAX_BYTES = 63;

    private Identifiers() {
    }

    /** The identifier cut as the dialect's server cuts it. */
    static String truncated(String text, SqlDialect dialect) {
        if (dialect != SqlDialect.POSTGRESQL || text.length() * 3 <= POSTGRES_MAX_BYTES
                && text.getBytes(StandardCharsets.UTF_8).length <= POSTGRES_MAX_BYTES) {
            return text;
        }
        int bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > POSTGRES_MAX_BYTES) {
                break;
            }
            bytes += size;
            i += Character.charCount(cp);
        }
        return text.substring(0, i);
    }
}
