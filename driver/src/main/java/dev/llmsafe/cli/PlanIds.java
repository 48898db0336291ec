package dev.llmsafe.cli;

import java.util.UUID;

/** Plan ids as typed on the command line. */
final class PlanIds {

    private PlanIds() {
    }

    static UUID parse(String id) {
        try {
            return UUID.fromString(id.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + id + "\" is not a plan id; plan ids look like"
                    + " 6f5a1c8e-0d1b-4c55-9b4e-2f7a9d0c1e3b (llmsafe list shows them)");
        }
    }
}
