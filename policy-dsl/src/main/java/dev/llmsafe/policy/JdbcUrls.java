package dev.llmsafe.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A JDBC URL as it may be shown: where the database is, never how to log in to it (J9). What is kept
 * is an allowlist of the URL's structure, not a list of parameter names that hold passwords, because
 * the names differ per driver and version ({@code password}, {@code sslpassword}, Connector/J's
 * {@code password1} to {@code password3} and its key store passwords, sqlite-jdbc's {@code password}
 * and {@code hexkey}): the scheme, the hosts with their ports, and the database or file path. Every
 * parameter is removed, and so is the user information of an authority ({@code //user:pass@host},
 * which Connector/J reads) and every key of Connector/J's key-value host forms
 * ({@code //(host=h,port=1,password=p)/db}, {@code //address=(host=h)(password=p)/db}) but host and
 * port.
 */
public final class JdbcUrls {

    private JdbcUrls() {
    }

    /**
     * The URL with no credential in it: for {@code DatabaseMetaData.getURL()}, messages and logs.
     *
     * @param url a JDBC URL, or any text given where one was expected
     * @return the scheme, hosts and ports, and the database or path; null for null
     */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        String base = url;
        int end = firstOf(base, '?', ';');
        if (end >= 0) {
            base = base.substring(0, end);
        }
        int slashes = base.indexOf("//");
        if (slashes < 0) {
            // jdbc:sqlite:/path/file.db, or text that is no URL: a user's name and password can still
            // be written before an '@'.
            int at = base.lastIndexOf('@');
            return at < 0 ? base : base.substring(0, prefixEnd(base)) + base.substring(at + 1);
        }
        int start = slashes + 2;
        int path = authorityEnd(base, start);
        String authority = base.substring(start, path);
        List<String> hosts = new ArrayList<>();
        for (String host : topLevel(authority)) {
            hosts.add(host(host));
        }
        return base.substring(0, start) + String.join(",", hosts) + base.substring(path);
    }

    private static int firstOf(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    /** The end of {@code jdbc:<driver>:}, where the driver's own part of the URL starts. */
    private static int prefixEnd(String s) {
        int first = s.indexOf(':');
        int second = first < 0 ? -1 : s.indexOf(':', first + 1);
        return second < 0 ? 0 : second + 1;
    }

    /** The first '/' after the authority, outside parentheses (a key-value host may hold one). */
    private static int authorityEnd(String s, int start) {
        int depth = 0;
        for (int i = start; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth = Math.max(0, depth - 1);
            } else if (ch == '/' && depth == 0) {
                return i;
            }
        }
        return s.length();
    }

    /** The hosts of an authority, split at commas outside parentheses and brackets. */
    private static List<String> topLevel(String authority) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < authority.length(); i++) {
            char ch = authority.charAt(i);
            if (ch == '(' || ch == '[') {
                depth++;
            } else if (ch == ')' || ch == ']') {
                depth = Math.max(0, depth - 1);
            } else if (ch == ',' && depth == 0) {
                out.add(authority.substring(from, i));
                from = i + 1;
            }
        }
        out.add(authority.substring(from));
        return out;
    }

    /** One host: {@code host[:port]}, from a plain host, a bracketed list or a key-value host. */
    private static String host(String spec) {
        String s = spec.strip();
        if (s.startsWith("[") && s.endsWith("]")) {
            List<String> inner = new ArrayList<>();
            for (String h : topLevel(s.substring(1, s.length() - 1))) {
                inner.add(host(h));
            }
            return "[" + String.join(",", inner) + "]";
        }
        if (!s.startsWith("(") && !s.toLowerCase(Locale.ROOT).startsWith("address=")) {
            int at = s.lastIndexOf('@');
            return at < 0 ? s : s.substring(at + 1);
        }
        String host = null;
        String port = null;
        for (String pair : s.replaceAll("[()]", ",").split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = pair.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = pair.substring(eq + 1).strip();
            if (key.equals("host")) {
                host = value;
            } else if (key.equals("port")) {
                port = value;
            }
        }
        if (host == null) {
            return "";
        }
        return port == null ? host : host + ":" + port;
    }
}
