package dev.llmsafe.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a guarded connection offers beyond JDBC. Every connection from {@code jdbc:llmsafe:} and from
 * {@link LlmSafeDataSource} is one; reach it with {@code connection.unwrap(LlmSafeConnection.class)},
 * through a pool too.
 */
public interface LlmSafeConnection extends Connection {

    /**
     * What the database estimates a read costs: the figure the cost gate ({@code policy.read.maxCost},
     * R5) compares with its bound. The read is checked as it would be (the allowlist, secret columns)
     * and is not run: only a plain EXPLAIN is, in the read-only session.
     *
     * @param sql one SELECT, without {@code ?} parameters
     * @return the estimate, its unit and the bound in force
     * @throws dev.llmsafe.RefusedException when the read would be refused before its cost is asked, or
     *     when the statement is not a read
     * @throws SQLException when the database fails
     */
    ReadEstimate explain(String sql) throws SQLException;
}
