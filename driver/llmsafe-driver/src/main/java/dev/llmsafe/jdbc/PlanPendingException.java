package dev.llmsafe.jdbc;

import dev.llmsafe.plan.Plan;
import java.sql.SQLException;
import java.util.UUID;

/**
 * An UPDATE or DELETE did not run: it was measured in a dry run, rolled back, and stored as a plan that
 * a person approves and a separate applier commits (J7). {@link #getMessage()} is the plan's card, so an
 * agent framework that turns a tool's exception into the tool's result shows the model the card and the
 * plan id, and nothing else.
 *
 * <p>Its SQLState is {@value #SQLSTATE}: class 25 (invalid transaction state: the change cannot happen
 * in this transaction, it waits for approval) with an implementation-defined subclass ({@code L01},
 * L for llmsafe). No connection pool treats it as a dead connection: HikariCP, DBCP2 and Tomcat JDBC
 * evict on class 08, 0A000, 57P01-57P03, 01002 and JZ0C0/JZ0C1, and on {@code SQLTimeoutException},
 * which this is not. Its vendor error code is 0.
 *
 * <pre>{@code
 * try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = ? WHERE id = ?")) {
 *     ps.setString(1, "shipped");
 *     ps.setLong(2, 42);
 *     ps.executeUpdate();
 * } catch (PlanPendingException pending) {
 *     return pending.getMessage();   // the card: what would change, row by row
 * }
 * }</pre>
 */
public final class PlanPendingException extends SQLException {

    /** The SQLState of every pending plan. */
    public static final String SQLSTATE = "25L01";

    private static final long serialVersionUID = 1L;

    /** The plan itself is not serializable; its JSON form is, and reads back equal. */
    private final transient Plan plan;
    private final String planJson;
    private final UUID planId;

    PlanPendingException(Plan stored) {
        super(stored.card(), SQLSTATE, 0);
        // D12: the values of withheld keys stay in the plan store; the proposer's copy has only their hashes.
        this.plan = stored.withoutWithheld();
        this.planJson = plan.toJson();
        this.planId = plan.id();
    }

    /** The plan: every statement, row and value that the dry run measured. */
    public Plan plan() {
        return plan != null ? plan : Plan.fromJson(planJson);
    }

    /** The plan's id, which approve and apply name. */
    public UUID planId() {
        return planId;
    }

    /** The plan as JSON (format {@code llmsafe-plan/2}), for user interfaces. */
    public String planJson() {
        return planJson;
    }
}
