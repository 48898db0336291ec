package dev.llmsafe.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.policy.ConsoleSettings;
import dev.llmsafe.store.AuditAction;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.AuditOutcome;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's guards at the HTTP level, where a test can send what a browser would not: the headers,
 * the cookie's flags, forms without or with a wrong CSRF token, forged and stale sessions, the proxy's
 * header from an address not configured, an approver trying to apply, two applies at once, a plan edited
 * in the store, sign-in guessing. One console on SQLite; the browser tests run the three databases.
 */
class ConsoleHttpTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    static Path dir;

    static Console console;

    @BeforeAll
    static void start() throws Exception {
        console = new Console(dbs.get(Engine.SQLITE), dir, null);
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    private static PlanStatus status(UUID id) throws Exception {
        return console.deployment.store().load(id).status();
    }

    @Test
    void K1_everyPageForbidsScriptsAndFramesAndTheSessionCookieIsHttpOnlyAndSameSiteStrict() throws Exception {
        Client c = new Client(console.base());
        HttpResponse<String> r = c.get("/signin");
        assertThat(r.headers().firstValue("Content-Security-Policy")).contains("default-src 'none'; style-src 'self';"
                + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
        assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(r.headers().firstValue("Referrer-Policy")).contains("no-referrer");
        assertThat(r.headers().allValues("Set-Cookie")).singleElement().satisfies(cookie -> assertThat(cookie)
                .contains("HttpOnly").contains("SameSite=Strict").contains("Path=/").doesNotContain("Secure"));
        assertThat(r.body()).doesNotContain("<script");
        // Signing in issues a new session id: one planted before sign-in is worth nothing after it.
        String before = c.cookie;
        assertThat(c.post("/signin", Map.of("name", "alice", "password", Console.PASSWORD)).statusCode()).isEqualTo(303);
        assertThat(c.cookie).isNotEqualTo(before);
        Client planted = new Client(console.base());
        planted.cookie = before;
        assertThat(planted.get("/plans").headers().firstValue("Location")).contains("/signin");
        // Without a session every page sends the browser to sign in.
        assertThat(new Client(console.base()).get("/plans").headers().firstValue("Location")).contains("/signin");
    }

    @Test
    void K2_aPostWithoutOrWithAWrongCsrfTokenChangesNothing() throws Exception {
        UUID id = console.propose("assistant", "UPDATE orders SET status = 'shipped' WHERE id = 1");
        Client alice = Client.signedIn(console, "alice");
        String token = alice.csrf;
        alice.csrf = null;
        HttpResponse<String> none = alice.post("/plans/" + id + "/approve", Map.of());
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.body()).contains("CSRF token is missing or wrong");
        alice.csrf = "forged" + token;
        assertThat(alice.post("/plans/" + id + "/approve", Map.of()).statusCode()).isEqualTo(403);
        assertThat(status(id)).isEqualTo(PlanStatus.PROPOSED);
        // Only POST acts: another method with no token is not a way round it.
        HttpResponse<String> put = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(console.base() + "/plans/" + id + "/approve")).header("Cookie", Request.COOKIE + "="
                + alice.cookie).PUT(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(status(id)).isEqualTo(PlanStatus.PROPOSED);
        alice.csrf = token;
        HttpResponse<String> done = alice.post("/plans/" + id + "/approve", Map.of());
        assertThat(done.body()).contains("is approved by alice");
        assertThat(console.deployment.store().load(id).approvedBy()).contains("alice");
    }

    @Test
    void K3_aForgedOrStaleSessionCookieIsNoSession() throws Exception {
        UUID id = console.propose("assistant", "UPDATE orders SET status = 'shipped' WHERE id = 2");
        Client forged = new Client(console.base());
        forged.cookie = Sessions.randomId();
        forged.csrf = "anything";
        HttpResponse<String> r = forged.post("/plans/" + id + "/reject", Map.of("reason", "forged"));
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).contains("/signin");
        assertThat(status(id)).isEqualTo(PlanStatus.PROPOSED);

        Client alice = Client.signedIn(console, "alice");
        assertThat(alice.get("/plans").statusCode()).isEqualTo(200);
        console.clock.advance(Duration.ofMinutes(31));
        HttpResponse<String> stale = alice.post("/plans/" + id + "/reject", Map.of("reason", "stale"));
        assertThat(stale.headers().firstValue("Location")).contains("/signin");
        assertThat(status(id)).isEqualTo(PlanStatus.PROPOSED);
    }

    /** The test users, and an authenticating proxy at the address whose users are approvers. */
    private static ConsoleSettings proxyAt(String address) {
        return new ConsoleSettings(console.settings().users(), Optional.of(new ConsoleSettings.TrustedProxy(
                "X-Forwarded-User", List.of(address), Set.of(ConsoleSettings.Role.APPROVER))), 30, Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    @Test
    void K4_theProxyHeaderIsBelievedFromItsConfiguredAddressesOnly() throws Exception {
        UUID id = console.propose("assistant", "UPDATE orders SET status = 'shipped' WHERE id = 3");
        try (ConsoleServer other = ConsoleServer.start(console.deployment, proxyAt("10.9.9.9"),
                new InetSocketAddress("127.0.0.1", 0), console.clock, ConsoleServer.NOTIFY_EVERY)) {
            Client mallory = new Client("http://127.0.0.1:" + other.port());
            mallory.headers.put("X-Forwarded-User", "alice");
            HttpResponse<String> r = mallory.get("/plans");
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.body()).contains("believed only from the configured proxy");
            assertThat(mallory.post("/plans/" + id + "/approve", Map.of()).statusCode()).isEqualTo(403);
        }
        assertThat(status(id)).isEqualTo(PlanStatus.PROPOSED);
        try (ConsoleServer proxied = ConsoleServer.start(console.deployment, proxyAt("127.0.0.1"),
                new InetSocketAddress("127.0.0.1", 0), console.clock, ConsoleServer.NOTIFY_EVERY)) {
            Client erin = new Client("http://127.0.0.1:" + proxied.port());
            erin.headers.put("X-Forwarded-User", "erin@example.com");
            assertThat(erin.get("/plans/" + id).body()).contains("erin@example.com (approver)");
            assertThat(erin.get("/plans/" + id + "/approve").body()).contains("Yes, approve");
            assertThat(erin.post("/plans/" + id + "/approve", Map.of()).body()).contains("is approved by erin@example.com");
        }
        assertThat(console.deployment.store().load(id).approvedBy()).contains("erin@example.com");
    }

    @Test
    void K5_anApproverCannotApplyAndTwoAppliesAtOnceApplyOnce() throws Exception {
        UUID id = console.propose("assistant", "UPDATE orders SET note = 'twice?' WHERE id = 4");
        Client alice = Client.signedIn(console, "alice");
        alice.post("/plans/" + id + "/approve", Map.of());
        assertThat(status(id)).isEqualTo(PlanStatus.APPROVED);
        HttpResponse<String> refused = alice.post("/plans/" + id + "/apply", Map.of());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("alice is not an applier of this console and cannot apply plans");
        assertThat(status(id)).isEqualTo(PlanStatus.APPROVED);

        Client bob = Client.signedIn(console, "bob");
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> clicks = List.of(1, 2).stream().map(n -> CompletableFuture.supplyAsync(() -> {
            try {
                go.await();
                return bob.post("/plans/" + id + "/apply", Map.of());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        })).toList();
        go.countDown();
        List<HttpResponse<String>> answers = clicks.stream().map(CompletableFuture::join).toList();
        assertThat(answers).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(200, 409);
        assertThat(answers).filteredOn(a -> a.statusCode() == 200).singleElement()
                .satisfies(a -> assertThat(a.body()).contains("is applied: 1 row was changed"));
        assertThat(answers).filteredOn(a -> a.statusCode() == 409).singleElement()
                .satisfies(a -> assertThat(a.body()).contains("ALREADY_APPLIED").contains("Nothing was changed"));
        assertThat(console.deployment.store().load(id).history()).filteredOn(e -> e.action() == AuditAction.APPLY
                && e.outcome() == AuditOutcome.APPLIED).extracting(AuditEntry::actor).containsExactly("bob");
        assertThat(console.db.snapshot("orders")).contains("[4, packed, twice?]");
    }

    @Test
    void K6_aPlanEditedInTheStoreIsShownTamperedAndCannotBeApproved() throws Exception {
        UUID id = console.propose("assistant", "UPDATE orders SET status = 'lost' WHERE id = 1");
        console.db.execute("UPDATE llmsafe_plans SET plan_json = replace(plan_json, 'lost', 'found') WHERE id = '" + id + "'");
        Client alice = Client.signedIn(console, "alice");
        assertThat(alice.get("/plans/" + id).body()).contains("PLAN_TAMPERED").contains("was changed after it was stored")
                .doesNotContain("Approve&hellip;");
        assertThat(alice.get("/plans").body()).contains("Plans that failed their check").contains(id.toString());
        HttpResponse<String> r = alice.post("/plans/" + id + "/approve", Map.of());
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.body()).contains("PLAN_TAMPERED");
    }

    @Test
    void K7_signInFailuresAreRateLimitedPerName() throws Exception {
        Client guesser = new Client(console.base());
        for (int i = 0; i < SignInLimiter.FAILURES; i++) {
            assertThat(guesser.signIn("dave", "guess " + i).statusCode()).isEqualTo(401);
        }
        HttpResponse<String> r = guesser.signIn("dave", Console.PASSWORD);
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.body()).contains("Too many failed sign-ins");
        assertThat(new Client(console.base()).signIn("dave", Console.PASSWORD).statusCode()).as("per name, too")
                .isEqualTo(429);
        console.clock.advance(SignInLimiter.WINDOW);
        assertThat(new Client(console.base()).signIn("dave", Console.PASSWORD).statusCode()).isEqualTo(303);
    }

    @Test
    void K9_aProposedPlanIsAnnouncedToTheWebhookOnceWithItsIdTableRowsAndLink() throws Exception {
        java.util.concurrent.BlockingQueue<String> received = new java.util.concurrent.LinkedBlockingQueue<>();
        com.sun.net.httpserver.HttpServer hook = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hook.start();
        ConsoleSettings base = console.settings();
        ConsoleSettings notifying = new ConsoleSettings(base.users(), Optional.empty(), 30, Optional.empty(),
                Optional.of("http://127.0.0.1:" + hook.getAddress().getPort() + "/hook"),
                Optional.of("https://console.example/"));
        try (ConsoleServer other = ConsoleServer.start(console.deployment, notifying,
                new InetSocketAddress("127.0.0.1", 0), console.clock, Duration.ofMillis(100))) {
            UUID id = console.propose("assistant", "UPDATE orders SET status = 'held' WHERE id IN (2, 3)");
            List<com.fasterxml.jackson.databind.JsonNode> messages = new java.util.ArrayList<>();
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (messages.isEmpty() && System.nanoTime() < until) {
                String body = received.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (body != null && body.contains(id.toString())) {
                    messages.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(body));
                }
            }
            assertThat(messages).singleElement().satisfies(m -> {
                assertThat(m.get("planId").asText()).isEqualTo(id.toString());
                assertThat(m.get("table").asText()).isEqualTo("main.orders");
                assertThat(m.get("rows").asInt()).isEqualTo(2);
                assertThat(m.get("link").asText()).isEqualTo("https://console.example/plans/" + id);
                assertThat(m.get("text").asText()).startsWith("Plan " + id + " waits for approval: 2 rows of main.orders");
            });
            Thread.sleep(500);
            assertThat(received).noneMatch(b -> b.contains(id.toString()));
        } finally {
            hook.stop(0);
        }
    }

    @Test
    void K1_underHttpsTheSessionCookieIsSecure() throws Exception {
        Path store = dir.resolve("console.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "test-password",
                "-keypass", "test-password", "-alias", "console", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1").redirectErrorStream(true).start();
        assertThat(keytool.waitFor()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
        ConsoleSettings base = console.settings();
        ConsoleSettings tls = new ConsoleSettings(base.users(), Optional.empty(), 30, Optional.of(new ConsoleSettings.Tls(
                store.toString(), dev.llmsafe.policy.Secret.of("test-password"))), Optional.empty(), Optional.empty());
        java.security.KeyStore trusted = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(store)) {
            trusted.load(in, "test-password".toCharArray());
        }
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        try (ConsoleServer https = ConsoleServer.start(console.deployment, tls, new InetSocketAddress("127.0.0.1", 0),
                console.clock, ConsoleServer.NOTIFY_EVERY)) {
            HttpResponse<String> r = java.net.http.HttpClient.newBuilder().sslContext(context).build().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("https://127.0.0.1:" + https.port() + "/signin"))
                            .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).contains("; Secure")
                    .contains("HttpOnly").contains("SameSite=Strict"));
            assertThat(r.headers().firstValue("Strict-Transport-Security")).isPresent();
        }
    }
}
