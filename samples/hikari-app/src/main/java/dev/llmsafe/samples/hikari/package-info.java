/**
 * An existing HikariCP and plain JDBC application, unchanged but for its URL: {@code jdbc:llmsafe:} in
 * front of the SQLite URL, and {@code llmsafe.json} on the class path. It uses HikariCP and JDBC and names
 * no llmsafe type: llmsafe arrives as a JDBC driver, and its exceptions are {@code SQLException}s.
 */
package dev.llmsafe.samples.hikari;
