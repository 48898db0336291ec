/**
 * The JDBC way in: {@link dev.llmsafe.jdbc.LlmSafeDriver} ({@code jdbc:llmsafe:<real url>}),
 * {@link dev.llmsafe.jdbc.LlmSafeDataSource} (any DataSource, guarded),
 * {@link dev.llmsafe.jdbc.LlmSafeGuard} (a connection a pool already lent, guarded: the javaagent's way in),
 * {@link dev.llmsafe.jdbc.PlanPendingException}, what an UPDATE or DELETE becomes, and
 * {@link dev.llmsafe.jdbc.LlmSafeConnection} with {@link dev.llmsafe.jdbc.ReadEstimate}, what a guarded
 * connection offers beyond JDBC, and {@link dev.llmsafe.jdbc.GuardListener}, told of every read, plan and
 * refusal of an LlmSafeDataSource (J12). Everything else here is package-private.
 *
 * <p>The guarded surface is auditable in one place per JDBC type: {@code Guard} makes every decision
 * about a statement; {@code GuardedConnection}, {@code ReadOnlySessionConnection},
 * {@code GuardedStatement}, {@code GuardedPreparedStatement} with {@code ParameterCapture},
 * {@code GuardedResultSet} and {@code GuardedMetaData} hold every method that runs SQL, hands out a JDBC
 * object or could widen the session; {@code ReadOnlyResultSet} refuses every method that writes a row.
 * {@code JdbcWrapper}, the base of the connection, statement and result set wrappers, holds the one
 * closed state (every method throws once closed) and the one {@code unwrap} (J1); the data sources
 * ({@code LlmSafeDataSource}, and {@code assembly.BorrowedConnections} that lends the application's pool to
 * the dry run and the store) share theirs, and their plumbing, with the pools' own in
 * {@code assembly.DelegatingDataSource}. The {@code Delegating*} classes hold only pass-through
 * methods, one per line, that do none of that; {@code WrapperTest} checks both, method by method,
 * against the java.sql interfaces of the running JDK. Every metadata answer with rows goes through
 * {@code MetaRows} (filtered to the allowlist and the secrets, J9), and {@code MetaDataTest} asks every
 * one by reflection; every LOB a result set hands out is made by {@code Lobs} of the column's own value,
 * never the vendor's locator (J10). No URL, user, client info or property value that could carry a
 * credential is handed back ({@code dev.llmsafe.policy.JdbcUrls}).
 *
 * <p>What a read may cost is bounded here too: {@code Holds} ends a transaction or a result set the
 * model's connection holds past policy.read.holdMs, and keeps reads out of isolation levels that lock
 * (R11; {@code HoldTimer} runs the ends where the server does not); {@code ReadBytes} counts the
 * bytes a read hands out against policy.read.maxBytes (R12).
 *
 * <p>What a read may call and where it runs: {@code Guard} asks {@code sql.ReadFunctions} whether every
 * function, cast and operator is on the allowlist (R7; {@code UserOperators} holds the operators the
 * database itself defines), proves the read-only session before every read, and {@code GuardedConnection}
 * puts back every session setting of a connection it gives back to an application's pool
 * ({@code dialect.SessionReset}, R8).
 *
 * <p>Uses {@code dryrun} (the planner and its proposals), {@code plan} (the model), {@code dialect}, {@code sql}, {@code value}, the policy, and
 * {@code assembly}, which builds the dry-run pool, the planner and the store; the plan store
 * ({@code store.PlanStore}, behind {@code storeConnection} or the application's own database) is
 * reached through {@link dev.llmsafe.plan.PlanSink}, opened by {@code PlanSinkFactory}.
 */
package dev.llmsafe.jdbc;
