package dev.llmsafe.cli;

import dev.llmsafe.check.CheckReport;
import dev.llmsafe.check.CheckText;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.EnvironmentCheck;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.store.PlanStore;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The environment report. */
final class CheckCommand extends Base {

    CheckCommand() {
        super("check", "Report whether the environment is ready, and where each guard sits.",
                "Which roles the configuration serves (propose, approve, apply). Per allowlisted table, whether a dry run",
                "is possible there (and one is run on a real row, rolled back); whether the store exists; which",
                "connections share a credential; whether the read connection can write; what is taken on trust. Exit",
                "status 3 when a table meant to be written is not ready or the store is missing.");
    }

    @Override
    int execute() throws Exception {
        try (Deployment d = deployment()) {
            Set<LlmSafeConfig.Role> serves = d.config().serves();
            if (!serves.contains(LlmSafeConfig.Role.PROPOSE)) {
                return storeOnly(d, serves);
            }
            CheckReport r = new EnvironmentCheck(d).run();
            out().print(common.json ? Json.write(r) + "\n" : "Serves: " + names(serves) + "\n\n" + CheckText.render(r));
            out().flush();
            return r.ready() ? Main.OK : Main.NOT_READY;
        }
    }

    /**
     * The report of a configuration for approving or applying only: the roles it serves, the store, and
     * the apply connection when it names one. There is no table to probe without the planning connection.
     */
    private int storeOnly(Deployment d, Set<LlmSafeConfig.Role> serves) {
        String store;
        boolean ready;
        try {
            Optional<Integer> v = d.store().version();
            ready = v.isPresent() && v.get() >= PlanStore.VERSION;
            store = v.isEmpty() ? "missing: run `llmsafe migrate` with it to create it"
                    : ready ? "version " + v.get() + ", at " + d.settings(Deployment.Role.STORE).describe()
                    : "version " + v.get() + ": run `llmsafe migrate` to upgrade it";
        } catch (SQLException e) {
            ready = false;
            store = "cannot be reached: " + e.getMessage();
        }
        List<String> lines = new ArrayList<>();
        lines.add("Serves: " + names(serves));
        lines.add("Needs for the rest: " + String.join("; ", java.util.Arrays.stream(LlmSafeConfig.Role.values())
                .filter(r -> !serves.contains(r)).map(r -> r.commands() + " needs " + r.needs()).toList()));
        lines.add("Store: " + store);
        if (serves.contains(LlmSafeConfig.Role.APPLY)) {
            String apply;
            try (java.sql.Connection c = d.pool(Deployment.Role.APPLY).getConnection()) {
                apply = "reachable, as " + d.settings(Deployment.Role.APPLY).describe();
            } catch (SQLException e) {
                ready = false;
                apply = "cannot be reached: " + e.getMessage();
            }
            lines.add("Apply connection: " + apply);
        }
        lines.add("Ready: " + (ready ? "yes" : "no"));
        if (common.json) {
            out().println(Json.write(Map.of("serves", serves.stream().map(r -> r.name().toLowerCase(java.util.Locale.ROOT))
                    .toList(), "store", store, "ready", ready)));
        } else {
            lines.forEach(out()::println);
        }
        out().flush();
        return ready ? Main.OK : Main.NOT_READY;
    }

    private static String names(Set<LlmSafeConfig.Role> serves) {
        return String.join(", ", serves.stream().map(LlmSafeConfig.Role::commands).toList());
    }
}
