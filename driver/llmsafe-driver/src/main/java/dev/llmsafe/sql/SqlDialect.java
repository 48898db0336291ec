package dev.llmsafe.sql;

/** The SQL dialects the analysis reads. MariaDB and MySQL lex alike and share {@link #MYSQL}. */
public enum SqlDialect {
    /** PostgreSQL. */
    POSTGRESQL,
    /** MySQL and MariaDB. */
    MYSQL,
    /** SQLite. */
    SQLITE
}
