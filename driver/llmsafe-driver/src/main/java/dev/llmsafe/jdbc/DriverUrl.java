package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.VendorUrls;
import dev.llmsafe.policy.JdbcUrls;
import dev.llmsafe.sql.SqlDialect;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * A {@code jdbc:llmsafe:} URL taken apart (J8): the real URL the vendor driver sees, llmsafe's own
 * {@code llmsafe.*} parameters, and the driver options that would defeat the guard, removed from the
 * URL and from the {@link Properties} alike before the vendor driver sees either.
 *
 * <p>What is removed, and why (README, "Using the driver"):
 * <ul>
 *   <li>MySQL/MariaDB {@code allowMultiQueries}: several statements in one string, the stacking bypass;</li>
 *   <li>{@code allowLoadLocalInfile}, {@code allowLoadLocalInfileInPath}, {@code allowLocalInfile},
 *       {@code allowUrlInLocalInfile}: the server may then read the client's files;</li>
 *   <li>{@code rewriteBatchedStatements} (MySQL), {@code reWriteBatchedInserts} (pgjdbc): the driver
 *       rewrites what was judged into other SQL;</li>
 *   <li>{@code queryInterceptors}, {@code statementInterceptors}: code that rewrites statements after
 *       they were judged;</li>
 *   <li>{@code autoDeserialize}: turns bytes in the database, which an attacker may have written, into
 *       Java objects;</li>
 *   <li>{@code useAffectedRows}: pinned to false, so that "rows affected" means rows matched, which the
 *       dry run compares with the rows it shows (SPEC.md F09, F10);</li>
 *   <li>pgjdbc {@code preferQueryMode=simple} and {@code extendedForPrepared}: the simple protocol runs
 *       every {@code ;}-separated statement of a string;</li>
 *   <li>sqlite-jdbc {@code enable_load_extension}: lets SQL load native code.</li>
 * </ul>
 * Option names are compared without case and after URL decoding, as the drivers read them. Which options
 * each vendor's URL may not carry is {@link VendorUrls}'s; this class only takes the URL apart.
 */
final class DriverUrl {

    static final String PREFIX = "jdbc:llmsafe:";

    /** The parameters llmsafe reads itself; any other {@code llmsafe.*} name is a typo, and refused. */
    static final String CONFIG = "llmsafe.config";
    static final String PROPOSER = "llmsafe.proposer";
    private static final Set<String> OWN = Set.of(CONFIG, PROPOSER);

    /**
     * A URL taken apart.
     *
     * @param dialect the database the real URL names
     * @param realUrl the URL for the vendor driver
     * @param properties the properties for the vendor driver
     * @param fromUrl llmsafe's own parameters given in the URL
     * @param fromProperties llmsafe's own parameters given as connection properties
     * @param removed the options removed, as given, for a warning in the log
     */
    record Parsed(SqlDialect dialect, String realUrl, Properties properties, Map<String, String> fromUrl,
            Map<String, String> fromProperties, List<String> removed) {

        /** An llmsafe parameter, from the properties or the URL; both given and different is an error. */
        String own(String name) throws SQLException {
            String p = fromProperties.get(name);
            String u = fromUrl.get(name);
            if (p != null && u != null && !p.equals(u)) {
                throw new SQLException(name + " is given both as a connection property (" + p + ") and in the URL ("
                        + u + "); give it once.", "08001");
            }
            return p != null ? p : u;
        }
    }

    private DriverUrl() {
    }

    /** Whether a URL is one of ours, with something after the prefix. */
    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) && url.length() > PREFIX.length();
    }

    /** Takes a {@code jdbc:llmsafe:} URL apart. */
    static Parsed parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw new SQLException("not a jdbc:llmsafe: URL", "08001");
        }
        // The prefix is removed once, at its place: replacing every occurrence would edit the real URL.
        String real = "jdbc:" + url.substring(PREFIX.length());
        if (accepts(real)) {
            throw new SQLException("the URL names jdbc:llmsafe: twice; write jdbc:llmsafe:<the database's own URL>",
                    "08001");
        }
        return real(real, info);
    }

    /** Strips a real URL and its properties (the URL of a configured read connection, too). */
    static Parsed real(String url, Properties info) throws SQLException {
        SqlDialect dialect = VendorUrls.dialectOf(url);
        List<String> removed = new ArrayList<>();
        Map<String, String> fromUrl = new LinkedHashMap<>();
        int q = url.indexOf('?');
        String base = q < 0 ? url : url.substring(0, q);
        StringBuilder query = new StringBuilder();
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (key.toLowerCase(Locale.ROOT).startsWith("llmsafe.")) {
                    putOnce(fromUrl, own(key), value);
                } else if (VendorUrls.removes(dialect, key, value)) {
                    removed.add(key + "=" + value);
                } else {
                    query.append(query.length() == 0 ? "" : "&").append(pair);
                }
            }
        }
        VendorUrls.checkBase(dialect, decode(base), query.toString());
        VendorUrls.pinned(dialect).ifPresent(pin -> query.append(query.length() == 0 ? "" : "&").append(pin));
        Properties props = new Properties();
        Map<String, String> fromProperties = new LinkedHashMap<>();
        if (info != null) {
            for (String key : info.stringPropertyNames()) {
                String value = info.getProperty(key);
                if (key.toLowerCase(Locale.ROOT).startsWith("llmsafe.")) {
                    putOnce(fromProperties, own(key), value);
                } else if (VendorUrls.removes(dialect, key, value)) {
                    removed.add(key + "=" + value);
                } else {
                    props.setProperty(key, value);
                }
            }
        }
        String realUrl = query.length() == 0 ? base : base + "?" + query;
        return new Parsed(dialect, realUrl, props, fromUrl, fromProperties, removed);
    }

    /** R12: the properties the model's connection is opened with (see {@link VendorUrls#forReads}). */
    static Properties forReads(Parsed p, VendorUrls.MaxBytes maxBytes) throws SQLException {
        return VendorUrls.forReads(p.dialect(), p.realUrl(), p.properties(), maxBytes);
    }

    /** One of llmsafe's own names, exactly as written: a mistyped or mis-cased one must not fall back to a default. */
    private static String own(String key) throws SQLException {
        if (!OWN.contains(key)) {
            throw new SQLException("unknown parameter " + key + "; llmsafe reads " + String.join(" and ", OWN.stream()
                    .sorted().toList()) + ", spelled exactly so", "08001");
        }
        return key;
    }

    /** A parameter given twice in one place is an error: which of the two would win is the driver's secret. */
    private static void putOnce(Map<String, String> map, String key, String value) throws SQLException {
        if (map.putIfAbsent(key, value) != null) {
            throw new SQLException(key + " is given twice; give it once", "08001");
        }
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /** The URL without its parameters and user information, which may hold a password: for messages (J9). */
    static String redacted(String url) {
        return JdbcUrls.redact(url);
    }
}
