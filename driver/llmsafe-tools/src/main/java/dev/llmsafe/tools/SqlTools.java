package dev.llmsafe.tools;

import java.sql.SQLException;
import java.util.Optional;

/**
 * What the four MCP tools ask of the engine. {@link McpServer} speaks the protocol; an implementation
 * of this interface does the database work, with the engine's guards: the server adds none of its
 * own and removes none.
 *
 * <p>A refusal leaves these methods as a {@link dev.llmsafe.RefusedException}: the server turns it into
 * a tool result marked as an error that carries the code and the message, so the model reads why and
 * what to do instead. Any other {@link SQLException} is shown to the model the same way, with its
 * SQLState. An unchecked exception is a defect: the client gets a JSON-RPC internal error and the
 * server's log (standard error) gets the stack trace.
 *
 * <p>There is deliberately no method to approve, reject or apply a plan: the model must have no path
 * to either (DESIGN.md).
 *
 * <p>One server session calls these methods from one thread, one call at a time; several sessions
 * over one instance would call it concurrently.
 */
public interface SqlTools {

    /**
     * Runs one guarded read (R1-R5): allowlisted tables, secret columns refused, a read-only
     * transaction, rows capped with the truncation detected, the cost gate.
     *
     * @param sql the statement as the model wrote it
     * @return the columns and rows, and whether rows were cut off at the cap
     * @throws dev.llmsafe.RefusedException when a guard refuses the statement
     * @throws SQLException when the database fails
     */
    ReadResult read(String sql) throws SQLException;

    /**
     * Proposes one UPDATE or DELETE: the dry run, then the plan is saved where approve and apply will
     * find it. Nothing in the database changes.
     *
     * @param sql the statement as the model wrote it
     * @param proposer who proposes it, as the plan and the card will name it (recorded as given: T3)
     * @return the saved plan's id, its card and its JSON form
     * @throws dev.llmsafe.RefusedException when the statement or its dry run is refused
     * @throws SQLException when the database or the plan store fails
     */
    ProposedPlan plan(String sql, String proposer) throws SQLException;

    /**
     * Where a plan stands.
     *
     * @param planId the id as the model gave it; not necessarily well-formed
     * @return the status, or empty when no plan has that id
     * @throws SQLException when the plan store fails
     */
    Optional<PlanStatus> planStatus(String planId) throws SQLException;

    /**
     * The schema context for prompts (R6): the allowlisted tables, their columns, types, nullability,
     * comments, keys and relationships, secret columns omitted, impact sentences included.
     *
     * @return the same context as text and as JSON
     * @throws SQLException when the catalog cannot be read
     */
    SchemaContext schema() throws SQLException;
}
