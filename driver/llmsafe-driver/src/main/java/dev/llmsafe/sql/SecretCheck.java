package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Optional;

/**
 * R2 by reference: a statement that names a secret identifier anywhere (select list, WHERE, a
 * subquery, an alias, a function argument) is refused. Names are compared without case and without
 * quotes, and a secret written as {@code table.column} is refused by its column name wherever it
 * appears: a false refusal is a defect, but a leaked credential is an incident.
 */
public final class SecretCheck {

    private SecretCheck() {
    }

    /**
     * Refuses the statement when it names a secret, or, where the policy has secrets, when it reads a
     * whole row ({@code row_to_json(t)}), which carries the secret columns under another name.
     */
    public static void check(Analysis analysis, Policy policy) throws RefusedException {
        if (!policy.secrets().isEmpty() && !analysis.wholeRows().isEmpty()) {
            String name = analysis.wholeRows().iterator().next();
            throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the statement reads whole rows of " + name
                    + " (a table or alias used as a value, or " + name + ".* inside an expression), which would"
                    + " carry every column, secret ones included. Name the columns you need instead.");
        }
        Secrets secrets = Secrets.of(policy, analysis.settings().dialect());
        for (String name : secrets.names()) {
            if (analysis.identifiers().contains(name)) {
                Secrets.Secret secret = secrets.of(name).orElseThrow();
                throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the statement names " + secret.described()
                        + " and is never read or written through this connection, whatever alias it is given. Leave"
                        + " it out of the statement.");
            }
        }
    }

    /** The columns of a table as the database names them; empty when there is no such table. */
    @FunctionalInterface
    public interface Columns {
        /** The column names of the table a name resolves to. */
        Optional<Collection<String>> of(QualifiedName table) throws SQLException;
    }

    /**
     * R10: a secret column may not be read by position either. A {@code *} or {@code t.*} over a table
     * that has one, a column alias list over it ({@code FROM users AS u(a, b, c)}), a NATURAL join or
     * {@code TABLE t} carries the secret under another name (a CTE's column list, the first branch of a
     * UNION, an outer query's alias), where neither the reference check nor the result's column names see
     * it; a table of the list that cannot be found is refused too, since its columns cannot be known.
     */
    public static void checkStars(Analysis analysis, Policy policy, Columns columns) throws SQLException {
        if (policy.secrets().isEmpty() || analysis.starTables().isEmpty()) {
            return;
        }
        Secrets secrets = Secrets.of(policy, analysis.settings().dialect());
        for (QualifiedName table : analysis.starTables()) {
            Optional<Collection<String>> found = columns.of(table);
            if (found.isEmpty()) {
                throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the statement reads every column of " + table
                        + " (a * or " + table + ".* over it), which is not a table this connection can see, so its"
                        + " columns cannot be checked against the secrets. Name the columns you need instead.");
            }
            for (String column : found.get()) {
                Optional<Secrets.Secret> secret = secrets.of(column);
                if (secret.isPresent()) {
                    throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the statement reads every column of " + table
                            + " by position (a *, " + table + ".*, a column alias list, NATURAL JOIN or TABLE), and " + table
                            + " has the secret column " + column + " (" + secret.get().reason() + "), which"
                            + " would come back under another name. Name the columns you need, leaving it out.");
                }
            }
        }
    }
}
