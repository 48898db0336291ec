package dev.llmsafe.dryrun;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.TableRef;
import dev.llmsafe.dialect.Writes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * D14: what the transaction wrote, as the database counts it, must be exactly the rows the card shows.
 * Anything more (a trigger, a cascade, a rule, a function that writes) is refused with the tables and
 * counts the database gave; a measurement the database would not give is SIDE_EFFECTS_UNKNOWN, never
 * "none".
 */
public final class SideEffects {

    private SideEffects() {
    }

    /**
     * @param matched the rows the statement matched (and deleted)
     * @param changed the rows of an UPDATE whose values really changed
     * @param trigger a trigger of the target fires on this statement's event (the catalog says)
     */
    public static void check(Writes writes, TableRef target, boolean delete, long matched, long changed, boolean trigger)
            throws RefusedException {
        if (writes.unknown().isPresent()) {
            throw new RefusedException(Refusal.SIDE_EFFECTS_UNKNOWN, "what the statement writes besides the rows"
                    + " shown cannot be measured: " + writes.unknown().get() + ".");
        }
        List<String> extra = new ArrayList<>();
        if (writes.total().isPresent() && writes.total().get() != matched) {
            extra.add(writes.total().get() + " rows written where the card shows " + matched
                    + " (the database does not say in which tables)");
        }
        if (writes.session().isPresent()) {
            session(writes.session().get(), delete, matched, changed, trigger).ifPresent(extra::add);
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
        if (!writes.perTable().containsKey(target) && writes.total().isEmpty() && writes.session().isEmpty()
                && matched > 0) {
            extra.add(target + ": the database counts no write where the card shows " + matched);
        }
        if (!extra.isEmpty()) {
            throw new RefusedException(Refusal.SIDE_EFFECTS, "running the statement wrote more than the rows the card"
                    + " would show (a trigger, a cascade, a rule or a function): " + String.join("; ", extra)
                    + ". Nothing was kept: it was rolled back. Change those rows separately, or remove the trigger.");
        }
    }

    /**
     * The session's counts (MySQL, MariaDB) against the statement's own rows: a DELETE deletes exactly
     * the rows it matched. An UPDATE counts each row whose values change, and also each matched row
     * left as it was when the server could not compare it before handing it to InnoDB (measured on
     * MariaDB 10.11, SPEC.md F39: {@code SET v = 0} on rows already 0 counts them, {@code SET v = v}
     * does not). Between the two the count cannot tell such rows from a trigger's updates elsewhere,
     * so there it is believed only where no trigger fires; a stored function, the only other writer in
     * the session, is refused before the statement runs (FORBIDDEN_FUNCTION).
     */
    private static Optional<String> session(Writes.Counts n, boolean delete, long matched, long changed,
            boolean trigger) throws RefusedException {
        String counted = n.inserted() + " inserted, " + n.updated() + " updated, " + n.deleted() + " deleted";
        boolean own = delete ? n.inserted() == 0 && n.updated() == 0 && n.deleted() == matched
                : n.inserted() == 0 && n.deleted() == 0 && n.updated() >= changed && n.updated() <= matched;
        if (!own) {
            return Optional.of("the session wrote " + counted + " where the card shows " + matched + " "
                    + (delete ? "deleted" : "updated") + " (the database does not say in which tables)");
        }
        if (!delete && n.updated() != changed && trigger) {
            throw new RefusedException(Refusal.SIDE_EFFECTS_UNKNOWN, "the database counts " + n.updated()
                    + " rows updated where " + changed + " of the " + matched + " matched rows change: the server"
                    + " also counts rows it hands on unchanged, and a trigger fires on this table, so its writes"
                    + " cannot be told apart from those rows. Leave the rows that already hold the new values out"
                    + " of the WHERE clause.");
        }
        return Optional.empty();
    }
}
