package dev.llmsafe.tools;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a plan stands, as the {@code sql_plan_status} tool returns it.
 *
 * @param planId the plan's id
 * @param state its state now
 * @param reason why it is in that state, when there is something to say (why an apply failed, why it
 *     was rejected, when it expired); {@code null} otherwise
 * @param history what happened to it, oldest first, one line each (for example
 *     {@code "2026-11-30T10:02:11Z approved by alice@example.com"})
 */
public record PlanStatus(String planId, State state, String reason, List<String> history) {

    /** Copies the history; the id and the state are required. */
    public PlanStatus {
        Objects.requireNonNull(planId, "planId");
        Objects.requireNonNull(state, "state");
        history = List.copyOf(history);
    }

    /** The states of a plan. Only a person or the applier moves a plan out of {@link #PROPOSED}. */
    public enum State {
        /** Measured and saved; waiting for a person. */
        PROPOSED,
        /** A person approved it; waiting for the applier. */
        APPROVED,
        /** Committed exactly as the card showed. */
        APPLIED,
        /** The apply was attempted and refused or failed; terminal (A11). */
        FAILED,
        /** A person rejected it; terminal. */
        REJECTED,
        /** Too old to approve or apply (A11); terminal. */
        EXPIRED;

        /** The name the tool shows: lower case, as in {@code "proposed"}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
