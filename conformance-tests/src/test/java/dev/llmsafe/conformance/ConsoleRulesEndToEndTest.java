package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.console.Client;
import dev.llmsafe.console.ConsoleServer;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.testing.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The approval console (K1 to K9) on the four-role deployment of {@link EndToEnd}: the console's file is
 * the deployment's without the planning connection, so the console reads with the read role, applies
 * with the apply role and keeps plans with the store role; plans come through {@code jdbc:llmsafe:} with
 * the planning role. The browser's view of the same is llmsafe-console's ConsoleBrowserTest.
 */
class ConsoleRulesEndToEndTest {

    private static final String PASSWORD = "a console password";
    private static final BlockingQueue<String> HOOKED = new LinkedBlockingQueue<>();
    private static final HttpServer HOOK = hook();

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> PlanCommands.orders(List.of(1)),
            List.of("orders"), List.of("orders"), List.of(), """
              "sealKey": "a-seal-key-of-the-console-e2e-tests",
              "policy": {
                "allow": ["orders"],
                "impact": {"orders": "A shipped order is invoiced the same night."}
              },
              "console": {
                "users": [
                  {"name": "alice", "roles": ["reader", "approver"], "passwordHash": "%1$s"},
                  {"name": "carol", "roles": ["approver"], "passwordHash": "%1$s"},
                  {"name": "bob", "roles": ["reader", "applier"], "passwordHash": "%1$s"}
                ],
                "trustedProxy": {"header": "X-Forwarded-User", "addresses": ["10.9.9.9"], "roles": ["approver"]},
                "webhook": "http://127.0.0.1:%2$d/hook"
              }
            """.formatted(BCrypt.hashpw(PASSWORD, BCrypt.gensalt(4)), HOOK.getAddress().getPort()));

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    private static final Map<Engine, Deployment> deployments = new EnumMap<>(Engine.class);
    private static final Map<Engine, ConsoleServer> consoles = new EnumMap<>(Engine.class);

    private static HttpServer hook() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.createContext("/hook", exchange -> {
                HOOKED.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            s.start();
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The console on the deployment's file less its planning connection. */
    private static synchronized String console(Deployed d) throws Exception {
        ConsoleServer running = consoles.get(d.engine());
        if (running == null) {
            ObjectMapper json = new ObjectMapper();
            ObjectNode file = (ObjectNode) json.readTree(Files.readString(d.home().resolve("llmsafe.json")));
            file.remove("connection");
            Path consoleFile = Files.writeString(d.home().resolve("console.json"), json.writeValueAsString(file));
            LlmSafeConfig config = LlmSafeConfig.load(consoleFile, d.env()::get);
            assertThat(config.planningConnection()).isEmpty();
            Deployment deployment = new Deployment(config, Clock.systemUTC());
            deployments.put(d.engine(), deployment);
            running = ConsoleServer.start(deployment, new InetSocketAddress("127.0.0.1", 0));
            consoles.put(d.engine(), running);
        }
        return "http://127.0.0.1:" + running.port();
    }

    @AfterAll
    static void stop() {
        consoles.values().forEach(ConsoleServer::close);
        deployments.values().forEach(Deployment::close);
        HOOK.stop(0);
    }

    private static String propose(Deployed d, String sql) throws Exception {
        return d.propose(sql, "orders").planId().toString();
    }

    /** A plan proposed through jdbc:llmsafe: with the planning role, naming its proposer. */
    private static String proposeAs(Deployed d, String proposer, String sql) throws Exception {
        java.util.Properties credential = new java.util.Properties();
        if (d.roles() != null) {
            credential.setProperty("user", d.roles().login(dev.llmsafe.conformance.RoleScript.Role.PLAN).name());
            credential.setProperty("password", d.roles().login(dev.llmsafe.conformance.RoleScript.Role.PLAN).password());
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(d.url() + "&llmsafe.proposer=" + proposer,
                credential); java.sql.Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        } catch (dev.llmsafe.jdbc.PlanPendingException pending) {
            return pending.planId().toString();
        }
        throw new AssertionError(sql + " was not made a plan");
    }

    private static String status(Deployed d, String id) {
        EndToEnd.Run show = d.llmsafe("show", id, "--json");
        return show.out().replaceAll("(?s).*\"status\"\\s*:\\s*\"([a-z]+)\".*", "$1");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void K1_K2_K3_K4_K7_K9_signInSessionsFormsTheProxyHeaderAndTheWebhook(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String waiting = propose(d, "UPDATE orders SET status = 'held' WHERE id = 5");
        String base = console(d);
        // K9: a plan proposed before the console started is announced when it starts.
        String message = null;
        for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); message == null && System.nanoTime() < until; ) {
            String m = HOOKED.poll(200, TimeUnit.MILLISECONDS);
            if (m != null && m.contains(waiting)) {
                message = m;
            }
        }
        assertThat(message).contains("\"planId\":\"" + waiting + "\"").contains("\"rows\":1")
                .contains("/plans/" + waiting + "\"");

        Client anonymous = new Client(base);
        HttpResponse<String> page = anonymous.get("/signin");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).startsWith("default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'"));
        assertThat(page.headers().firstValue("Set-Cookie")).hasValueSatisfying(c ->
                assertThat(c).contains("HttpOnly").contains("SameSite=Strict"));

        Client alice = Client.signedIn(base, "alice", PASSWORD);
        String token = alice.csrf;
        alice.csrf = null;
        assertThat(alice.post("/plans/" + waiting + "/reject", Map.of("reason", "no token")).statusCode()).isEqualTo(403);
        alice.csrf = token + "x";
        assertThat(alice.post("/plans/" + waiting + "/reject", Map.of("reason", "wrong token")).statusCode()).isEqualTo(403);
        Client forged = new Client(base);
        forged.cookie = "forged-" + token;
        forged.csrf = token;
        assertThat(forged.post("/plans/" + waiting + "/reject", Map.of()).headers().firstValue("Location")).contains("/signin");
        Client proxied = new Client(base);
        proxied.headers.put("X-Forwarded-User", "alice");
        assertThat(proxied.get("/plans").statusCode()).isEqualTo(403);
        assertThat(status(d, waiting)).isEqualTo("proposed");

        Client guesser = new Client(base);
        for (int i = 0; i < 5; i++) {
            assertThat(guesser.signIn("mallory", "guess " + i).statusCode()).isEqualTo(401);
        }
        assertThat(guesser.signIn("mallory", PASSWORD).statusCode()).isEqualTo(429);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void K5_K6_K8_theProposerCannotApproveAnApproverCannotApplyOneApplyOfTwoAndATamperedPlanIsShown(Engine engine)
            throws Exception {
        Deployed d = e2e.deployed(engine);
        String base = console(d);
        String plan = propose(d, "UPDATE orders SET status = 'shipped', note = '<img src=x onerror=alert(1)>\u202E'"
                + " WHERE id IN (1, 2)");
        Client alice = Client.signedIn(base, "alice", PASSWORD);
        assertThat(alice.get("/plans/" + plan).body()).contains("&lt;img src=x onerror=alert(1)&gt;\\u{202E}")
                .doesNotContain("<img").doesNotContain("\u202E");
        Client carol = Client.signedIn(base, "carol", PASSWORD);
        assertThat(carol.post("/plans/" + plan + "/approve", Map.of()).body()).contains("is approved by carol");
        HttpResponse<String> notApplier = alice.post("/plans/" + plan + "/apply", Map.of());
        assertThat(notApplier.statusCode()).isEqualTo(403);
        assertThat(status(d, plan)).isEqualTo("approved");

        Client bob = Client.signedIn(base, "bob", PASSWORD);
        List<CompletableFuture<HttpResponse<String>>> clicks = List.of(1, 2).stream().map(n -> CompletableFuture.supplyAsync(() -> {
            try {
                return bob.post("/plans/" + plan + "/apply", Map.of());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        })).toList();
        assertThat(clicks.stream().map(CompletableFuture::join).map(HttpResponse::statusCode).toList())
                .containsExactlyInAnyOrder(200, 409);
        assertThat(d.rows("orders")).filteredOn(r -> r.contains("shipped")).hasSize(2);
        assertThat(status(d, plan)).isEqualTo("applied");

        // The proposer, signed in as an approver, cannot approve its own plan: the actor is who signed in.
        String own = proposeAs(d, "alice", "UPDATE orders SET qty = 9 WHERE id = 3");
        HttpResponse<String> self = alice.post("/plans/" + own + "/approve", Map.of());
        assertThat(self.statusCode()).isEqualTo(409);
        assertThat(self.body()).contains("SELF_APPROVAL");
        // A plan edited in the store, its checksum recomputed, is shown tampered: the seal says so.
        StoreAdmin.editPlan(d, own, "qty = 9", "qty = 90", true);
        assertThat(alice.get("/plans/" + own).body()).contains("PLAN_TAMPERED").doesNotContain("Approve&hellip;");
        assertThat(alice.post("/plans/" + own + "/approve", Map.of()).body()).contains("PLAN_TAMPERED");
        assertThat(StoreAdmin.get(d, own, "status")).isEqualTo("proposed");

        HttpResponse<String> read = bob.post("/read", Map.of("sql", "SELECT id, status FROM orders WHERE id <= 2 ORDER BY id",
                "action", "csv"));
        assertThat(read.body()).isEqualTo("id,status\r\n1,shipped\r\n2,shipped\r\n");
    }
}
