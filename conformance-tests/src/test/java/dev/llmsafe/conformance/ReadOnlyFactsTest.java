package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R3: whether read-only sessions stop a write the statement guard cannot see, as {@link ReadOnlyFacts}
 * measures it, asserted per server: the answers the code relies on. The probes live in the main code,
 * where the harness runs them on a user's server.
 */
class ReadOnlyFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F29_aReadOnlySessionStopsAWritingFunctionCalledFromASelect(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F29, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 25006, 0 rows written";
            case MARIADB, MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            case SQLITE -> "stopped with SQLITE_READONLY, 0 rows written";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F30_aReadOnlyTransactionStopsAWritingFunctionCalledFromASelect(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F30, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "stopped with error 25006, 0 rows written";
            case MARIADB, MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            case SQLITE -> "n/a (no read-only transactions; query_only is per connection)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F31_jdbcSetReadOnlyIsNoServerSideGuard(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F31, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            // pgjdbc's default readOnlyMode=transaction does nothing in auto-commit mode.
            case POSTGRES -> "not stopped, 1 row written";
            // Connector/J sends SET SESSION TRANSACTION READ ONLY only to servers it believes are MySQL
            // 5.6.5 or later, and MariaDB 10.x introduces itself as 5.5.5: nothing is sent. MariaDB 11 gives
            // its own version, and the session is made read-only.
            case MARIADB -> a.server().announcedAsMysql55() ? "not stopped, 1 row written"
                    : "stopped with error 1792 (25006), 0 rows written";
            case MYSQL -> "stopped with error 1792 (25006), 0 rows written";
            // sqlite-jdbc fixes read-only when the connection opens and refuses to change it later.
            case SQLITE -> "setReadOnly refused: SQLException";
        });
    }
}
