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
 * @param autoColumnsDeclared whether the policy declares this table's auto columns at all: an empty
 *     declared list says "this table's triggers change no column", while no declaration leaves a table
 *     with an UPDATE trigger unwritable (AUTO_COLUMNS_UNKNOWN). Always true when {@code autoColumns} is
 *     not empty.
 */
public record TablePolicy(
        QualifiedName name,
        Optional<String> impact,
        OptionalInt maxUpdateRows,
        OptionalInt maxDeleteRows,
        Set<Identifier> autoColumns,
        Map<Identifier, String> denyWrite,
        boolean autoColumnsDeclared) {

    /** Copies the collections so that a policy never changes after it is built. */
    public TablePolicy {
        autoColumns = Set.copyOf(autoColumns);
        denyWrite = Map.copyOf(denyWrite);
        autoColumnsDeclared = autoColumnsDeclared || !autoColumns.isEmpty();
    }

    /** A table whose auto columns are declared exactly when the set is not empty (the form before D8's empty list). */
    public TablePolicy(QualifiedName name, Optional<String> impact, OptionalInt maxUpdateRows, OptionalInt maxDeleteRows,
            Set<Identifier> autoColumns, Map<Identifier, String> denyWrite) {
        this(name, impact, maxUpdateRows, maxDeleteRows, autoColumns, denyWrite, !autoColumns.isEmpty());
    }
}
