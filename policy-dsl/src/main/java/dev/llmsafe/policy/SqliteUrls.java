package dev.llmsafe.policy;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What a SQLite URL of a configuration names (J8). sqlite-jdbc reads a relative path from the
 * process's working directory, so one configuration file meant one database when run from its own
 * directory and a new, empty one (SQLite creates a missing file) from another. In a configuration
 * file a relative path is therefore the file's: {@code jdbc:sqlite:app.db} in
 * {@code /etc/app/llmsafe.json} is {@code /etc/app/app.db}, whoever runs it from wherever.
 * Configuration text that is no file (a class path resource, text given in code) has no directory
 * for a relative path to be relative to, and one there is an error.
 *
 * <p>An in-memory database ({@code :memory:}, an empty path, {@code file::memory:},
 * {@code mode=memory}) is an error anywhere in a configuration: it belongs to the connection that
 * opened it, and the dry run, the apply and the store each run on a connection of their own.
 */
final class SqliteUrls {

    private static final String PREFIX = "jdbc:sqlite:";
    /** The URI parameter {@code mode=memory} itself, not {@code journal_mode=memory} (a file's journal). */
    private static final java.util.regex.Pattern MEMORY_MODE = java.util.regex.Pattern.compile("[?&]mode=memory(&|$)");

    private SqliteUrls() {
    }

    /** Refuses an in-memory SQLite database; other URLs pass. */
    static void checkNotInMemory(String url) {
        if (url == null || !url.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return;
        }
        String rest = url.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        String query = q < 0 ? "" : rest.substring(q).toLowerCase(Locale.ROOT);
        String file = isUri(path) ? path.substring(5) : path;
        if (path.isEmpty() || file.startsWith(":memory:") || path.startsWith(":memory:")
                || MEMORY_MODE.matcher(query).find()) {
            throw new IllegalArgumentException((path.isEmpty() ? "jdbc:sqlite: without a path" : url)
                    + " is an in-memory SQLite database, which belongs to the one connection that opens it: the dry"
                    + " run, the apply and the plan store each open their own and would each see another, empty"
                    + " database. Give the path of a database file, for example jdbc:sqlite:app.db");
        }
    }

    /**
     * The URL with a relative SQLite path made absolute against {@code directory}.
     *
     * @param directory the directory of the configuration file, or null when there is none
     * @throws IllegalArgumentException for a relative path and no directory, or an in-memory database
     */
    static String resolve(String url, Path directory) {
        if (!url.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return url;
        }
        checkNotInMemory(url);
        String rest = url.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        String query = q < 0 ? "" : rest.substring(q);
        if (path.startsWith(":")) {
            // :resource: (a database on the class path) and the in-memory forms name no file here.
            return url;
        }
        boolean uri = isUri(path);
        String file = uri ? path.substring(5) : path;
        if (uri ? file.startsWith("/") : Path.of(file).isAbsolute()) {
            return url;
        }
        if (directory == null) {
            throw new IllegalArgumentException("the SQLite path " + path + " is relative, and this configuration is"
                    + " not read from a file it could be relative to; give an absolute path (or ${VARIABLE})");
        }
        Path dir = directory.toAbsolutePath().normalize();
        if (uri) {
            // In a URI filename, ?, # and % are not part of the path.
            String d = dir.toString().replace("%", "%25").replace("?", "%3f").replace("#", "%23");
            return PREFIX + "file:" + d + (d.endsWith("/") ? "" : "/") + file + query;
        }
        return PREFIX + dir.resolve(file).normalize() + query;
    }

    private static boolean isUri(String path) {
        return path.regionMatches(true, 0, "file:", 0, 5);
    }
}
