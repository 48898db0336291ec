package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the catalog says a character column really is. Connector/J reports MariaDB's ENUM, SET, UUID
 * and INET6 as CHAR and its JSON as LONGTEXT (measured, MariaDB 10.11.19), so the result metadata
 * alone would turn all of them into plain text. {@code information_schema.COLUMNS.DATA_TYPE} names
 * the first four; MariaDB's JSON is a LONGTEXT with the column check {@code json_valid(`col`)} in
 * {@code information_schema.CHECK_CONSTRAINTS}. Each table is asked once.
 */
final class MySqlCatalogTypes {

    /** The data type given to a MariaDB JSON column (LONGTEXT with a json_valid check). */
    static final String MARIADB_JSON = "mariadb-json";

    private final Connection session;
    private final boolean mariadb;
    private final Map<String, Map<String, String>> tables = new HashMap<>();

    MySqlCatalogTypes(Connection session, boolean mariadb) {
        this.session = session;
        this.mariadb = mariadb;
    }

    /**
     * Takes a table's column types from its catalog description ({@link MysqlCatalog} reads them with
     * the rest, MariaDB's JSON columns marked), so that reading its rows asks nothing more.
     */
    void know(TableInfo table) {
        Map<String, String> types = new HashMap<>();
        for (ColumnInfo col : table.columns()) {
            types.put(col.name().toLowerCase(Locale.ROOT), col.dataType().toLowerCase(Locale.ROOT));
        }
        tables.put(table.ref().schema() + "\u0000" + table.ref().name(), types);
    }

    /**
     * The lower-case DATA_TYPE of a column, {@value #MARIADB_JSON} for a MariaDB JSON column, or null
     * when the result column is no table's column (an expression) or the catalog does not show it.
     */
    String dataType(String schema, String table, String column) throws SQLException {
        if (schema == null || schema.isEmpty() || table == null || table.isEmpty() || column == null) {
            return null;
        }
        Map<String, String> types = tables.get(schema + "\u0000" + table);
        if (types == null) {
            types = load(schema, table);
            tables.put(schema + "\u0000" + table, types);
        }
        return types.get(column.toLowerCase(Locale.ROOT));
    }

    private Map<String, String> load(String schema, String table) throws SQLException {
        Map<String, String> types = new HashMap<>();
        try (PreparedStatement ps = session.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE FROM"
                + " information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2).toLowerCase(Locale.ROOT));
                }
            }
        }
        if (mariadb) {
            try (PreparedStatement ps = session.prepareStatement("SELECT CHECK_CLAUSE FROM"
                    + " information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
                ps.setString(1, schema);
                ps.setString(2, table);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String column = jsonValidColumn(rs.getString(1));
                        if (column != null && "longtext".equals(types.get(column.toLowerCase(Locale.ROOT)))) {
                            types.put(column.toLowerCase(Locale.ROOT), MARIADB_JSON);
                        }
                    }
                }
            }
        }
        return types;
    }

    /** The column of a check clause that is exactly {@code json_valid(`col`)}, else null. */
    static String jsonValidColumn(String clause) {
        if (clause == null || !clause.startsWith("json_valid(`") || !clause.endsWith("`)")) {
            return null;
        }
        String quoted = clause.substring("json_valid(`".length(), clause.length() - 2);
        if (quoted.replace("``", "").contains("`")) {
            return null;
        }
        return quoted.replace("``", "`");
    }
}
