package dev.llmsafe.dialect;

import java.util.List;
import java.util.Optional;

/**
 * What the live catalog says about one table, as the credential asking can see it.
 *
 * @param ref the table as the database names it (schema and name resolved, case folded)
 * @param kind what sort of relation it is
 * @param engine the storage engine (MySQL/MariaDB), or the relation kind's name elsewhere
 * @param transactional whether a ROLLBACK undoes writes to it (D15)
 * @param columns its columns in order
 * @param primaryKey the primary key's columns in key order; empty when there is none (W6)
 * @param triggers triggers that fire on UPDATE or DELETE of a row
 * @param inboundForeignKeys foreign keys of other tables (or this one) that reference it
 * @param comment the table's comment, when it has one
 * @param visibility what the credential could not see, if anything
 */
public record TableInfo(
        TableRef ref,
        Kind kind,
        String engine,
        boolean transactional,
        List<ColumnInfo> columns,
        List<String> primaryKey,
        List<Trigger> triggers,
        List<ForeignKey> inboundForeignKeys,
        Optional<String> comment,
        Visibility visibility) {

    /** Relation kinds. */
    public enum Kind {
        /** An ordinary table. */
        TABLE,
        /** A view or materialized view: not written through. */
        VIEW,
        /** A PostgreSQL foreign table: its writes leave the database. */
        FOREIGN_TABLE,
        /** A partitioned table (PostgreSQL): rows live in partitions. */
        PARTITIONED_TABLE,
        /** A SQLite virtual table. */
        VIRTUAL_TABLE
    }

    /**
     * A trigger.
     *
     * @param name its name
     * @param timing BEFORE, AFTER or INSTEAD OF
     * @param events the events it fires on (UPDATE, DELETE, ...)
     */
    public record Trigger(String name, String timing, List<String> events) {
        /** Copies the list. */
        public Trigger {
            events = List.copyOf(events);
        }
    }

    /**
     * A foreign key.
     *
     * @param child the referencing table
     * @param childColumns the referencing columns
     * @param parent the referenced table
     * @param parentColumns the referenced columns
     * @param onDelete the action on delete: NO ACTION, RESTRICT, CASCADE, SET NULL, SET DEFAULT
     * @param onUpdate the action on update
     */
    public record ForeignKey(TableRef child, List<String> childColumns, TableRef parent, List<String> parentColumns,
            String onDelete, String onUpdate) {
        /** Copies the lists. */
        public ForeignKey {
            childColumns = List.copyOf(childColumns);
            parentColumns = List.copyOf(parentColumns);
        }

        /** Whether the action writes to the child table (CASCADE, SET NULL, SET DEFAULT). */
        public static boolean writes(String action) {
            return action.equals("CASCADE") || action.equals("SET NULL") || action.equals("SET DEFAULT");
        }
    }

    /**
     * What the credential could not see. MySQL and MariaDB filter information_schema by privilege and
     * answer "none" for what they hide, so an empty list there is only an answer when it is visible.
     *
     * @param triggers whether triggers on the table are visible (MySQL: the TRIGGER privilege)
     * @param foreignKeys whether foreign keys referencing the table are visible (MySQL: a privilege on
     *     every table of the database)
     * @param grantHint the GRANT statements that would make everything visible, when something is not
     */
    public record Visibility(boolean triggers, boolean foreignKeys, Optional<String> grantHint) {
        /** Everything visible (PostgreSQL and SQLite do not filter their catalogs). */
        public static final Visibility COMPLETE = new Visibility(true, true, Optional.empty());
    }

    /** Copies the lists. */
    public TableInfo {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        triggers = List.copyOf(triggers);
        inboundForeignKeys = List.copyOf(inboundForeignKeys);
    }

    /** The column with this name as the database spells it, when there is one. */
    public Optional<ColumnInfo> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
