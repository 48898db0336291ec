package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D6, E3: what really bounds the time a statement runs, as {@link TimeoutFacts} measures it, asserted
 * per server: the answers the code relies on. The probes live in the main code, where the harness runs
 * them on a user's server.
 */
class TimeoutFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F01_theServerStatementTimeoutStopsAnUpdateWithAnError(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F01, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 57014, row unchanged";
            case MARIADB -> "stopped with error 1969 (70100), row unchanged";
            // The seed's measurement on MySQL 8.4.11: max_execution_time applies to SELECT only.
            case MYSQL -> "not stopped, result 1, row changed";
            case SQLITE -> "no such setting";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F02_aSleepAloneCutShortByTheServerTimeout(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F02, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 57014";
            case MARIADB -> "stopped with error 1969 (70100)";
            // MySQL documents that an interrupted SLEEP() alone returns 1 and no error.
            case MYSQL -> "cut short without an error, result 1";
            case SQLITE -> "no such setting";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F03_jdbcQueryTimeoutStopsALongUpdateExceptOnSqlite(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F03, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 57014, row unchanged";
            // Connector/J kills the query from a second connection and reports the timeout itself.
            case MARIADB, MYSQL -> "stopped with MySQLTimeoutException, row unchanged";
            // sqlite-jdbc turns the query timeout into a busy (lock wait) timeout and nothing else.
            case SQLITE -> "not stopped, result 1, row changed";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F04_jdbcQueryTimeoutStopsALongSelectExceptOnSqlite(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F04, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 57014";
            case MARIADB, MYSQL -> "stopped with MySQLTimeoutException";
            case SQLITE -> "not stopped, result 1";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F05_statementCancelFromAnotherThreadStopsALongUpdate(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F05, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 57014, row unchanged";
            case MARIADB, MYSQL -> "stopped with MySQLStatementCancelledException, row unchanged";
            // The one way to bound a statement on SQLite: sqlite3_interrupt, from a watchdog thread.
            case SQLITE -> "stopped with SQLITE_INTERRUPT, row unchanged";
        });
    }
}
