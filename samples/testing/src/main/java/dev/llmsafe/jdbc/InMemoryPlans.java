package dev.llmsafe.jdbc;

import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the samples' tests keep the plans the driver makes, until the plan store is wired into the driver.
 *
 * <p>Why it exists: on this branch the driver's default {@link PlanSinkFactory} is
 * {@link PlanSinkFactory#NONE}, so through the public API every UPDATE and DELETE is measured and then
 * refused as {@code NO_PLAN_STORE}; no caller can see a {@link PlanPendingException}. The only way to plug
 * in a sink is package-private ({@link Engines#useSinks}), which is why this class sits in the driver's
 * package (a split package, which works on the class path, as Maven runs tests). It is a test-scope
 * dependency of the samples and never part of what a user copies. When the store is the driver's default,
 * delete this module and have the samples' tests run the store's {@code migrate} on their SQLite file.
 */
public final class InMemoryPlans implements PlanSink {

    private static final InMemoryPlans INSTANCE = new InMemoryPlans();
    private static boolean installed;

    private final List<Plan> plans = new ArrayList<>();

    private InMemoryPlans() {
    }

    /**
     * Sends the plans of every engine made from now on to this JVM's one list. Call it before the first
     * {@code jdbc:llmsafe:} connection: an engine keeps the sink it was made with.
     */
    public static synchronized InMemoryPlans install() {
        if (!installed) {
            Engines.shared().useSinks((config, pool, dialect) -> INSTANCE);
            installed = true;
        }
        return INSTANCE;
    }

    @Override
    public synchronized void save(Plan plan) {
        plans.add(plan);
    }

    /** Every plan saved so far, oldest first. */
    public synchronized List<Plan> plans() {
        return List.copyOf(plans);
    }

    /** The plan saved last, if any. */
    public synchronized Optional<Plan> last() {
        return plans.isEmpty() ? Optional.empty() : Optional.of(plans.get(plans.size() - 1));
    }
}
