package dev.llmsafe.plan;

import dev.llmsafe.value.Value;

/**
 * One column of one row on a card: its value before, and after (an UPDATE), both read back from the
 * database. A DELETE shows every column with {@code after} null: the row is gone. A column an UPDATE
 * assigns without changing it has {@code after} equal to {@code before} ({@link RowChange#unchanged()}).
 *
 * @param column the column as the database names it
 * @param before its value before the statement ran
 * @param after its value after, or null for a deleted row
 * @param auto false in every plan made now. Plans stored before D8 was strengthened showed a column the
 *     database sets by itself (a trigger, ON UPDATE) as a change with this flag; such a column is now
 *     listed in {@link PlannedStatement#autoColumns()} and never shown as a before and after. Kept so
 *     that those plans still read, show and apply as they did.
 */
public record ColumnChange(String column, Value before, Value after, boolean auto) {
}
