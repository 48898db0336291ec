package dev.llmsafe.conformance;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A fresh, empty place on one server where the fact probes create their tables: a schema on
 * PostgreSQL, a database on MySQL/MariaDB, a file on SQLite, with an administrator credential to it
 * and roles made for it. Whoever made it drops it, and its roles, after the probes: the test helper
 * (ScratchDatabases) in the suite, {@link ServerScratch} in the harness.
 */
interface Scratch {

    /** A JDBC URL whose default schema or database is the scratch one, without credentials. */
    String url();

    /** The administrator user, or null (SQLite, or a URL that needs none). */
    String user();

    /** The administrator password, or null. */
    String password();

    /** A shared administrator connection in auto-commit mode; the scratch closes it. */
    Connection admin() throws SQLException;

    /** A new administrator connection; the caller closes it. */
    Connection connect() throws SQLException;

    /** A new connection as a role made by {@link #createRole}; the caller closes it. */
    Connection connect(ScratchRole role) throws SQLException;

    /** Runs statements on the administrator connection. */
    default void execute(String... sql) throws SQLException {
        Sql.exec(admin(), sql);
    }

    /**
     * Creates a login role, dropped with the scratch, and runs the grants as the administrator. In
     * each grant, {@code {role}} stands for the role (as the server needs it written: {@code 'name'@'%'}
     * on MySQL and MariaDB) and {@code {db}} for the scratch schema or database.
     *
     * @throws RolesUnavailableException when this credential may not create roles, or grant these
     */
    ScratchRole createRole(String... grants) throws SQLException;
}
