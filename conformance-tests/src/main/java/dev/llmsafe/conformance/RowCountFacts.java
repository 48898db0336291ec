package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * D9 and E2: the database's own count of affected rows is compared with the rows on the card, so
 * what that count means must be known: rows matched by the WHERE clause, or rows whose value changed.
 */
final class RowCountFacts {

    private RowCountFacts() {
    }

    static String sameValueUpdateWithDriverDefaults(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f09 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f09 VALUES (1, 5)");
        try (Connection c = db.connect()) {
            return sameValueUpdate(c, "f09");
        }
    }

    static String sameValueUpdateWithUseAffectedRows(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() != Flavor.MARIADB && server.flavor() != Flavor.MYSQL) {
            return "n/a (a Connector/J setting)";
        }
        db.execute("CREATE TABLE f10 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f10 VALUES (1, 5)");
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "useAffectedRows=true";
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            return sameValueUpdate(c, "f10");
        }
    }

    private static String sameValueUpdate(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            int n = s.executeUpdate("UPDATE " + table + " SET v = 5 WHERE id = 1");
            return n + (n == 1 ? " (rows matched)" : " (rows changed)");
        }
    }

}
