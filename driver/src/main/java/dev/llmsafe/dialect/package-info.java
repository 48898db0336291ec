/**
 * What differs between PostgreSQL, MySQL/MariaDB and SQLite. So far: reading values exactly
 * ({@link dev.llmsafe.dialect.ValueReader}, {@link dev.llmsafe.dialect.RowReader}), with each driver's
 * measured surprises noted where a getter is chosen. The {@code Dialect} interface (catalog questions,
 * locking, timeouts, declared limitations) joins it here, with the bounds of the read session: how
 * long the server itself ends an idle transaction and which isolation levels lock (R11), how large a
 * value the database hands a read and how a driver's error for one is recognised (R12).
 *
 * <p>This package uses JDBC and {@link dev.llmsafe.value}; it knows nothing of plans, the store or
 * the card. It names no vendor class, so it loads without any vendor driver on the class path.
 */
package dev.llmsafe.dialect;
