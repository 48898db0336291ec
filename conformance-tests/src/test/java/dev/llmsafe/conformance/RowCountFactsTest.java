package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D9, E2: what "rows affected" counts, as {@link RowCountFacts} measures it, asserted per server: the
 * answers the code relies on. The probes live in the main code, where the harness runs them on a user's
 * server.
 */
class RowCountFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F09_aSameValueUpdateCountsTheRowAsAffectedWithDriverDefaults(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F09, dbs.get(engine));
        // Connector/J asks the server for "found rows" unless told otherwise (CLIENT_FOUND_ROWS).
        assertThat(a.text()).isEqualTo("1 (rows matched)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F10_aSameValueUpdateCountsNothingWithUseAffectedRows(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F10, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case MARIADB, MYSQL -> "0 (rows changed)";
            default -> "n/a (a Connector/J setting)";
        });
    }
}
