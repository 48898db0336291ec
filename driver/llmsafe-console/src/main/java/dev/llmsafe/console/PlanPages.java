package dev.llmsafe.console;

import dev.llmsafe.RefusedException;
import dev.llmsafe.apply.ApplyResult;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.plan.Card;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.ConsoleSettings.Role;
import dev.llmsafe.store.AuditEntry;
import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.store.StoredPlan;
import dev.llmsafe.value.ValueText;
import dev.llmsafe.value.Visible;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The plans list, a plan's page, and the approve, reject and apply steps: each first a confirmation
 * page, then a POST whose outcome is a page of its own. The store's conditional status moves are the
 * guard against a second approval or apply (A8); this class only shows what they decided.
 */
final class PlanPages {

    private final Deployment deployment;
    private final Clock clock;

    PlanPages(Deployment deployment, Clock clock) {
        this.deployment = deployment;
        this.clock = clock;
    }

    // ---- the list ----

    /** Pending plans first (proposed, then approved), then the others by status; newest first within each. */
    String list(Map<String, String> query) throws SQLException {
        Optional<PlanStatus> status = Optional.ofNullable(query.get("status")).filter(s -> !s.isEmpty())
                .map(s -> java.util.Arrays.stream(PlanStatus.values()).filter(v -> v.label().equals(s)).findFirst()
                        .orElseThrow(() -> new ConsoleServer.Refused(400, "There is no plan status \"" + s + "\".")));
        String table = query.getOrDefault("table", "").strip();
        PlanStore.Listing listing = deployment.store().list(status);
        List<StoredPlan> shown = listing.plans().stream()
                .filter(p -> table.isEmpty() || tables(p.plan()).stream().anyMatch(t -> named(t, table)))
                .sorted(Comparator.comparingInt((StoredPlan p) -> p.status().ordinal())).toList();
        StringBuilder b = new StringBuilder("<h1>Plans</h1>\n<form method=\"get\" action=\"/plans\" class=\"filters\">")
                .append("<label>Status <select name=\"status\"><option value=\"\">any</option>");
        for (PlanStatus s : PlanStatus.values()) {
            b.append("<option").append(status.orElse(null) == s ? " selected" : "").append('>').append(s.label())
                    .append("</option>");
        }
        b.append("</select></label> <label>Table <input name=\"table\" value=\"").append(Html.escape(table))
                .append("\"></label> <button type=\"submit\">Show</button></form>\n");
        if (!listing.unreadable().isEmpty()) {
            b.append("<div class=\"tampered\"><h2>Plans that failed their check</h2><ul>");
            listing.unreadable().forEach((id, e) -> b.append("<li><a href=\"/plans/").append(id).append("\">").append(id)
                    .append("</a>: <strong>").append(e.code()).append("</strong> ").append(Html.text(e.detail()))
                    .append("</li>"));
            b.append("</ul></div>\n");
        }
        if (shown.isEmpty()) {
            return b.append("<p>No plans match.</p>").toString();
        }
        b.append("<table class=\"plans\"><thead><tr><th>Status</th><th>Plan</th><th>Table</th><th>Rows</th>")
                .append("<th>Proposed by</th><th>Proposed</th><th>Expires</th></tr></thead><tbody>\n");
        Duration expiry = Duration.ofHours(deployment.config().planExpiryHours());
        for (StoredPlan p : shown) {
            Instant expires = p.plan().createdAt().plus(expiry);
            boolean waiting = p.status() == PlanStatus.PROPOSED || p.status() == PlanStatus.APPROVED;
            b.append("<tr class=\"").append(p.status().label()).append("\"><td>").append(p.status().label())
                    .append("</td><td><a href=\"/plans/").append(p.plan().id()).append("\">")
                    .append(p.plan().id().toString(), 0, 8).append("</a></td><td>")
                    .append(Html.text(String.join(", ", tables(p.plan())))).append("</td><td>")
                    .append(p.plan().rowCount()).append("</td><td>").append(Html.text(p.plan().proposer()))
                    .append("</td><td title=\"").append(p.plan().createdAt()).append("\">")
                    .append(ago(p.plan().createdAt())).append("</td><td>")
                    .append(waiting ? "in " + span(Duration.between(clock.instant(), expires)) : "")
                    .append("</td></tr>\n");
        }
        return b.append("</tbody></table>").toString();
    }

    /** A table filter names the table with or without its schema: {@code orders} finds {@code sales.orders}. */
    private static boolean named(String table, String filter) {
        String t = table.toLowerCase(java.util.Locale.ROOT);
        String f = filter.toLowerCase(java.util.Locale.ROOT);
        return t.equals(f) || t.endsWith("." + f);
    }

    private static List<String> tables(Plan plan) {
        return plan.statements().stream().map(s -> s.table().toString()).distinct().toList();
    }

    private String ago(Instant at) {
        return span(Duration.between(at, clock.instant())) + " ago";
    }

    private static String span(Duration d) {
        long m = Math.max(0, d.toMinutes());
        if (m < 1) {
            return "less than a minute";
        }
        if (m < 120) {
            return m + (m == 1 ? " minute" : " minutes");
        }
        long h = m / 60;
        return h < 48 ? h + " hours" : h / 24 + " days";
    }

    // ---- one plan ----

    void handle(Request r, Sessions.Session s, String rest, boolean get) throws IOException, SQLException {
        String[] parts = rest.split("/", -1);
        UUID id;
        try {
            id = UUID.fromString(parts[0]);
        } catch (IllegalArgumentException e) {
            throw new ConsoleServer.Refused(404, "There is no plan with the id " + parts[0] + ".");
        }
        Person p = s.person;
        if (parts.length == 1 && get) {
            r.html(200, Html.page("Plan " + id, p, s.csrf, page(id, p, s.csrf)));
            return;
        }
        String action = parts.length == 2 ? parts[1] : "";
        if (!List.of("approve", "reject", "apply").contains(action)) {
            throw new ConsoleServer.Refused(404, "There is no such page.");
        }
        ConsoleServer.require(p, action.equals("apply") ? Role.APPLIER : Role.APPROVER, action + " plans");
        if (get) {
            r.html(200, Html.page("Confirm", p, s.csrf, confirm(id, action, s.csrf)));
            return;
        }
        String outcome = act(id, action, p, r.form().getOrDefault("reason", "").strip());
        r.html(200, Html.page("Done", p, s.csrf, "<p class=\"outcome\">" + outcome + "</p><p><a href=\"/plans/" + id
                + "\">Back to the plan</a> &middot; <a href=\"/plans\">All plans</a></p>"));
    }

    /** The act, as the signed-in person; the outcome in plain words (already HTML). */
    private String act(UUID id, String action, Person p, String reason) throws SQLException {
        try {
            switch (action) {
                case "approve" -> {
                    deployment.approver().approve(id, p.name());
                    return "Plan " + id + " is approved by " + Html.text(p.name()) + ". An applier can apply it now.";
                }
                case "reject" -> {
                    deployment.approver().reject(id, p.name(), reason);
                    return "Plan " + id + " is rejected; it can never be applied.";
                }
                default -> {
                    ApplyResult result = deployment.applier().apply(id, p.name());
                    long rows = result.rows().stream().mapToLong(Long::longValue).sum();
                    return "Plan " + id + " is applied: " + rows + (rows == 1 ? " row was" : " rows were")
                            + " changed, exactly as its card showed."
                            + result.warnings().stream().map(w -> "<br>Warning: " + Html.text(w))
                                    .collect(Collectors.joining());
                }
            }
        } catch (RefusedException e) {
            throw new ConsoleServer.Refused(409, "Not done: " + Visible.text(e.detail()) + " (" + e.code()
                    + "). Nothing was changed by this request.");
        }
    }

    private String confirm(UUID id, String action, String csrf) throws SQLException {
        StoredPlan sp = load(id);
        Plan plan = sp.plan();
        StringBuilder b = new StringBuilder("<h1>").append(switch (action) {
            case "approve" -> "Approve";
            case "reject" -> "Reject";
            default -> "Apply";
        }).append(" plan ").append(id).append("?</h1>\n");
        impacts(b, plan);
        b.append("<p>").append(plan.rowCount()).append(plan.rowCount() == 1 ? " row" : " rows").append(", proposed by ")
                .append(Html.text(plan.proposer())).append(".</p>\n<form method=\"post\" action=\"/plans/").append(id)
                .append('/').append(action).append("\">").append(Html.csrfField(csrf));
        switch (action) {
            case "approve" -> b.append("<p>Approving says you have read the rows and their before and after.</p>"
                    + "<button type=\"submit\">Yes, approve</button>");
            case "reject" -> b.append("<label>Reason <input name=\"reason\" size=\"60\"></label> "
                    + "<button type=\"submit\">Yes, reject</button>");
            default -> b.append("<p>Applying commits the change in the database, after checking that the rows are still"
                    + " as the card showed. It cannot be undone by llmsafe.</p><button type=\"submit\">Yes, apply"
                    + " now</button>");
        }
        return b.append(" <a href=\"/plans/").append(id).append("\">No, back to the plan</a></form>").toString();
    }

    private StoredPlan load(UUID id) throws SQLException {
        try {
            return deployment.store().load(id);
        } catch (RefusedException e) {
            throw new ConsoleServer.Refused(e.code() == dev.llmsafe.Refusal.PLAN_NOT_FOUND ? 404 : 409,
                    e.code() + ": " + Visible.text(e.detail()));
        }
    }

    private String page(UUID id, Person person, String csrf) throws SQLException {
        StoredPlan sp;
        try {
            sp = deployment.store().load(id);
        } catch (RefusedException e) {
            if (e.code() == dev.llmsafe.Refusal.PLAN_NOT_FOUND) {
                throw new ConsoleServer.Refused(404, "There is no plan " + id + ".");
            }
            return "<h1>Plan " + id + "</h1><div class=\"tampered\"><p><strong>" + e.code() + "</strong></p><p>"
                    + Html.text(e.detail()) + "</p><p>It cannot be approved or applied here.</p></div>";
        }
        Plan plan = sp.plan();
        StringBuilder b = new StringBuilder("<h1>Plan ").append(id).append(" <span class=\"status ")
                .append(sp.status().label()).append("\">").append(sp.status().label()).append("</span></h1>\n");
        impacts(b, plan);
        b.append("<p>Proposed by ").append(Html.text(plan.proposer())).append(", ").append(ago(plan.createdAt()))
                .append(" (").append(plan.createdAt()).append("), on ").append(Html.text(plan.database()))
                .append(". Nothing in the database has changed yet").append(sp.status() == PlanStatus.APPLIED
                        ? " by the proposal; the plan has since been applied." : ".").append("</p>\n");
        actions(b, sp, person);
        for (PlannedStatement s : plan.statements()) {
            statement(b, s);
        }
        list(b, "Warnings", plan.warnings());
        list(b, "Limits of this check on " + plan.database(), plan.limitations().isEmpty()
                ? List.of("none known") : plan.limitations());
        history(b, sp);
        return b.toString();
    }

    /** The impact sentences come first: they say why the change matters, before how it looks. */
    private static void impacts(StringBuilder b, Plan plan) {
        for (PlannedStatement s : plan.statements()) {
            b.append("<p class=\"impact\"><strong>").append(Html.text(s.table().toString())).append(":</strong> ")
                    .append(Html.text(s.impact())).append("</p>\n");
        }
    }

    private static void actions(StringBuilder b, StoredPlan sp, Person p) {
        UUID id = sp.plan().id();
        List<String> links = new ArrayList<>();
        if (sp.status() == PlanStatus.PROPOSED && p.may(Role.APPROVER)) {
            links.add("<a class=\"button\" href=\"/plans/" + id + "/approve\">Approve&hellip;</a>");
        }
        if ((sp.status() == PlanStatus.PROPOSED || sp.status() == PlanStatus.APPROVED) && p.may(Role.APPROVER)) {
            links.add("<a class=\"button\" href=\"/plans/" + id + "/reject\">Reject&hellip;</a>");
        }
        if (sp.status() == PlanStatus.APPROVED && p.may(Role.APPLIER)) {
            links.add("<a class=\"button\" href=\"/plans/" + id + "/apply\">Apply&hellip;</a>");
        }
        if (!links.isEmpty()) {
            b.append("<p class=\"actions\">").append(String.join(" ", links)).append("</p>\n");
        }
        sp.approvedBy().ifPresent(a -> b.append("<p>Approved by ").append(Html.text(a)).append(sp.approvedAt()
                .map(t -> " at " + t).orElse("")).append(".</p>\n"));
        sp.outcome().ifPresent(o -> b.append("<p>Outcome: ").append(Html.text(o)).append("</p>\n"));
    }

    private static void statement(StringBuilder b, PlannedStatement s) {
        int n = s.rows().size();
        b.append("<section class=\"statement\"><h2>").append(s.kind()).append(' ').append(Html.text(s.table().toString()))
                .append(": ").append(n).append(n == 1 ? " row" : " rows").append(s.kind() == PlannedStatement.Kind.DELETE
                        ? " deleted" : " changed").append("</h2>\n<pre class=\"sql\">");
        for (String line : s.sql().split("\r\n|\n|\r")) {
            b.append(Html.escape(Visible.statementLine(line))).append('\n');
        }
        b.append("</pre>\n");
        if (!s.parameters().isEmpty()) {
            b.append("<p>Parameters: ");
            for (int i = 0; i < s.parameters().size(); i++) {
                b.append(i == 0 ? "" : ", ").append(i + 1).append(": ").append(Html.escape(s.parameters().get(i).render()));
            }
            b.append("</p>\n");
        }
        if (s.irreversible()) {
            b.append("<p class=\"irreversible\">").append(Html.escape(PlannedStatement.IRREVERSIBLE)).append("</p>\n");
        }
        if (!s.autoColumns().isEmpty()) {
            b.append("<p>Maintained by the database, not set by this statement and not shown: ")
                    .append(Html.text(String.join(", ", s.autoColumns()))).append(".</p>\n");
        }
        b.append("<table class=\"rows\"><thead><tr><th>Row</th><th>Column</th><th>Before</th><th>After</th></tr>")
                .append("</thead><tbody>\n");
        for (RowChange row : s.rows()) {
            String key = row.key().entrySet().stream().map(e -> Visible.text(e.getKey()) + " = " + Card.key(e.getValue()))
                    .collect(Collectors.joining(", "));
            List<ColumnChange> columns = row.columns();
            if (columns.isEmpty()) {
                b.append("<tr><td>").append(Html.escape(key)).append("</td><td colspan=\"3\">matched, but no value changes")
                        .append("</td></tr>\n");
            }
            for (int i = 0; i < columns.size(); i++) {
                ColumnChange c = columns.get(i);
                b.append("<tr>").append(i == 0 ? "<td rowspan=\"" + columns.size() + "\">" + Html.escape(key) + "</td>" : "")
                        .append("<td>").append(Html.text(c.column())).append("</td>");
                if (c.after() == null) {
                    b.append("<td class=\"before\">").append(Html.escape(c.before().render()))
                            .append("</td><td class=\"after deleted\">(deleted)</td>");
                } else {
                    ValueText.RenderedChange rc = ValueText.renderChange(c.before(), c.after());
                    b.append("<td class=\"before\">").append(Html.escape(rc.before())).append("</td><td class=\"after\">")
                            .append(Html.escape(rc.after())).append("</td>");
                }
                b.append("</tr>\n");
            }
        }
        b.append("</tbody></table></section>\n");
    }

    private static void list(StringBuilder b, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        b.append("<h2>").append(Html.text(title)).append("</h2><ul>");
        items.forEach(i -> b.append("<li>").append(Html.text(i)).append("</li>"));
        b.append("</ul>\n");
    }

    private static void history(StringBuilder b, StoredPlan sp) {
        b.append("<h2>History</h2><table class=\"history\"><thead><tr><th>When</th><th>Who</th><th>What</th>")
                .append("<th>Outcome</th><th>Detail</th></tr></thead><tbody>\n");
        for (AuditEntry e : sp.history()) {
            b.append("<tr><td>").append(e.at()).append("</td><td>").append(Html.text(e.actor())).append("</td><td>")
                    .append(e.action().label()).append("</td><td>").append(e.outcome().label()).append("</td><td>")
                    .append(Html.text(e.detail())).append("</td></tr>\n");
        }
        b.append("</tbody></table>\n");
    }
}
