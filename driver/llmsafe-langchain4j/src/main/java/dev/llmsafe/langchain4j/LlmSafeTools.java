package dev.llmsafe.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.tools.DatabaseTools;
import dev.llmsafe.tools.ModelText;
import dev.llmsafe.tools.SqlTools;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model's four database tools as LangChain4j {@code @Tool} methods: {@code sql_read},
 * {@code sql_plan}, {@code sql_plan_status} and {@code sql_schema}, the MCP server's, each guarded by the
 * engine. One line gives an AI service guarded access to the application's database:
 *
 * <pre>{@code
 * Agent agent = AiServices.builder(Agent.class).chatModel(model)
 *         .tools(new LlmSafeTools(dataSource, config)).build();
 * }</pre>
 *
 * <p>Every result is text the model reads: a read's rows as JSON; for an UPDATE or a DELETE, the
 * confirmation card with the plan id (nothing in the database changes; a person approves the plan and a
 * separate applier commits it, and no tool here can do either); for a refused statement, the refusal's
 * code, why and what to do instead. A plan and a refusal are ordinary results, not tool failures: nothing
 * is thrown to LangChain4j, and they are logged at DEBUG without a stack trace. Only a defect (an
 * unchecked exception) leaves a tool method.
 *
 * <p>Thread-safe. Each call borrows one connection from the given data source and returns it: give it the
 * application's pool. {@link #close()} closes what llmsafe opened, not the application's data source.
 */
public final class LlmSafeTools implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LlmSafeTools.class);

    /** The proposer plans name when none is given. */
    public static final String DEFAULT_PROPOSER = "assistant";

    private final SqlTools tools;
    private final String proposer;
    private final AutoCloseable owned;

    /**
     * The tools over an application's pool, guarded with its configuration; plans name
     * {@value #DEFAULT_PROPOSER} as their proposer.
     *
     * @param dataSource the application's pool on the database the model works on (unguarded: llmsafe
     *     guards it; no connection of it reaches the model)
     * @param config the llmsafe configuration (policy, plan store, seal key)
     */
    public LlmSafeTools(DataSource dataSource, LlmSafeConfig config) {
        this(dataSource, config, DEFAULT_PROPOSER);
    }

    /**
     * The tools over an application's pool, with a proposer name.
     *
     * @param dataSource the application's pool on the database the model works on
     * @param config the llmsafe configuration
     * @param proposer who proposes the plans, as their cards name them (recorded as given, not an
     *     authorisation: T3)
     */
    public LlmSafeTools(DataSource dataSource, LlmSafeConfig config, String proposer) {
        this(DatabaseTools.over(dataSource, config), proposer, true);
    }

    /**
     * The tools over any implementation of the four tools (a {@link DatabaseTools} over a deployment, say),
     * which stays the caller's to close.
     *
     * @param tools what does the database work
     * @param proposer who proposes the plans
     */
    public LlmSafeTools(SqlTools tools, String proposer) {
        this(tools, proposer, false);
    }

    private LlmSafeTools(SqlTools tools, String proposer, boolean own) {
        this.tools = Objects.requireNonNull(tools, "tools");
        if (proposer == null || proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
        this.proposer = proposer;
        this.owned = own && tools instanceof AutoCloseable c ? c : null;
    }

    /**
     * Runs one guarded read.
     *
     * @param sql one SELECT
     * @return the rows as JSON, or the refusal
     */
    @Tool(name = "sql_read", value = "Run one read-only SQL query (SELECT, or WITH ... SELECT) on the tables this"
            + " application allows. It runs in a read-only transaction, with a row cap, a time limit and a cost"
            + " limit; secret columns and system catalogs are refused. Returns the columns and the rows as JSON."
            + " \"truncated\": true means more rows matched than were returned: narrow the query. A refused query"
            + " returns the refusal code, the reason and what to do instead. Call sql_schema first to learn the"
            + " tables.")
    public String read(@P("One SELECT statement.") String sql) {
        try {
            return ModelText.read(tools.read(sql));
        } catch (SQLException e) {
            return failed("sql_read", e);
        }
    }

    /**
     * Proposes one UPDATE or DELETE as a plan; nothing changes.
     *
     * @param sql one UPDATE or DELETE
     * @return the confirmation card with the plan id, or the refusal
     */
    @Tool(name = "sql_plan", value = "Propose one UPDATE or DELETE. The statement is executed for real inside a"
            + " transaction that is then rolled back, and every affected row is read before and after, so the"
            + " result is a confirmation card that shows exactly what would change, and a plan id. Nothing in"
            + " the database changes: a person must approve the plan and a separate applier must apply it; no"
            + " tool here can approve or apply. Show the card to the user. INSERT, DDL and everything else are"
            + " refused with a code and a reason.")
    public String plan(@P("One UPDATE or DELETE statement.") String sql) {
        try {
            String card = ModelText.plan(tools.plan(sql, proposer));
            LOG.debug("sql_plan proposed a plan for {}", proposer);
            return card;
        } catch (SQLException e) {
            return failed("sql_plan", e);
        }
    }

    /**
     * Where a plan stands.
     *
     * @param planId the id sql_plan returned
     * @return the status, reason and history, or that no plan has that id
     */
    @Tool(name = "sql_plan_status", value = "Where a plan stands: proposed, approved, applied, failed, rejected or"
            + " expired, with the reason and what happened to it so far. Takes the plan id that sql_plan returned.")
    public String planStatus(@P("The plan id that sql_plan returned.") String planId) {
        try {
            return ModelText.status(planId, tools.planStatus(planId));
        } catch (SQLException e) {
            return failed("sql_plan_status", e);
        }
    }

    /**
     * The schema context for prompts.
     *
     * @return the allowlisted tables as text
     */
    @Tool(name = "sql_schema", value = "The tables this application allows: columns, types, nullability, comments,"
            + " keys, relationships, and what changing each table means for the business. Secret columns are"
            + " left out.")
    public String schema() {
        try {
            return tools.schema().text();
        } catch (SQLException e) {
            return failed("sql_schema", e);
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

    /** Closes what these tools opened (the guard's resources, a store pool), never the application's pool. */
    @Override
    public void close() throws Exception {
        if (owned != null) {
            owned.close();
        }
    }
}
