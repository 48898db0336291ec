package dev.llmsafe.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.StoredPlan;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a chat channel that a plan waits: the console looks at the store's proposed plans at an
 * interval and posts one short JSON message per new plan to {@code console.webhook}, in the shape
 * Slack, Mattermost and Rocket.Chat incoming webhooks accept ({@code text}), with the plan id, its
 * tables, its rows and the link to its page as fields of their own. Plans proposed while the console
 * was down are announced when it starts; a failed post is logged, never retried into a flood.
 */
final class Notifier implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Deployment deployment;
    private final URI webhook;
    private final String link;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Set<UUID> announced = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "llmsafe-console-notify");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param link where people open the console, without a trailing slash
     * @param every how often the store is looked at
     */
    Notifier(Deployment deployment, String webhook, String link, Duration every) {
        this.deployment = deployment;
        this.webhook = URI.create(webhook);
        this.link = link;
        timer.scheduleWithFixedDelay(this::look, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            for (StoredPlan p : deployment.store().list(Optional.of(PlanStatus.PROPOSED)).plans()) {
                if (announced.add(p.plan().id())) {
                    post(p);
                }
            }
        } catch (Exception e) {
            LOG.warn("the console could not look for new plans to announce: {}", e.getMessage());
        }
    }

    private void post(StoredPlan p) throws Exception {
        String tables = String.join(", ", p.plan().statements().stream().map(s -> s.table().toString()).distinct().toList());
        String page = link + "/plans/" + p.plan().id();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("text", "Plan " + p.plan().id() + " waits for approval: " + p.plan().rowCount()
                + (p.plan().rowCount() == 1 ? " row" : " rows") + " of " + tables + ", proposed by "
                + p.plan().proposer() + ". " + page);
        message.put("planId", p.plan().id().toString());
        message.put("table", tables);
        message.put("rows", p.plan().rowCount());
        message.put("link", page);
        HttpRequest request = HttpRequest.newBuilder(webhook).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message))).build();
        HttpResponse<Void> r = http.send(request, HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() / 100 != 2) {
            LOG.warn("the webhook answered {} to the announcement of plan {}", r.statusCode(), p.plan().id());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
