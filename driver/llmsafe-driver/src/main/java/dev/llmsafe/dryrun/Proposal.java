package dev.llmsafe.dryrun;

import dev.llmsafe.plan.Parameter;
import dev.llmsafe.sql.Analysis;
import java.util.List;

/**
 * One statement to plan: its analysis and the parameters bound to it.
 *
 * @param analysis the statement as the analyzer read it (an UPDATE or a DELETE)
 * @param parameters one per {@code ?}, in order
 */
public record Proposal(Analysis analysis, List<Parameter> parameters) {

    /** Checks the statement is a write with every parameter bound. */
    public Proposal {
        parameters = List.copyOf(parameters);
        if (!analysis.isWrite()) {
            throw new IllegalArgumentException("only an UPDATE or a DELETE can be planned");
        }
        if (parameters.size() != analysis.parameterCount()) {
            throw new IllegalArgumentException("the statement has " + analysis.parameterCount() + " parameters and "
                    + parameters.size() + " were bound; bind every ?");
        }
    }
}
