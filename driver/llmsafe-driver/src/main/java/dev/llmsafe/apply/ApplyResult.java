package dev.llmsafe.apply;

import java.util.List;
import java.util.UUID;

/**
 * What an apply committed.
 *
 * @param planId the plan
 * @param rows the rows each statement wrote, in order
 * @param warnings what went wrong after the commit without undoing it (the outcome audit could not be
 *     written, A7): the change is committed all the same
 */
public record ApplyResult(UUID planId, List<Long> rows, List<String> warnings) {

    /** Copies the lists. */
    public ApplyResult {
        rows = List.copyOf(rows);
        warnings = List.copyOf(warnings);
    }
}
