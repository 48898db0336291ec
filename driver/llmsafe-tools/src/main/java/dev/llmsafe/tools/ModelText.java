package dev.llmsafe.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.RefusedException;
import dev.llmsafe.value.Visible;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools' results as the text a model reads, for an agent framework whose tools return a string
 * (LangChain4j, Spring AI): a read's rows as JSON, a plan's card (which starts with its plan id), a plan's
 * status, a refusal's code and message. An ordinary plan or refusal is a result, not a failure: the model
 * reads it and tells the person what happens next. What a value could hide (an invisible or bidi
 * character) is escaped (C5). Stateless.
 */
public final class ModelText {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelText() {
    }

    /**
     * A read's rows: {@code {"columns": [{"name", "type"}], "rows": [[...]], "rowCount": n, "truncated": b}},
     * with a sentence after it when the row cap cut the result.
     *
     * @param read the read's result
     * @return the JSON, and what to do when rows were cut off
     */
    public static String read(ReadResult read) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, String>> columns = new ArrayList<>();
        for (ReadResult.Column c : read.columns()) {
            Map<String, String> col = new LinkedHashMap<>();
            col.put("name", c.name());
            col.put("type", c.type());
            columns.add(col);
        }
        m.put("columns", columns);
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> row : read.rows()) {
            List<Object> values = new ArrayList<>(row.size());
            for (Object v : row) {
                values.add(v instanceof ReadResult.Bytes b ? b.json() : v);
            }
            rows.add(values);
        }
        m.put("rows", rows);
        m.put("rowCount", read.rows().size());
        m.put("truncated", read.truncated());
        String json;
        try {
            json = Visible.escapeJson(JSON.writeValueAsString(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a read result is not JSON", e);
        }
        return read.truncated() ? json + "\nOnly the first " + read.rows().size() + " rows are shown: more rows"
                + " matched than the read limit returns. Narrow the query (a WHERE clause, an aggregate) to see the rest."
                : json;
    }

    /**
     * A proposed plan: its card, which starts with {@code Plan <id> is proposed, not applied} and says who
     * must approve and apply it.
     *
     * @param plan the saved plan
     * @return the card
     */
    public static String plan(ProposedPlan plan) {
        return plan.card();
    }

    /**
     * Where a plan stands, or that no plan has the id.
     *
     * @param planId the id as the model gave it
     * @param status the status, when a plan has that id
     * @return {@code Plan <id> is <state>.}, the reason and the history, one line each
     */
    public static String status(String planId, Optional<PlanStatus> status) {
        if (status.isEmpty()) {
            return "No plan has the id " + Visible.text(planId) + ". Give the plan id that the plan tool returned.";
        }
        PlanStatus s = status.get();
        StringBuilder text = new StringBuilder("Plan ").append(s.planId()).append(" is ")
                .append(s.state().wireName()).append('.');
        if (s.reason() != null) {
            text.append("\nReason: ").append(Visible.text(s.reason()));
        }
        if (!s.history().isEmpty()) {
            text.append("\nHistory:");
            s.history().forEach(line -> text.append("\n  ").append(Visible.text(line)));
        }
        return text.toString();
    }

    /**
     * A failed call as the model should read it: a refusal is its message, {@code Refused (CODE): why, and
     * what to do instead}; any other database error names its SQLState.
     *
     * @param e what the call threw
     * @return the text for the model
     */
    public static String failure(SQLException e) {
        if (e instanceof RefusedException) {
            return e.getMessage();
        }
        return "The database failed (SQLState " + e.getSQLState() + "): " + Visible.text(String.valueOf(e.getMessage()))
                + " Nothing was changed.";
    }
}
