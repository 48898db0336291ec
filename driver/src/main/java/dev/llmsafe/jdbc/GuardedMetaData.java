package dev.llmsafe.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The guarded surface of the database's metadata (J1): {@link #getConnection()} is llmsafe's connection,
 * and every result set is wrapped (read-only; its {@code getStatement()} is null, as JDBC allows for
 * metadata). The metadata queries are the vendor driver's own, run on the read connection: they never
 * pass through the guard, which would refuse the system catalogs they read. The connection is reported
 * read-only and its result sets forward-only and read-only, which is what they are.
 *
 * <p>What the model may not read, it does not see listed either (R1, R2): the rows about tables,
 * columns, keys, indexes and privileges are those of allowlisted tables only (a foreign key only when
 * both of its tables are), without secret columns; asked about a table that is not allowlisted, the
 * answer is empty. Agent frameworks build their schema prompt from this metadata.
 */
final class GuardedMetaData extends DelegatingMetaData {

    GuardedMetaData(GuardedConnection connection, DatabaseMetaData delegate) {
        super(connection, delegate);
    }

    private static ResultSet wrap(ResultSet rs) {
        return rs == null ? null : new GuardedResultSet(null, rs, 0);
    }

    /** Which rows of a metadata result the model may see. */
    @FunctionalInterface
    private interface RowFilter {
        boolean shows(ResultSet row) throws SQLException;
    }

    /** The vendor result with the rows the filter hides skipped by {@code next()}, wrapped. */
    private static ResultSet wrap(ResultSet rs, RowFilter filter) {
        if (rs == null) {
            return null;
        }
        ResultSet filtered = (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class}, (proxy, method, args) -> {
                    try {
                        if (method.getName().equals("next") && method.getParameterCount() == 0) {
                            while (rs.next()) {
                                if (filter.shows(rs)) {
                                    return true;
                                }
                            }
                            return false;
                        }
                        return method.invoke(rs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return wrap(filtered);
    }

    /** Rows whose table, named by the columns with this prefix ("", "PK", "FK"), is allowlisted. */
    private RowFilter table(String prefix) {
        Guard guard = connection().guard();
        return row -> guard.allowsTable(row.getString(prefix + "TABLE_CAT"), row.getString(prefix + "TABLE_SCHEM"),
                row.getString(prefix + "TABLE_NAME"));
    }

    /** Rows of an allowlisted table whose column is not secret. */
    private RowFilter column() {
        Guard guard = connection().guard();
        RowFilter table = table("");
        return row -> table.shows(row) && !guard.isSecretColumn(row.getString("COLUMN_NAME"));
    }

    /** Foreign key rows whose two tables are both allowlisted. */
    private RowFilter keys() {
        RowFilter parent = table("PK");
        RowFilter child = table("FK");
        return row -> parent.shows(row) && child.shows(row);
    }

    /** A vendor question about one named table. */
    @FunctionalInterface
    private interface TableQuestion {
        ResultSet ask(String catalog, String schema, String table) throws SQLException;
    }

    /**
     * A question about one table. An allowlisted table is asked about, its rows filtered; another is never
     * named to the vendor, whose error or answer would say whether it exists (MariaDB refuses the read
     * role's SHOW KEYS about it, 1142): the same question about an allowlisted table gives the vendor's
     * columns, and no row is shown.
     */
    private ResultSet about(String catalog, String schema, String table, TableQuestion question, RowFilter filter)
            throws SQLException {
        if (table == null || connection().guard().allowsTable(catalog, schema, table)) {
            return wrap(question.ask(catalog, schema, table), filter);
        }
        return noRows(question, catalog, schema, table);
    }

    /** The question's columns and no row, asked about an allowlisted table rather than the one given. */
    private ResultSet noRows(TableQuestion question, String catalog, String schema, String table) throws SQLException {
        Optional<String[]> other = connection().guard().anyAllowedTable();
        return other.isPresent() ? wrap(question.ask(other.get()[0], other.get()[1], other.get()[2]), row -> false)
                : wrap(question.ask(catalog, schema, table), row -> false);
    }

    @Override
    public Connection getConnection() throws SQLException {
        d();
        return connection();
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        d();
        return true;
    }

    @Override
    public boolean supportsResultSetType(int type) throws SQLException {
        return d().supportsResultSetType(type) && type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
        return d().supportsResultSetConcurrency(type, concurrency) && type == ResultSet.TYPE_FORWARD_ONLY
                && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        d();
        return Wrappers.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        d();
        return Wrappers.isWrapperFor(this, iface);
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        return wrap(d().getProcedures(catalog, schemaPattern, procedureNamePattern));
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern)
            throws SQLException {
        return wrap(d().getProcedureColumns(catalog, schemaPattern, procedureNamePattern, columnNamePattern));
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        return wrap(d().getTables(catalog, schemaPattern, tableNamePattern, types), table(""));
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return wrap(d().getSchemas());
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return wrap(d().getCatalogs());
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return wrap(d().getTableTypes());
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return wrap(d().getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern), column());
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return about(catalog, schema, table, (c, s, t) -> d().getColumnPrivileges(c, s, t, columnNamePattern), column());
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return wrap(d().getTablePrivileges(catalog, schemaPattern, tableNamePattern), table(""));
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return about(catalog, schema, table, (c, s, t) -> d().getBestRowIdentifier(c, s, t, scope, nullable), row -> true);
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getVersionColumns, row -> true);
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getPrimaryKeys, table(""));
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getImportedKeys, keys());
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getExportedKeys, keys());
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        Guard guard = connection().guard();
        if (parentTable != null && foreignTable != null && !(guard.allowsTable(parentCatalog, parentSchema, parentTable)
                && guard.allowsTable(foreignCatalog, foreignSchema, foreignTable))) {
            // Neither table is named to the vendor unless both are allowlisted (see about).
            return noRows((c, s, t) -> d().getCrossReference(c, s, t, c, s, t), parentCatalog, parentSchema, parentTable);
        }
        return wrap(d().getCrossReference(parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema,
                foreignTable), keys());
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        return wrap(d().getTypeInfo());
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return about(catalog, schema, table, (c, s, t) -> d().getIndexInfo(c, s, t, unique, approximate), table(""));
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        return wrap(d().getUDTs(catalog, schemaPattern, typeNamePattern, types));
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return wrap(d().getSuperTypes(catalog, schemaPattern, typeNamePattern));
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        return wrap(d().getSuperTables(catalog, schemaPattern, tableNamePattern), table(""));
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern)
            throws SQLException {
        return wrap(d().getAttributes(catalog, schemaPattern, typeNamePattern, attributeNamePattern));
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return wrap(d().getSchemas(catalog, schemaPattern));
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return wrap(d().getClientInfoProperties());
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        return wrap(d().getFunctions(catalog, schemaPattern, functionNamePattern));
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern)
            throws SQLException {
        return wrap(d().getFunctionColumns(catalog, schemaPattern, functionNamePattern, columnNamePattern));
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return wrap(d().getPseudoColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern), column());
    }
}
