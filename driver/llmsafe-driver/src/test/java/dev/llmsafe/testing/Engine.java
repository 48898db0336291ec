package dev.llmsafe.testing;

import java.util.Locale;

/**
 * The database engines the tests run on: which server variable and driver. MariaDB and MySQL are one
 * engine here, as in the driver; {@link ScratchDatabase#family()} tells them apart.
 */
public enum Engine {
    /** PostgreSQL: a scratch schema per test class. */
    POSTGRES,
    /** MySQL or MariaDB: a scratch database per test class. */
    MYSQL,
    /** SQLite: a scratch file per test class. Always available. */
    SQLITE;

    /** The name used in LLMSAFE_TEST_REQUIRE and in environment variable names. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
