package dev.llmsafe.jdbc;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.LlmSafeConfig;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The seam where plans leave the driver: one {@link PlanSink} per engine, opened the first time the
 * engine has a plan to keep. The plan store ({@code storeConnection}, by default the dry-run database)
 * plugs in here by replacing {@link #DEFAULT}; until then every proposal ends in NO_PLAN_STORE, after
 * the dry run and before anything is stored. Tests use an in-memory sink through
 * {@link Engines#useSinks}. A sink that is {@link AutoCloseable} is closed with its engine.
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

    /** No store: the plan is measured, then refused as NO_PLAN_STORE, so nothing is proposed. */
    PlanSinkFactory NONE = (config, planPool, dialect) -> plan -> {
        throw new RefusedException(Refusal.NO_PLAN_STORE, "the change was measured (plan " + plan.id()
                + ") but no plan store is configured to keep it, so nothing was proposed and nothing can be"
                + " approved. Nothing in the database has changed. Configure the plan store (storeConnection).");
    };

    /** What the driver and the data source use. */
    PlanSinkFactory DEFAULT = NONE;
}
