package dev.llmsafe.plan;

import dev.llmsafe.dialect.SessionSettings;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a proposed write does, measured by running it and rolling it back: the statements that ran,
 * every row they change with each value before and after as the database returned it, the database's
 * own counts, and what this check could not establish. Immutable. Rendered to text by {@link Card}
 * and to JSON by {@link PlanJson}.
 *
 * @param id the plan's id
 * @param createdAt when the dry run finished
 * @param proposer who proposed it, as given (not an authorisation boundary: T3)
 * @param database the server and version that ran it
 * @param statements the statements, in the order they run
 * @param limitations every guarantee this database cannot make (E5, C2)
 * @param warnings what the reader should know about this particular plan
 * @param session the settings of the application's session that change what the statements mean
 *     (D17), which the dry run ran in and the apply runs in
 */
public record Plan(UUID id, Instant createdAt, String proposer, String database, List<PlannedStatement> statements,
        List<String> limitations, List<String> warnings, SessionSettings session) {

    /** Copies the lists. */
    public Plan {
        statements = List.copyOf(statements);
        limitations = List.copyOf(limitations);
        warnings = List.copyOf(warnings);
        java.util.Objects.requireNonNull(session, "session");
    }

    /** A plan whose session settings were not recorded: shown, never applied (D17). */
    public Plan(UUID id, Instant createdAt, String proposer, String database, List<PlannedStatement> statements,
            List<String> limitations, List<String> warnings) {
        this(id, createdAt, proposer, database, statements, limitations, warnings, SessionSettings.NOT_RECORDED);
    }

    /** The rows all statements change or delete. */
    public int rowCount() {
        return statements.stream().mapToInt(s -> s.rows().size()).sum();
    }

    /** The card, as text (C1-C3). */
    public String card() {
        return Card.render(this);
    }

    /** The stable JSON form (C4), without the withheld values of secret keys (D12). */
    public String toJson() {
        return PlanJson.write(this, false);
    }

    /**
     * The form the plan store keeps and seals (T2): the JSON form with the withheld values of secret keys,
     * which apply needs to find the rows again (D12). Never shown to the proposer.
     */
    public String toStoredJson() {
        return PlanJson.write(this, true);
    }

    /** This plan as the proposer may see it: the withheld values of secret keys dropped (D12). */
    public Plan withoutWithheld() {
        return new Plan(id, createdAt, proposer, database, statements.stream().map(PlannedStatement::withoutWithheld)
                .toList(), limitations, warnings, session);
    }

    /** Reads the JSON form or the stored form back (A10). */
    public static Plan fromJson(String json) {
        return PlanJson.read(json);
    }
}
