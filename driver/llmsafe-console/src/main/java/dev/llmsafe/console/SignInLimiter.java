package dev.llmsafe.console;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sign-in failures, counted per name and per address: after {@link #FAILURES} for a name, or
 * {@link #ADDRESS_FAILURES} from an address, within {@link #WINDOW}, that name or address is refused
 * until its oldest failure leaves the window. A guesser spread over many addresses still has five
 * tries per name; one address gets more, because many people may come through one proxy or NAT and a
 * few mistyped passwords there must not lock everyone out. Thread-safe.
 */
final class SignInLimiter {

    static final int FAILURES = 5;
    static final int ADDRESS_FAILURES = 30;
    static final Duration WINDOW = Duration.ofMinutes(15);

    /** Bounds the memory of a spray over many names: counted keys beyond it are forgotten, oldest first. */
    private static final int MAX_KEYS = 10_000;

    private final Map<String, Deque<Long>> failures = new ConcurrentHashMap<>();
    private final Clock clock;

    SignInLimiter(Clock clock) {
        this.clock = clock;
    }

    /** How long the address or the name must wait, or zero when it may try now. */
    Duration wait(String address, String name) {
        long now = clock.millis();
        return max(waitOf("a:" + address, ADDRESS_FAILURES, now),
                waitOf("n:" + name.strip().toLowerCase(java.util.Locale.ROOT), FAILURES, now));
    }

    void failed(String address, String name) {
        long now = clock.millis();
        if (failures.size() >= MAX_KEYS) {
            failures.entrySet().removeIf(e -> prune(e.getValue(), now));
        }
        for (String key : new String[] {"a:" + address, "n:" + name.strip().toLowerCase(java.util.Locale.ROOT)}) {
            int bound = key.startsWith("a:") ? ADDRESS_FAILURES : FAILURES;
            Deque<Long> d = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
            synchronized (d) {
                d.addLast(now);
                while (d.size() > bound) {
                    d.removeFirst();
                }
            }
        }
    }

    void succeeded(String name) {
        failures.remove("n:" + name.strip().toLowerCase(java.util.Locale.ROOT));
    }

    private Duration waitOf(String key, int bound, long now) {
        Deque<Long> d = failures.get(key);
        if (d == null) {
            return Duration.ZERO;
        }
        synchronized (d) {
            prune(d, now);
            if (d.size() < bound) {
                return Duration.ZERO;
            }
            return Duration.ofMillis(d.peekFirst() + WINDOW.toMillis() - now);
        }
    }

    /** Drops failures older than the window; true when none is left. */
    private static boolean prune(Deque<Long> d, long now) {
        synchronized (d) {
            while (!d.isEmpty() && now - d.peekFirst() >= WINDOW.toMillis()) {
                d.removeFirst();
            }
            return d.isEmpty();
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
