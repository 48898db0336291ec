package dev.llmsafe.jdbc;

import dev.llmsafe.jdbc.MetaRows.RowFilter;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * J9: where the allowlisted tables are, for the metadata answers that list places and types rather
 * than tables: the schemas and catalogs that hold an allowlisted table, as the vendor's own getTables
 * names them, and the types the model may see listed.
 */
final class MetaPlaces {

    /** The guarded getColumns, whose rows are the visible columns of a table. */
    @FunctionalInterface
    interface Columns {
        ResultSet of(String catalog, String schema, String table, String column) throws SQLException;
    }

    private final Guard guard;
    private final DatabaseMetaData vendor;
    private final RowFilter allowed;
    private final Columns columns;

    /**
     * @param vendor the vendor's metadata
     * @param allowed the rows of allowlisted tables
     * @param columns the guarded getColumns
     */
    MetaPlaces(Guard guard, DatabaseMetaData vendor, RowFilter allowed, Columns columns) {
        this.guard = guard;
        this.vendor = vendor;
        this.allowed = allowed;
        this.columns = columns;
    }

    /** The catalogs and schemas of the allowlisted tables, as the vendor's getTables names them. */
    private Set<List<String>> containers() throws SQLException {
        Set<List<String>> out = new HashSet<>();
        for (String[] t : guard.allowedTables()) {
            try (ResultSet rs = vendor.getTables(t[0], t[1], t[2], null)) {
                while (rs.next()) {
                    if (allowed.shows(rs)) {
                        out.add(Arrays.asList(rs.getString("TABLE_CAT"), rs.getString("TABLE_SCHEM")));
                    }
                }
            }
        }
        return out;
    }

    /** Rows of getSchemas: the schemas that hold an allowlisted table. */
    RowFilter schemaRow() throws SQLException {
        Set<List<String>> containers = containers();
        return row -> {
            String schema = row.getString("TABLE_SCHEM");
            String catalog = row.getString("TABLE_CATALOG");
            return containers.stream().anyMatch(c -> schema != null && schema.equals(c.get(1))
                    && (catalog == null || c.get(0) == null || catalog.equals(c.get(0))));
        };
    }

    /** Rows of getCatalogs: the catalogs that hold an allowlisted table. */
    RowFilter catalogRow() throws SQLException {
        Set<List<String>> containers = containers();
        return row -> {
            String catalog = row.getString("TABLE_CAT");
            return catalog != null && containers.stream().anyMatch(c -> catalog.equals(c.get(0)));
        };
    }

    /** The database's own types, and the types of the visible columns of allowlisted tables. */
    RowFilter typeRow(Set<String> builtIn) throws SQLException {
        Set<String> shown = new HashSet<>(builtIn);
        for (String[] t : guard.allowedTables()) {
            try (ResultSet rs = columns.of(t[0], t[1], t[2], "%")) {
                while (rs.next()) {
                    shown.add(rs.getString("TYPE_NAME"));
                }
            }
        }
        return row -> shown.contains(row.getString("TYPE_NAME"));
    }
}
