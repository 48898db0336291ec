/**
 * The plan model: {@link dev.llmsafe.plan.Plan} is what the dry run measured and the apply commits, made of
 * {@link dev.llmsafe.plan.PlannedStatement}s with their {@link dev.llmsafe.plan.RowChange}s and
 * {@link dev.llmsafe.plan.ColumnChange}s, rendered for a person by {@link dev.llmsafe.plan.Card} and stored as
 * {@link dev.llmsafe.plan.PlanJson}. A parameter ({@link dev.llmsafe.plan.Parameter}) is kept as the
 * application bound it and sent again through the same setter by {@link dev.llmsafe.plan.ParameterReplay}
 * (D16), which a test can use to bind the same list to a raw statement.
 *
 * <p>This package uses {@code dialect} (table references, session settings) and {@code value}; it knows
 * nothing of how a plan is made (the dry run), stored or applied.
 */
package dev.llmsafe.plan;
