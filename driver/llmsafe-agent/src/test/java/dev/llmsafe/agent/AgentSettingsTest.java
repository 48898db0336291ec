package dev.llmsafe.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent argument: what it guards, and every mistake refused with what to write instead. */
class AgentSettingsTest {

    @Test
    void theArgumentNamesTheConfigurationTheScopesTheUrlsAndTheProposer() {
        AgentSettings s = AgentSettings.parse("config=/etc/app/llmsafe.json,scope=com.acme.assistant,"
                + "scope=com.acme.Reports,url=jdbc:postgresql://db/*,proposer=order-agent");
        assertThat(s.config()).isEqualTo(Path.of("/etc/app/llmsafe.json"));
        assertThat(s.scopes()).containsExactly("com.acme.assistant", "com.acme.Reports");
        assertThat(s.urls()).containsExactly("jdbc:postgresql://db/*");
        assertThat(s.proposer()).isEqualTo("order-agent");
        assertThat(s.guardsUrl("jdbc:postgresql://db/app?ssl=true")).isTrue();
        assertThat(s.guardsUrl("jdbc:postgresql://db2/app")).isFalse();
        assertThat(AgentSettings.parse("config=x.json,url=jdbc:sqlite:/data/a.db").proposer()).isEqualTo("assistant");
    }

    @Test
    void aUrlPatternIsLiteralButForItsStars() {
        AgentSettings s = AgentSettings.parse("config=x.json,url=jdbc:mysql://db:3306/app?a=1*");
        assertThat(s.guardsUrl("jdbc:mysql://db:3306/app?a=1")).isTrue();
        assertThat(s.guardsUrl("jdbc:mysql://db:3306/app?a=1&b=2")).isTrue();
        assertThat(s.guardsUrl("jdbc:mysql://db:3306/appXa=1")).isFalse();
    }

    @Test
    void mistakesAreRefusedSoThatNothingRunsUnguardedByAccident() {
        for (List<String> c : List.of(
                List.of("scope=com.acme", "names no config"),
                List.of("config=x.json", "names no scope and no url"),
                List.of("config=x.json,scop=com.acme", "scop is not known"),
                List.of("config=x.json,scope=", "scope has no value"),
                List.of("config=x.json,config=y.json,scope=a", "config is given twice"),
                List.of("config=x.json,scope=com.acme tools", "not a package or class name"),
                List.of("config=x.json,scope=dev.llmsafe.jdbc", "llmsafe's own code"))) {
            assertThatThrownBy(() -> AgentSettings.parse(c.get(0))).as(c.get(0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(c.get(1));
        }
    }
}
