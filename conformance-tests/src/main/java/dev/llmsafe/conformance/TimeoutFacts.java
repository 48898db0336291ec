package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Sql.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D6 and E3: what really bounds the time a dry run can take. A bound that is configured and believed
 * but not enforced is the failure this project exists to avoid, so each one is measured on a
 * statement that would otherwise run on.
 */
final class TimeoutFacts {

    private static final Logger LOG = LoggerFactory.getLogger(TimeoutFacts.class);

    /** The server-side timeout set in the probes, and how long the slow statement would run without it. */
    private static final Duration SERVER_TIMEOUT = Duration.ofMillis(500);
    private static final Duration SLOW = Duration.ofSeconds(2);
    /** JDBC timeouts are whole seconds; the slow statement for them runs two and a half. */
    private static final int JDBC_TIMEOUT_SECONDS = 1;
    private static final Duration JDBC_SLOW = Duration.ofMillis(2500);
    /** A statement that completes sooner than this says nothing about a one-second timeout. */
    private static final Duration JDBC_MINIMUM = Duration.ofMillis(1300);

    private TimeoutFacts() {
    }

    static String serverTimeoutOnUpdate(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "no such setting";
        }
        db.execute("CREATE TABLE f01 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f01 VALUES (1, 0)");
        try (Connection c = db.connect()) {
            Sql.exec(c, switch (server.flavor()) {
                case POSTGRES -> "SET statement_timeout = " + SERVER_TIMEOUT.toMillis();
                case MARIADB -> "SET SESSION max_statement_time = " + SERVER_TIMEOUT.toMillis() / 1000.0;
                default -> "SET SESSION max_execution_time = " + SERVER_TIMEOUT.toMillis();
            });
            Outcome o = Sql.update(c, "UPDATE f01 SET v = v + 1 WHERE id = 1 AND " + sleep(server, SLOW));
            // An interrupted SLEEP() returns 1, so the WHERE clause turns false: 0 rows is "cut short".
            return ended(o, "1", SERVER_TIMEOUT.multipliedBy(2),
                    "row " + (Sql.count(c, "SELECT v FROM f01 WHERE id = 1") == 0 ? "unchanged" : "changed"));
        }
    }

    static String serverTimeoutOnSleepAlone(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "no such setting";
        }
        try (Connection c = db.connect()) {
            Sql.exec(c, switch (server.flavor()) {
                case POSTGRES -> "SET statement_timeout = " + SERVER_TIMEOUT.toMillis();
                case MARIADB -> "SET SESSION max_statement_time = " + SERVER_TIMEOUT.toMillis() / 1000.0;
                default -> "SET SESSION max_execution_time = " + SERVER_TIMEOUT.toMillis();
            });
            Outcome o = Sql.query(c, server.flavor() == Flavor.POSTGRES
                    ? "SELECT 1 FROM pg_sleep(" + SLOW.toSeconds() + ")"
                    : "SELECT SLEEP(" + SLOW.toSeconds() + ")");
            // SLEEP() returns 0 when it slept its time, 1 when it was interrupted.
            return ended(o, server.flavor() == Flavor.POSTGRES ? "1" : "0", SERVER_TIMEOUT.multipliedBy(2), null);
        }
    }

    static String jdbcTimeoutOnUpdate(Scratch db, ServerId server) throws Exception {
        db.execute("CREATE TABLE f03 (id INT PRIMARY KEY, v BIGINT NOT NULL)", "INSERT INTO f03 VALUES (1, 0)");
        return againIfTooFast(slow -> {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.setQueryTimeout(JDBC_TIMEOUT_SECONDS);
                Sql.exec(c, "UPDATE f03 SET v = 0 WHERE id = 1"); // a first, too fast attempt changed it
                String sql = slowUpdate(c, server, "f03", slow);
                Outcome o = Sql.timed(() -> String.valueOf(s.executeUpdate(sql)));
                return ended(o, "1", JDBC_MINIMUM,
                        "row " + (Sql.count(c, "SELECT v FROM f03 WHERE id = 1") == 0 ? "unchanged" : "changed"));
            }
        });
    }

    static String jdbcTimeoutOnSelect(Scratch db, ServerId server) throws Exception {
        return againIfTooFast(slow -> {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.setQueryTimeout(JDBC_TIMEOUT_SECONDS);
                String sql = switch (server.flavor()) {
                    case POSTGRES -> "SELECT 1 FROM pg_sleep(" + slow.toMillis() / 1000.0 + ")";
                    case SQLITE -> SqliteSlow.countedAll(SqliteSlow.rowsFor(c, slow));
                    default -> "SELECT SLEEP(" + slow.toMillis() / 1000.0 + ")";
                };
                Outcome o = Sql.timed(() -> {
                    try (var rs = s.executeQuery(sql)) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                });
                return ended(o, server.flavor() == Flavor.MARIADB || server.flavor() == Flavor.MYSQL ? "0" : "1",
                        JDBC_MINIMUM, null);
            }
        });
    }

    static String cancelOnUpdate(Scratch db, ServerId server) throws Exception {
        db.execute("CREATE TABLE f05 (id INT PRIMARY KEY, v BIGINT NOT NULL)", "INSERT INTO f05 VALUES (1, 0)");
        return againIfTooFast(slow -> {
            ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                Sql.exec(c, "UPDATE f05 SET v = 0 WHERE id = 1"); // a first, too fast attempt changed it
                String sql = slowUpdate(c, server, "f05", slow);
                watchdog.schedule(() -> {
                    s.cancel();
                    return null;
                }, JDBC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                Outcome o = Sql.timed(() -> String.valueOf(s.executeUpdate(sql)));
                String row = "row " + (Sql.count(c, "SELECT v FROM f05 WHERE id = 1") == 0 ? "unchanged" : "changed");
                if (o.failed() && server.flavor() != Flavor.POSTGRES && o.error().getErrorCode() == 1317) {
                    // Connector/J answers its own cancel (KILL QUERY) with an exception of its own,
                    // MySQLStatementCancelledException, or, when the server's answer comes first, with the server's
                    // error 1317 for the same interruption: a race, seen both ways on MySQL 8.0.31 in one day. One
                    // answer for both, so that the fact does not flip.
                    return "stopped with MySQLStatementCancelledException, " + row;
                }
                return ended(o, "1", JDBC_MINIMUM, row);
            } finally {
                watchdog.shutdownNow();
            }
        });
    }

    /** A probe of a statement that should run for the given time. */
    @FunctionalInterface
    private interface SlowProbe {
        String run(Duration slow) throws Exception;
    }

    /** Thrown when a statement meant to be slow finished too soon to say anything about a timeout. */
    private static final class TooFast extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooFast(String message) {
            super(message);
        }
    }

    /**
     * SQLite's slow statement is calibrated on this machine, and a machine that was busy while
     * calibrating makes it too short; then once more, twice as long.
     */
    private static String againIfTooFast(SlowProbe probe) throws Exception {
        try {
            return probe.run(JDBC_SLOW);
        } catch (TooFast e) {
            LOG.info("{}; measuring again with a statement twice as long", e.getMessage());
            return probe.run(JDBC_SLOW.multipliedBy(2));
        }
    }

    private static String sleep(ServerId server, Duration d) {
        return server.flavor() == Flavor.POSTGRES
                ? "(SELECT 1 FROM pg_sleep(" + d.toMillis() / 1000.0 + ")) = 1"
                : "SLEEP(" + d.toMillis() / 1000.0 + ") = 0";
    }

    /** An UPDATE of one row that takes {@code slow} because of its WHERE clause (SQLite: its SET). */
    private static String slowUpdate(Connection c, ServerId server, String table, Duration slow) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            long rows = SqliteSlow.rowsFor(c, slow);
            return "UPDATE " + table + " SET v = (" + SqliteSlow.countedAll(rows) + ") WHERE id = 1";
        }
        return "UPDATE " + table + " SET v = v + 1 WHERE id = 1 AND " + sleep(server, slow);
    }

    /**
     * How a slow statement ended: stopped with an error; cut short yet reporting success (the
     * dangerous case: a result that looks normal); or not stopped, when its result is the one of a
     * statement that did all its work. "Not stopped" is only an answer when the statement ran well
     * past the timeout; a statement that was simply too fast proves nothing, and fails the probe.
     */
    private static String ended(Outcome o, String completeResult, Duration minimum, String after) {
        String how;
        if (o.failed()) {
            how = "stopped with " + o.describe();
        } else if (!completeResult.equals(o.value())) {
            how = "cut short without an error, result " + o.value();
        } else if (o.elapsed().compareTo(minimum) < 0) {
            throw new TooFast("the slow statement finished in " + o.elapsed().toMillis()
                    + " ms, too soon for the timeout to have mattered");
        } else {
            how = "not stopped, result " + o.value();
        }
        return after == null ? how : how + ", " + after;
    }

}
