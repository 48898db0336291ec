package dev.llmsafe.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.llmsafe.tools.PlanStatus;
import dev.llmsafe.tools.ReadResult;
import dev.llmsafe.value.Visible;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * The {@code tools/call} results. Each carries its content as text, which every client shows the model,
 * and, from MCP 2025-06-18 on, the same as structured content that matches the tool's output schema.
 * For the JSON results the text is the serialised JSON, as MCP recommends for clients that read only
 * text; for a plan it is the card, which names the plan id and is what the user must see.
 */
final class ToolResult {

    private ToolResult() {
    }

    /** A failed call the model should read: a refusal, a database error, a mistaken argument. */
    static ObjectNode error(String message) {
        ObjectNode result = JsonRpc.object();
        result.putArray("content").add(text(message));
        result.put("isError", true);
        return result;
    }

    static ObjectNode read(ProtocolVersion version, ReadResult read) {
        return read(version, read, null);
    }

    /**
     * A read's result; {@code cutAtBytes} is the bound that cut it (R13), or null when only the row cap
     * (R4) may have.
     */
    static ObjectNode read(ProtocolVersion version, ReadResult read, Integer cutAtBytes) {
        ObjectNode structured = JsonRpc.object();
        ArrayNode columns = structured.putArray("columns");
        for (ReadResult.Column c : read.columns()) {
            columns.addObject().put("name", c.name()).put("type", c.type());
        }
        ArrayNode rows = structured.putArray("rows");
        for (List<Object> row : read.rows()) {
            ArrayNode values = rows.addArray();
            for (Object v : row) {
                values.add(value(v));
            }
        }
        structured.put("rowCount", read.rows().size());
        structured.put("truncated", read.truncated());
        if (read.truncated()) {
            structured.put("truncatedBy", cutAtBytes == null ? "rows" : "bytes");
        }
        String json = JsonRpc.write(structured);
        if (cutAtBytes != null) {
            return success(version, structured, json, "Only the first " + read.rows().size() + " rows are shown: the"
                    + " rows that matched are more than the " + cutAtBytes + " bytes this server returns in one result."
                    + " Select fewer or shorter columns (substr, length), or fewer rows, to see the rest.");
        }
        if (read.truncated()) {
            return success(version, structured, json, "Only the first " + read.rows().size()
                    + " rows are shown: more rows matched than the read limit returns. Narrow the query "
                    + "(a WHERE clause, an aggregate) to see the rest.");
        }
        return success(version, structured, json);
    }

    static ObjectNode plan(ProtocolVersion version, String planId, String card, ObjectNode plan) {
        ObjectNode structured = JsonRpc.object();
        structured.put("planId", planId);
        structured.put("card", card);
        structured.set("plan", plan);
        return success(version, structured, card);
    }

    static ObjectNode status(ProtocolVersion version, PlanStatus status) {
        ObjectNode structured = JsonRpc.object();
        structured.put("planId", status.planId());
        structured.put("status", status.state().wireName());
        if (status.reason() != null) {
            structured.put("reason", status.reason());
        }
        ArrayNode history = structured.putArray("history");
        status.history().forEach(history::add);

        // C5: the text a client shows gives actor names and reasons as the card gives its texts.
        StringBuilder text = new StringBuilder("Plan ").append(status.planId()).append(" is ")
                .append(status.state().wireName()).append('.');
        if (status.reason() != null) {
            text.append("\nReason: ").append(Visible.text(status.reason()));
        }
        if (!status.history().isEmpty()) {
            text.append("\nHistory:");
            status.history().forEach(line -> text.append("\n  ").append(Visible.text(line)));
        }
        return success(version, structured, text.toString());
    }

    static ObjectNode schemaText(ProtocolVersion version, String text) {
        ObjectNode structured = JsonRpc.object();
        structured.put("format", "text");
        structured.put("text", text);
        return success(version, structured, text);
    }

    static ObjectNode schemaJson(ProtocolVersion version, String json, ObjectNode schema) {
        ObjectNode structured = JsonRpc.object();
        structured.put("format", "json");
        structured.set("schema", schema);
        return success(version, structured, json);
    }

    private static ObjectNode success(ProtocolVersion version, ObjectNode structured, String... texts) {
        ObjectNode result = JsonRpc.object();
        ArrayNode content = result.putArray("content");
        for (String t : texts) {
            content.add(text(t));
        }
        if (version.hasStructuredOutput()) {
            result.set("structuredContent", structured);
        }
        result.put("isError", false);
        return result;
    }

    private static ObjectNode text(String text) {
        ObjectNode block = JsonRpc.object();
        block.put("type", "text");
        block.put("text", text);
        return block;
    }

    /** One value, as given: 12.50 stays 12.50 on the wire (the mapper writes decimals plain). */
    private static JsonNode value(Object v) {
        if (v == null) {
            return NullNode.instance;
        } else if (v instanceof String s) {
            return TextNode.valueOf(s);
        } else if (v instanceof Boolean b) {
            return BooleanNode.valueOf(b);
        } else if (v instanceof Long l) {
            return LongNode.valueOf(l);
        } else if (v instanceof BigInteger i) {
            return BigIntegerNode.valueOf(i);
        } else if (v instanceof BigDecimal d) {
            return DecimalNode.valueOf(d);
        } else if (v instanceof Double d) {
            return DoubleNode.valueOf(d);
        } else if (v instanceof Float f) {
            return FloatNode.valueOf(f);
        } else if (v instanceof Number n) {
            return IntNode.valueOf(n.intValue()); // Integer, Short, Byte: ReadResult admits no other
        } else if (v instanceof ReadResult.Bytes b) {
            ObjectNode o = JsonRpc.object();
            o.put("t", ReadResult.Bytes.TAG);
            o.put("len", b.length());
            o.put("hex", b.hex());
            return o;
        }
        throw new IllegalStateException("ReadResult admitted a " + v.getClass().getName());
    }
}
