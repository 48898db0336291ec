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
 * @param changedColumns every column the card shows changing in at least one row (UPDATE), in table
 *     order; never a column the database maintains itself; for a DELETE, every column
 * @param autoColumns for an UPDATE, the columns of the table the database maintains itself (a trigger
 *     declared in policy.autoColumns, MySQL's ON UPDATE): the statement does not set them, the card does
 *     not show their values (the dry run's clock is not the apply's), and apply does not check them (D8)
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

    /** C7: what the card and the JSON say of a DELETE: llmsafe cannot bring the rows back. */
    public static final String IRREVERSIBLE = "Deleted rows cannot be brought back by llmsafe: it keeps no copy to"
            + " restore them from, and applying this plan is final. The values shown here are the only record llmsafe"
            + " keeps of them.";

    /** Copies the lists. */
    public PlannedStatement {
        parameters = List.copyOf(parameters);
        keyColumns = List.copyOf(keyColumns);
        changedColumns = List.copyOf(changedColumns);
        autoColumns = List.copyOf(autoColumns);
        rows = List.copyOf(rows);
    }

    /** C7: whether applying this statement can be undone by llmsafe (a DELETE cannot). */
    public boolean irreversible() {
        return kind == Kind.DELETE;
    }

    /** This statement as the card and the plan's JSON show it: withheld key values dropped (D12). */
    public PlannedStatement withoutWithheld() {
        return new PlannedStatement(sql, parameters, kind, table, impact, keyColumns, changedColumns, autoColumns,
                affectedRows, rows.stream().map(RowChange::withoutWithheld).toList());
    }
}
