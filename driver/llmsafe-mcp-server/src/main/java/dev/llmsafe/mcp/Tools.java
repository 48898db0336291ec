package dev.llmsafe.mcp;

import static dev.llmsafe.mcp.JsonRpc.invalidParams;
import static dev.llmsafe.mcp.JsonRpc.quote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.RefusedException;
import dev.llmsafe.tools.ModelTools;
import dev.llmsafe.tools.PlanStatus;
import dev.llmsafe.tools.ProposedPlan;
import dev.llmsafe.tools.SchemaContext;
import dev.llmsafe.tools.SqlTools;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four tools: what {@code tools/list} shows of them and what {@code tools/call} does. There is no
 * fifth, and none of them approves or applies (DESIGN.md): the list below is the whole surface.
 *
 * <p>Each tool's input schema and its argument check are built from the same {@link ToolSpec}, so what
 * the model is told and what the server accepts cannot drift apart.
 */
final class Tools {

    private static final Logger LOG = LoggerFactory.getLogger(Tools.class);

    static final String SQL_READ = ModelTools.READ;
    static final String SQL_PLAN = ModelTools.PLAN;
    static final String SQL_PLAN_STATUS = ModelTools.PLAN_STATUS;
    static final String SQL_SCHEMA = ModelTools.SCHEMA;

    /** The key under {@code _meta} of a refused call's result that holds the refusal code, for programs. */
    static final String REFUSAL_META = "dev.llmsafe/refusal";

    // The names and descriptions are ModelTools', so that the model reads the same over MCP as through the
    // LangChain4j and Spring AI adapters; only the schema tool's format parameter is this server's own.
    private static final List<ToolSpec> SPECS = List.of(
            new ToolSpec(SQL_READ, "Read rows (guarded)", ModelTools.READ_DESCRIPTION,
                    List.of(ToolSpec.Param.text("sql", ModelTools.READ_SQL, true)),
                    ToolSpec.Hints.READ_ONLY, OutputSchemas.read()),
            new ToolSpec(SQL_PLAN, "Propose a write as a plan", ModelTools.PLAN_DESCRIPTION,
                    List.of(ToolSpec.Param.text("sql", ModelTools.PLAN_SQL, true)),
                    // Not read-only: it runs a write (rolled back) and stores a plan. Not destructive, not
                    // idempotent (each call stores a new plan), and it reaches only this database.
                    ToolSpec.Hints.PROPOSES, OutputSchemas.plan()),
            new ToolSpec(SQL_PLAN_STATUS, "Status of a plan", ModelTools.PLAN_STATUS_DESCRIPTION,
                    List.of(ToolSpec.Param.text("planId", ModelTools.PLAN_ID, true).lengths(1, 128)),
                    ToolSpec.Hints.READ_ONLY, OutputSchemas.status()),
            new ToolSpec(SQL_SCHEMA, "Database schema", ModelTools.SCHEMA_DESCRIPTION
                    + " format \"text\" (the default) is for reading; \"json\" gives the same as JSON.",
                    List.of(ToolSpec.Param.choice("format", "\"text\" (default) or \"json\".", List.of("text", "json"))),
                    ToolSpec.Hints.READ_ONLY, OutputSchemas.schema()));

    private final SqlTools sql;
    private final ResultBound bound;

    Tools(SqlTools sql, int maxResultBytes) {
        this.sql = sql;
        this.bound = new ResultBound(maxResultBytes);
    }

    /** The result of {@code tools/list}: every tool on one page. */
    ObjectNode list(ProtocolVersion version, ObjectNode params) throws JsonRpc.Failure {
        JsonNode cursor = params.get("cursor");
        if (cursor != null && !cursor.isNull()) {
            // MCP: an invalid cursor is -32602. This server never hands one out.
            throw invalidParams("Invalid cursor: this server lists every tool on one page and issues no cursors");
        }
        ObjectNode result = JsonRpc.object();
        ArrayNode tools = result.putArray("tools");
        for (ToolSpec spec : SPECS) {
            tools.add(spec.describe(version));
        }
        return result;
    }

    /** The result of {@code tools/call}. */
    ObjectNode call(ProtocolVersion version, ObjectNode params, String proposer) throws JsonRpc.Failure {
        JsonNode nameNode = params.get("name");
        if (nameNode == null || !nameNode.isTextual()) {
            throw invalidParams("tools/call needs the tool's name as a string");
        }
        String name = nameNode.textValue();
        ToolSpec spec = SPECS.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> invalidParams("Unknown tool: " + quote(name)));
        JsonNode args = params.get("arguments");
        if (args == null || args.isNull()) {
            args = JsonRpc.object();
        } else if (!args.isObject()) {
            throw invalidParams("arguments must be a JSON object");
        }
        Optional<String> problem = spec.check(args);
        if (problem.isPresent()) {
            String message = "Invalid arguments for " + name + ": " + problem.get();
            if (version.reportsInputErrorsAsToolResults()) {
                // MCP 2025-11-25 (SEP-1303): the model should see the mistake and correct it.
                return ToolResult.error(message);
            }
            throw invalidParams(message);
        }
        try {
            return run(version, name, args, proposer);
        } catch (RefusedException e) {
            LOG.debug("{} refused: {}", name, e.code());
            ObjectNode result = ToolResult.error(e.getMessage());
            result.putObject("_meta").put(REFUSAL_META, e.code().name());
            return result;
        } catch (SQLException e) {
            if (e instanceof java.sql.SQLTransientConnectionException || (e.getSQLState() != null
                    && e.getSQLState().startsWith("08"))) {
                // The database is down or unreachable: said in every result until it is back; the session goes on.
                Throwable reason = e.getCause() instanceof SQLException c ? c : e;
                LOG.warn("{}: the database cannot be reached: {}", name, reason.getMessage());
                return ToolResult.error("The database cannot be reached now, so nothing ran: " + reason.getMessage()
                        + " This server keeps running and tries again on the next call; tell the user the database"
                        + " is unavailable.");
            }
            LOG.warn("{} failed in the database (SQLState {}): {}", name, e.getSQLState(), e.getMessage());
            String state = e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")";
            return ToolResult.error("The database reported an error" + state + ": " + e.getMessage());
        }
    }

    private ObjectNode run(ProtocolVersion version, String name, JsonNode args, String proposer) throws SQLException {
        switch (name) {
            case SQL_READ:
                return bound.read(version, sql.read(args.get("sql").textValue()));
            case SQL_PLAN:
                ProposedPlan plan = sql.plan(args.get("sql").textValue(), proposer);
                return bound.whole(ToolResult.plan(version, plan.planId(), plan.card(),
                        parseObject(plan.planJson(), "plan JSON")), "Plan " + plan.planId() + " is proposed and saved"
                        + " (nothing in the database has changed), but its card", "Tell the user the plan id: a person"
                        + " reads the card with `llmsafe show " + plan.planId() + "`, and sql_plan_status follows it."
                        + " Do not propose it again; a narrower WHERE clause makes a smaller card.");
            case SQL_PLAN_STATUS:
                String id = args.get("planId").textValue();
                Optional<PlanStatus> status = sql.planStatus(id);
                if (status.isEmpty()) {
                    return ToolResult.error("No plan has the id " + quote(id)
                            + ". Use the id exactly as sql_plan returned it.");
                }
                return bound.whole(ToolResult.status(version, status.get()), "The status of plan " + id,
                        "Read it with `llmsafe show " + id + "`.");
            case SQL_SCHEMA:
                SchemaContext schema = sql.schema();
                JsonNode format = args.get("format");
                String advice = "Allow fewer tables in policy.allow, or read the schema with `llmsafe schema`.";
                if (format != null && format.textValue().equals("json")) {
                    return bound.whole(ToolResult.schemaJson(version, schema.json(), parseObject(schema.json(),
                            "schema JSON")), "The schema context", advice);
                }
                return bound.whole(ToolResult.schemaText(version, schema.text()), "The schema context", advice);
            default:
                throw new IllegalStateException("a tool without a body: " + name);
        }
    }

    /** The engine's JSON, as a tree to embed; not an object is a defect of the engine, not of the request. */
    private static ObjectNode parseObject(String json, String what) {
        try {
            JsonNode node = JsonRpc.MAPPER.readTree(json);
            if (node instanceof ObjectNode object) {
                return object;
            }
            throw new IllegalStateException("the " + what + " from SqlTools is not a JSON object");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the " + what + " from SqlTools is not valid JSON", e);
        }
    }
}
