package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command line's own parser: what it takes, and what it says when it cannot. */
class ArgsTest {

    private static PlanCommand plan(String... args) {
        PlanCommand p = new PlanCommand();
        Args.parse(p, args, 0);
        return p;
    }

    @Test
    void optionsTakeTheirValueAfterASpaceOrAnEqualsSignAndDashDashEndsThem() {
        PlanCommand p = plan("--param", "-5", "--param=NULL", "--as", "assistant", "--json", "--", "--not-an-option");
        assertThat(p.params).containsExactly("-5", "NULL");
        assertThat(p.actor).isEqualTo("assistant");
        assertThat(p.common.json).isTrue();
        assertThat(p.sql).isEqualTo("--not-an-option");
        assertThat(plan("UPDATE t SET a = 1 WHERE id = 1", "--config=x.json", "--as=a").common.config)
                .isEqualTo(Path.of("x.json"));
    }

    @Test
    void aMistakeIsAUsageErrorThatSaysWhatWasWrong() {
        assertThatThrownBy(() -> plan("SQL", "--as", "--json")).hasMessage(
                "Missing required parameter for option '--as' (ACTOR)");
        assertThatThrownBy(() -> plan("SQL", "--as", "a", "--as", "b")).hasMessage(
                "option '--as' (ACTOR) should be specified only once");
        assertThatThrownBy(() -> plan("SQL", "--as", "a", "--json=yes")).hasMessage(
                "option '--json' takes no value: '--json=yes'");
        assertThatThrownBy(() -> plan("SQL", "--as", "a", "more")).hasMessage("Unmatched argument at index 3: 'more'");
        assertThatThrownBy(() -> plan("--as", "a")).hasMessage("Missing required parameter: 'SQL'");
        assertThatThrownBy(() -> plan("SQL")).hasMessage("Missing required option: '--as=ACTOR'");
        assertThat(Args.parse(new PlanCommand(), new String[] {"--help"}, 0)).as("help needs no required option").isTrue();
    }

    @Test
    void aMistypedOptionOrCommandIsAnsweredWithTheNearestNames() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new Main(Map.<String, String>of()::get, Path.of(".")), new PrintWriter(out),
                new PrintWriter(err), "approve", "x", "--ass", "alice");
        assertThat(status).isEqualTo(Main.USAGE);
        assertThat(err.toString()).isEqualTo("Unknown option: '--ass'\nDid you mean: --as?\nSee: llmsafe approve --help\n");
        err.getBuffer().setLength(0);
        Main.run(new Main(Map.<String, String>of()::get, Path.of(".")), new PrintWriter(out), new PrintWriter(err),
                "hash-pasword");
        assertThat(err.toString()).contains("Unknown command: 'hash-pasword'").contains("Did you mean: llmsafe hash-password?");
    }

    @Test
    void helpListsEveryOptionOfTheCommandWithinEightyColumns() {
        String help = Args.help(new ReadCommand());
        assertThat(help).startsWith("Usage: llmsafe read [-h] [--json] [--debug] [--csv-raw] [--config=PATH]")
                .contains("      SQL ").contains("--format=FORMAT").contains("--null=TEXT").contains("--csv-raw")
                .contains("  -h, --help");
        assertThat(help.lines()).allMatch(l -> l.length() <= Args.WIDTH);
    }
}
