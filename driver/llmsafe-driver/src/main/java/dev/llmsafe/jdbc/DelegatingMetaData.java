package dev.llmsafe.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.RowIdLifetime;
import java.sql.SQLException;

/**
 * The part of the database's metadata that passes straight through: facts about the server and the
 * driver, as booleans, numbers and names. None runs a caller's SQL, returns a JDBC object or names the
 * credential (the URL and the user are answered by {@link GuardedMetaData}, J9); what does is in
 * {@link GuardedMetaData}, and {@code WrapperTest} checks the split method by method.
 */
abstract class DelegatingMetaData implements DatabaseMetaData {

    private final DatabaseMetaData delegate;
    private final GuardedConnection connection;

    DelegatingMetaData(GuardedConnection connection, DatabaseMetaData delegate) {
        this.connection = connection;
        this.delegate = delegate;
    }

    /** The vendor metadata, or an error once the connection is closed. */
    final DatabaseMetaData d() throws SQLException {
        if (connection.isClosed()) {
            throw Wrappers.closed("connection");
        }
        return delegate;
    }

    final GuardedConnection connection() {
        return connection;
    }

    // @formatter:off
    @Override public boolean allProceduresAreCallable() throws SQLException { return d().allProceduresAreCallable(); }
    @Override public boolean allTablesAreSelectable() throws SQLException { return d().allTablesAreSelectable(); }
    @Override public boolean nullsAreSortedHigh() throws SQLException { return d().nullsAreSortedHigh(); }
    @Override public boolean nullsAreSortedLow() throws SQLException { return d().nullsAreSortedLow(); }
    @Override public boolean nullsAreSortedAtStart() throws SQLException { return d().nullsAreSortedAtStart(); }
    @Override public boolean nullsAreSortedAtEnd() throws SQLException { return d().nullsAreSortedAtEnd(); }
    @Override public String getDatabaseProductName() throws SQLException { return d().getDatabaseProductName(); }
    @Override public String getDatabaseProductVersion() throws SQLException { return d().getDatabaseProductVersion(); }
    @Override public String getDriverName() throws SQLException { return d().getDriverName(); }
    @Override public String getDriverVersion() throws SQLException { return d().getDriverVersion(); }
    @Override public int getDriverMajorVersion() { return delegate.getDriverMajorVersion(); }
    @Override public int getDriverMinorVersion() { return delegate.getDriverMinorVersion(); }
    @Override public boolean usesLocalFiles() throws SQLException { return d().usesLocalFiles(); }
    @Override public boolean usesLocalFilePerTable() throws SQLException { return d().usesLocalFilePerTable(); }
    @Override public boolean supportsMixedCaseIdentifiers() throws SQLException { return d().supportsMixedCaseIdentifiers(); }
    @Override public boolean storesUpperCaseIdentifiers() throws SQLException { return d().storesUpperCaseIdentifiers(); }
    @Override public boolean storesLowerCaseIdentifiers() throws SQLException { return d().storesLowerCaseIdentifiers(); }
    @Override public boolean storesMixedCaseIdentifiers() throws SQLException { return d().storesMixedCaseIdentifiers(); }
    @Override public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException { return d().supportsMixedCaseQuotedIdentifiers(); }
    @Override public boolean storesUpperCaseQuotedIdentifiers() throws SQLException { return d().storesUpperCaseQuotedIdentifiers(); }
    @Override public boolean storesLowerCaseQuotedIdentifiers() throws SQLException { return d().storesLowerCaseQuotedIdentifiers(); }
    @Override public boolean storesMixedCaseQuotedIdentifiers() throws SQLException { return d().storesMixedCaseQuotedIdentifiers(); }
    @Override public String getIdentifierQuoteString() throws SQLException { return d().getIdentifierQuoteString(); }
    @Override public String getSQLKeywords() throws SQLException { return d().getSQLKeywords(); }
    @Override public String getNumericFunctions() throws SQLException { return d().getNumericFunctions(); }
    @Override public String getStringFunctions() throws SQLException { return d().getStringFunctions(); }
    @Override public String getSystemFunctions() throws SQLException { return d().getSystemFunctions(); }
    @Override public String getTimeDateFunctions() throws SQLException { return d().getTimeDateFunctions(); }
    @Override public String getSearchStringEscape() throws SQLException { return d().getSearchStringEscape(); }
    @Override public String getExtraNameCharacters() throws SQLException { return d().getExtraNameCharacters(); }
    @Override public boolean supportsAlterTableWithAddColumn() throws SQLException { return d().supportsAlterTableWithAddColumn(); }
    @Override public boolean supportsAlterTableWithDropColumn() throws SQLException { return d().supportsAlterTableWithDropColumn(); }
    @Override public boolean supportsColumnAliasing() throws SQLException { return d().supportsColumnAliasing(); }
    @Override public boolean nullPlusNonNullIsNull() throws SQLException { return d().nullPlusNonNullIsNull(); }
    @Override public boolean supportsConvert() throws SQLException { return d().supportsConvert(); }
    @Override public boolean supportsConvert(int fromType, int toType) throws SQLException { return d().supportsConvert(fromType, toType); }
    @Override public boolean supportsTableCorrelationNames() throws SQLException { return d().supportsTableCorrelationNames(); }
    @Override public boolean supportsDifferentTableCorrelationNames() throws SQLException { return d().supportsDifferentTableCorrelationNames(); }
    @Override public boolean supportsExpressionsInOrderBy() throws SQLException { return d().supportsExpressionsInOrderBy(); }
    @Override public boolean supportsOrderByUnrelated() throws SQLException { return d().supportsOrderByUnrelated(); }
    @Override public boolean supportsGroupBy() throws SQLException { return d().supportsGroupBy(); }
    @Override public boolean supportsGroupByUnrelated() throws SQLException { return d().supportsGroupByUnrelated(); }
    @Override public boolean supportsGroupByBeyondSelect() throws SQLException { return d().supportsGroupByBeyondSelect(); }
    @Override public boolean supportsLikeEscapeClause() throws SQLException { return d().supportsLikeEscapeClause(); }
    @Override public boolean supportsMultipleResultSets() throws SQLException { return d().supportsMultipleResultSets(); }
    @Override public boolean supportsMultipleTransactions() throws SQLException { return d().supportsMultipleTransactions(); }
    @Override public boolean supportsNonNullableColumns() throws SQLException { return d().supportsNonNullableColumns(); }
    @Override public boolean supportsMinimumSQLGrammar() throws SQLException { return d().supportsMinimumSQLGrammar(); }
    @Override public boolean supportsCoreSQLGrammar() throws SQLException { return d().supportsCoreSQLGrammar(); }
    @Override public boolean supportsExtendedSQLGrammar() throws SQLException { return d().supportsExtendedSQLGrammar(); }
    @Override public boolean supportsANSI92EntryLevelSQL() throws SQLException { return d().supportsANSI92EntryLevelSQL(); }
    @Override public boolean supportsANSI92IntermediateSQL() throws SQLException { return d().supportsANSI92IntermediateSQL(); }
    @Override public boolean supportsANSI92FullSQL() throws SQLException { return d().supportsANSI92FullSQL(); }
    @Override public boolean supportsIntegrityEnhancementFacility() throws SQLException { return d().supportsIntegrityEnhancementFacility(); }
    @Override public boolean supportsOuterJoins() throws SQLException { return d().supportsOuterJoins(); }
    @Override public boolean supportsFullOuterJoins() throws SQLException { return d().supportsFullOuterJoins(); }
    @Override public boolean supportsLimitedOuterJoins() throws SQLException { return d().supportsLimitedOuterJoins(); }
    @Override public String getSchemaTerm() throws SQLException { return d().getSchemaTerm(); }
    @Override public String getProcedureTerm() throws SQLException { return d().getProcedureTerm(); }
    @Override public String getCatalogTerm() throws SQLException { return d().getCatalogTerm(); }
    @Override public boolean isCatalogAtStart() throws SQLException { return d().isCatalogAtStart(); }
    @Override public String getCatalogSeparator() throws SQLException { return d().getCatalogSeparator(); }
    @Override public boolean supportsSchemasInDataManipulation() throws SQLException { return d().supportsSchemasInDataManipulation(); }
    @Override public boolean supportsSchemasInProcedureCalls() throws SQLException { return d().supportsSchemasInProcedureCalls(); }
    @Override public boolean supportsSchemasInTableDefinitions() throws SQLException { return d().supportsSchemasInTableDefinitions(); }
    @Override public boolean supportsSchemasInIndexDefinitions() throws SQLException { return d().supportsSchemasInIndexDefinitions(); }
    @Override public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException { return d().supportsSchemasInPrivilegeDefinitions(); }
    @Override public boolean supportsCatalogsInDataManipulation() throws SQLException { return d().supportsCatalogsInDataManipulation(); }
    @Override public boolean supportsCatalogsInProcedureCalls() throws SQLException { return d().supportsCatalogsInProcedureCalls(); }
    @Override public boolean supportsCatalogsInTableDefinitions() throws SQLException { return d().supportsCatalogsInTableDefinitions(); }
    @Override public boolean supportsCatalogsInIndexDefinitions() throws SQLException { return d().supportsCatalogsInIndexDefinitions(); }
    @Override public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException { return d().supportsCatalogsInPrivilegeDefinitions(); }
    @Override public boolean supportsPositionedDelete() throws SQLException { return d().supportsPositionedDelete(); }
    @Override public boolean supportsPositionedUpdate() throws SQLException { return d().supportsPositionedUpdate(); }
    @Override public boolean supportsSelectForUpdate() throws SQLException { return d().supportsSelectForUpdate(); }
    @Override public boolean supportsStoredProcedures() throws SQLException { return d().supportsStoredProcedures(); }
    @Override public boolean supportsSubqueriesInComparisons() throws SQLException { return d().supportsSubqueriesInComparisons(); }
    @Override public boolean supportsSubqueriesInExists() throws SQLException { return d().supportsSubqueriesInExists(); }
    @Override public boolean supportsSubqueriesInIns() throws SQLException { return d().supportsSubqueriesInIns(); }
    @Override public boolean supportsSubqueriesInQuantifieds() throws SQLException { return d().supportsSubqueriesInQuantifieds(); }
    @Override public boolean supportsCorrelatedSubqueries() throws SQLException { return d().supportsCorrelatedSubqueries(); }
    @Override public boolean supportsUnion() throws SQLException { return d().supportsUnion(); }
    @Override public boolean supportsUnionAll() throws SQLException { return d().supportsUnionAll(); }
    @Override public boolean supportsOpenCursorsAcrossCommit() throws SQLException { return d().supportsOpenCursorsAcrossCommit(); }
    @Override public boolean supportsOpenCursorsAcrossRollback() throws SQLException { return d().supportsOpenCursorsAcrossRollback(); }
    @Override public boolean supportsOpenStatementsAcrossCommit() throws SQLException { return d().supportsOpenStatementsAcrossCommit(); }
    @Override public boolean supportsOpenStatementsAcrossRollback() throws SQLException { return d().supportsOpenStatementsAcrossRollback(); }
    @Override public int getMaxBinaryLiteralLength() throws SQLException { return d().getMaxBinaryLiteralLength(); }
    @Override public int getMaxCharLiteralLength() throws SQLException { return d().getMaxCharLiteralLength(); }
    @Override public int getMaxColumnNameLength() throws SQLException { return d().getMaxColumnNameLength(); }
    @Override public int getMaxColumnsInGroupBy() throws SQLException { return d().getMaxColumnsInGroupBy(); }
    @Override public int getMaxColumnsInIndex() throws SQLException { return d().getMaxColumnsInIndex(); }
    @Override public int getMaxColumnsInOrderBy() throws SQLException { return d().getMaxColumnsInOrderBy(); }
    @Override public int getMaxColumnsInSelect() throws SQLException { return d().getMaxColumnsInSelect(); }
    @Override public int getMaxColumnsInTable() throws SQLException { return d().getMaxColumnsInTable(); }
    @Override public int getMaxConnections() throws SQLException { return d().getMaxConnections(); }
    @Override public int getMaxCursorNameLength() throws SQLException { return d().getMaxCursorNameLength(); }
    @Override public int getMaxIndexLength() throws SQLException { return d().getMaxIndexLength(); }
    @Override public int getMaxSchemaNameLength() throws SQLException { return d().getMaxSchemaNameLength(); }
    @Override public int getMaxProcedureNameLength() throws SQLException { return d().getMaxProcedureNameLength(); }
    @Override public int getMaxCatalogNameLength() throws SQLException { return d().getMaxCatalogNameLength(); }
    @Override public int getMaxRowSize() throws SQLException { return d().getMaxRowSize(); }
    @Override public boolean doesMaxRowSizeIncludeBlobs() throws SQLException { return d().doesMaxRowSizeIncludeBlobs(); }
    @Override public int getMaxStatementLength() throws SQLException { return d().getMaxStatementLength(); }
    @Override public int getMaxStatements() throws SQLException { return d().getMaxStatements(); }
    @Override public int getMaxTableNameLength() throws SQLException { return d().getMaxTableNameLength(); }
    @Override public int getMaxTablesInSelect() throws SQLException { return d().getMaxTablesInSelect(); }
    @Override public int getMaxUserNameLength() throws SQLException { return d().getMaxUserNameLength(); }
    @Override public int getDefaultTransactionIsolation() throws SQLException { return d().getDefaultTransactionIsolation(); }
    @Override public boolean supportsTransactions() throws SQLException { return d().supportsTransactions(); }
    @Override public boolean supportsTransactionIsolationLevel(int level) throws SQLException { return d().supportsTransactionIsolationLevel(level); }
    @Override public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException { return d().supportsDataDefinitionAndDataManipulationTransactions(); }
    @Override public boolean supportsDataManipulationTransactionsOnly() throws SQLException { return d().supportsDataManipulationTransactionsOnly(); }
    @Override public boolean dataDefinitionCausesTransactionCommit() throws SQLException { return d().dataDefinitionCausesTransactionCommit(); }
    @Override public boolean dataDefinitionIgnoredInTransactions() throws SQLException { return d().dataDefinitionIgnoredInTransactions(); }
    @Override public boolean ownUpdatesAreVisible(int type) throws SQLException { return d().ownUpdatesAreVisible(type); }
    @Override public boolean ownDeletesAreVisible(int type) throws SQLException { return d().ownDeletesAreVisible(type); }
    @Override public boolean ownInsertsAreVisible(int type) throws SQLException { return d().ownInsertsAreVisible(type); }
    @Override public boolean othersUpdatesAreVisible(int type) throws SQLException { return d().othersUpdatesAreVisible(type); }
    @Override public boolean othersDeletesAreVisible(int type) throws SQLException { return d().othersDeletesAreVisible(type); }
    @Override public boolean othersInsertsAreVisible(int type) throws SQLException { return d().othersInsertsAreVisible(type); }
    @Override public boolean updatesAreDetected(int type) throws SQLException { return d().updatesAreDetected(type); }
    @Override public boolean deletesAreDetected(int type) throws SQLException { return d().deletesAreDetected(type); }
    @Override public boolean insertsAreDetected(int type) throws SQLException { return d().insertsAreDetected(type); }
    @Override public boolean supportsBatchUpdates() throws SQLException { return d().supportsBatchUpdates(); }
    @Override public boolean supportsSavepoints() throws SQLException { return d().supportsSavepoints(); }
    @Override public boolean supportsNamedParameters() throws SQLException { return d().supportsNamedParameters(); }
    @Override public boolean supportsMultipleOpenResults() throws SQLException { return d().supportsMultipleOpenResults(); }
    @Override public boolean supportsGetGeneratedKeys() throws SQLException { return d().supportsGetGeneratedKeys(); }
    @Override public boolean supportsResultSetHoldability(int holdability) throws SQLException { return d().supportsResultSetHoldability(holdability); }
    @Override public int getResultSetHoldability() throws SQLException { return d().getResultSetHoldability(); }
    @Override public int getDatabaseMajorVersion() throws SQLException { return d().getDatabaseMajorVersion(); }
    @Override public int getDatabaseMinorVersion() throws SQLException { return d().getDatabaseMinorVersion(); }
    @Override public int getJDBCMajorVersion() throws SQLException { return d().getJDBCMajorVersion(); }
    @Override public int getJDBCMinorVersion() throws SQLException { return d().getJDBCMinorVersion(); }
    @Override public int getSQLStateType() throws SQLException { return d().getSQLStateType(); }
    @Override public boolean locatorsUpdateCopy() throws SQLException { return d().locatorsUpdateCopy(); }
    @Override public boolean supportsStatementPooling() throws SQLException { return d().supportsStatementPooling(); }
    @Override public RowIdLifetime getRowIdLifetime() throws SQLException { return d().getRowIdLifetime(); }
    @Override public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException { return d().supportsStoredFunctionsUsingCallSyntax(); }
    @Override public boolean autoCommitFailureClosesAllResultSets() throws SQLException { return d().autoCommitFailureClosesAllResultSets(); }
    @Override public boolean generatedKeyAlwaysReturned() throws SQLException { return d().generatedKeyAlwaysReturned(); }
    @Override public long getMaxLogicalLobSize() throws SQLException { return d().getMaxLogicalLobSize(); }
    @Override public boolean supportsRefCursors() throws SQLException { return d().supportsRefCursors(); }
    @Override public boolean supportsSharding() throws SQLException { return d().supportsSharding(); }
    // @formatter:on
}
