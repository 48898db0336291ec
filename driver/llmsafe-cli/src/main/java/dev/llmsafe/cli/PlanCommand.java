package dev.llmsafe.cli;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.Setter;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.StatementAnalyzer;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Proposes an UPDATE or DELETE: a dry run, and the card. */
final class PlanCommand extends Base {

    String sql;
    final List<String> params = new ArrayList<>();
    String actor;

    PlanCommand() {
        super("plan", "Propose an UPDATE or DELETE: a dry run, and its card.",
                "The statement runs for real, is rolled back and the rollback proven; the plan is stored and its card",
                "printed. Nothing in the database changes.");
        parameter("SQL", v -> sql = v, "One UPDATE or DELETE; ? for parameters.");
        option("--param", "VALUE", params::add, "A value for the next ?. A whole number binds as a",
                "number, NULL as NULL, anything else as text; force text with string:VALUE.").repeatable();
        option("--as", "ACTOR", v -> actor = v, "Who proposes it (recorded as given).").required();
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            Analysis a;
            try (Connection c = d.pool(Deployment.Role.PLAN).getConnection()) {
                d.dialect().initConnection(c);
                a = new StatementAnalyzer(d.config().policy().maxStatementLength()).analyze(sql, d.dialect().lexSettings(c));
            }
            if (!a.isWrite()) {
                throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "plan takes an UPDATE or a DELETE; this is a"
                        + " read. Run it with `llmsafe read`.");
            }
            List<Parameter> bound = new ArrayList<>();
            for (String p : params) {
                bound.add(parameter(p));
            }
            if (bound.size() != a.parameterCount()) {
                throw new IllegalArgumentException("the statement has " + a.parameterCount() + " ? parameters and "
                        + bound.size() + " --param values were given");
            }
            Plan plan = d.planner().plan(List.of(new Proposal(a, bound)), actor);
            d.store().save(plan);
            if (common.json) {
                out().println(Json.write(Json.object("planId", plan.id().toString(), "card", plan.card(),
                        "plan", Json.parse(plan.toJson()))));
            } else {
                out().print(plan.card());
                out().flush();
            }
            return Main.OK;
        }
    }

    static Parameter parameter(String p) {
        if (p.startsWith("string:")) {
            return Parameter.of(Setter.SET_STRING, p.substring(7));
        }
        if (p.equals("NULL")) {
            return Parameter.ofNull(Types.NULL);
        }
        if (p.matches("-?\\d+")) {
            // A whole number binds as a number whatever its length: as a long where it fits (all of BIGINT's
            // range), else as an exact decimal (BIGINT UNSIGNED above 2^63-1), never as text.
            try {
                return Parameter.of(Setter.SET_LONG, Long.parseLong(p));
            } catch (NumberFormatException outsideLong) {
                return Parameter.of(Setter.SET_BIG_DECIMAL, new BigDecimal(p));
            }
        }
        if (p.matches("-?\\d+\\.\\d+")) {
            return Parameter.of(Setter.SET_BIG_DECIMAL, new BigDecimal(p));
        }
        return Parameter.of(Setter.SET_STRING, p);
    }
}
