package dev.llmsafe.spring;

import dev.llmsafe.Refusal;
import dev.llmsafe.jdbc.GuardListener;
import dev.llmsafe.jdbc.PlanPendingException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The guarded data source's reads, plans and refusals as Micrometer meters:
 * <ul>
 *   <li>{@code llmsafe.reads} (timer): each read that ran, from the guard's checks to the first answer;</li>
 *   <li>{@code llmsafe.plans} (timer): each plan proposed, the dry run and the store's write together;</li>
 *   <li>{@code llmsafe.refusals} (counter, tag {@code code}: the refusal code): each statement refused.</li>
 * </ul>
 * A {@link GuardListener}, set on {@code llmsafeDataSource} by the starter. Thread-safe.
 */
public final class LlmSafeMetrics implements GuardListener {

    private final Timer reads;
    private final Timer plans;
    private final Map<Refusal, Counter> refusals = new EnumMap<>(Refusal.class);

    /** Registers the meters with a registry; every refusal code's counter exists from the start, at zero. */
    public LlmSafeMetrics(MeterRegistry registry) {
        reads = Timer.builder("llmsafe.reads").description("Reads the guard let through and ran").register(registry);
        plans = Timer.builder("llmsafe.plans").description("UPDATE and DELETE statements measured and kept as plans")
                .register(registry);
        for (Refusal code : Refusal.values()) {
            refusals.put(code, Counter.builder("llmsafe.refusals").description("Statements the guard refused")
                    .tag("code", code.name()).register(registry));
        }
    }

    @Override
    public void read(long nanos) {
        reads.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void proposed(PlanPendingException pending, long nanos) {
        plans.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void refused(Refusal code) {
        refusals.get(code).increment();
    }
}
