package dev.llmsafe.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.tools.DatabaseTools;
import dev.llmsafe.tools.ModelTools;
import dev.llmsafe.tools.SqlTools;
import javax.sql.DataSource;

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

    /** The proposer plans name when none is given. */
    public static final String DEFAULT_PROPOSER = "assistant";

    private final ModelTools tools;
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
        this.tools = new ModelTools(tools, proposer);
        this.owned = own && tools instanceof AutoCloseable c ? c : null;
    }

    /**
     * Runs one guarded read.
     *
     * @param sql one SELECT
     * @return the rows as JSON, or the refusal
     */
    @Tool(name = ModelTools.READ, value = ModelTools.READ_DESCRIPTION)
    public String read(@P(ModelTools.READ_SQL) String sql) {
        return tools.read(sql);
    }

    /**
     * Proposes one UPDATE or DELETE as a plan; nothing changes.
     *
     * @param sql one UPDATE or DELETE
     * @return the confirmation card with the plan id, or the refusal
     */
    @Tool(name = ModelTools.PLAN, value = ModelTools.PLAN_DESCRIPTION)
    public String plan(@P(ModelTools.PLAN_SQL) String sql) {
        return tools.plan(sql);
    }

    /**
     * Where a plan stands.
     *
     * @param planId the id sql_plan returned
     * @return the status, reason and history, or that no plan has that id
     */
    @Tool(name = ModelTools.PLAN_STATUS, value = ModelTools.PLAN_STATUS_DESCRIPTION)
    public String planStatus(@P(ModelTools.PLAN_ID) String planId) {
        return tools.planStatus(planId);
    }

    /**
     * The schema context for prompts.
     *
     * @return the allowlisted tables as text
     */
    @Tool(name = ModelTools.SCHEMA, value = ModelTools.SCHEMA_DESCRIPTION)
    public String schema() {
        return tools.schema();
    }

    /** Closes what these tools opened (the guard's resources, a store pool), never the application's pool. */
    @Override
    public void close() throws Exception {
        if (owned != null) {
            owned.close();
        }
    }
}
