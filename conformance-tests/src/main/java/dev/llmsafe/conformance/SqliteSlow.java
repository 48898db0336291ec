package dev.llmsafe.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * A statement that keeps SQLite busy for a chosen time without sleeping: a recursive CTE counting to
 * a number calibrated on this machine, so that "did the timeout stop it" has an answer on a fast and
 * on a slow machine alike.
 */
final class SqliteSlow {

    private static final long CALIBRATION_ROWS = 2_000_000;
    private static volatile double rowsPerSecond;

    private SqliteSlow() {
    }

    static String countTo(long n) {
        return "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < " + n + ") SELECT count(*) FROM c";
    }

    /** Counts to n and answers 1 when every row was counted: a statement cut short answers 0 or fails. */
    static String countedAll(long n) {
        return countTo(n).replace("SELECT count(*) FROM c", "SELECT count(*) = " + n + " FROM c");
    }

    /** How many rows to count so that {@link #countTo} runs for about {@code d} here. */
    static long rowsFor(Connection c, Duration d) throws SQLException {
        if (rowsPerSecond == 0) {
            Sql.one(c, countTo(CALIBRATION_ROWS)); // warm up
            long start = System.nanoTime();
            Sql.one(c, countTo(CALIBRATION_ROWS));
            rowsPerSecond = CALIBRATION_ROWS / ((System.nanoTime() - start) / 1e9);
        }
        return (long) (rowsPerSecond * d.toMillis() / 1000.0);
    }
}
