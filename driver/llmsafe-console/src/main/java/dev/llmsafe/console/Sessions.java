package dev.llmsafe.console;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions in memory: random 256-bit ids, each with its own CSRF token, ended after the idle timeout.
 * A session before sign-in (person null) exists only to carry the sign-in form's token; signing in
 * issues a new id, so an id planted before sign-in is worth nothing after it. Thread-safe.
 */
final class Sessions {

    /** Bounds the memory a flood of anonymous visits can take: the oldest go first. */
    private static final int MAX = 10_000;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** One session. */
    static final class Session {
        final String id;
        final String csrf;
        final Person person;
        volatile long lastSeen;

        Session(String id, String csrf, Person person, long now) {
            this.id = id;
            this.csrf = csrf;
            this.person = person;
            this.lastSeen = now;
        }

        /** Whether the form's token is this session's, compared in constant time. */
        boolean csrfMatches(String token) {
            return token != null && MessageDigest.isEqual(token.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    csrf.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Duration idle;
    private final Clock clock;

    Sessions(Duration idle, Clock clock) {
        this.idle = idle;
        this.clock = clock;
    }

    static String randomId() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** A new session for the person (null before sign-in). */
    Session open(Person person) {
        long now = clock.millis();
        if (sessions.size() >= MAX) {
            sweep(now);
        }
        Session s = new Session(randomId(), randomId(), person, now);
        sessions.put(s.id, s);
        return s;
    }

    /** The live session of an id; a stale one is ended, an unknown or forged one is none. */
    Optional<Session> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Session s = sessions.get(id);
        if (s == null) {
            return Optional.empty();
        }
        long now = clock.millis();
        if (now - s.lastSeen > idle.toMillis()) {
            sessions.remove(id);
            return Optional.empty();
        }
        s.lastSeen = now;
        return Optional.of(s);
    }

    void close(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    private void sweep(long now) {
        sessions.values().removeIf(s -> now - s.lastSeen > idle.toMillis());
        Iterator<Session> oldest = sessions.values().stream()
                .sorted(java.util.Comparator.comparingLong(s -> s.lastSeen)).limit(MAX / 10).iterator();
        oldest.forEachRemaining(s -> sessions.remove(s.id));
    }
}
