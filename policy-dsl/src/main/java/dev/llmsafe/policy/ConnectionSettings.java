package dev.llmsafe.policy;

import java.util.Optional;

/**
 * Where one of the four connections goes: a real JDBC URL (never {@code jdbc:llmsafe:}), and the
 * credential when it is not in the URL.
 *
 * @param url the JDBC URL of the real database, such as {@code jdbc:postgresql://db:5432/app}
 * @param user the user name, when not given in the URL
 * @param password the password, when not given in the URL
 */
public record ConnectionSettings(String url, Optional<String> user, Optional<Secret> password) {

    /** Checks that the URL is a JDBC URL of a real database, and not an in-memory SQLite one. */
    public ConnectionSettings {
        checkUrl(url);
    }

    /** A connection whose credential is in the URL or not needed (SQLite). */
    public static ConnectionSettings of(String url) {
        return new ConnectionSettings(url, Optional.empty(), Optional.empty());
    }

    /** A connection with a user and a password. */
    public static ConnectionSettings of(String url, String user, String password) {
        return new ConnectionSettings(url, Optional.ofNullable(user),
                Optional.ofNullable(password).map(Secret::of));
    }

    /** The user and where the database is, for messages; a URL may carry a password (J9: redacted). */
    public String describe() {
        return user.map(u -> u + " at ").orElse("") + JdbcUrls.redact(url);
    }

    /** The same as {@link #describe()}: a record would print the URL with its password. */
    @Override
    public String toString() {
        return describe();
    }

    static void checkUrl(String url) {
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("\"" + JdbcUrls.redact(url) + "\" is not a JDBC URL; write for example"
                    + " jdbc:postgresql://127.0.0.1:5432/app, jdbc:mysql://127.0.0.1:3306/app or jdbc:sqlite:app.db");
        }
        if (url.startsWith("jdbc:llmsafe:")) {
            throw new IllegalArgumentException("the configuration names the real database; remove the"
                    + " llmsafe: prefix from " + JdbcUrls.redact(url));
        }
        SqliteUrls.checkNotInMemory(url);
    }
}
