package dev.llmsafe.samples.langchain4j;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;

/** A result set as text for a model: a header line, a line per row, and the reason if rows were cut. */
final class Rows {

    private Rows() {
    }

    static String text(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.append(i == 1 ? "" : " | ").append(md.getColumnLabel(i));
        }
        int rows = 0;
        while (rs.next()) {
            out.append('\n');
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.append(i == 1 ? "" : " | ").append(rs.getString(i));
            }
            rows++;
        }
        out.append("\n(").append(rows).append(rows == 1 ? " row)" : " rows)");
        // llmsafe caps reads at the policy's maxRows and says so here, so the model knows it saw a part.
        for (SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
            out.append('\n').append(w.getMessage());
        }
        return out.toString();
    }
}
