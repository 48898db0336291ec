package dev.llmsafe.plan;

import dev.llmsafe.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row a statement changes: its primary key and each column that changes (an UPDATE), or every
 * column (a DELETE, D11).
 *
 * @param key the primary key, column to value, in key order; a secret key column (D12) only as its keyed
 *     hash, the value itself withheld
 * @param columns the columns that change (UPDATE) or every column (DELETE), in table order; a column the
 *     database maintains itself is never one of them (see {@link PlannedStatement#autoColumns()})
 * @param unchanged the columns the UPDATE assigns that already hold the value it assigns, each with
 *     {@code before} equal to {@code after}: what the card calls already correct, and what apply compares
 *     before it writes (A4)
 * @param withheldKey the values of the secret key columns, which {@code key} shows only as hashes: kept in
 *     the store's sealed plan so that apply can find the row, never on the card or in the plan's JSON
 */
public record RowChange(Map<String, Value> key, List<ColumnChange> columns, List<ColumnChange> unchanged,
        Map<String, Value> withheldKey) {

    /** Copies, keeping the key's order. */
    public RowChange {
        key = Collections.unmodifiableMap(new LinkedHashMap<>(key));
        columns = List.copyOf(columns);
        unchanged = List.copyOf(unchanged);
        withheldKey = Collections.unmodifiableMap(new LinkedHashMap<>(withheldKey));
    }

    /** A row without assigned-but-unchanged columns or withheld key values. */
    public RowChange(Map<String, Value> key, List<ColumnChange> columns) {
        this(key, columns, List.of(), Map.of());
    }

    /** The key as the database holds it, in key order: each withheld value in place of its hash. */
    public List<Value> keyValues() {
        List<Value> out = new ArrayList<>(key.size());
        key.forEach((column, shown) -> out.add(withheldKey.getOrDefault(column, shown)));
        return List.copyOf(out);
    }

    /** This row as the card and the plan's JSON show it: the withheld key values dropped. */
    public RowChange withoutWithheld() {
        return withheldKey.isEmpty() ? this : new RowChange(key, columns, unchanged, Map.of());
    }
}
