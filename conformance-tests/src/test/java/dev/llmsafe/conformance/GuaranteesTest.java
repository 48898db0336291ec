package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Verdict.Status;
import org.junit.jupiter.api.Test;

/**
 * The harness's verdicts on answers other than this machine's: a server that does not do what llmsafe
 * was built on fails, a declared limit does not, and an answer nobody has seen before fails (fail
 * closed). HarnessTest shows the verdicts on the answers the test servers really give.
 */
class GuaranteesTest {

    private static final ServerId POSTGRES = new ServerId(Flavor.POSTGRES, "15.20");
    private static final ServerId MARIADB = new ServerId(Flavor.MARIADB, "10.11.19");
    private static final ServerId MYSQL = new ServerId(Flavor.MYSQL, "8.4.11");
    private static final ServerId SQLITE = new ServerId(Flavor.SQLITE, "3.54.1");

    private static Status status(Fact f, ServerId s, String answer) {
        return Guarantees.judge(new Answer(f, s, answer)).status();
    }

    @Test
    void aServerTimeoutThatDoesNotStopWritesFailsWhereLlmsafeReliesOnItAndIsALimitWhereTheCardsSaySo() {
        assertThat(status(Fact.F01, MARIADB, "stopped with error 1969 (70100), row unchanged")).isEqualTo(Status.HOLDS);
        assertThat(status(Fact.F01, MARIADB, "not stopped, result 1, row changed")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F01, POSTGRES, "stopped with error 57014, row changed")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F01, MYSQL, "not stopped, result 1, row changed")).isEqualTo(Status.LIMIT);
        assertThat(Guarantees.judge(new Answer(Fact.F01, MYSQL, "not stopped, result 1, row changed")).meaning())
                .startsWith("No statement timeout on writes here: the row ceiling, the lock wait bound");
        assertThat(status(Fact.F01, SQLITE, "no such setting")).isEqualTo(Status.LIMIT);
        assertThat(status(Fact.F05, SQLITE, "not stopped, result 1, row changed")).isEqualTo(Status.FAILS);
    }

    @Test
    void theGrantsOfSamplesRolesMustShowTheCatalogAndTheMeasureToThePlanningRole() {
        assertThat(status(Fact.F21, MARIADB, "admin: CASCADE · planning: hidden · least-privilege role: CASCADE"))
                .isEqualTo(Status.HOLDS);
        assertThat(status(Fact.F21, MYSQL, "admin: CASCADE · planning: hidden · least-privilege role: hidden"))
                .isEqualTo(Status.FAILS);
        assertThat(status(Fact.F20, POSTGRES, "admin: pg_trigger 1, information_schema 1"
                + " · least-privilege role: pg_trigger 0, information_schema 0")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F22, MARIADB, "admin: reported 1, measured Handler_write 1 + Handler_update 1"
                + " · least-privilege role: reported 1, measure unreadable: error 1227 (42000)")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F22, MARIADB, "admin: reported 1, measured Handler_write 1 + Handler_update 1"
                + " · least-privilege role: reported 1, measured Handler_update 1")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F22, MARIADB, "admin: reported 1, measured Handler_write 1 + Handler_update 1"
                + " · least-privilege role: reported 1, measured Handler_write 1 + Handler_update 1"))
                .isEqualTo(Status.HOLDS);
    }

    /**
     * MariaDB's session counters miss what InnoDB's foreign key actions write: a limit the catalog covers
     * (D15); an internal temporary table counted as a write (MySQL) makes such plans refused, a limit every
     * MySQL card declares; anything else there fails.
     */
    @Test
    void theSessionCountersLimitsAreJudged() {
        assertThat(status(Fact.F23, MARIADB, "admin: reported 1, measured Handler_delete 1"
                + " · least-privilege role: reported 1, measured Handler_delete 1")).isEqualTo(Status.LIMIT);
        assertThat(status(Fact.F42, MARIADB, "reported 3, measured Handler_update 3 (apart: Handler_tmp_write 7)"))
                .isEqualTo(Status.HOLDS);
        assertThat(status(Fact.F42, MYSQL, "reported 3, measured Handler_write 7 + Handler_update 3"))
                .isEqualTo(Status.LIMIT);
        assertThat(status(Fact.F42, MYSQL, "reported 3, measured Handler_write 7")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F41, SQLITE, "n/a (no stored procedures or functions)")).isEqualTo(Status.NOT_APPLICABLE);
    }

    @Test
    void valuesMustArriveExactThroughTheGetterLlmsafeReads() {
        assertThat(status(Fact.F11, POSTGRES, "getObject: Long exact · getLong: exact · getBigDecimal: exact"
                + " · getString: '9223372036854775806'")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F15, MARIADB, "getObject: Timestamp 2024-02-29T04:45:56.123456Z"
                + " · getString: '2024-02-29 13:45:56.123456'")).isEqualTo(Status.HOLDS);
        // The same wall clock read in a session nine hours off is another instant.
        assertThat(status(Fact.F15, MARIADB, "getString: '2024-02-29 22:45:56.123456'")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F15, POSTGRES, "getString: '2024-02-29 22:45:56.123456+09'")).isEqualTo(Status.HOLDS);
        assertThat(status(Fact.F13, SQLITE, "getObject: Double 1.2345678901234569E27 · getBigDecimal: 1.2345678901234569E+27"
                + " · getString: '1.2345678901234569e+27'")).isEqualTo(Status.LIMIT);
    }

    @Test
    void aReadOnlySessionThatLetsAWriteThroughFails() {
        assertThat(status(Fact.F29, POSTGRES, "not stopped, 1 row written")).isEqualTo(Status.FAILS);
        assertThat(status(Fact.F31, POSTGRES, "not stopped, 1 row written")).isEqualTo(Status.LIMIT);
        assertThat(status(Fact.F30, SQLITE, "n/a (no read-only transactions; query_only is per connection)"))
                .isEqualTo(Status.NOT_APPLICABLE);
    }

    @Test
    void anAnswerLlmsafeWasNotBuiltOnFails() {
        Verdict v = Guarantees.judge(new Answer(Fact.F06, POSTGRES, "deadlock"));
        assertThat(v.status()).isEqualTo(Status.FAILS);
        assertThat(v.meaning()).startsWith("llmsafe was not built on this answer");
        assertThat(status(Fact.F09, MARIADB, "0 (rows changed)")).isEqualTo(Status.FAILS);
    }
}
