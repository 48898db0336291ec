package dev.llmsafe.console;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A client without a browser, for what a browser would not send: forms without a token, forged cookies,
 * a proxy's header. It keeps one session cookie and the last page's CSRF token, as a browser would.
 * Public for the end-to-end tests of conformance-tests.
 */
public final class Client {

    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String COOKIE = Request.COOKIE;
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    private final String base;
    /** The session cookie's value, or null. */
    public String cookie;
    /** The last page's CSRF token, sent with every POST; null for none. */
    public String csrf;
    /** Headers sent with every request. */
    public final Map<String, String> headers = new LinkedHashMap<>();

    /** A client of the console at {@code base} (http://host:port). */
    public Client(String base) {
        this.base = base;
    }

    /** Signs in through the form; the session cookie is the one issued at sign-in. */
    static Client signedIn(Console console, String name) throws Exception {
        return signedIn(console.base(), name, Console.PASSWORD);
    }

    /** Signs in through the form, and opens the plans. */
    public static Client signedIn(String base, String name, String password) throws Exception {
        Client c = new Client(base);
        HttpResponse<String> r = c.signIn(name, password);
        if (r.statusCode() != 303) {
            throw new AssertionError("sign-in as " + name + " answered " + r.statusCode() + ": " + r.body());
        }
        c.get("/plans");
        return c;
    }

    /** Opens the sign-in form and sends it. */
    public HttpResponse<String> signIn(String name, String password) throws Exception {
        get("/signin");
        return post("/signin", Map.of("name", name, "password", password));
    }

    /** A GET. */
    public HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** A POST with the last page's token (unless the form names its own csrf). */
    public HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
        Map<String, String> fields = new LinkedHashMap<>();
        if (csrf != null) {
            fields.put("csrf", csrf);
        }
        fields.putAll(form);
        fields.values().removeIf(v -> v == null);
        String body = fields.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type",
                "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        if (cookie != null) {
            b.header("Cookie", COOKIE + "=" + cookie);
        }
        headers.forEach(b::header);
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        r.headers().allValues("Set-Cookie").forEach(c -> {
            if (c.startsWith(COOKIE + "=")) {
                String v = c.substring(COOKIE.length() + 1, c.indexOf(';'));
                cookie = v.isEmpty() ? null : v;
            }
        });
        Matcher m = CSRF.matcher(r.body());
        if (m.find()) {
            csrf = m.group(1);
        }
        return r;
    }
}
