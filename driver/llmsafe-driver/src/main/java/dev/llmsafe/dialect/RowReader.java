package dev.llmsafe.dialect;

import dev.llmsafe.value.Value;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads every column of the current row of a result set into {@link Value}s. Built once per result
 * shape by {@link ValueReader#rowReader} and reusable for every result set with the same columns.
 *
 * <p>A row is a list in column order rather than a map by name: a SELECT may repeat a label, the
 * planner pairs before and after images by position, and a list costs nothing to build.
 */
public interface RowReader {

    /** The column labels, in order. */
    List<String> columns();

    /**
     * The values of the row the result set is on, one per column, NULL as {@link Value#NULL}.
     *
     * @throws UnreadableValueException when a value cannot be read exactly
     */
    List<Value> read(ResultSet rs) throws SQLException;
}
