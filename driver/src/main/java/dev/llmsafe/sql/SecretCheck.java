package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import java.util.Locale;
import java.util.Map;

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
        for (Map.Entry<QualifiedName, String> secret : policy.secrets().entrySet()) {
            String name = secret.getKey().last().text().toLowerCase(Locale.ROOT);
            if (analysis.identifiers().contains(name)) {
                throw new RefusedException(Refusal.DENIED_IDENTIFIER, "the statement names " + secret.getKey()
                        + ", which is " + secret.getValue() + " and is never read or written through this"
                        + " connection, whatever alias it is given. Leave it out of the statement.");
            }
        }
    }
}
