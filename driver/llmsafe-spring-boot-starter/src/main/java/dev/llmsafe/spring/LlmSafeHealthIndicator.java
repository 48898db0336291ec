package dev.llmsafe.spring;

import dev.llmsafe.RefusedException;
import dev.llmsafe.tools.DatabaseTools;
import java.sql.SQLException;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The guard's health ({@code /actuator/health/llmsafe}) from the cheap parts of {@code llmsafe check}: UP
 * when the plan store is reachable and migrated and a guarded read runs in the read-only session; DOWN with
 * the refusal code and what to do otherwise (a missing store: run {@code llmsafe migrate}).
 */
public final class LlmSafeHealthIndicator extends AbstractHealthIndicator {

    private final DatabaseTools tools;

    /** @param tools the starter's tools, whose store and guarded data source are checked */
    public LlmSafeHealthIndicator(DatabaseTools tools) {
        super("llmsafe health check failed");
        this.tools = Objects.requireNonNull(tools, "tools");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try {
            tools.checkReady();
            builder.up().withDetail("store", "migrated").withDetail("reads", "read-only session proven");
        } catch (RefusedException e) {
            builder.down().withDetail("code", e.code().name()).withDetail("reason", e.detail());
        } catch (SQLException e) {
            builder.down().withDetail("sqlState", String.valueOf(e.getSQLState())).withDetail("reason", e.getMessage());
        }
    }
}
