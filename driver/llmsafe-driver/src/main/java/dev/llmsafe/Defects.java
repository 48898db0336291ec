package dev.llmsafe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * J11: an unexpected failure inside llmsafe (an unchecked exception from our code or a library) reaches a
 * caller of the driver as a refusal with its own code, never as an unchecked exception, and is logged with
 * its stack trace for the application's owner. Used by the dry run, approve and apply and the guard, each
 * of which has rolled back or discarded its connection by the time it calls this, so nothing was changed.
 */
public final class Defects {

    private static final Logger LOG = LoggerFactory.getLogger(Defects.class);

    private Defects() {
    }

    /**
     * The refusal for an unexpected failure.
     *
     * @param what what llmsafe was doing, as a phrase after "while" ({@code planning}, {@code applying plan X})
     * @param e the failure
     */
    public static RefusedException refusal(String what, RuntimeException e) {
        LOG.error("llmsafe failed unexpectedly while {}", what, e);
        return new RefusedException(Refusal.INTERNAL_ERROR, "llmsafe failed unexpectedly while " + what + " ("
                + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "). Nothing"
                + " was changed. This is a defect of llmsafe; please report it with the statement.", e);
    }
}
