package dev.llmsafe.dialect;

/**
 * A table as the database names it: schema (PostgreSQL schema, MySQL database, SQLite schema such as
 * main) and name, exactly as stored in the catalog. Two references to the same table are equal.
 *
 * @param schema the schema
 * @param name the table name
 */
public record TableRef(String schema, String name) {

    /** {@code schema.name}, for messages. */
    @Override
    public String toString() {
        return schema + "." + name;
    }
}
