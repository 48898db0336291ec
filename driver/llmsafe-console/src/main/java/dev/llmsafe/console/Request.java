package dev.llmsafe.console;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request and its answer: the query and form fields, the cookies, and the responses, each with the
 * headers every page of the console carries (no script, no frame, no referrer, no caching).
 */
final class Request {

    /** default-src 'none': no script, image, font or connection; the style sheet is the only source. */
    static final String CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none';"
            + " base-uri 'none'";

    /** A form larger than this is refused before it is read: a SELECT or a reason is far smaller. */
    private static final int MAX_BODY = 256 * 1024;

    static final String COOKIE = "llmsafe_session";

    final HttpExchange exchange;
    private final boolean secure;
    private Map<String, String> form;

    Request(HttpExchange exchange, boolean secure) {
        this.exchange = exchange;
        this.secure = secure;
    }

    String method() {
        return exchange.getRequestMethod();
    }

    String path() {
        return exchange.getRequestURI().getRawPath();
    }

    String address() {
        return exchange.getRemoteAddress().getAddress().getHostAddress();
    }

    Optional<String> header(String name) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
    }

    /** The query's fields. */
    Map<String, String> query() {
        return fields(exchange.getRequestURI().getRawQuery());
    }

    /** The form's fields (application/x-www-form-urlencoded), read once. */
    Map<String, String> form() throws IOException {
        if (form == null) {
            byte[] body = readBody();
            form = fields(new String(body, StandardCharsets.UTF_8));
        }
        return form;
    }

    private byte[] readBody() throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
                if (out.size() > MAX_BODY) {
                    throw new TooLarge();
                }
            }
            return out.toByteArray();
        }
    }

    /** A form over the size bound. */
    static final class TooLarge extends IOException {
        TooLarge() {
            super("the form is larger than " + MAX_BODY + " bytes");
        }
    }

    private static Map<String, String> fields(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.putIfAbsent(k, v);
        }
        return out;
    }

    /** The session cookie's value, if the request carries one. */
    Optional<String> sessionCookie() {
        List<String> headers = exchange.getRequestHeaders().get("Cookie");
        if (headers == null) {
            return Optional.empty();
        }
        for (String h : headers) {
            for (String c : h.split(";")) {
                String t = c.strip();
                if (t.startsWith(COOKIE + "=")) {
                    return Optional.of(t.substring(COOKIE.length() + 1));
                }
            }
        }
        return Optional.empty();
    }

    void setSession(String id) {
        exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + id + "; Path=/; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : ""));
    }

    void clearSession() {
        exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : ""));
    }

    void html(int status, String page) throws IOException {
        send(status, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8), null);
    }

    void download(String type, String fileName, String body) throws IOException {
        send(200, type, body.getBytes(StandardCharsets.UTF_8), fileName);
    }

    void css(String body) throws IOException {
        send(200, "text/css; charset=utf-8", body.getBytes(StandardCharsets.UTF_8), null);
    }

    /** 303: after a POST, the browser GETs the answer, so a reload does not send the form again. */
    void redirect(String location) throws IOException {
        headers();
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(303, -1);
        exchange.close();
    }

    private void send(int status, String type, byte[] body, String fileName) throws IOException {
        headers();
        exchange.getResponseHeaders().set("Content-Type", type);
        if (fileName != null) {
            exchange.getResponseHeaders().set("Content-Disposition", "attachment; filename=\"" + fileName + "\"");
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }

    private void headers() {
        var h = exchange.getResponseHeaders();
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("X-Frame-Options", "DENY");
        h.set("Cache-Control", "no-store");
        if (secure) {
            h.set("Strict-Transport-Security", "max-age=31536000");
        }
    }
}
