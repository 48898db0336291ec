package dev.llmsafe.conformance;

/**
 * Every measured fact, with the id SPEC.md's "Measured facts" tables use for its row, and the probe
 * that measures it. The test asserting a fact is named after its id.
 */
enum Fact {
    F01("server statement timeout on an UPDATE", TimeoutFactsTest::serverTimeoutOnUpdate),
    F02("server statement timeout on a SELECT of a sleep alone", TimeoutFactsTest::serverTimeoutOnSleepAlone),
    F03("JDBC setQueryTimeout(1) on a 2.5 s UPDATE", TimeoutFactsTest::jdbcTimeoutOnUpdate),
    F04("JDBC setQueryTimeout(1) on a 2.5 s SELECT", TimeoutFactsTest::jdbcTimeoutOnSelect),
    F05("Statement.cancel() from another thread after 1 s of a 2.5 s UPDATE", TimeoutFactsTest::cancelOnUpdate),
    F06("row lock after ROLLBACK TO SAVEPOINT, the transaction wrote first",
            TransactionFactsTest::locksAfterRollbackToSavepointWhenTheCallerWroteFirst),
    F07("row lock after ROLLBACK TO SAVEPOINT, the savepoint came first",
            TransactionFactsTest::locksAfterRollbackToSavepointWhenTheSavepointCameFirst),
    F08("CREATE TABLE inside a transaction, then ROLLBACK", TransactionFactsTest::ddlInsideATransaction),
    F09("rows affected by a same-value UPDATE, driver defaults", RowCountFactsTest::sameValueUpdateWithDriverDefaults),
    F10("rows affected by a same-value UPDATE, useAffectedRows=true", RowCountFactsTest::sameValueUpdateWithUseAffectedRows),
    F11("BIGINT 9223372036854775807", ValueFactsTest::bigint),
    F12("BIGINT UNSIGNED 18446744073709551615", ValueFactsTest::bigintUnsigned),
    F13("DECIMAL(38,10) 1234567890123456789012345678.0123456789", ValueFactsTest::decimal),
    F14("timestamp without time zone 2024-02-29 13:45:56.123456", ValueFactsTest::timestamp),
    F15("timestamp with time zone 2024-02-29 13:45:56.123456 UTC", ValueFactsTest::timestampTz),
    F16("zero date 0000-00-00 00:00:00", ValueFactsTest::zeroDate),
    F17("JSON {\"role\":\"admin\"}", ValueFactsTest::json),
    F18("JSONB {\"role\":\"admin\"}", ValueFactsTest::jsonb),
    F19("binary 0x00ff80275c", ValueFactsTest::binary),
    F20("triggers on the written table, as seen by each role", CatalogFactsTest::triggersSeenByRole),
    F21("inbound ON DELETE CASCADE foreign key, as seen by each role", CatalogFactsTest::inboundForeignKeysSeenByRole),
    F22("measure of an UPDATE whose trigger inserts an audit row", SideEffectFactsTest::triggerWrite),
    F23("measure of a DELETE with an ON DELETE CASCADE child (2 rows)", SideEffectFactsTest::deleteCascade),
    F24("measure of an UPDATE with an ON UPDATE CASCADE child (2 rows)", SideEffectFactsTest::updateCascade),
    F25("measure of an UPDATE of the primary key", SideEffectFactsTest::primaryKeyUpdate),
    F26("measure at the start of a transaction, after one committed update", SideEffectFactsTest::measureScope),
    F27("measure read right after the statement", SideEffectFactsTest::measureFreshness),
    F28("foreign key actions with the driver's defaults", SideEffectFactsTest::sqliteForeignKeysByDefault),
    F29("read-only session vs a writing function called from a SELECT", ReadOnlyFactsTest::sessionReadOnly),
    F30("read-only transaction vs a writing function called from a SELECT", ReadOnlyFactsTest::transactionReadOnly),
    F31("Connection.setReadOnly(true) in auto-commit vs a writing function", ReadOnlyFactsTest::jdbcSetReadOnly);

    private final String title;
    private final Measured.Probe probe;

    Fact(String title, Measured.Probe probe) {
        this.title = title;
        this.probe = probe;
    }

    String title() {
        return title;
    }

    Measured.Probe probe() {
        return probe;
    }
}
