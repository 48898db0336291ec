package dev.llmsafe.console;

import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The console's password hashes: BCrypt (cost 12) from spring-security-crypto, a library kept with
 * Spring Security that needs nothing else of Spring. A password is never stored or logged; only its
 * hash is in the configuration, printed by {@code llmsafe hash-password}.
 */
public final class Passwords {

    /** BCrypt reads at most 72 bytes of a password; a longer one would be cut without a word. */
    static final int MAX_BYTES = 72;

    private static final int COST = 12;

    /** A valid hash of nothing anyone types, compared when the name is unknown so that timing tells nothing. */
    private static final String DECOY = BCrypt.hashpw("decoy password", BCrypt.gensalt(COST));

    private Passwords() {
    }

    /**
     * The hash to put in {@code console.users[].passwordHash}.
     *
     * @param password the password
     * @throws IllegalArgumentException when it is empty or longer than BCrypt reads (72 bytes in UTF-8)
     */
    public static String hash(char[] password) {
        String p = check(password);
        return BCrypt.hashpw(p, BCrypt.gensalt(COST));
    }

    /** Whether the text has the form of a BCrypt hash. */
    static boolean wellFormed(String hash) {
        return hash != null && hash.matches("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}");
    }

    /** Whether the password matches the hash; with a null hash, compares a decoy and answers false. */
    static boolean matches(String password, String hash) {
        if (password.isEmpty() || password.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            BCrypt.checkpw("decoy", DECOY);
            return false;
        }
        if (hash == null) {
            BCrypt.checkpw(password, DECOY);
            return false;
        }
        return BCrypt.checkpw(password, hash);
    }

    private static String check(char[] password) {
        if (password == null || password.length == 0) {
            throw new IllegalArgumentException("the password is empty");
        }
        int bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password)).remaining();
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException("the password is " + bytes + " bytes long in UTF-8, and BCrypt reads"
                    + " only the first " + MAX_BYTES + "; choose a shorter one");
        }
        return new String(password);
    }
}
