package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verdicts by (settings, text), so the second time an agent sends the same statement costs a hash
 * lookup instead of a lex and a parse. Bounded: when full it is emptied, which keeps it simple and
 * never lets it grow with what an attacker sends.
 */
final class VerdictCache {

    record Key(LexSettings settings, String text) {
    }

    /** A cached refusal: the code and the message, from which a fresh exception is made. */
    record Refused(Refusal code, String detail) {
    }

    private final int maxSize;
    private final ConcurrentHashMap<Key, Object> map = new ConcurrentHashMap<>();

    VerdictCache(int maxSize) {
        this.maxSize = maxSize;
    }

    Object get(Key key) {
        return maxSize == 0 ? null : map.get(key);
    }

    void put(Key key, Object verdict) {
        if (maxSize == 0) {
            return;
        }
        if (map.size() >= maxSize) {
            map.clear();
        }
        map.put(key, verdict);
    }
}
