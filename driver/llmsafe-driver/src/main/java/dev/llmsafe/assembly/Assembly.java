package dev.llmsafe.assembly;

import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.store.PlanStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What a configuration makes of the engine's parts, in one place: the seal key (also the key secret
 * values are hashed with on a card, D12), the bounds of dry runs and applies (D6), the planner and the
 * plan store. The driver's engines and {@link Deployment} both build theirs here. A data source or a
 * policy built in code may come without a configuration; then the defaults apply.
 */
public final class Assembly {

    /** How long a plan waits for approval when the configuration does not say. */
    static final int DEFAULT_EXPIRY_HOURS = 24;

    private Assembly() {
    }

    /** The seal key's bytes, or null when none is set: plans are then unsealed and card hashes unkeyed. */
    public static byte[] sealKey(Optional<LlmSafeConfig> config) {
        return config.flatMap(LlmSafeConfig::sealKey).map(k -> k.reveal().getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    /** The bounds the configuration sets (lockTimeoutMs, statementTimeoutMs), else the defaults. */
    public static Bounds bounds(Optional<LlmSafeConfig> config) {
        return config.map(c -> new Bounds(c.lockTimeoutMs(), c.statementTimeoutMs())).orElse(Bounds.DEFAULT);
    }

    /**
     * A planner.
     *
     * @param dryRuns the connections the dry runs run on
     * @param dialect the database's dialect
     * @param policy what may be written
     * @param config the configuration, if any (seal key and bounds)
     * @param clock the clock plans are dated by
     */
    public static Planner planner(DataSource dryRuns, Dialect dialect, Policy policy, Optional<LlmSafeConfig> config,
            Clock clock) {
        return new Planner(dryRuns, dialect, policy, bounds(config), sealKey(config), clock);
    }

    /**
     * The plan store.
     *
     * @param source the store's database
     * @param config the configuration, if any (seal key and plan expiry)
     * @param clock the clock plans are dated and expired by
     */
    public static PlanStore store(DataSource source, Optional<LlmSafeConfig> config, Clock clock) {
        Duration expiry = Duration.ofHours(config.map(LlmSafeConfig::planExpiryHours).orElse(DEFAULT_EXPIRY_HOURS));
        return new PlanStore(source, sealKey(config), expiry, clock);
    }
}
