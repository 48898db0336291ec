package dev.llmsafe.cli;

import dev.llmsafe.store.PlanStore;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;

/** Plan ids as typed on the command line: whole, or shortened to a unique beginning of 8 characters or more. */
final class PlanIds {

    /** The shortest beginning of an id taken for the id: as long as the first group of its digits. */
    static final int SHORTEST = 8;
    private static final int CANDIDATES_SHOWN = 5;

    private PlanIds() {
    }

    /** The plan the typed text names, looking a shortened id up in the store. */
    static UUID resolve(String typed, PlanStore store) throws SQLException {
        String id = typed.trim().toLowerCase(Locale.ROOT);
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException notWhole) {
            // A beginning of an id, looked up below.
        }
        if (id.length() < SHORTEST || id.length() >= 36 || !id.matches("[0-9a-f-]+")) {
            throw new IllegalArgumentException("\"" + typed + "\" is not a plan id; plan ids look like"
                    + " 6f5a1c8e-0d1b-4c55-9b4e-2f7a9d0c1e3b, and their first " + SHORTEST
                    + " characters or more are enough when no other plan begins with them (llmsafe list shows them)");
        }
        List<UUID> found = store.idsStartingWith(id, CANDIDATES_SHOWN + 1);
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no plan id begins with " + id + " (llmsafe list shows them)");
        }
        if (found.size() > 1) {
            String shown = found.stream().limit(CANDIDATES_SHOWN).map(UUID::toString).collect(Collectors.joining(", "));
            throw new IllegalArgumentException(id + " is the beginning of more than one plan id (" + shown
                    + (found.size() > CANDIDATES_SHOWN ? ", ..." : "") + "): type more of it");
        }
        return found.get(0);
    }
}
