package dev.llmsafe.dialect;

import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.Value;
import java.sql.ResultSet;
import java.sql.SQLException;

/** How one column is read: chosen once per result shape from its metadata. */
@FunctionalInterface
interface ColumnRead {

    /** The value of the 1-based column of the current row. */
    Value read(ResultSet rs, int column) throws SQLException;

    /** Reads the column as text (null is NULL) and parses it; a parse failure refuses. */
    static ColumnRead text(String type, java.util.function.Function<String, Value> parse) {
        return (rs, i) -> {
            String s = rs.getString(i);
            if (s == null) {
                return Value.NULL;
            }
            try {
                return parse.apply(s);
            } catch (RuntimeException e) {
                throw new UnreadableValueException("cannot read the " + type + " value \"" + abbreviate(s)
                        + "\" of column " + rs.getMetaData().getColumnLabel(i) + " exactly: " + e.getMessage(), e);
            }
        };
    }

    /** Reads the column with getLong, for integers whose text form is not the number. */
    static ColumnRead integer() {
        return (rs, i) -> {
            long n = rs.getLong(i);
            return rs.wasNull() ? Value.NULL : IntegerValue.of(n);
        };
    }

    /** Reads the column's bytes, hashed, not kept. */
    static ColumnRead binary() {
        return (rs, i) -> {
            byte[] b = rs.getBytes(i);
            return b == null ? Value.NULL : BinaryValue.of(b);
        };
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
