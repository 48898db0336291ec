package dev.llmsafe.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.value.LookAlike;
import dev.llmsafe.value.Value;
import dev.llmsafe.value.ValueText;
import dev.llmsafe.value.Visible;
import java.util.Map;

/**
 * The display forms in a plan's JSON (C5, C6): next to each exact text and value, the form the card
 * shows, so that a user interface (the approval console) shows what the card shows without
 * re-implementing {@link Visible} on another Unicode version. Written, never read: a plan read back
 * recomputes them. The exact fields stay what they were; a reader that wants the exact text uses them,
 * a reader that shows text to a person uses {@code display}.
 */
final class PlanDisplay {

    private PlanDisplay() {
    }

    static void plan(ObjectNode root, Plan plan) {
        ObjectNode d = root.putObject("display");
        d.put("proposer", Visible.text(plan.proposer()));
        d.put("database", Visible.text(plan.database()));
        texts(d.putArray("limitations"), plan.limitations());
        texts(d.putArray("warnings"), plan.warnings());
    }

    static void statement(ObjectNode o, PlannedStatement s) {
        ObjectNode d = o.putObject("display");
        StringBuilder sql = new StringBuilder();
        for (String line : s.sql().split("\r\n|\n|\r")) {
            sql.append(sql.length() == 0 ? "" : "\n").append(Visible.statementLine(line));
        }
        d.put("sql", sql.toString());
        ArrayNode parameters = d.putArray("parameters");
        s.parameters().forEach(p -> parameters.add(p.render()));
        d.put("table", Visible.text(s.table().toString()));
        d.put("impact", Visible.text(s.impact()));
        texts(d.putArray("keyColumns"), s.keyColumns());
        texts(d.putArray("changedColumns"), s.changedColumns());
    }

    static void key(ObjectNode row, Map<String, Value> key) {
        ArrayNode d = row.putObject("display").putArray("key");
        key.forEach((column, value) -> d.addObject().put("column", Visible.text(column)).put("value", value.render()));
    }

    static void column(ObjectNode co, ColumnChange c) {
        ObjectNode d = co.putObject("display");
        d.put("column", Visible.text(c.column()));
        if (c.after() == null) {
            d.put("before", c.before().render());
        } else {
            ValueText.RenderedChange r = ValueText.renderChange(c.before(), c.after());
            d.put("before", r.before());
            d.put("after", r.after());
        }
        LookAlike.of(c.before(), c.after()).ifPresent(l -> {
            ObjectNode lo = co.putObject("lookAlike");
            ArrayNode reasons = lo.putArray("reasons");
            l.reasons().forEach(r -> reasons.add(r.name()));
            lo.put("detail", l.describe());
        });
    }

    private static void texts(ArrayNode array, java.util.List<String> texts) {
        texts.forEach(t -> array.add(Visible.text(t)));
    }
}
