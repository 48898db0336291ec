package dev.llmsafe.jdbc;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's engines, one per configuration and distinct database URL and credential, shared by every
 * connection opened to them and closed (pools and all) when the last one closes. This registry is the
 * driver's registration state: a driver that DriverManager, a pool and ServiceLoader may each
 * instantiate must share it.
 */
final class Engines {

    private static final Logger LOG = LoggerFactory.getLogger(Engines.class);
    private static final Engines SHARED = new Engines(PlanSinkFactory.DEFAULT);

    /** Makes an engine, given the first connection to its database. */
    @FunctionalInterface
    interface Factory {
        Engine create(PlanSinkFactory sinks) throws SQLException;
    }

    private final Map<Object, Engine> engines = new HashMap<>();
    private final Map<Engine, Object> keys = new HashMap<>();
    private final Map<Engine, Integer> users = new HashMap<>();
    private volatile PlanSinkFactory sinks;

    Engines(PlanSinkFactory sinks) {
        this.sinks = sinks;
    }

    /** The registry of the registered driver and of every driver instance a pool makes. */
    static Engines shared() {
        return SHARED;
    }

    /**
     * Replaces where new engines keep their plans; engines already open keep theirs. The seam for tests
     * (an in-memory sink) until the plan store is the default.
     *
     * @return the previous factory, to restore
     */
    PlanSinkFactory useSinks(PlanSinkFactory factory) {
        PlanSinkFactory previous = sinks;
        sinks = factory;
        return previous;
    }

    /** The engine for a key, made on first use; each call must be matched by one {@link #release}. */
    synchronized Engine acquire(Object key, Factory factory) throws SQLException {
        Engine e = engines.get(key);
        if (e == null) {
            e = factory.create(sinks);
            engines.put(key, e);
            keys.put(e, key);
        }
        users.merge(e, 1, Integer::sum);
        return e;
    }

    /** The engine for a key, if one is open. */
    synchronized Optional<Engine> existing(Object key) {
        return Optional.ofNullable(engines.get(key));
    }

    /** One connection of the engine closed; the last one closes the engine. */
    synchronized void release(Engine e) {
        Integer n = users.get(e);
        if (n == null) {
            return;
        }
        if (n > 1) {
            users.put(e, n - 1);
            return;
        }
        users.remove(e);
        engines.remove(keys.remove(e));
        try {
            e.close();
        } catch (RuntimeException x) {
            LOG.warn("closing an engine failed", x);
        }
    }

    /** How many engines are open: their pools are open exactly as long (asserted by tests). */
    synchronized int open() {
        return engines.size();
    }
}
