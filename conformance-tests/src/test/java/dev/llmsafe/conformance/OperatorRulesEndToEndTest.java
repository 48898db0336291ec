package dev.llmsafe.conformance;

import static dev.llmsafe.conformance.PlanCommands.again;
import static dev.llmsafe.conformance.PlanCommands.apply;
import static dev.llmsafe.conformance.PlanCommands.ok;
import static dev.llmsafe.conformance.PlanCommands.plan;
import static dev.llmsafe.conformance.PlanCommands.proposed;
import static dev.llmsafe.conformance.PlanCommands.replaced;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.testing.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's command line (O1 to O3) on the four-role deployment of {@link EndToEnd}: plans named
 * by a beginning of their id, outputs that say what they are, and the launcher as it is installed.
 */
class OperatorRulesEndToEndTest {

    private static final int O1 = 10;
    private static final int O2 = 20;

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> PlanCommands.orders(List.of(O1, O2)),
            List.of("orders"), List.of("orders"), List.of(), """
              "policy": {
                "allow": ["orders"],
                "impact": {"orders": "Changing an order moves money."}
              }
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void O1_approveApplyShowAndRejectTakeAUniqueBeginningOfThePlanId(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        again(() -> {
            List<String> before = d.rows("orders");
            String id = proposed(plan(d, "assistant", "UPDATE orders SET qty = 40 WHERE id = " + O1));
            String other = proposed(plan(d, "assistant", "UPDATE orders SET qty = 41 WHERE id = " + (O1 + 1)));
            String prefix = id.substring(0, 12);
            assertThat(ok(d.llmsafe("show", prefix)).out()).contains("Plan " + id);
            assertThat(ok(d.llmsafe("approve", prefix, "--as", "alice")).out()).startsWith("Plan " + id + " is approved");
            assertThat(ok(d.llmsafe("reject", other.substring(0, 9), "--as", "carol")).out())
                    .isEqualTo("Plan " + other + " is rejected by carol." + System.lineSeparator());
            Run applied = ok(apply(d, prefix, "--as", "bob"));
            assertThat(applied.out()).startsWith("Plan " + id + " is applied: 1 row committed");
            assertThat(d.rows("orders")).isEqualTo(replaced(before, O1, "[" + O1 + ", packed, null, 40]"));
        });
        Run shortened = d.llmsafe("approve", "1234567", "--as", "alice");
        assertThat(shortened.status()).isEqualTo(Main.USAGE);
        assertThat(shortened.err()).contains("first 8 characters or more");
        Run nowhere = d.llmsafe("apply", "ffffffff-ffff-ffff", "--as", "bob");
        assertThat(nowhere.status()).isEqualTo(Main.USAGE);
        assertThat(nowhere.err()).contains("no plan id begins with ffffffff-ffff-ffff");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void O2_listHasAHeaderACountAndTimesInUtc_andReadGivesOneFormatAtATime(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String id = proposed(plan(d, "assistant", "UPDATE orders SET qty = 42 WHERE id = " + O2));
        List<String> list = ok(d.llmsafe("list", "--status", "proposed")).out().lines().toList();
        assertThat(list.get(0)).matches("PLAN +STATUS +CREATED +PROPOSER +ROWS +STATEMENT");
        assertThat(list).anyMatch(l -> l.matches(id + "  proposed  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  assistant"
                + " +1  UPDATE orders SET qty = 42 WHERE id = " + O2));
        assertThat(list.get(list.size() - 1)).matches("\\d+ plans?");

        String sql = "SELECT id, note FROM orders WHERE id IN (" + O2 + ", " + (O2 + 1) + ") ORDER BY id";
        assertThat(ok(d.llmsafe("read", sql, "--json")).out()).isEqualTo(ok(d.llmsafe("read", sql, "--format", "json")).out());
        Run both = d.llmsafe("read", sql, "--format", "csv", "--json");
        assertThat(both.status()).isEqualTo(Main.USAGE);
        assertThat(both.out()).contains("ask for two formats");
        assertThat(ok(d.llmsafe("read", sql, "--format", "csv", "--null", "NULL")).out())
                .isEqualTo("id,note\r\n" + O2 + ",NULL\r\n" + (O2 + 1) + ",fragile\r\n");
        Run typo = d.llmsafe("shw", id);
        assertThat(typo.status()).isEqualTo(Main.USAGE);
        assertThat(typo.err()).contains("Did you mean").contains("show");
    }

    /**
     * O3: the launcher runs the executable jar through a symbolic link, and from a copied directory of
     * {@code bin/llmsafe} and {@code lib/}, and the jar says its version and build.
     */
    @Test
    void O3_theLauncherWorksThroughASymlinkAndFromACopy_andSaysItsVersion() throws Exception {
        Path root = SpecFacts.specFile().getParent();
        Path launcher = root.resolve("driver/bin/llmsafe");
        Path jar;
        try (Stream<Path> files = Files.list(root.resolve("driver/target"))) {
            jar = files.filter(p -> p.getFileName().toString().matches("llmsafe-driver-.*-cli\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no executable jar in driver/target: run mvn package first"));
        }
        Path linked = Files.createDirectories(dir.resolve("path"));
        Files.createSymbolicLink(linked.resolve("llmsafe"), launcher);
        Path copy = dir.resolve("llmsafe-dist");
        Files.createDirectories(copy.resolve("bin"));
        Files.createDirectories(copy.resolve("lib"));
        Files.copy(launcher, copy.resolve("bin/llmsafe"));
        copy.resolve("bin/llmsafe").toFile().setExecutable(true);
        Files.copy(jar, copy.resolve("lib").resolve(jar.getFileName()));
        for (Path command : List.of(linked.resolve("llmsafe"), copy.resolve("bin/llmsafe"))) {
            List<String> out = run(command, "--version");
            assertThat(out.get(0)).as(command.toString()).matches("llmsafe \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(built \\d{4}-\\d\\d-\\d\\dT.*\\)");
        }
        Files.delete(copy.resolve("lib").resolve(jar.getFileName()));
        List<String> missing = run(copy.resolve("bin/llmsafe"), "--version");
        assertThat(String.join("\n", missing)).contains("no executable jar in " + copy.toRealPath());
    }

    private static List<String> run(Path command, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", command.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out.lines().toList();
    }
}
