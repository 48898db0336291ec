package dev.llmsafe.plan;

import dev.llmsafe.dialect.TableRef;
import java.util.List;

/**
 * One statement of a plan, as it ran in the dry run.
 *
 * @param sql the exact text that ran (comment-free) and will run at apply
 * @param parameters its JDBC parameters, in order (D16)
 * @param kind UPDATE or DELETE
 * @param table the table it writes, as the database names it
 * @param impact the business consequence of changing that table, from the policy (C1)
 * @param keyColumns the primary key's columns
 * @param changedColumns every column that changes in at least one row (UPDATE), in table order
 * @param autoColumns columns the database sets by itself; their values at apply are the database's
 * @param affectedRows the database's own count of rows affected (D9)
 * @param rows each row with its changes
 */
public record PlannedStatement(
        String sql,
        List<Parameter> parameters,
        Kind kind,
        TableRef table,
        String impact,
        List<String> keyColumns,
        List<String> changedColumns,
        List<String> autoColumns,
        long affectedRows,
        List<RowChange> rows) {

    /** What a planned statement does. */
    public enum Kind {
        /** Changes rows. */
        UPDATE,
        /** Deletes rows. */
        DELETE
    }

    /** Copies the lists. */
    public PlannedStatement {
        parameters = List.copyOf(parameters);
        keyColumns = List.copyOf(keyColumns);
        changedColumns = List.copyOf(changedColumns);
        autoColumns = List.copyOf(autoColumns);
        rows = List.copyOf(rows);
    }
}
