package dev.llmsafe.check;

import java.util.List;

/**
 * What {@code llmsafe check} found (E1-E8): per allowlisted table whether a dry run is possible there
 * and why not, whether the store exists, where each guard sits, and what is taken on trust.
 *
 * @param database the server that answered
 * @param tables one entry per allowlisted table
 * @param store the plan store's state
 * @param guards the four connections
 * @param notes sentences every report carries (seal key, actor names, rows-affected semantics)
 * @param ready whether every table meant to be written can be, and the store exists
 */
public record CheckReport(String database, List<TableStatus> tables, StoreStatus store, List<Guard> guards,
        List<String> notes, boolean ready) {

    /** Copies the lists. */
    public CheckReport {
        tables = List.copyOf(tables);
        guards = List.copyOf(guards);
        notes = List.copyOf(notes);
    }

    /**
     * One allowlisted table.
     *
     * @param name the name as the policy writes it
     * @param resolved the table as the database resolves it, or null when it does not
     * @param state READY, READ_ONLY (no impact sentence: readable, never written) or NOT_READY
     * @param problems why a dry run is not possible, each with what to do
     * @param measured what the probe dry run on a real row said, or why there was none (E6)
     */
    public record TableStatus(String name, String resolved, State state, List<String> problems, String measured) {
        /** Copies the list. */
        public TableStatus {
            problems = List.copyOf(problems);
        }
    }

    /** A table's readiness. */
    public enum State {
        /** A dry run is possible, and was run. */
        READY,
        /** Readable; not writable by design (no impact sentence). */
        READ_ONLY,
        /** Meant to be written, but a dry run is not possible. */
        NOT_READY
    }

    /**
     * The store.
     *
     * @param exists whether it exists at the version this llmsafe needs
     * @param message what it is, or what to run
     */
    public record StoreStatus(boolean exists, String message) {
    }

    /**
     * One of the four connections.
     *
     * @param role read, plan, apply or store
     * @param where user and database, without the password
     * @param own whether the configuration gives this role a connection of its own
     * @param sharesWith the other roles with the same credential
     * @param finding what was established about it, in words
     */
    public record Guard(String role, String where, boolean own, List<String> sharesWith, String finding) {
        /** Copies the list. */
        public Guard {
            sharesWith = List.copyOf(sharesWith);
        }
    }
}
