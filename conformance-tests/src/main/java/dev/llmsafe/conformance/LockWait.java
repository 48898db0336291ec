package dev.llmsafe.conformance;

/** The session setting that bounds a lock wait to one second, so that a probe never hangs on a lock. */
final class LockWait {

    private LockWait() {
    }

    static String oneSecond(ServerId server) {
        return switch (server.flavor()) {
            case POSTGRES -> "SET lock_timeout = '1s'";
            case MARIADB, MYSQL -> "SET SESSION innodb_lock_wait_timeout = 1";
            case SQLITE -> "PRAGMA busy_timeout = 1000";
        };
    }
}
