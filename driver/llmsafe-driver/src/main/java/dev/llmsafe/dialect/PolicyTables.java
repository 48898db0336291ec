package dev.llmsafe.dialect;

import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.policy.TablePolicy;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * R1 and W4: the policy's tables as one session resolves them. A table is allowed when a name of
 * policy.allow resolves to it there (schema, case folding and quoting are the database's); a name that
 * resolves to nothing allows nothing. The read guard and the dry run both ask this, each through the
 * resolution of its own connection.
 */
public final class PolicyTables {

    /** How a session resolves a name: {@link Dialect#resolve} on its connection, or a cache in front of it. */
    @FunctionalInterface
    public interface Resolver {
        /**
         * @return the table the name means in this session; empty when it means none
         * @throws SQLException when the database cannot be asked
         */
        Optional<TableRef> resolve(QualifiedName name) throws SQLException;
    }

    private PolicyTables() {}

    /**
     * @return every allowlisted table that resolves, with the policy entry that names it
     * @throws SQLException when the database cannot be asked
     */
    public static Map<TableRef, TablePolicy> resolve(Policy policy, Resolver session) throws SQLException {
        Map<TableRef, TablePolicy> out = new HashMap<>();
        for (TablePolicy tp : policy.tables().values()) {
            session.resolve(tp.name()).ifPresent(ref -> out.putIfAbsent(ref, tp));
        }
        return out;
    }
}
