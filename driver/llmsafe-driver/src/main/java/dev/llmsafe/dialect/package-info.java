/**
 * What differs between PostgreSQL, MySQL/MariaDB and SQLite. So far: reading values exactly
 * ({@link dev.llmsafe.dialect.ValueReader}, {@link dev.llmsafe.dialect.RowReader}), with each driver's
 * measured surprises noted where a getter is chosen. The {@code Dialect} interface (catalog questions,
 * locking, timeouts, declared limitations) joins it here, with the session settings that change what a
 * statement means ({@link dev.llmsafe.dialect.SessionSettings}, D17: read from the application's
 * connection and reproduced on the engine's own), and the bounds of the read session: how
 * long the server itself ends an idle transaction and which isolation levels lock (R11), how large a
 * value the database hands a read and how a driver's error for one is recognised (R12), whether the
 * read session is still read-only and every session setting a statement could change, to put back on
 * a connection an application's pool gets back ({@link dev.llmsafe.dialect.SessionReset}, R8), and the
 * operators a database defines beyond its own (R7). Beside the bounds: {@link dev.llmsafe.dialect.Watchdog},
 * which cancels a statement from the client a little after its bound where the server would not (R5, D6),
 * and {@link dev.llmsafe.dialect.Connections}, which lends the engine a pooled connection it may discard
 * ({@code lease}) and takes one in an unknown state out of its pool, once, never to be touched or given back again.
 * R9's second check reads each database's own plan; on MariaDB that is EXPLAIN's rows and Note 1003, the
 * query as the server rewrote it, read by its syntax ({@code PlanNote}, {@code NoteLexer}) and proven
 * complete by the rows ({@code MariadbPlan}); on MySQL, whose note prints the values it read while planning,
 * the optimizer trace's preparation of each select, read by the same reader ({@code MysqlPlan}).
 *
 * <p>Every other difference between the databases is a method of {@code Dialect} too, so that a fourth
 * database touches this package (and the lexer) only: the DDL of llmsafe's own tables (the plan store),
 * the catalog and schema a metadata question names (J9), whether an error is a denied privilege
 * ({@link dev.llmsafe.dialect.Dialects#isPrivilegeDenied}), the option that makes a driver count rows changed
 * (check's probe), and what a vendor URL may carry ({@link dev.llmsafe.dialect.VendorUrls}, decided before any
 * connection). ArchitectureTest refuses a switch on the database outside {@code dialect} and {@code sql}.
 *
 * <p>Primary keys are found again by the values read from them, each bound back exactly as the
 * column's own type ({@link dev.llmsafe.dialect.KeyBinding}, J11); a value reads the same in text and
 * binary transfer.
 *
 * <p>This package uses JDBC and {@link dev.llmsafe.value}; it knows nothing of plans, the store or
 * the card. Only the SQLite dialect names vendor classes (sqlite-jdbc's connection settings and its
 * update hook, {@code SqliteRowLog}), and it is loaded only for a SQLite database; the PostgreSQL
 * dialect reads pgjdbc's {@code PGConnection.getParameterStatus} (R8), and is loaded only for PostgreSQL.
 */
package dev.llmsafe.dialect;
