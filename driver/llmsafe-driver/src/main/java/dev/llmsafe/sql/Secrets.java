package dev.llmsafe.sql;

import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one reading of "is this column secret" (R2, R10, D12, J9), used by the analysis, the read guard, the
 * metadata filters, the dry run, the schema context and the environment report. A secret is matched by its
 * column name, without case and as the database would truncate it (PostgreSQL keeps 63 bytes of an
 * identifier), whatever table the policy names it under and whatever table the column is found in: a false
 * refusal is a defect, but a leaked credential is an incident. Immutable and thread-safe.
 */
public final class Secrets {

    /** One secret column: the name the policy gives and why it is secret. */
    public record Secret(QualifiedName name, String reason) {

        /** The secret as a refusal names it: {@code password_hash, which is a stored credential}. */
        public String described() {
            return name + ", which is " + reason;
        }
    }

    private final SqlDialect dialect;
    private final Map<String, Secret> byName;

    private Secrets(SqlDialect dialect, Map<String, Secret> byName) {
        this.dialect = dialect;
        this.byName = byName;
    }

    /** The policy's secrets as names of this dialect. */
    public static Secrets of(Policy policy, SqlDialect dialect) {
        Map<String, Secret> byName = new LinkedHashMap<>();
        for (Map.Entry<QualifiedName, String> s : policy.secrets().entrySet()) {
            byName.putIfAbsent(key(s.getKey().last().text(), dialect), new Secret(s.getKey(), s.getValue()));
        }
        return new Secrets(dialect, Collections.unmodifiableMap(byName));
    }

    /** Whether the policy has no secret at all. */
    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /**
     * The secret a column name is, if it is one.
     *
     * @param column a column name as the catalog, a result or a statement spells it; null is no column
     */
    public Optional<Secret> of(String column) {
        return column == null ? Optional.empty() : Optional.ofNullable(byName.get(key(column, dialect)));
    }

    /** Whether a column name is a secret one. */
    public boolean isSecret(String column) {
        return of(column).isPresent();
    }

    /**
     * The secret names as the analysis keeps identifiers (lower case, truncated as the database would), to
     * be looked for among a statement's identifiers or in a catalog text.
     */
    public Set<String> names() {
        return byName.keySet();
    }

    private static String key(String column, SqlDialect dialect) {
        return Identifiers.truncated(column.toLowerCase(Locale.ROOT), dialect);
    }
}
