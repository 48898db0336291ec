package dev.llmsafe.dialect;

import java.util.Map;
import java.util.Optional;

/**
 * What the database says a transaction wrote (D14), measured after the statement ran and before the
 * rollback. Either per table (PostgreSQL), or as the session's counts of rows inserted, updated and
 * deleted without the tables (MySQL and MariaDB's {@code Handler_*} status), or as a total only
 * (SQLite counts changes on the connection), or unknown with the reason.
 *
 * @param perTable rows inserted, updated and deleted per table, when the database says per table
 * @param session rows inserted, updated and deleted by the session in all tables, when the database
 *     says only that
 * @param total the total rows written, when the database says only that
 * @param unknown why the database could not be asked, when it could not
 */
public record Writes(Map<TableRef, Counts> perTable, Optional<Counts> session, Optional<Long> total,
        Optional<String> unknown) {

    /**
     * @param inserted rows inserted
     * @param updated rows updated
     * @param deleted rows deleted
     */
    public record Counts(long inserted, long updated, long deleted) {
        /** All three together. */
        public long all() {
            return inserted + updated + deleted;
        }
    }

    /** Copies the map. */
    public Writes {
        perTable = Map.copyOf(perTable);
    }

    /** A per-table measurement. */
    public static Writes perTable(Map<TableRef, Counts> perTable) {
        return new Writes(perTable, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The session's counts, in all tables together. */
    public static Writes session(Counts counts) {
        return new Writes(Map.of(), Optional.of(counts), Optional.empty(), Optional.empty());
    }

    /** A total-only measurement. */
    public static Writes total(long rows) {
        return new Writes(Map.of(), Optional.empty(), Optional.of(rows), Optional.empty());
    }

    /** No measurement, with the reason. */
    public static Writes unknown(String why) {
        return new Writes(Map.of(), Optional.empty(), Optional.empty(), Optional.of(why));
    }
}
