package dev.llmsafe.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The agent's cost outside its scope: HikariCP's getConnection and close, in a JVM without the agent and in
 * one with it, printed side by side (figures, not an assertion on time). Not part of the test run:
 * {@code mvn -B -ntp -pl driver/llmsafe-agent -am verify -Dtest=AgentBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class AgentBenchmark {

    @Test
    void getConnectionOutsideTheScopeWithAndWithoutTheAgent() throws Exception {
        Path dir = Files.createTempDirectory("llmsafe-agent-bench");
        String url = "jdbc:sqlite:" + dir.resolve("bench.db");
        Path config = dir.resolve("llmsafe.json");
        Files.writeString(config, "{\"connection\": {\"url\": \"" + url + "\"}, \"policy\": {\"allow\": [\"orders\"]}}");

        String agentArgument = "config=" + config + ",scope=com.acme.shop.assistant";
        Map<Integer, String> raw = new TreeMap<>();
        Map<Integer, String> agent = new TreeMap<>();
        for (int run = 0; run < 2; run++) {
            figures(AgentJvm.run(null, "com.acme.shop.ShopBenchmark", url), raw);
            figures(AgentJvm.run(agentArgument, "com.acme.shop.ShopBenchmark", url), agent);
        }

        System.out.println("HikariCP getConnection + close outside the agent's scope (SQLite; per JVM, the median"
                + " and the fastest of 15 trials of 50,000 calls; two JVMs each, alternating):");
        raw.forEach((depth, ns) -> System.out.printf("  stack depth %3d: without the agent %s; with it %s%n", depth, ns,
                agent.get(depth)));
        assertThat(agent.keySet()).isEqualTo(raw.keySet()).hasSize(2);
    }

    private static void figures(AgentJvm.Run run, Map<Integer, String> into) {
        assertThat(run.exit()).as(run.err()).isZero();
        Matcher m = Pattern.compile("BENCH depth=(\\d+) ns=(\\d+) min=(\\d+)").matcher(run.out());
        while (m.find()) {
            into.merge(Integer.parseInt(m.group(1)), m.group(2) + " ns (fastest " + m.group(3) + ")",
                    (a, b) -> a + ", " + b);
        }
    }
}
