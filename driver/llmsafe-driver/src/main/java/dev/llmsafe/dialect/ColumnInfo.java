package dev.llmsafe.dialect;

import java.util.Optional;

/**
 * One column as the catalog describes it.
 *
 * @param name the name as the database spells it
 * @param type the declared type, as the database prints it (for example {@code numeric(12,2)})
 * @param dataType the bare type name the value readers choose a getter by (information_schema
 *     DATA_TYPE, PostgreSQL's type name, SQLite's declared type)
 * @param nullable whether it may hold NULL
 * @param generated whether the database computes it (generated or computed column): never written
 * @param autoUpdated whether the database changes it on every UPDATE by itself (MySQL ON UPDATE)
 * @param comment the column's comment, when it has one
 */
public record ColumnInfo(String name, String type, String dataType, boolean nullable, boolean generated, boolean autoUpdated,
        Optional<String> comment) {
}
