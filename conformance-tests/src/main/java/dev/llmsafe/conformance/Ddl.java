package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.sql.SQLException;

/** The few DDL shapes the facts need, spelled per flavor. */
final class Ddl {

    private Ddl() {
    }

    static String autoId(Flavor f) {
        return switch (f) {
            case POSTGRES -> "id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
            case MARIADB, MYSQL -> "id INT AUTO_INCREMENT PRIMARY KEY";
            case SQLITE -> "id INTEGER PRIMARY KEY";
        };
    }

    /**
     * {@code table(id, v)} with two rows, {@code audit(id, account_id)}, and an AFTER UPDATE trigger
     * on the table that inserts one audit row per updated row.
     */
    static void tableWithAuditTrigger(Scratch db, Flavor f, String table, String audit) throws SQLException {
        db.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO " + table + " VALUES (1, 0), (2, 0)",
                "CREATE TABLE " + audit + " (" + autoId(f) + ", account_id INT NOT NULL)");
        switch (f) {
            case POSTGRES -> db.execute(
                    "CREATE FUNCTION " + table + "_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                            + " INSERT INTO " + audit + " (account_id) VALUES (NEW.id); RETURN NEW; END $$",
                    "CREATE TRIGGER " + table + "_audit AFTER UPDATE ON " + table
                            + " FOR EACH ROW EXECUTE FUNCTION " + table + "_audit()");
            case MARIADB, MYSQL -> db.execute("CREATE TRIGGER " + table + "_audit AFTER UPDATE ON " + table
                    + " FOR EACH ROW INSERT INTO " + audit + " (account_id) VALUES (NEW.id)");
            case SQLITE -> db.execute("CREATE TRIGGER " + table + "_audit AFTER UPDATE ON " + table
                    + " BEGIN INSERT INTO " + audit + " (account_id) VALUES (NEW.id); END");
        }
    }

    /**
     * {@code parent(id, code)} with rows 1 'a' and 2 'b', and {@code child} with two rows pointing at
     * parent 1 through a foreign key with the given action, on {@code id} or on the unique {@code code}.
     */
    static void parentAndChild(Scratch db, String parent, String child, String column, String action)
            throws SQLException {
        String type = column.equals("id") ? "INT" : "VARCHAR(10)";
        String one = column.equals("id") ? "1" : "'a'";
        db.execute("CREATE TABLE " + parent + " (id INT PRIMARY KEY, code VARCHAR(10) NOT NULL UNIQUE)",
                "INSERT INTO " + parent + " VALUES (1, 'a'), (2, 'b')",
                "CREATE TABLE " + child + " (id INT PRIMARY KEY, parent_" + column + " " + type + " NOT NULL,"
                        + " FOREIGN KEY (parent_" + column + ") REFERENCES " + parent + " (" + column + ") " + action + ")",
                "INSERT INTO " + child + " VALUES (1, " + one + "), (2, " + one + ")");
    }
}
