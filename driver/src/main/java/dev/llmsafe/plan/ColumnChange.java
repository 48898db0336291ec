package dev.llmsafe.plan;

import dev.llmsafe.value.Value;

/**
 * One column of one row on a card: its value before, and after (an UPDATE), both read back from the
 * database. A DELETE shows every column with {@code after} null: the row is gone.
 *
 * @param column the column as the database names it
 * @param before its value before the statement ran
 * @param after its value after, or null for a deleted row
 * @param auto whether the database sets it by itself (a trigger, ON UPDATE): the value at apply time
 *     will be the database's, not the one shown
 */
public record ColumnChange(String column, Value before, Value after, boolean auto) {
}
