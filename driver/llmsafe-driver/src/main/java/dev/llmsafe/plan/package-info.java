/**
 * The dry run and the plan: {@link dev.llmsafe.plan.Planner} runs a proposed UPDATE or DELETE for real
 * and rolls it back, {@link dev.llmsafe.plan.Replayer} runs an approved plan again inside the apply's
 * transaction, and {@link dev.llmsafe.plan.Plan} is what both agree on, rendered by
 * {@link dev.llmsafe.plan.Card} and {@link dev.llmsafe.plan.PlanJson}. A parameter
 * ({@link dev.llmsafe.plan.Parameter}) is kept as the application bound it and sent again through the
 * same setter by {@link dev.llmsafe.plan.ParameterReplay} (D16), which a test can use to bind the same
 * list to a raw statement.
 *
 * <p>This package uses {@code dialect}, {@code sql}, {@code value} and the policy; it knows nothing of
 * the JDBC wrappers, the store or the command line.
 */
package dev.llmsafe.plan;
