package dev.llmsafe.spring;

import dev.llmsafe.tools.ModelTools;
import dev.llmsafe.tools.SqlTools;
import java.lang.reflect.Type;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.tool.execution.ToolCallResultConverter;

/**
 * The model's four database tools as Spring AI {@code @Tool} methods: {@code sql_read},
 * {@code sql_plan}, {@code sql_plan_status} and {@code sql_schema}, the MCP server's, each guarded by the
 * engine. The starter declares one as the bean {@code llmsafeTools} when Spring AI is on the class path;
 * an application gives them to its chat client in one line:
 *
 * <pre>{@code
 * ChatClient chat = builder.defaultTools(llmsafeTools).build();
 * }</pre>
 *
 * <p>Every result is text the model reads: a read's rows as JSON; for an UPDATE or a DELETE, the
 * confirmation card with the plan id (nothing in the database changes; a person approves the plan and a
 * separate applier commits it, and no tool here can do either); for a refused statement, the refusal's
 * code, why and what to do instead. A plan and a refusal are ordinary results, not tool failures: they are
 * logged at DEBUG without a stack trace. Only a defect (an unchecked exception) leaves a tool method.
 * Thread-safe.
 */
public final class LlmSafeSpringAiTools {

    private final ModelTools tools;

    /**
     * The tools over any implementation of the four tools (the starter's {@code DatabaseTools}), which
     * stays the caller's to close.
     *
     * @param tools what does the database work
     * @param proposer who proposes the plans
     */
    public LlmSafeSpringAiTools(SqlTools tools, String proposer) {
        this.tools = new ModelTools(tools, proposer);
    }

    /**
     * Runs one guarded read.
     *
     * @param sql one SELECT
     * @return the rows as JSON, or the refusal
     */
    @Tool(name = ModelTools.READ, description = ModelTools.READ_DESCRIPTION, resultConverter = PlainText.class)
    public String read(@ToolParam(description = ModelTools.READ_SQL) String sql) {
        return tools.read(sql);
    }

    /**
     * Proposes one UPDATE or DELETE as a plan; nothing changes.
     *
     * @param sql one UPDATE or DELETE
     * @return the confirmation card with the plan id, or the refusal
     */
    @Tool(name = ModelTools.PLAN, description = ModelTools.PLAN_DESCRIPTION, resultConverter = PlainText.class)
    public String plan(@ToolParam(description = ModelTools.PLAN_SQL) String sql) {
        return tools.plan(sql);
    }

    /**
     * Where a plan stands.
     *
     * @param planId the id sql_plan returned
     * @return the status, reason and history, or that no plan has that id
     */
    @Tool(name = ModelTools.PLAN_STATUS, description = ModelTools.PLAN_STATUS_DESCRIPTION,
            resultConverter = PlainText.class)
    public String planStatus(@ToolParam(description = ModelTools.PLAN_ID) String planId) {
        return tools.planStatus(planId);
    }

    /**
     * The schema context for prompts.
     *
     * @return the allowlisted tables as text
     */
    @Tool(name = ModelTools.SCHEMA, description = ModelTools.SCHEMA_DESCRIPTION, resultConverter = PlainText.class)
    public String schema() {
        return tools.schema();
    }

    /**
     * Gives the model a tool's text as it is. Spring AI's default converter writes a String result as a JSON
     * string, so the model would read the card quoted, its lines joined by {@code \\n} escapes.
     */
    public static final class PlainText implements ToolCallResultConverter {
        @Override
        public String convert(Object result, Type returnType) {
            return String.valueOf(result);
        }
    }
}
