package dev.llmsafe.conformance;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * How to reach a user's database as the credential the harness was given: a JDBC URL without
 * credentials, and the user and password apart from it, so that the same URL can also be opened as
 * the roles the harness makes.
 *
 * @param url the JDBC URL, {@code user} and {@code password} parameters removed
 * @param user the user, or null when the URL needs none (SQLite)
 * @param password the password, or null
 */
record Server(String url, String user, String password) {

    /**
     * A server from the harness's options: the user and password given apart win over those in the
     * URL's parameters, which are taken out of it either way.
     *
     * @throws IllegalArgumentException when the URL is not one of the databases the harness knows
     */
    static Server of(String url, String user, String password) {
        if (url.startsWith("jdbc:llmsafe:")) {
            throw new IllegalArgumentException("give the real database's URL, without the llmsafe: prefix");
        }
        if (url.startsWith("jdbc:mariadb:")) {
            throw new IllegalArgumentException("write jdbc:mysql://... for MariaDB too: llmsafe talks to MariaDB"
                    + " through MySQL Connector/J, and the harness measures that driver");
        }
        if (!url.startsWith("jdbc:postgresql:") && !url.startsWith("jdbc:mysql:") && !url.startsWith("jdbc:sqlite:")) {
            throw new IllegalArgumentException("the harness measures PostgreSQL (jdbc:postgresql:), MySQL and MariaDB"
                    + " (jdbc:mysql:) and SQLite (jdbc:sqlite:); not " + url.substring(0, Math.min(url.length(), 20)));
        }
        if (url.startsWith("jdbc:sqlite:")) {
            return new Server(url, null, null);
        }
        int q = url.indexOf('?');
        if (q < 0) {
            return new Server(url, user, password);
        }
        String fromUrlUser = null;
        String fromUrlPassword = null;
        List<String> rest = new ArrayList<>();
        for (String param : url.substring(q + 1).split("&")) {
            if (param.startsWith("user=")) {
                fromUrlUser = decode(param.substring(5));
            } else if (param.startsWith("password=")) {
                fromUrlPassword = decode(param.substring(9));
            } else if (!param.isEmpty()) {
                rest.add(param);
            }
        }
        return new Server(url.substring(0, q) + (rest.isEmpty() ? "" : "?" + String.join("&", rest)),
                user != null ? user : fromUrlUser, password != null ? password : fromUrlPassword);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** Whether the URL is a SQLite one. */
    boolean sqlite() {
        return url.startsWith("jdbc:sqlite:");
    }

    /** Whether the URL is a PostgreSQL one; the others are MySQL or MariaDB. */
    boolean postgres() {
        return url.startsWith("jdbc:postgresql:");
    }

    /** A connection to {@code url} (which may name another schema or database) as this credential. */
    Connection connect(String otherUrl) throws SQLException {
        return connect(otherUrl, user, password);
    }

    static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(url, p);
    }

    /** The URL and user for messages, never the password. */
    String describe() {
        int q = url.indexOf('?');
        return (q < 0 ? url : url.substring(0, q)) + (user == null ? "" : " as " + user);
    }
}
