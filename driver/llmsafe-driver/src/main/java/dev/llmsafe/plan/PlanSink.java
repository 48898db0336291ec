package dev.llmsafe.plan;

import java.sql.SQLException;

/**
 * Where a finished plan goes: the plan store, in the engine; a list, in a test. Saving is the last step
 * of proposing: a plan that could not be saved was never proposed, and the caller is told so.
 */
@FunctionalInterface
public interface PlanSink {

    /** Keeps the plan so that approve and apply can find it by its id. */
    void save(Plan plan) throws SQLException;
}
