package dev.llmsafe.spring;

import dev.llmsafe.RefusedException;
import dev.llmsafe.tools.ModelText;
import dev.llmsafe.tools.SqlTools;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private static final Logger LOG = LoggerFactory.getLogger(LlmSafeSpringAiTools.class);

    private final SqlTools tools;
    private final String proposer;

    /**
     * The tools over any implementation of the four tools (the starter's {@code DatabaseTools}), which
     * stays the caller's to close.
     *
     * @param tools what does the database work
     * @param proposer who proposes the plans
     */
    public LlmSafeSpringAiTools(SqlTools tools, String proposer) {
        this.tools = Objects.requireNonNull(tools, "tools");
        if (proposer == null || proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
        this.proposer = proposer;
    }

    /**
     * Runs one guarded read.
     *
     * @param sql one SELECT
     * @return the rows as JSON, or the refusal
     */
    @Tool(name = "sql_read", resultConverter = LlmSafeSpringAiTools.PlainText.class, description = "Run one read-only SQL query (SELECT, or WITH ... SELECT) on the tables this"
            + " application allows. It runs in a read-only transaction, with a row cap, a time limit and a cost"
            + " limit; secret columns and system catalogs are refused. Returns the columns and the rows as JSON."
            + " \"truncated\": true means more rows matched than were returned: narrow the query. A refused query"
            + " returns the refusal code, the reason and what to do instead. Call sql_schema first to learn the"
            + " tables.")
    public String read(@ToolParam(description = "One SELECT statement.") String sql) {
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
    @Tool(name = "sql_plan", resultConverter = LlmSafeSpringAiTools.PlainText.class, description = "Propose one UPDATE or DELETE. The statement is executed for real inside a"
            + " transaction that is then rolled back, and every affected row is read before and after, so the"
            + " result is a confirmation card that shows exactly what would change, and a plan id. Nothing in"
            + " the database changes: a person must approve the plan and a separate applier must apply it; no"
            + " tool here can approve or apply. Show the card to the user. INSERT, DDL and everything else are"
            + " refused with a code and a reason.")
    public String plan(@ToolParam(description = "One UPDATE or DELETE statement.") String sql) {
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
    @Tool(name = "sql_plan_status", resultConverter = LlmSafeSpringAiTools.PlainText.class, description = "Where a plan stands: proposed, approved, applied, failed, rejected or"
            + " expired, with the reason and what happened to it so far. Takes the plan id that sql_plan returned.")
    public String planStatus(@ToolParam(description = "The plan id that sql_plan returned.") String planId) {
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
    @Tool(name = "sql_schema", resultConverter = LlmSafeSpringAiTools.PlainText.class, description = "The tables this application allows: columns, types, nullability, comments,"
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
