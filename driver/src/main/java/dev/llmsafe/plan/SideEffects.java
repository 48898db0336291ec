package dev.llmsafe.plan;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.dialect.Writes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * D14: what the transaction wrote, as the database counts it, must be exactly the rows the card shows.
 * Anything more (a trigger, a cascade, a rule, a function that writes) is refused with the tables and
 * counts the database gave; a measurement the database would not give is SIDE_EFFECTS_UNKNOWN, never
 * "none".
 */
final class SideEffects {

    private SideEffects() {
    }

    static void check(Dialect dialect, Writes writes, TableRef target, boolean delete, long matched, long changed)
            throws RefusedException {
        if (writes.unknown().isPresent()) {
            throw new RefusedException(Refusal.SIDE_EFFECTS_UNKNOWN, "what the statement writes besides the rows"
                    + " shown cannot be measured: " + writes.unknown().get() + ".");
        }
        List<String> extra = new ArrayList<>();
        if (writes.total().isPresent()) {
            long expected = dialect.expectedTotal(delete, matched, changed);
            long more = writes.total().get() - expected;
            if (more != 0) {
                extra.add(writes.total().get() + " rows written where the card shows " + expected
                        + " (the database does not say in which tables)");
            }
        }
        for (Map.Entry<TableRef, Writes.Counts> e : writes.perTable().entrySet()) {
            Writes.Counts n = e.getValue();
            boolean expected = e.getKey().equals(target) && n.inserted() == 0
                    && (delete ? n.updated() == 0 && n.deleted() == matched : n.deleted() == 0 && n.updated() == matched);
            if (!expected) {
                extra.add(e.getKey() + ": " + n.inserted() + " inserted, " + n.updated() + " updated, " + n.deleted()
                        + " deleted");
            }
        }
        if (!writes.perTable().containsKey(target) && writes.total().isEmpty() && matched > 0) {
            extra.add(target + ": the database counts no write where the card shows " + matched);
        }
        if (!extra.isEmpty()) {
            throw new RefusedException(Refusal.SIDE_EFFECTS, "running the statement wrote more than the rows the card"
                    + " would show (a trigger, a cascade, a rule or a function): " + String.join("; ", extra)
                    + ". Nothing was kept: it was rolled back. Change those rows separately, or remove the trigger.");
        }
    }
}
