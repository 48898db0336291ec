package dev.llmsafe.plan;

import dev.llmsafe.value.Value;
import java.util.List;
import java.util.Map;

/**
 * One row a statement changes: its primary key and each column that changes (an UPDATE), or every
 * column (a DELETE, D11).
 *
 * @param key the primary key, column to value, in key order
 * @param columns the columns shown, in table order
 */
public record RowChange(Map<String, Value> key, List<ColumnChange> columns) {

    /** Copies, keeping the key's order. */
    public RowChange {
        key = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(key));
        columns = List.copyOf(columns);
    }
}
