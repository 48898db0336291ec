package dev.llmsafe.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.dialect.SessionSettings;
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
 * The JSON form of a plan, format {@code llmsafe-plan/2} (C4). Stable: fields are only ever added.
 *
 * <pre>
 * {
 *   "format": "llmsafe-plan/2",
 *   "id": "6f5a1c8e-...", "createdAt": "2026-11-30T03:00:00.123456Z", "proposer": "assistant",
 *   "database": "PostgreSQL 15.20",
 *   "session": {"recorded": true, "settings": {"TimeZone": "Europe/Amsterdam", "DateStyle": "ISO, MDY", ...}},
 *   "statements": [ {
 *     "sql": "UPDATE orders SET status = ?, qty = qty * ? WHERE id = ?",
 *     "parameters": [ {"setter": "SET_STRING", "class": "java.lang.String", "value": "shipped"},
 *                     {"setter": "SET_INT", "class": "java.lang.Integer", "value": "3"},
 *                     {"setter": "SET_OBJECT_TYPE", "sqlType": 4, "class": "java.lang.String", "value": "42"} ],
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
 *
 * <p>A parameter (D16) is the JDBC setter it was bound with ({@link Setter}'s names) and what that
 * setter took: {@code sqlType} (the {@link java.sql.Types} code, or an SQLType's vendor type number),
 * {@code typeName} (setNull's type name, or the SQLType's name), {@code typeVendor} and
 * {@code typeClass} (the SQLType's vendor and enum class), {@code scaleOrLength}, {@code class} (the
 * value's Java class, {@code [B} for bytes), {@code value} (canonical text: a float as
 * {@code Float.toString}, bytes as base64, a java.sql or java.util date as the ISO instant it holds;
 * null for NULL) and {@code zone} (the Calendar's time zone, or the JVM's default at bind time for
 * the classes a driver converts through it). Fields a setter does not take are left out. The session
 * (D17) holds the settings of the application's session that change what the statements mean.
 *
 * <p>A plan of format {@code llmsafe-plan/1} still reads: its parameters come back with setter
 * {@link Setter#NOT_RECORDED} (the old kind in {@code class}) and its session as not recorded, so it
 * can be shown, and its apply is refused (PARAMETER_NOT_REPLAYABLE, SESSION_NOT_REPRODUCIBLE).
 */
public final class PlanJson {

    /** The format tag written into every plan. */
    public static final String FORMAT = "llmsafe-plan/2";

    /** The format before parameters kept their setter and plans their session (read, never written). */
    static final String FORMAT_1 = "llmsafe-plan/1";

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
        ObjectNode session = root.putObject("session");
        session.put("recorded", plan.session().recorded());
        ObjectNode settings = session.putObject("settings");
        plan.session().values().forEach(settings::put);
        ArrayNode statements = root.putArray("statements");
        for (PlannedStatement s : plan.statements()) {
            ObjectNode o = statements.addObject();
            o.put("sql", s.sql());
            ArrayNode params = o.putArray("parameters");
            for (Parameter p : s.parameters()) {
                parameter(params.addObject(), p);
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
            String format = root.path("format").asText();
            boolean v1 = FORMAT_1.equals(format);
            if (!FORMAT.equals(format) && !v1) {
                throw new IllegalArgumentException("not an " + FORMAT + " plan: format is " + root.path("format"));
            }
            List<PlannedStatement> statements = new ArrayList<>();
            for (JsonNode o : root.get("statements")) {
                List<Parameter> params = new ArrayList<>();
                for (JsonNode p : o.get("parameters")) {
                    params.add(v1 ? parameterV1(p) : parameter(p));
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
                    strings(root.get("limitations")), strings(root.get("warnings")),
                    v1 ? SessionSettings.NOT_RECORDED : session(root.get("session")));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("not a readable plan: " + e.getMessage(), e);
        }
    }

    private static void parameter(ObjectNode o, Parameter p) {
        o.put("setter", p.setter().name());
        if (p.sqlType() != null) {
            o.put("sqlType", p.sqlType());
        }
        optional(o, "typeName", p.typeName());
        optional(o, "typeVendor", p.typeVendor());
        optional(o, "typeClass", p.typeClass());
        if (p.scaleOrLength() != null) {
            o.put("scaleOrLength", p.scaleOrLength());
        }
        optional(o, "class", p.javaClass());
        o.put("value", p.value());
        optional(o, "zone", p.zone());
    }

    private static void optional(ObjectNode o, String name, String value) {
        if (value != null) {
            o.put(name, value);
        }
    }

    private static Parameter parameter(JsonNode p) {
        return new Parameter(Setter.valueOf(p.get("setter").asText()), integer(p, "sqlType"), text(p, "typeName"),
                text(p, "typeVendor"), text(p, "typeClass"), integer(p, "scaleOrLength"), text(p, "class"),
                text(p, "value"), text(p, "zone"));
    }

    /** A parameter of llmsafe-plan/1: its kind and value, with no setter. */
    private static Parameter parameterV1(JsonNode p) {
        String value = text(p, "value");
        return new Parameter(Setter.NOT_RECORDED, null, null, null, null, null,
                value == null ? null : p.get("type").asText(), value, null);
    }

    private static SessionSettings session(JsonNode s) {
        if (s == null || !s.path("recorded").asBoolean(false)) {
            return SessionSettings.NOT_RECORDED;
        }
        Map<String, String> settings = new LinkedHashMap<>();
        s.get("settings").fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        return SessionSettings.of(settings);
    }

    private static String text(JsonNode o, String name) {
        JsonNode n = o.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be a string in " + o);
        }
        return n.asText();
    }

    private static Integer integer(JsonNode o, String name) {
        JsonNode n = o.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.canConvertToInt() || !n.isIntegralNumber()) {
            throw new IllegalArgumentException("field \"" + name + "\" must be an integer in " + o);
        }
        return n.asInt();
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
