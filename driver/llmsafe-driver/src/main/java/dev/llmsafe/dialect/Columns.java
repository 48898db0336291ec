package dev.llmsafe.dialect;

import dev.llmsafe.value.Value;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A {@link RowReader} made of one {@link ColumnRead} per column. */
record Columns(List<String> columns, List<ColumnRead> reads) implements RowReader {

    /** How a dialect chooses the read of one (1-based) column. */
    @FunctionalInterface
    interface Chooser {
        ColumnRead choose(int column) throws SQLException;
    }

    Columns {
        columns = List.copyOf(columns);
        reads = List.copyOf(reads);
    }

    /** A reader of every column of a result, each read as the chooser says. */
    static Columns of(ResultSetMetaData md, Chooser chooser) throws SQLException {
        List<String> labels = new ArrayList<>();
        List<ColumnRead> reads = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            labels.add(md.getColumnLabel(i));
            reads.add(chooser.choose(i));
        }
        return new Columns(labels, reads);
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
