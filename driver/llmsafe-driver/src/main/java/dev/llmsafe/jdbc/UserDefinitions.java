package dev.llmsafe.jdbc;

import dev.llmsafe.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * R7 on one connection: the operators and the functions of one argument or more that an application
 * or extension defined (PostgreSQL's {@code CREATE OPERATOR} and {@code CREATE FUNCTION}). A read may
 * not use such an operator even where a built-in one has the same name, because which of the two runs
 * depends on the types of its arguments, nor name such a function as an attribute ({@code m.leak} is
 * {@code leak(m)} on PostgreSQL when m has no column leak). Asked once and kept for
 * {@value Allowlist#TTL_SECONDS} seconds, as the allowlist's names are: only DDL, which no statement
 * through llmsafe may run, defines either.
 */
final class UserDefinitions {

    private static final long TTL_NS = Allowlist.TTL_SECONDS * 1_000_000_000L;

    private final Dialect dialect;
    private final Connection c;
    private Set<String> operators;
    private Set<String> functions;
    private long since;

    UserDefinitions(Dialect dialect, Connection c) {
        this.dialect = dialect;
        this.c = c;
    }

    synchronized Set<String> operators() throws SQLException {
        refresh();
        return operators;
    }

    synchronized Set<String> functions() throws SQLException {
        refresh();
        return functions;
    }

    private void refresh() throws SQLException {
        long now = System.nanoTime();
        if (operators == null || now - since > TTL_NS) {
            operators = Set.copyOf(dialect.userOperators(c));
            functions = Set.copyOf(dialect.userFunctions(c));
            since = now;
        }
    }
}
