package dev.llmsafe.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Assembly;
import dev.llmsafe.assembly.Pools;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.store.PlanStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
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
    private final DataSource storeSource;
    private final HikariDataSource ownPool;
    private final Optional<String> configSource;

    private StoreSink(PlanStore store, DataSource storeSource, HikariDataSource ownPool, Optional<String> configSource) {
        this.store = store;
        this.storeSource = storeSource;
        this.ownPool = ownPool;
        this.configSource = configSource;
    }

    static StoreSink open(Optional<LlmSafeConfig> config, DataSource planPool) throws SQLException {
        Optional<ConnectionSettings> own = config.flatMap(LlmSafeConfig::storeConnection);
        HikariDataSource pool = own.isEmpty() ? null
                : Pools.open("store", own.get(), Pools.engineSize(own.get().url()),
                        Pools.Start.ON_FIRST_USE);
        DataSource source = pool != null ? pool : planPool;
        return new StoreSink(Assembly.store(source, config, Clock.systemUTC()), source, pool,
                config.map(LlmSafeConfig::source).filter(StoreSink::isFile));
    }

    @Override
    public void save(Plan plan) throws SQLException {
        try {
            store.save(plan);
        } catch (RefusedException e) {
            // The plan id is not named: a plan that was not kept exists nowhere.
            throw new RefusedException(e.code(), "the change was measured but not proposed, so there is nothing to"
                    + " approve; nothing in the database has changed. " + Character.toUpperCase(e.detail().charAt(0))
                    + e.detail().substring(1) + " The store is in " + where() + configSource.map(
                            c -> "; the configuration is " + c + " (llmsafe migrate --config " + c + ")").orElse("")
                    + ".", e);
        }
    }

    /** Whether a configuration's source is a file (one built in code has none to pass to migrate). */
    private static boolean isFile(String source) {
        try {
            return java.nio.file.Files.isRegularFile(java.nio.file.Path.of(source));
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** The store's database, for the message: the URL without its parameters, asked only when it is needed. */
    private String where() {
        try (Connection c = storeSource.getConnection()) {
            return DriverUrl.redacted(c.getMetaData().getURL());
        } catch (SQLException | RuntimeException e) {
            return "the database the plans go to (storeConnection, else the application's own)";
        }
    }

    @Override
    public void close() {
        if (ownPool != null) {
            ownPool.close();
        }
    }
}
