package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.LlmSafeConfig;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The seam where plans leave the driver: one {@link PlanSink} per engine, opened the first time the
 * engine has a plan to keep: the plan store ({@code storeConnection}, by default the dry-run database).
 * Tests can use an in-memory sink through {@link Engines#useSinks}. A sink that is
 * {@link AutoCloseable} is closed with its engine.
 */
@FunctionalInterface
interface PlanSinkFactory {

    /**
     * The sink of one engine.
     *
     * @param config the configuration, when the engine has one (an {@link LlmSafeDataSource} may be
     *     built from a policy alone)
     * @param planPool the engine's dry-run pool: the database and credential the application opened
     * @param dialect the database's dialect
     */
    PlanSink open(Optional<LlmSafeConfig> config, DataSource planPool, Dialect dialect) throws SQLException;

    /** The plan store, where the command line's approve and apply find the plans. */
    PlanSinkFactory STORE = (config, planPool, dialect) -> StoreSink.open(config, planPool);

    /** What the driver and the data source use. */
    PlanSinkFactory DEFAULT = STORE;
}
