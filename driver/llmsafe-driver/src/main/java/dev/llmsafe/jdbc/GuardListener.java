package dev.llmsafe.jdbc;

import dev.llmsafe.Refusal;

/**
 * What a guarded data source tells whoever watches it, such as the Spring Boot starter's metrics: each
 * read it ran, each plan it proposed, each statement it refused (in the analysis, the read's checks or the
 * dry run). Set with {@link LlmSafeDataSource#setListener}. Called on the thread that ran the statement,
 * after the fact; it must be quick and thread-safe. An exception it throws is logged and ignored: watching
 * never changes what the guard decides. Every method does nothing unless overridden.
 */
public interface GuardListener {

    /** The listener that does nothing. */
    GuardListener NONE = new GuardListener() { };

    /**
     * A read passed the guard and ran.
     *
     * @param nanos from the guard's checks to the database's first answer
     */
    default void read(long nanos) {
    }

    /**
     * An UPDATE or DELETE (or a batch of them) was measured and kept as a plan.
     *
     * @param pending what the caller receives: the plan and its card
     * @param nanos the dry run and the store's write together
     */
    default void proposed(PlanPendingException pending, long nanos) {
    }

    /**
     * A statement was refused; nothing it asked for ran.
     *
     * @param code why
     */
    default void refused(Refusal code) {
    }
}
