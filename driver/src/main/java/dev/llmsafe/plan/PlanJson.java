package dev.llmsafe.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.value.Value;
import dev.llmsafe.value.ValueJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The JSON form of a plan, format {@code llmsafe-plan/1} (C4). Stable: fields are only ever added.
 *
 * <pre>
 * {
 *   "format": "llmsafe-plan/1",
 *   "id": "6f5a1c8e-...", "createdAt": "2026-11-30T03:00:00.123456Z", "proposer": "assistant",
 *   "database": "PostgreSQL 15.20",
 *   "statements": [ {
 *     "sql": "UPDATE orders SET status = ? WHERE id = ?",
 *     "parameters": [ {"type": "STRING", "value": "shipped"}, {"type": "LONG", "value": "42"} ],
 *     "kind": "UPDATE", "table": {"schema": "public", "name": "orders"},
 *     "impact": "...", "keyColumns": ["id"], "changedColumns": ["status"], "autoColumns": ["updated_at"],
 *     "affectedRows": 1, "irreversible": false,
 *     "rows": [ { "key": {"id": VALUE},
 *                 "columns": [ {"column": "status", "before": VALUE, "after": VALUE, "auto": false} ],
 *                 "unchanged": [ {"column": "note", "value": VALUE} ] } ]
 *   } ],
 *   "limitations": ["..."], "warnings": ["..."]
 * }
 * </pre>
 *
 * VALUE is the value model's own JSON form ({@link Value#toJson()}); a deleted row's columns have no
 * "after". "autoColumns" are the columns the database maintains itself (D8): never among "columns", their
 * values not shown. "unchanged" are the columns the UPDATE assigns that already hold that value (A4). A
 * DELETE is {@code "irreversible": true} with a {@code "notice"} saying that llmsafe cannot bring its rows
 * back (C7). A secret key column's value is a masked value in "key" (D12); only the form the plan store
 * keeps ({@link Plan#toStoredJson()}) adds {@code "withheldKey": {"id": VALUE}} with the value itself.
 * Plans written before "unchanged", "irreversible" and "withheldKey" existed read as having none.
 *
 * <p>Display forms (C5): the plan, each statement, row and column change has a {@code display} object
 * (a statement's holds its parameters as the card shows them, in order), with what the card shows for
 * the exact fields beside them: every invisible, control or bidi character as an escape ({@link dev.llmsafe.value.Visible}),
 * values as the card renders them. A column change whose two sides look alike has
 * {@code "lookAlike": {"reasons": ["CONFUSABLE", ...], "detail": "..."}} (C6). They are derived: reading
 * ignores them. See {@link PlanDisplay}.
 */
public final class PlanJson {

    /** The format tag written into every plan. */
    public static final String FORMAT = "llmsafe-plan/1";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PlanJson() {
    }

    static String write(Plan plan, boolean withheld) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("id", plan.id().toString());
        root.put("createdAt", plan.createdAt().toString());
        root.put("proposer", plan.proposer());
        root.put("database", plan.database());
        ArrayNode statements = root.putArray("statements");
        for (PlannedStatement s : plan.statements()) {
            ObjectNode o = statements.addObject();
            o.put("sql", s.sql());
            ArrayNode params = o.putArray("parameters");
            for (Parameter p : s.parameters()) {
                ObjectNode po = params.addObject();
                po.put("type", p.type().name());
                po.put("value", p.value());
            }
            o.put("kind", s.kind().name());
            ObjectNode table = o.putObject("table");
            table.put("schema", s.table().schema());
            table.put("name", s.table().name());
            o.put("impact", s.impact());
            strings(o.putArray("keyColumns"), s.keyColumns());
            strings(o.putArray("changedColumns"), s.changedColumns());
            strings(o.putArray("autoColumns"), s.autoColumns());
            o.put("affectedRows", s.affectedRows());
            o.put("irreversible", s.irreversible());
            if (s.irreversible()) {
                o.put("notice", PlannedStatement.IRREVERSIBLE);
            }
            PlanDisplay.statement(o, s);
            ArrayNode rows = o.putArray("rows");
            for (RowChange r : s.rows()) {
                ObjectNode ro = rows.addObject();
                ObjectNode key = ro.putObject("key");
                for (Map.Entry<String, Value> k : r.key().entrySet()) {
                    key.set(k.getKey(), value(k.getValue()));
                }
                PlanDisplay.key(ro, r.key());
                ArrayNode cols = ro.putArray("columns");
                for (ColumnChange c : r.columns()) {
                    ObjectNode co = cols.addObject();
                    co.put("column", c.column());
                    co.set("before", value(c.before()));
                    if (c.after() != null) {
                        co.set("after", value(c.after()));
                    }
                    co.put("auto", c.auto());
                    PlanDisplay.column(co, c);
                }
                ArrayNode same = ro.putArray("unchanged");
                for (ColumnChange c : r.unchanged()) {
                    ObjectNode co = same.addObject();
                    co.put("column", c.column());
                    co.set("value", value(c.before()));
                }
                if (withheld && !r.withheldKey().isEmpty()) {
                    ObjectNode w = ro.putObject("withheldKey");
                    r.withheldKey().forEach((k, v) -> w.set(k, value(v)));
                }
            }
        }
        strings(root.putArray("limitations"), plan.limitations());
        strings(root.putArray("warnings"), plan.warnings());
        PlanDisplay.plan(root, plan);
        try {
            return dev.llmsafe.value.Visible.escapeJson(MAPPER.writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Plan read(String json) {
        try {
            JsonNode root = MAPPER.readTree(json);
            if (!FORMAT.equals(root.path("format").asText())) {
                throw new IllegalArgumentException("not an " + FORMAT + " plan: format is " + root.path("format"));
            }
            List<PlannedStatement> statements = new ArrayList<>();
            for (JsonNode o : root.get("statements")) {
                List<Parameter> params = new ArrayList<>();
                for (JsonNode p : o.get("parameters")) {
                    params.add(new Parameter(Parameter.Type.valueOf(p.get("type").asText()),
                            p.get("value").isNull() ? null : p.get("value").asText()));
                }
                List<RowChange> rows = new ArrayList<>();
                for (JsonNode r : o.get("rows")) {
                    Map<String, Value> key = new LinkedHashMap<>();
                    r.get("key").fields().forEachRemaining(e -> key.put(e.getKey(), value(e.getValue())));
                    List<ColumnChange> cols = new ArrayList<>();
                    for (JsonNode c : r.get("columns")) {
                        cols.add(new ColumnChange(c.get("column").asText(), value(c.get("before")),
                                c.has("after") ? value(c.get("after")) : null, c.get("auto").asBoolean()));
                    }
                    List<ColumnChange> same = new ArrayList<>();
                    for (JsonNode c : r.path("unchanged")) {
                        Value v = value(c.get("value"));
                        same.add(new ColumnChange(c.get("column").asText(), v, v, false));
                    }
                    Map<String, Value> withheldKey = new LinkedHashMap<>();
                    if (r.has("withheldKey")) {
                        r.get("withheldKey").fields().forEachRemaining(e -> withheldKey.put(e.getKey(), value(e.getValue())));
                    }
                    rows.add(new RowChange(key, cols, same, withheldKey));
                }
                JsonNode table = o.get("table");
                statements.add(new PlannedStatement(o.get("sql").asText(), params,
                        PlannedStatement.Kind.valueOf(o.get("kind").asText()),
                        new TableRef(table.get("schema").asText(), table.get("name").asText()),
                        o.get("impact").asText(), strings(o.get("keyColumns")), strings(o.get("changedColumns")),
                        strings(o.get("autoColumns")), o.get("affectedRows").asLong(), rows));
            }
            return new Plan(UUID.fromString(root.get("id").asText()), Instant.parse(root.get("createdAt").asText()),
                    root.get("proposer").asText(), root.get("database").asText(), statements,
                    strings(root.get("limitations")), strings(root.get("warnings")));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("not a readable plan: " + e.getMessage(), e);
        }
    }

    private static JsonNode value(Value v) {
        return ValueJson.toTree(v);
    }

    private static Value value(JsonNode node) {
        return ValueJson.fromTree(node);
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
