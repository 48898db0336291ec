package dev.llmsafe.conformance;

/**
 * A login role (PostgreSQL) or user (MySQL/MariaDB) made for one scratch place and dropped with it.
 *
 * @param name the role name, unquoted
 * @param password its password
 */
record ScratchRole(String name, String password) {
}
