package dev.llmsafe.console;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.ConsoleSettings;
import dev.llmsafe.policy.ConsoleSettings.Role;
import dev.llmsafe.tools.DatabaseTools;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approval console's HTTP server ({@code llmsafe serve}). The JDK's own server: a small console
 * needs no framework, and nothing is added to the class path of the command line's jar for it; HTTPS
 * is the same server with a key store. Started by {@link #start}, stopped by {@link #close}.
 */
public final class ConsoleServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);

    /** How often the store is looked at for new plans to announce (console.webhook). */
    static final Duration NOTIFY_EVERY = Duration.ofSeconds(15);

    private final HttpServer server;
    private final ExecutorService executor;
    private final boolean secure;
    private final Deployment deployment;
    private final ConsoleSettings settings;
    private final Map<String, ConsoleSettings.User> users = new HashMap<>();
    private final Sessions sessions;
    private final SignInLimiter limiter;
    private final PlanPages plans;
    private final ReadPage reads;
    private final String style;
    private final Notifier notifier;

    private ConsoleServer(Deployment deployment, ConsoleSettings settings, HttpServer server, boolean secure,
            DatabaseTools tools, Clock clock, Duration notifyEvery) throws IOException {
        this.deployment = deployment;
        this.settings = settings;
        this.server = server;
        this.secure = secure;
        for (ConsoleSettings.User u : settings.users()) {
            users.put(u.name().toLowerCase(Locale.ROOT), u);
        }
        this.sessions = new Sessions(Duration.ofMinutes(settings.idleMinutes()), clock);
        this.limiter = new SignInLimiter(clock);
        this.plans = new PlanPages(deployment, clock);
        this.reads = new ReadPage(tools);
        try (InputStream in = ConsoleServer.class.getResourceAsStream("style.css")) {
            this.style = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        this.executor = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "llmsafe-console");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        String link = settings.publicUrl().orElse((secure ? "https" : "http") + "://"
                + server.getAddress().getHostString() + ":" + server.getAddress().getPort()).replaceAll("/+$", "");
        this.notifier = settings.webhook().map(w -> new Notifier(deployment, w, link, notifyEvery)).orElse(null);
        server.createContext("/", exchange -> {
            Request request = new Request(exchange, secure);
            try {
                handle(request);
            } catch (Request.TooLarge e) {
                request.html(413, Html.page("Too large", null, "", "<p>" + Html.escape(e.getMessage()) + "</p>"));
            } catch (IOException | RuntimeException e) {
                LOG.warn("the console could not answer {} {}", exchange.getRequestMethod(), request.path(), e);
                try {
                    request.html(500, Html.page("Error", null, "", "<p>The console failed to answer; the server's log"
                            + " says why. Nothing was changed by this request unless its page said so.</p>"));
                } catch (IOException | RuntimeException ignored) {
                    exchange.close();
                }
            }
        });
    }

    /**
     * Starts the console on the address, with the deployment's store, approver, applier and reads, and
     * the users and proxy of its configuration's {@code console} section.
     *
     * @param deployment the configuration's connections; it must serve approve, apply and read, and stays
     *     open when the console closes
     * @param address where to listen; 127.0.0.1 unless the console is meant to be reached from elsewhere
     * @throws ConfigException when the configuration has no console section, no way to sign in, a hash
     *     that is not a BCrypt hash, or a key store that cannot be read
     */
    public static ConsoleServer start(Deployment deployment, InetSocketAddress address) throws IOException, SQLException {
        return start(deployment, address, Clock.systemUTC());
    }

    static ConsoleServer start(Deployment deployment, InetSocketAddress address, Clock clock)
            throws IOException, SQLException {
        return start(deployment, settings(deployment), address, clock, NOTIFY_EVERY);
    }

    /** A console with the given settings instead of the configuration's (tests: another proxy). */
    static ConsoleServer start(Deployment deployment, ConsoleSettings settings, InetSocketAddress address, Clock clock,
            Duration notifyEvery) throws IOException, SQLException {
        HttpServer server;
        if (settings.tls().isPresent()) {
            HttpsServer https = HttpsServer.create(address, 64);
            https.setHttpsConfigurator(new HttpsConfigurator(tls(deployment, settings.tls().get())));
            server = https;
        } else {
            server = HttpServer.create(address, 64);
        }
        DatabaseTools tools = DatabaseTools.over(deployment);
        ConsoleServer console = new ConsoleServer(deployment, settings, server, settings.tls().isPresent(), tools, clock,
                notifyEvery);
        server.start();
        LOG.info("the approval console listens on {}://{}:{}", console.secure ? "https" : "http",
                address.getHostString(), console.port());
        return console;
    }

    private static ConsoleSettings settings(Deployment deployment) {
        String source = deployment.config().source();
        ConsoleSettings s = deployment.config().console().orElseThrow(() -> new ConfigException(source, 0, 0, "console",
                "this configuration has no console section; add one with the users who may sign in (see the README,"
                        + " \"The approval console\")"));
        if (s.users().isEmpty() && s.trustedProxy().isEmpty()) {
            throw new ConfigException(source, 0, 0, "console.users", "nobody could sign in: name users, or a"
                    + " trustedProxy that authenticates them");
        }
        for (int i = 0; i < s.users().size(); i++) {
            if (!Passwords.wellFormed(s.users().get(i).passwordHash().reveal())) {
                throw new ConfigException(source, 0, 0, "console.users[" + i + "].passwordHash", "not a BCrypt hash;"
                        + " make one with `llmsafe hash-password` and paste what it prints");
            }
        }
        return s;
    }

    private static SSLContext tls(Deployment deployment, ConsoleSettings.Tls tls) {
        try (InputStream in = Files.newInputStream(Path.of(tls.keyStore()))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            char[] password = tls.password().reveal().toCharArray();
            ks.load(in, password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(deployment.config().source(), 0, 0, "console.tls.keyStore", "the key store "
                    + tls.keyStore() + " cannot be read as PKCS#12 with its password: " + e.getMessage());
        }
    }

    /** The port the console listens on (the one chosen when 0 was asked for). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops the server; the deployment stays open. */
    @Override
    public void close() {
        if (notifier != null) {
            notifier.close();
        }
        server.stop(0);
        executor.shutdownNow();
    }

    // ---- requests ----

    private void handle(Request r) throws IOException {
        String path = r.path();
        if (!r.method().equals("GET") && !r.method().equals("POST")) {
            // Only a POST acts, and only with its token: no other method reaches a page.
            r.html(405, Html.page("Not allowed", null, "", "<p>The console answers GET and POST only.</p>"));
            return;
        }
        if (path.equals("/style.css") && r.method().equals("GET")) {
            r.css(style);
            return;
        }
        Optional<Sessions.Session> session;
        try {
            session = authenticate(r);
        } catch (Refused e) {
            r.html(e.status, Html.page("Refused", null, "", "<p class=\"refused\">" + Html.escape(e.getMessage())
                    + "</p>"));
            return;
        }
        if (path.equals("/signin")) {
            signIn(r, session);
            return;
        }
        if (session.isEmpty() || session.get().person == null) {
            r.redirect("/signin");
            return;
        }
        Sessions.Session s = session.get();
        if (r.method().equals("POST") && !s.csrfMatches(r.form().get("csrf"))) {
            r.html(403, Html.page("Refused", s.person, s.csrf, "<p class=\"refused\">This form is not one this console"
                    + " gave you (its CSRF token is missing or wrong), so nothing was done. Open the page again and"
                    + " send it from there.</p>"));
            return;
        }
        try {
            route(r, s);
        } catch (Refused e) {
            r.html(e.status, Html.page("Refused", s.person, s.csrf, "<p class=\"refused\">" + Html.escape(e.getMessage())
                    + "</p>"));
        } catch (SQLException e) {
            String why = e instanceof RefusedException re ? re.code() + ": " + re.detail() : e.getMessage();
            LOG.warn("console request {} {} failed: {}", r.method(), path, why);
            r.html(e instanceof RefusedException ? 409 : 502, Html.page("Refused", s.person, s.csrf,
                    "<p class=\"refused\">" + Html.text(why) + "</p>"));
        } catch (ConfigException e) {
            r.html(500, Html.page("Not configured", s.person, s.csrf, "<p class=\"refused\">" + Html.text(e.getMessage())
                    + "</p>"));
        }
    }

    private void route(Request r, Sessions.Session s) throws IOException, SQLException {
        String path = r.path();
        boolean get = r.method().equals("GET");
        if (path.equals("/") && get) {
            r.redirect("/plans");
        } else if (path.equals("/signout") && !get) {
            sessions.close(s.id);
            r.clearSession();
            r.redirect("/signin");
        } else if (path.equals("/plans") && get) {
            r.html(200, Html.page("Plans", s.person, s.csrf, plans.list(r.query())));
        } else if (path.startsWith("/plans/")) {
            plans.handle(r, s, path.substring("/plans/".length()), get);
        } else if (path.equals("/read")) {
            reads.handle(r, s, get);
        } else {
            r.html(404, Html.page("Not found", s.person, s.csrf, "<p>There is no such page. <a href=\"/plans\">The"
                    + " plans</a>.</p>"));
        }
    }

    /** A request the console refuses, with its status and a message for a person. */
    static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /**
     * The request's person: the trusted proxy's header from one of its addresses, else the session's.
     * The header from any other address is refused outright: a client that sends it is either
     * misconfigured or trying to be someone.
     */
    private Optional<Sessions.Session> authenticate(Request r) {
        Optional<Sessions.Session> session = r.sessionCookie().flatMap(sessions::find);
        Optional<ConsoleSettings.TrustedProxy> proxy = settings.trustedProxy();
        if (proxy.isEmpty()) {
            return session;
        }
        Optional<String> name = r.header(proxy.get().header());
        if (name.isEmpty()) {
            return session;
        }
        if (!proxy.get().addresses().contains(r.address())) {
            LOG.warn("the header {} came from {}, which is not a configured proxy address; refused",
                    proxy.get().header(), r.address());
            throw new Refused(403, "The header " + proxy.get().header() + " is believed only from the configured"
                    + " proxy, and this request came from another address. Nothing was done.");
        }
        String who = name.get().strip();
        if (who.isEmpty()) {
            throw new Refused(403, "The proxy's header " + proxy.get().header() + " names nobody.");
        }
        if (session.isPresent() && session.get().person != null && session.get().person.viaProxy()
                && session.get().person.name().equals(who)) {
            return session;
        }
        ConsoleSettings.User known = users.get(who.toLowerCase(Locale.ROOT));
        Person person = new Person(who, known != null ? known.roles() : proxy.get().roles(), true);
        Sessions.Session fresh = sessions.open(person);
        r.setSession(fresh.id);
        return Optional.of(fresh);
    }

    private void signIn(Request r, Optional<Sessions.Session> session) throws IOException {
        if (r.method().equals("GET")) {
            Sessions.Session s = session.filter(x -> x.person == null).orElseGet(() -> {
                Sessions.Session fresh = sessions.open(null);
                r.setSession(fresh.id);
                return fresh;
            });
            r.html(200, signInPage(s.csrf, ""));
            return;
        }
        Map<String, String> form = r.form();
        if (session.isEmpty() || !session.get().csrfMatches(form.get("csrf"))) {
            r.html(403, Html.page("Refused", null, "", "<p class=\"refused\">This sign-in form is not one this console"
                    + " gave you, or it is too old. <a href=\"/signin\">Sign in again</a>.</p>"));
            return;
        }
        String name = form.getOrDefault("name", "").strip();
        String password = form.getOrDefault("password", "");
        Duration wait = limiter.wait(r.address(), name);
        if (!wait.isZero()) {
            long minutes = Math.max(1, (wait.toSeconds() + 59) / 60);
            r.html(429, signInPage(session.get().csrf, "Too many failed sign-ins from here or for this name: try again"
                    + " in " + minutes + (minutes == 1 ? " minute." : " minutes.")));
            return;
        }
        ConsoleSettings.User user = users.get(name.toLowerCase(Locale.ROOT));
        if (!Passwords.matches(password, user == null ? null : user.passwordHash().reveal())) {
            limiter.failed(r.address(), name);
            LOG.info("a sign-in as {} from {} failed", name, r.address());
            r.html(401, signInPage(session.get().csrf, "That name and password do not match a user of this console."));
            return;
        }
        limiter.succeeded(name);
        sessions.close(session.get().id);
        Sessions.Session signedIn = sessions.open(new Person(user.name(), user.roles(), false));
        r.setSession(signedIn.id);
        LOG.info("{} signed in from {}", user.name(), r.address());
        r.redirect("/plans");
    }

    private static String signInPage(String csrf, String problem) {
        return Html.page("Sign in", null, csrf, "<h1>Sign in</h1>"
                + (problem.isEmpty() ? "" : "<p class=\"refused\">" + Html.escape(problem) + "</p>")
                + "<form method=\"post\" action=\"/signin\" class=\"signin\">" + Html.csrfField(csrf)
                + "<label>Name <input name=\"name\" autocomplete=\"username\" required></label>"
                + "<label>Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\""
                + " required></label><button type=\"submit\">Sign in</button></form>");
    }

    /** Refuses unless the person has the role. */
    static void require(Person p, Role role, String what) {
        if (!p.may(role)) {
            throw new Refused(403, p.name() + " is not " + (role == Role.APPLIER ? "an " : "a ") + role.label()
                    + " of this console and cannot " + what + ". Nothing was done.");
        }
    }

    Deployment deployment() {
        return deployment;
    }
}
