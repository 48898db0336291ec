package dev.llmsafe.policy;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What the policy says about one allowlisted table.
 *
 * @param name the table as written in the policy; the driver resolves it against the database
 * @param impact the business consequence of changing this table, shown on every card; a table
 *     without one can be read but never written (W11)
 * @param maxUpdateRows this table's UPDATE ceiling, when it overrides the policy's
 * @param maxDeleteRows this table's DELETE ceiling, when it overrides the policy's
 * @param autoColumns columns the database maintains itself (triggers, ON UPDATE), declared for
 *     dialects whose catalog cannot report them (D8)
 * @param denyWrite columns a write may not set, each with the reason shown in the refusal (W7)
 */
public record TablePolicy(
        QualifiedName name,
        Optional<String> impact,
        OptionalInt maxUpdateRows,
        OptionalInt maxDeleteRows,
        Set<Identifier> autoColumns,
        Map<Identifier, String> denyWrite) {

    /** Copies the collections so that a policy never changes after it is built. */
    public TablePolicy {
        autoColumns = Set.copyOf(autoColumns);
        denyWrite = Map.copyOf(denyWrite);
    }
}
