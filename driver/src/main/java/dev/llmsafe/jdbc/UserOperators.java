package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * R7 on one connection: the operator names that an application or extension defined (PostgreSQL's
 * {@code CREATE OPERATOR}), which a read may not use even where a built-in operator has the same name,
 * because which of the two runs depends on the types of its arguments. Asked once and kept for
 * {@value Allowlist#TTL_SECONDS} seconds, as the allowlist's names are: only DDL, which no statement
 * through llmsafe may run, defines an operator.
 */
final class UserOperators {

    private static final long TTL_NS = Allowlist.TTL_SECONDS * 1_000_000_000L;

    private final Dialect dialect;
    private final Connection c;
    private Set<String> names;
    private long since;

    UserOperators(Dialect dialect, Connection c) {
        this.dialect = dialect;
        this.c = c;
    }

    synchronized Set<String> get() throws SQLException {
        long now = System.nanoTime();
        if (names == null || now - since > TTL_NS) {
            names = Set.copyOf(dialect.userOperators(c));
            since = now;
        }
        return names;
    }
}
