package dev.llmsafe.conformance;

/**
 * Every measured fact, with the id SPEC.md's "Measured facts" tables use for its row, and the probe
 * that measures it. The test asserting a fact is named after its id.
 */
enum Fact {
    F01("server statement timeout on an UPDATE", TimeoutFacts::serverTimeoutOnUpdate),
    F02("server statement timeout on a SELECT of a sleep alone", TimeoutFacts::serverTimeoutOnSleepAlone),
    F03("JDBC setQueryTimeout(1) on a 2.5 s UPDATE", TimeoutFacts::jdbcTimeoutOnUpdate),
    F04("JDBC setQueryTimeout(1) on a 2.5 s SELECT", TimeoutFacts::jdbcTimeoutOnSelect),
    F05("Statement.cancel() from another thread after 1 s of a 2.5 s UPDATE", TimeoutFacts::cancelOnUpdate),
    F06("row lock after ROLLBACK TO SAVEPOINT, the transaction wrote first",
            TransactionFacts::locksAfterRollbackToSavepointWhenTheCallerWroteFirst),
    F07("row lock after ROLLBACK TO SAVEPOINT, the savepoint came first",
            TransactionFacts::locksAfterRollbackToSavepointWhenTheSavepointCameFirst),
    F08("CREATE TABLE inside a transaction, then ROLLBACK", TransactionFacts::ddlInsideATransaction),
    F09("rows affected by a same-value UPDATE, driver defaults", RowCountFacts::sameValueUpdateWithDriverDefaults),
    F10("rows affected by a same-value UPDATE, useAffectedRows=true", RowCountFacts::sameValueUpdateWithUseAffectedRows),
    F11("BIGINT 9223372036854775807", ValueFacts::bigint),
    F12("BIGINT UNSIGNED 18446744073709551615", ValueFacts::bigintUnsigned),
    F13("DECIMAL(38,10) 1234567890123456789012345678.0123456789", ValueFacts::decimal),
    F14("timestamp without time zone 2024-02-29 13:45:56.123456", ValueFacts::timestamp),
    F15("timestamp with time zone 2024-02-29 13:45:56.123456 UTC", ValueFacts::timestampTz),
    F16("zero date 0000-00-00 00:00:00", ValueFacts::zeroDate),
    F17("JSON {\"role\":\"admin\"}", ValueFacts::json),
    F18("JSONB {\"role\":\"admin\"}", ValueFacts::jsonb),
    F19("binary 0x00ff80275c", ValueFacts::binary),
    F20("triggers on the written table, as seen by each role", CatalogFacts::triggersSeenByRole),
    F21("inbound ON DELETE CASCADE foreign key, as seen by each role", CatalogFacts::inboundForeignKeysSeenByRole),
    F22("measure of an UPDATE whose trigger inserts an audit row", SideEffectFacts::triggerWrite),
    F23("measure of a DELETE with an ON DELETE CASCADE child (2 rows)", SideEffectFacts::deleteCascade),
    F24("measure of an UPDATE with an ON UPDATE CASCADE child (2 rows)", SideEffectFacts::updateCascade),
    F25("measure of an UPDATE of the primary key", SideEffectFacts::primaryKeyUpdate),
    F26("measure at the start of a transaction, after one committed update", SideEffectFacts::measureScope),
    F27("measure read right after the statement", SideEffectFacts::measureFreshness),
    F28("foreign key actions with the driver's defaults", SideEffectFacts::sqliteForeignKeysByDefault),
    F29("read-only session vs a writing function called from a SELECT", ReadOnlyFacts::sessionReadOnly),
    F30("read-only transaction vs a writing function called from a SELECT", ReadOnlyFacts::transactionReadOnly),
    F31("Connection.setReadOnly(true) in auto-commit vs a writing function", ReadOnlyFacts::jdbcSetReadOnly),
    F32("another session's writes and DDL while a read-only transaction that read the row is open",
            HoldFacts::openReadTransaction),
    F33("the same at SERIALIZABLE", HoldFacts::openSerializableReadTransaction),
    F34("a transaction idle past the server's idle-in-transaction timeout of 1 s", HoldFacts::idleTransactionTimeout),
    F35("another session's UPDATE while a result set is open in auto-commit mode", HoldFacts::openResultSet),
    F36("a value of 20000000 characters computed by the server, driver defaults", HoldFacts::hugeValue),
    F37("the driver's or database's own 1 MiB limit against a value of 2000000 characters", HoldFacts::ownLimit),
    F38("measure of an UPDATE whose trigger writes the same row, or another row, again", SideEffectFacts::sameRowTrigger),
    F39("measure of plain statements on 3 rows: UPDATE, the same UPDATE again, SET v = v, DELETE, none matched",
            SideEffectFacts::plainStatements),
    F40("measure of an UPDATE and a DELETE with ON UPDATE / ON DELETE SET NULL children (2 rows)",
            SideEffectFacts::setNull),
    F41("measure of a trigger calling a writing procedure, and of a writing function in SET and in WHERE",
            SideEffectFacts::writingRoutines),
    F42("measure of an UPDATE of 3 rows whose WHERE reads a derived table", SideEffectFacts::internalTemporaryTable);

    private final String title;
    private final Probe probe;

    Fact(String title, Probe probe) {
        this.title = title;
        this.probe = probe;
    }

    String title() {
        return title;
    }

    Probe probe() {
        return probe;
    }
}
