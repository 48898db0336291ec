package dev.llmsafe.dialect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.SQLException;

/** Reads the JSON that EXPLAIN prints (R5). */
final class Explain {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Explain() {
    }

    static JsonNode json(String text) throws SQLException {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new SQLException("EXPLAIN printed something that is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
