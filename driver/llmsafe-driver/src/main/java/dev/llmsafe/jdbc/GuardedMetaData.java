package dev.llmsafe.jdbc;

import dev.llmsafe.jdbc.MetaRows.RowFilter;
import dev.llmsafe.policy.JdbcUrls;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The guarded surface of the database's metadata (J1, J9): {@link #getConnection()} is llmsafe's
 * connection, and every result set is wrapped (read-only; its {@code getStatement()} is null, as JDBC
 * allows for metadata). The metadata queries are the vendor driver's own, run on the read connection:
 * they never pass through the guard, which would refuse the system catalogs they read. The connection
 * is reported read-only and its result sets forward-only and read-only, which is what they are.
 *
 * <p>What the model may not read, it does not see listed either (R1, R2, J9). Agent frameworks build
 * their schema prompt from this metadata. Every method that answers with rows is here, each with one
 * of these answers, and {@code MetaDataTest} asks every one of them on each database, by reflection:
 * <ul>
 *   <li>tables, columns, pseudo columns: the rows of allowlisted tables, without secret columns;</li>
 *   <li>primary keys, indexes, imported and exported keys, cross references, best row identifier,
 *       version columns: asked about the one allowlisted table the question names, in the catalog and
 *       schema the session resolves it to (never a null catalog or schema, which the vendors answer with
 *       the same-named tables of every database or schema), a key only when both of its tables are
 *       allowlisted, and a key, an index or a row identifier that involves a secret column (by name, in
 *       an expression or in a partial index's condition; an index on an expression the vendor does not
 *       show, as sqlite-jdbc's) left out whole; a table the policy does not allow
 *       is never named to the vendor, whose error would say whether it exists: the same question about an
 *       allowlisted table gives the vendor's columns, and no row is shown;</li>
 *   <li>schemas and catalogs: those that hold an allowlisted table, as the vendor's getTables names it;</li>
 *   <li>types: on PostgreSQL the built-in types and those of visible columns (pgjdbc lists every table's
 *       row and array types, and every enum, domain and composite type); elsewhere the vendor's fixed
 *       list;</li>
 *   <li>no rows, with the columns JDBC gives the answer and without asking the vendor: table and column
 *       privileges (they name the deployment's other roles, the apply and store
 *       credentials among them, and what the model may read is the policy's, not the grants'),
 *       procedures, functions and their columns (a stored routine that queries is refused in reads, R1,
 *       and the policy names no routine), user-defined types, their attributes, super types and super
 *       tables (the policy names tables and columns, not types);</li>
 *   <li>every row: the kinds of table and the client info properties, which name nothing in the
 *       database.</li>
 * </ul>
 * {@link #getURL()} hands back where the database is, never a credential, and {@link #getUserName()}
 * nothing: the user is half of a login, and the read role it names is what an attacker would aim at.
 */
final class GuardedMetaData extends DelegatingMetaData {

    /** A name no table has: the question whose answer gives the vendor's columns when no table is allowlisted. */
    static final String NOTHING = "llmsafe-no-such-object";

    GuardedMetaData(GuardedConnection connection, DatabaseMetaData delegate) {
        super(connection, delegate);
    }

    private Guard guard() {
        return connection().guard();
    }

    private MetaPlaces places() throws SQLException {
        return new MetaPlaces(guard(), d(), table(""), this::getColumns);
    }

    /** Rows whose table, named by the columns with this prefix ("", "PK", "FK"), is allowlisted. */
    private RowFilter table(String prefix) {
        Guard guard = guard();
        return row -> guard.allowsTable(row.getString(prefix + "TABLE_CAT"), row.getString(prefix + "TABLE_SCHEM"),
                row.getString(prefix + "TABLE_NAME"));
    }

    /** Rows of an allowlisted table whose column is not secret. */
    private RowFilter column() {
        Guard guard = guard();
        RowFilter table = table("");
        return row -> table.shows(row) && !guard.isSecretColumn(row.getString("COLUMN_NAME"));
    }

    /** Foreign key rows whose two tables are both allowlisted. */
    private RowFilter keys() {
        RowFilter parent = table("PK");
        RowFilter child = table("FK");
        return row -> parent.shows(row) && child.shows(row);
    }

    /** Foreign key rows that name a secret column on either side: the whole key is left out. */
    private RowFilter secretKey() {
        Guard guard = guard();
        return row -> guard.isSecretColumn(row.getString("PKCOLUMN_NAME"))
                || guard.isSecretColumn(row.getString("FKCOLUMN_NAME"));
    }

    private static String foreignKey(ResultSet row) throws SQLException {
        return MetaRows.key(row, "PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM",
                "FKTABLE_NAME", "FK_NAME");
    }

    /** A vendor question about one named table. */
    @FunctionalInterface
    private interface TableQuestion {
        ResultSet ask(String catalog, String schema, String table) throws SQLException;
    }

    /** A question about one table, asked about the allowlisted table it names, resolved; else no rows. */
    private ResultSet about(String catalog, String schema, String table, TableQuestion question, RowFilter filter)
            throws SQLException {
        Optional<String[]> t = guard().allowedTable(catalog, schema, table);
        return t.isPresent() ? MetaRows.filtered(question.ask(t.get()[0], t.get()[1], t.get()[2]), filter)
                : noRows(question);
    }

    /** {@link #about}, an index or a key with a hidden row left out whole ({@link MetaRows#withoutGroups}). */
    private ResultSet about(String catalog, String schema, String table, TableQuestion question, RowFilter filter,
            MetaRows.Group group, RowFilter hides) throws SQLException {
        Optional<String[]> t = guard().allowedTable(catalog, schema, table);
        if (t.isEmpty()) {
            return noRows(question);
        }
        String[] n = t.get();
        return MetaRows.withoutGroups(() -> question.ask(n[0], n[1], n[2]), filter, group, hides);
    }

    /**
     * The question's columns and no row, asked about an allowlisted table rather than the one given, which
     * is never named to the vendor (MariaDB refuses the read role's SHOW KEYS about a table it has no grant
     * on, 1142, and so says that the table exists); with no allowlisted table, about a name no table has.
     */
    private ResultSet noRows(TableQuestion question) throws SQLException {
        List<String[]> allowed = guard().allowedTables();
        String[] t = allowed.isEmpty() ? new String[] {null, null, NOTHING} : allowed.get(0);
        return MetaRows.none(question.ask(t[0], t[1], t[2]));
    }

    /**
     * The columns JDBC gives this answer, and no row, without asking the vendor: the answer has no row
     * whatever is asked, and the vendor's catalog query can fail for the read role with an error that names
     * it (MariaDB: SELECT command denied to user '...' for table mysql.tables_priv).
     */
    private ResultSet nothing(String... columns) throws SQLException {
        d();
        return MetaRows.facts(guard().noRows(columns));
    }

    @Override
    public Connection getConnection() throws SQLException {
        d();
        return connection();
    }

    /** Where the database is: the vendor's URL without its parameters or user information (J9). */
    @Override
    public String getURL() throws SQLException {
        return JdbcUrls.redact(d().getURL());
    }

    /** Null, as sqlite-jdbc answers: the user is half of a login (J9). */
    @Override
    public String getUserName() throws SQLException {
        d();
        return null;
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

    // ---- tables and columns: allowlisted tables, no secret columns ----

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        return MetaRows.filtered(d().getTables(catalog, schemaPattern, tableNamePattern, types), table(""));
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return MetaRows.filtered(d().getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern), column());
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return MetaRows.filtered(d().getPseudoColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern),
                column());
    }

    // ---- one table: the allowlisted one, resolved; keys and indexes with a secret column left out whole ----

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        Guard guard = guard();
        return about(catalog, schema, table, d()::getPrimaryKeys, table(""),
                row -> MetaRows.key(row, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME"),
                row -> guard.isSecretColumn(row.getString("COLUMN_NAME")));
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        Guard guard = guard();
        return about(catalog, schema, table, (c, s, t) -> d().getIndexInfo(c, s, t, unique, approximate), table(""),
                row -> row.getString("INDEX_NAME") == null ? null
                        : MetaRows.key(row, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "INDEX_NAME"),
                row -> guard.mentionsSecretColumn(row.getString("COLUMN_NAME"))
                        || guard.mentionsSecretColumn(row.getString("FILTER_CONDITION"))
                        // sqlite-jdbc names no column for an index on an expression: it may be on a secret.
                        || row.getString("COLUMN_NAME") == null
                                && row.getShort("TYPE") != DatabaseMetaData.tableIndexStatistic);
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getImportedKeys, keys(), GuardedMetaData::foreignKey, secretKey());
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return about(catalog, schema, table, d()::getExportedKeys, keys(), GuardedMetaData::foreignKey, secretKey());
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        Optional<String[]> p = guard().allowedTable(parentCatalog, parentSchema, parentTable);
        Optional<String[]> f = guard().allowedTable(foreignCatalog, foreignSchema, foreignTable);
        if (p.isEmpty() || f.isEmpty()) {
            // Neither table is named to the vendor unless both are allowlisted (see noRows).
            return noRows((c, s, t) -> d().getCrossReference(c, s, t, c, s, t));
        }
        String[] a = p.get();
        String[] b = f.get();
        return MetaRows.withoutGroups(() -> d().getCrossReference(a[0], a[1], a[2], b[0], b[1], b[2]), keys(),
                GuardedMetaData::foreignKey, secretKey());
    }

    /** The rows name no table: only the resolved question keeps other tables' columns out. */
    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        Guard guard = guard();
        return about(catalog, schema, table, (c, s, t) -> d().getBestRowIdentifier(c, s, t, scope, nullable),
                row -> true, row -> "the identifier", row -> guard.isSecretColumn(row.getString("COLUMN_NAME")));
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        Guard guard = guard();
        return about(catalog, schema, table, d()::getVersionColumns,
                row -> !guard.isSecretColumn(row.getString("COLUMN_NAME")));
    }

    // ---- where the allowlisted tables are ----

    @Override
    public ResultSet getSchemas() throws SQLException {
        return MetaRows.filtered(d().getSchemas(), places().schemaRow());
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return MetaRows.filtered(d().getSchemas(catalog, schemaPattern), places().schemaRow());
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return MetaRows.filtered(d().getCatalogs(), places().catalogRow());
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        Optional<Set<String>> builtIn = guard().builtInTypes();
        return builtIn.isPresent() ? MetaRows.filtered(d().getTypeInfo(), places().typeRow(builtIn.get()))
                : MetaRows.facts(d().getTypeInfo());
    }

    // ---- no rows: privileges, routines, user-defined types ----

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return nothing("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE", "IS_GRANTABLE");
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return nothing("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "GRANTOR", "GRANTEE",
                "PRIVILEGE", "IS_GRANTABLE");
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        return nothing("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED1", "RESERVED2",
                "RESERVED3", "REMARKS", "PROCEDURE_TYPE", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern)
            throws SQLException {
        return nothing("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "COLUMN_NAME", "COLUMN_TYPE",
                "DATA_TYPE", "TYPE_NAME", "PRECISION", "LENGTH", "SCALE", "RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF",
                "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        return nothing("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE",
                "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern)
            throws SQLException {
        return nothing("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "COLUMN_NAME", "COLUMN_TYPE",
                "DATA_TYPE", "TYPE_NAME", "PRECISION", "LENGTH", "SCALE", "RADIX", "NULLABLE", "REMARKS",
                "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        return nothing("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "CLASS_NAME", "DATA_TYPE", "REMARKS", "BASE_TYPE");
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern)
            throws SQLException {
        return nothing("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "ATTR_NAME", "DATA_TYPE", "ATTR_TYPE_NAME",
                "ATTR_SIZE", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "ATTR_DEF", "SQL_DATA_TYPE",
                "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA",
                "SCOPE_TABLE", "SOURCE_DATA_TYPE");
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return nothing("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SUPERTYPE_CAT", "SUPERTYPE_SCHEM",
                "SUPERTYPE_NAME");
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        return nothing("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME");
    }

    // ---- every row: they name nothing in the database ----

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return MetaRows.facts(d().getTableTypes());
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return MetaRows.facts(d().getClientInfoProperties());
    }
}
