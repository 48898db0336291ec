package dev.llmsafe.testing;

/**
 * A login role (PostgreSQL) or user (MySQL/MariaDB) created for one test class and dropped with its
 * scratch database.
 *
 * @param name the role name, unquoted
 * @param password its password
 */
public record TestRole(String name, String password) {
}
