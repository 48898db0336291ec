package dev.llmsafe.store;

import dev.llmsafe.dialect.Dialect;
import java.util.List;

/**
 * The store's tables, one migration per version, in each dialect's DDL. Their names begin with
 * {@code llmsafe_}, which the statement analysis refuses in every configuration (W5): a model that
 * could write the plans table could approve its own writes. Timestamps are ISO-8601 text in UTC, exact
 * and the same on every database.
 */
final class StoreSchema {

    static final String PLANS = "llmsafe_plans";
    static final String AUDIT = "llmsafe_audit";
    static final String VERSION = "llmsafe_schema_version";

    /** The version this code reads and writes. */
    static final int CURRENT = 1;

    private StoreSchema() {
    }

    static String versionTable(Dialect d) {
        return "CREATE TABLE " + VERSION + " (version INT NOT NULL)" + d.tableOptions();
    }

    /** The statements that bring the store from version {@code v - 1} to {@code v}. */
    static List<String> migration(int v, Dialect d) {
        if (v == 1) {
            String text = d.unboundedText();
            String auditId = d.identityPrimaryKey("id");
            return List.of(
                    "CREATE TABLE " + PLANS + " (id VARCHAR(36) PRIMARY KEY, created_at VARCHAR(40) NOT NULL,"
                            + " proposer VARCHAR(200) NOT NULL, status VARCHAR(20) NOT NULL, plan_json " + text
                            + " NOT NULL, checksum VARCHAR(64) NOT NULL, seal VARCHAR(64), approved_by VARCHAR(200),"
                            + " approved_at VARCHAR(40), approval_seal VARCHAR(64), applied_by VARCHAR(200),"
                            + " finished_at VARCHAR(40), outcome " + text + ")" + d.tableOptions(),
                    "CREATE INDEX llmsafe_plans_status ON " + PLANS + " (status, created_at)",
                    "CREATE TABLE " + AUDIT + " (" + auditId + ", plan_id VARCHAR(36) NOT NULL,"
                            + " at VARCHAR(40) NOT NULL, actor VARCHAR(200) NOT NULL, action VARCHAR(20) NOT NULL,"
                            + " outcome VARCHAR(20) NOT NULL, detail " + text + ")" + d.tableOptions(),
                    "CREATE INDEX llmsafe_audit_plan ON " + AUDIT + " (plan_id, id)");
        }
        throw new IllegalArgumentException("no migration to version " + v);
    }
}
