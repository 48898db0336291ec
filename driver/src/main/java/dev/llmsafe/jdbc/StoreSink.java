package dev.llmsafe.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.store.PlanStore;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The driver's plans go to the plan store: in the database behind {@code storeConnection} when the
 * configuration names one (a small pool of its own, closed with the engine), else in the database and
 * with the credential the application opened. The store must exist: a missing one is refused with
 * "run llmsafe migrate" (T1), after the dry run and before anything is kept.
 */
final class StoreSink implements PlanSink, AutoCloseable {

    private final PlanStore store;
    private final HikariDataSource ownPool;

    private StoreSink(PlanStore store, HikariDataSource ownPool) {
        this.store = store;
        this.ownPool = ownPool;
    }

    static StoreSink open(Optional<LlmSafeConfig> config, DataSource planPool) {
        HikariDataSource own = config.flatMap(LlmSafeConfig::storeConnection).map(StoreSink::pool).orElse(null);
        byte[] key = config.flatMap(LlmSafeConfig::sealKey).map(k -> k.reveal().getBytes(StandardCharsets.UTF_8))
                .orElse(null);
        Duration expiry = Duration.ofHours(config.map(LlmSafeConfig::planExpiryHours).orElse(24));
        return new StoreSink(new PlanStore(own != null ? own : planPool, key, expiry, Clock.systemUTC()), own);
    }

    private static HikariDataSource pool(ConnectionSettings s) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(s.url());
        s.user().ifPresent(hc::setUsername);
        s.password().ifPresent(p -> hc.setPassword(p.reveal()));
        hc.setMaximumPoolSize(2);
        hc.setMinimumIdle(0);
        hc.setInitializationFailTimeout(-1);
        hc.setPoolName("llmsafe-store");
        return new HikariDataSource(hc);
    }

    @Override
    public void save(Plan plan) throws SQLException {
        try {
            store.save(plan);
        } catch (RefusedException e) {
            throw new RefusedException(e.code(), "the change was measured (plan " + plan.id() + ") but it could not"
                    + " be kept, so nothing was proposed and nothing can be approved. Nothing in the database has"
                    + " changed. " + Character.toUpperCase(e.detail().charAt(0)) + e.detail().substring(1), e);
        }
    }

    @Override
    public void close() {
        if (ownPool != null) {
            ownPool.close();
        }
    }
}
