package dev.llmsafe.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The guarded surface of the database's metadata (J1): {@link #getConnection()} is llmsafe's connection,
 * and every result set is wrapped (read-only; its {@code getStatement()} is null, as JDBC allows for
 * metadata). The metadata queries are the vendor driver's own, run on the read connection: they never
 * pass through the guard, which would refuse the system catalogs they read. The connection is reported
 * read-only and its result sets forward-only and read-only, which is what they are.
 */
final class GuardedMetaData extends DelegatingMetaData {

    GuardedMetaData(GuardedConnection connection, DatabaseMetaData delegate) {
        super(connection, delegate);
    }

    private static ResultSet wrap(ResultSet rs) {
        return rs == null ? null : new GuardedResultSet(null, rs, 0);
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
        return wrap(d().getTables(catalog, schemaPattern, tableNamePattern, types));
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
        return wrap(d().getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return wrap(d().getColumnPrivileges(catalog, schema, table, columnNamePattern));
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return wrap(d().getTablePrivileges(catalog, schemaPattern, tableNamePattern));
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return wrap(d().getBestRowIdentifier(catalog, schema, table, scope, nullable));
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return wrap(d().getVersionColumns(catalog, schema, table));
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return wrap(d().getPrimaryKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return wrap(d().getImportedKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return wrap(d().getExportedKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return wrap(d(
                ).getCrossReference(parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema, foreignTable));
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        return wrap(d().getTypeInfo());
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return wrap(d().getIndexInfo(catalog, schema, table, unique, approximate));
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
        return wrap(d().getSuperTables(catalog, schemaPattern, tableNamePattern));
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
        return wrap(d().getPseudoColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
    }
}
