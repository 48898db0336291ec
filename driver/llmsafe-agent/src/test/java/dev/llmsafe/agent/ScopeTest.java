package dev.llmsafe.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which classes on a call stack decide, and how: a scope's package and its classes, llmsafe's own code. */
class ScopeTest {

    private final Scope scope = new Scope(List.of("com.acme.assistant", "com.acme.Reports"));

    @Test
    void aPackageCoversItsSubpackagesAndAClassItsNestedClassesAndLambdasButNotItsNamesakes() {
        assertThat(scope.judge("com.acme.assistant.OrderTools")).isEqualTo(Scope.Verdict.GUARDED);
        assertThat(scope.judge("com.acme.assistant.sub.Tool$1")).isEqualTo(Scope.Verdict.GUARDED);
        assertThat(scope.judge("com.acme.Reports")).isEqualTo(Scope.Verdict.GUARDED);
        assertThat(scope.judge("com.acme.Reports$Monthly")).isEqualTo(Scope.Verdict.GUARDED);
        assertThat(scope.judge("com.acme.assistants.Other")).isEqualTo(Scope.Verdict.NEUTRAL);
        assertThat(scope.judge("com.acme.ReportsJob")).isEqualTo(Scope.Verdict.NEUTRAL);
        assertThat(scope.judge("com.zaxxer.hikari.HikariDataSource")).isEqualTo(Scope.Verdict.NEUTRAL);
    }

    @Test
    void llmsafesOwnCodeDecidesThatItsConnectionsAreNotGuardedAndTheAgentsOwnFramesDecideNothing() {
        assertThat(scope.judge("dev.llmsafe.dryrun.Planner")).isEqualTo(Scope.Verdict.OWN);
        assertThat(scope.judge("dev.llmsafe.assembly.Pools$OwnConnections")).isEqualTo(Scope.Verdict.OWN);
        assertThat(scope.judge("dev.llmsafe.agent.Interceptor")).isEqualTo(Scope.Verdict.NEUTRAL);
        assertThat(scope.judge("dev.llmsafe.agent.bootstrap.Dispatch")).isEqualTo(Scope.Verdict.NEUTRAL);
    }

    @Test
    void theInnermostDecidingFrameOfTheCallerDecides() {
        // This test class is llmsafe's own (dev.llmsafe.agent is skipped, JUnit decides nothing): a caller in
        // dev.llmsafe.agent alone is outside every scope.
        assertThat(scope.ofCaller()).isEqualTo(Scope.Verdict.OUTSIDE);
        assertThat(new Scope(List.of("org.junit")).ofCaller()).isEqualTo(Scope.Verdict.GUARDED);
    }
}
