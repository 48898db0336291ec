package dev.llmsafe.dialect;

import dev.llmsafe.value.Value;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A {@link RowReader} made of one {@link ColumnRead} per column. */
record Columns(List<String> columns, List<ColumnRead> reads) implements RowReader {

    Columns {
        columns = List.copyOf(columns);
        reads = List.copyOf(reads);
    }

    @Override
    public List<Value> read(ResultSet rs) throws SQLException {
        List<Value> row = new ArrayList<>(reads.size());
        for (int i = 0; i < reads.size(); i++) {
            row.add(reads.get(i).read(rs, i + 1));
        }
        return List.copyOf(row);
    }
}
