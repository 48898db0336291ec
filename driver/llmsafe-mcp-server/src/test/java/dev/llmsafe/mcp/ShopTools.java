package dev.llmsafe.mcp;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.tools.PlanStatus;
import dev.llmsafe.tools.ProposedPlan;
import dev.llmsafe.tools.ReadResult;
import dev.llmsafe.tools.SchemaContext;
import dev.llmsafe.tools.SqlTools;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.TextValue;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link SqlTools} for protocol tests: a shop's orders table held in memory, answering the few
 * statements the tests send the way the engine would (the same refusal codes and messages, a real
 * {@link Plan} with its real card and JSON). The protocol is what is under test; the engine is tested
 * on real databases elsewhere and wired to the server later.
 */
final class ShopTools implements SqlTools {

    static final String IMPACT = "Changing an order moves money: the ship date decides the supplier's payment month.";

    /** A plan that already went through approve and apply, for sql_plan_status. */
    static final String APPLIED_PLAN = "0b0f7f6e-5a43-4c55-9f0e-3f8c1d6a2b11";
    /** A plan whose apply was refused because the row moved on. */
    static final String FAILED_PLAN = "7d1e2c3b-8a9f-4e6d-b5c4-a3b2c1d0e9f8";

    private static final Pattern UPDATE_STATUS = Pattern.compile(
            "UPDATE orders SET status = '([a-z]+)' WHERE id = (\\d+)", Pattern.CASE_INSENSITIVE);

    private final Map<Long, Object[]> orders = new LinkedHashMap<>();
    private final Map<String, PlanStatus> plans = new LinkedHashMap<>();

    ShopTools() {
        orders.put(1L, new Object[] {1L, "shipped", new BigDecimal("1250.00"), "2026-11-02T09:14:00Z", null});
        orders.put(2L, new Object[] {2L, "packed", new BigDecimal("89.90"), "2026-11-28T16:40:12.123456Z", "gift wrap"});
        orders.put(3L, new Object[] {3L, "packed", new BigDecimal("12.50"), "2026-11-29T08:03:55Z", null});
        plans.put(APPLIED_PLAN, new PlanStatus(APPLIED_PLAN, PlanStatus.State.APPLIED, null, List.of(
                "2026-11-29T10:00:00Z proposed by mcp:claude-code",
                "2026-11-29T10:05:12Z approved by alice@example.com",
                "2026-11-29T10:06:40Z applied by deploy-bot: 1 row changed")));
        plans.put(FAILED_PLAN, new PlanStatus(FAILED_PLAN, PlanStatus.State.FAILED,
                "ROW_CHANGED: orders id = 3 has status 'cancelled', the card showed 'packed'", List.of(
                "2026-11-29T11:00:00Z proposed by mcp:claude-code",
                "2026-11-29T11:20:00Z approved by alice@example.com",
                "2026-11-29T11:21:03Z apply refused by deploy-bot (ROW_CHANGED)")));
    }

    @Override
    public ReadResult read(String sql) throws SQLException {
        String s = sql.strip().toLowerCase(Locale.ROOT);
        if (s.contains("password_hash")) {
            throw new RefusedException(Refusal.DENIED_IDENTIFIER, "The column password_hash is secret (a stored "
                    + "credential) and cannot be read. Leave it out of the query.");
        }
        if (s.contains("pg_catalog") || s.contains("information_schema")) {
            throw new RefusedException(Refusal.SYSTEM_CATALOG, "System catalogs cannot be read. Use sql_schema "
                    + "for the tables, columns and keys you may use.");
        }
        if (s.contains("shipped_at")) {
            throw new SQLException("ERROR: column \"shipped_at\" does not exist\n  Hint: Perhaps you meant to "
                    + "reference the column \"orders.created_at\".", "42703");
        }
        if (s.contains("crash")) {
            throw new IllegalStateException("a defect in the engine");
        }
        if (!s.startsWith("select") || !s.contains("from orders")) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "This test engine reads only SELECT ... FROM orders.");
        }
        List<ReadResult.Column> columns = List.of(new ReadResult.Column("id", "int8"),
                new ReadResult.Column("status", "text"), new ReadResult.Column("total", "numeric"),
                new ReadResult.Column("created_at", "timestamptz"), new ReadResult.Column("note", "text"));
        List<List<Object>> rows = new ArrayList<>();
        for (Object[] row : orders.values()) {
            if (!s.contains("status = 'packed'") || row[1].equals("packed")) {
                rows.add(Arrays.asList(row));
            }
        }
        // "LIMIT 2" stands for a read cap of two rows: the engine fetches cap + 1 to detect truncation (R4).
        boolean truncated = s.endsWith("limit 2") && rows.size() > 2;
        return new ReadResult(columns, truncated ? rows.subList(0, 2) : rows, truncated);
    }

    @Override
    public ProposedPlan plan(String sql, String proposer) throws SQLException {
        String s = sql.strip();
        String upper = s.toUpperCase(Locale.ROOT);
        if (upper.startsWith("INSERT")) {
            throw new RefusedException(Refusal.UNSUPPORTED_INSERT, "INSERT cannot become a plan: a row that does "
                    + "not exist yet has no before-image to show. Ask a person to add the row.");
        }
        if ((upper.startsWith("UPDATE") || upper.startsWith("DELETE")) && !upper.contains(" WHERE ")) {
            throw new RefusedException(Refusal.NO_WHERE, "An " + upper.split(" ")[0] + " without WHERE changes "
                    + "every row of the table. Add a WHERE clause that names the rows, for example WHERE id = 42.");
        }
        Matcher m = UPDATE_STATUS.matcher(s);
        if (!m.matches()) {
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "This test engine plans only "
                    + "UPDATE orders SET status = '...' WHERE id = n.");
        }
        long id = Long.parseLong(m.group(2));
        Object[] row = orders.get(id);
        if (row == null) {
            throw new RefusedException(Refusal.NO_ROWS, "No row of orders matches id = " + id + "; nothing to plan.");
        }
        PlannedStatement statement = new PlannedStatement(s, List.of(), PlannedStatement.Kind.UPDATE,
                new TableRef("shop", "orders"), IMPACT, List.of("id"), List.of("status"), List.of(), 1,
                List.of(new RowChange(Map.of("id", IntegerValue.of(id)), List.of(new ColumnChange("status",
                        new TextValue((String) row[1]), new TextValue(m.group(1)), false)))));
        Plan plan = new Plan(UUID.randomUUID(), Instant.now(), proposer, "PostgreSQL 15.18", List.of(statement),
                List.of(), List.of());
        String planId = plan.id().toString();
        plans.put(planId, new PlanStatus(planId, PlanStatus.State.PROPOSED, null,
                List.of(plan.createdAt() + " proposed by " + proposer)));
        return new ProposedPlan(planId, plan.card(), plan.toJson());
    }

    @Override
    public Optional<PlanStatus> planStatus(String planId) {
        return Optional.ofNullable(plans.get(planId));
    }

    @Override
    public SchemaContext schema() {
        String text = "Table shop.orders\n"
                + "  " + IMPACT + "\n"
                + "  id          int8         not null  primary key\n"
                + "  status      text         not null  one of: packed, shipped, cancelled\n"
                + "  total       numeric(12,2) not null\n"
                + "  created_at  timestamptz  not null\n"
                + "  note        text         null\n"
                + "  (1 secret column omitted)\n";
        String json = "{\"tables\":[{\"schema\":\"shop\",\"name\":\"orders\",\"impact\":\"" + IMPACT + "\","
                + "\"primaryKey\":[\"id\"],\"columns\":["
                + "{\"name\":\"id\",\"type\":\"int8\",\"nullable\":false},"
                + "{\"name\":\"status\",\"type\":\"text\",\"nullable\":false},"
                + "{\"name\":\"total\",\"type\":\"numeric(12,2)\",\"nullable\":false,\"default\":0.00},"
                + "{\"name\":\"created_at\",\"type\":\"timestamptz\",\"nullable\":false},"
                + "{\"name\":\"note\",\"type\":\"text\",\"nullable\":true}],"
                + "\"foreignKeys\":[]}]}";
        return new SchemaContext(text, json);
    }
}
