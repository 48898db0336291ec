package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.value.Visible;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Lists plans. */
final class ListCommand extends Base {

    private static final String ROW = "%-36s  %-8s  %-23s  %-16s  %5s  %s%n";
    /** Times in UTC, and saying so. */
    private static final java.time.format.DateTimeFormatter CREATED = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(java.time.ZoneOffset.UTC);

    String status;

    ListCommand() {
        super("list", "List the stored plans, newest first.");
        option("--status", "STATUS", v -> status = v,
                "Only plans with this status: proposed, approved, applying, applied, failed, rejected, expired.");
    }

    @Override
    int execute() throws Exception {
        Optional<PlanStatus> filter = Optional.empty();
        if (status != null) {
            try {
                filter = Optional.of(PlanStatus.valueOf(status.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--status is one of proposed, approved, applying, applied, failed,"
                        + " rejected, expired; not " + status);
            }
        }
        try (Deployment d = deployment()) {
            PlanStore.Listing listing = d.store().list(filter);
            List<StoredPlan> plans = listing.plans();
            // A plan that fails its check is named, and the status says so; the others are still listed.
            int exit = listing.unreadable().isEmpty() ? Main.OK : Main.REFUSED;
            if (common.json) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (StoredPlan p : plans) {
                    rows.add(Map.of("id", p.plan().id().toString(), "status", p.status().label(), "proposer",
                            p.plan().proposer(), "createdAt", p.plan().createdAt().toString(), "rows", p.plan().rowCount(),
                            "statements", p.plan().statements().stream().map(s -> s.sql()).toList()));
                }
                listing.unreadable().forEach((id, e) -> rows.add(Map.of("id", id.toString(), "error",
                        Json.object("code", e.code().name(), "message", e.getMessage()))));
                out().println(Json.write(rows));
                return exit;
            }
            listing.unreadable().values().forEach(e -> err().println(e.getMessage()));
            if (plans.isEmpty()) {
                out().println("No plans" + (status == null ? "." : " with status " + status + "."));
            }
            if (!plans.isEmpty()) {
                out().printf(ROW, "PLAN", "STATUS", "CREATED", "PROPOSER", "ROWS", "STATEMENT");
            }
            for (StoredPlan p : plans) {
                // C5: shown as the card shows it, and cut where no escape or character is cut in two.
                String sql = p.plan().statements().get(0).sql().replaceAll("[\\t\\n\\r ]+", " ");
                int cut = sql.codePointCount(0, sql.length()) > 60 ? sql.offsetByCodePoints(0, 57) : sql.length();
                String shown = Visible.text(sql.substring(0, cut)) + (cut < sql.length() ? "..." : "");
                out().printf(ROW, p.plan().id(), p.status().label(), CREATED.format(p.plan().createdAt()),
                        Visible.text(p.plan().proposer()), p.plan().rowCount(), shown);
            }
            if (!plans.isEmpty()) {
                out().println(plans.size() + (plans.size() == 1 ? " plan" : " plans"));
            }
            out().flush();
            return exit;
        }
    }
}
