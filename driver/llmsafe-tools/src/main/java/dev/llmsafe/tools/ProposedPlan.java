package dev.llmsafe.tools;

import java.util.Objects;

/**
 * A plan that was measured and saved, as the {@code sql_plan} tool returns it.
 *
 * @param planId the id that approve, apply and {@code sql_plan_status} take
 * @param card the confirmation card as text (C1-C3): what ran, every changed value before and after,
 *     and who must approve and apply it
 * @param planJson the plan's JSON form (C4, {@code dev.llmsafe.plan.PlanJson}): a JSON object
 */
public record ProposedPlan(String planId, String card, String planJson) {

    /** All three are required. */
    public ProposedPlan {
        Objects.requireNonNull(planId, "planId");
        Objects.requireNonNull(card, "card");
        Objects.requireNonNull(planJson, "planJson");
    }
}
