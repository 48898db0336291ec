package dev.llmsafe.tools;

import dev.llmsafe.RefusedException;
import java.sql.SQLException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four tools as a framework's tool methods call them: each returns the text the model reads, and a plan
 * or a refusal is an ordinary result, logged at DEBUG without a stack trace, never thrown. The names and
 * descriptions are constants, so that a framework's annotations ({@code @Tool} of LangChain4j or Spring AI)
 * take them from here and every adapter tells the model the same. Thread-safe when {@code tools} is.
 */
public final class ModelTools {

    private static final Logger LOG = LoggerFactory.getLogger(ModelTools.class);

    /** The read tool's name. */
    public static final String READ = "sql_read";
    /** What the read tool does, for the model. */
    public static final String READ_DESCRIPTION = "Run one read-only SQL query (SELECT, or WITH ... SELECT) on the"
            + " tables this application allows. It runs in a read-only transaction, with a row cap, a time limit"
            + " and a cost limit; secret columns and system catalogs are refused. Returns the columns and the rows as"
            + " JSON. \"truncated\": true means more rows matched than were returned: narrow the query. A refused"
            + " query returns the refusal code, the reason and what to do instead. Call sql_schema first to learn"
            + " the tables.";
    /** The read tool's parameter. */
    public static final String READ_SQL = "One SELECT statement.";

    /** The plan tool's name. */
    public static final String PLAN = "sql_plan";
    /** What the plan tool does, for the model. */
    public static final String PLAN_DESCRIPTION = "Propose one UPDATE or DELETE. The statement is executed for real"
            + " inside a transaction that is then rolled back, and every affected row is read before and after, so"
            + " the result is a confirmation card that shows exactly what would change, and a plan id. Nothing in"
            + " the database changes: a person must approve the plan and a separate applier must apply it; no tool"
            + " here can approve or apply. Show the card to the user. INSERT, DDL and everything else are refused"
            + " with a code and a reason.";
    /** The plan tool's parameter. */
    public static final String PLAN_SQL = "One UPDATE or DELETE statement.";

    /** The plan status tool's name. */
    public static final String PLAN_STATUS = "sql_plan_status";
    /** What the plan status tool does, for the model. */
    public static final String PLAN_STATUS_DESCRIPTION = "Where a plan stands: proposed, approved, applied, failed,"
            + " rejected or expired, with the reason and what happened to it so far. Takes the plan id that sql_plan"
            + " returned.";
    /** The plan status tool's parameter. */
    public static final String PLAN_ID = "The plan id that sql_plan returned.";

    /** The schema tool's name. */
    public static final String SCHEMA = "sql_schema";
    /** What the schema tool does, for the model. */
    public static final String SCHEMA_DESCRIPTION = "The tables this application allows: columns, types,"
            + " nullability, comments, keys, relationships, and what changing each table means for the business."
            + " Secret columns are left out.";

    private final SqlTools tools;
    private final String proposer;

    /**
     * @param tools what does the database work
     * @param proposer who proposes the plans, as their cards name them (recorded as given, not an
     *     authorisation: T3)
     * @throws IllegalArgumentException when the proposer is blank
     */
    public ModelTools(SqlTools tools, String proposer) {
        this.tools = Objects.requireNonNull(tools, "tools");
        if (proposer == null || proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
        this.proposer = proposer;
    }

    /** One guarded read: the rows as JSON, or the refusal. */
    public String read(String sql) {
        try {
            return ModelText.read(tools.read(sql));
        } catch (SQLException e) {
            return failed(READ, e);
        }
    }

    /** One UPDATE or DELETE as a plan (nothing changes): the card with the plan id, or the refusal. */
    public String plan(String sql) {
        try {
            String card = ModelText.plan(tools.plan(sql, proposer));
            LOG.debug("sql_plan proposed a plan for {}", proposer);
            return card;
        } catch (SQLException e) {
            return failed(PLAN, e);
        }
    }

    /** Where a plan stands, or that no plan has that id. */
    public String planStatus(String planId) {
        try {
            return ModelText.status(planId, tools.planStatus(planId));
        } catch (SQLException e) {
            return failed(PLAN_STATUS, e);
        }
    }

    /** The allowlisted tables as prompt text. */
    public String schema() {
        try {
            return tools.schema().text();
        } catch (SQLException e) {
            return failed(SCHEMA, e);
        }
    }

    /** A refusal or a database error, as the model reads it; logged without a stack trace. */
    private static String failed(String tool, SQLException e) {
        if (e instanceof RefusedException r) {
            LOG.debug("{} refused: {}", tool, r.code());
        } else {
            LOG.debug("{} failed with SQLState {}", tool, e.getSQLState());
        }
        return ModelText.failure(e);
    }
}
