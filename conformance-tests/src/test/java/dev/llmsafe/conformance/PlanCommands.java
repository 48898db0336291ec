package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.Refusal;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps of a plan's life on the command line of an {@link EndToEnd} deployment, shared by the
 * end-to-end classes of approving and applying (A) and of the store (T): propose, approve, apply,
 * show, and the configuration file edited for one command.
 */
final class PlanCommands {

    private PlanCommands() {
    }

    /**
     * The application's orders, five per block of ten ids (block + 0 to block + 4): packed, packed and
     * fragile, open, open, packed. Every test has a block of its own, so that test order does not matter.
     */
    static List<String> orders(List<Integer> blocks) {
        List<String> rows = new ArrayList<>();
        for (int b : blocks) {
            rows.add("(" + b + ", 'packed', NULL, 1), (" + (b + 1) + ", 'packed', 'fragile', 2), (" + (b + 2)
                    + ", 'open', NULL, 3), (" + (b + 3) + ", 'open', NULL, 4), (" + (b + 4) + ", 'packed', NULL, 5)");
        }
        return List.of("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, note VARCHAR(100),"
                + " qty INT NOT NULL)", "INSERT INTO orders VALUES " + String.join(", ", rows));
    }

    /** {@code llmsafe apply ID ARGS}. */
    static Run apply(Deployed d, String id, String... args) {
        List<String> all = new ArrayList<>(List.of("apply", id));
        all.addAll(List.of(args));
        return d.llmsafe(all.toArray(String[]::new));
    }

    /** {@code llmsafe plan ARGS --as ACTOR}. */
    static Run plan(Deployed d, String actor, String... args) {
        List<String> all = new ArrayList<>(List.of("plan"));
        all.addAll(List.of(args));
        all.addAll(List.of("--as", actor));
        return d.llmsafe(all.toArray(String[]::new));
    }

    /** The id of a plan the command proposed. */
    static String proposed(Run plan) {
        ok(plan);
        assertThat(plan.out()).contains("is proposed, not applied. Nothing in the database has changed.");
        return EndToEnd.planId(plan);
    }

    /**
     * {@code llmsafe plan SQL --as assistant}, then {@code approve --as alice}; nothing changed in the
     * table the statement writes.
     */
    static String approved(Deployed d, String sql) throws Exception {
        Matcher table = Pattern.compile("^(?:UPDATE|DELETE FROM) (\\w+) ").matcher(sql);
        assertThat(table.find()).as(sql).isTrue();
        List<String> before = d.rows(table.group(1));
        String id = proposed(d.plan(sql));
        Run approve = ok(d.llmsafe("approve", id, "--as", "alice"));
        assertThat(approve.out()).isEqualTo("Plan " + id + " is approved by alice. It changes nothing until it is applied:"
                + " llmsafe apply " + id + " --as <applier>" + System.lineSeparator());
        assertThat(d.rows(table.group(1))).isEqualTo(before);
        return id;
    }

    static Run ok(Run r) {
        assertThat(r.status()).as(r.all()).isEqualTo(Main.OK);
        return r;
    }

    /** The command was refused with the code, its message containing the text. */
    static void refused(Run r, Refusal code, String text) {
        assertThat(r.status()).as(r.all()).isEqualTo(Main.REFUSED);
        assertThat(r.err()).startsWith("Refused (" + code.name() + "): ").contains(text);
    }

    /** {@code llmsafe show ID --json}. */
    static JsonNode show(Deployed d, String id, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("show", id, "--json"));
        all.addAll(List.of(args));
        return new ObjectMapper().readTree(ok(d.llmsafe(all.toArray(String[]::new))).out());
    }

    static String status(Deployed d, String id) throws Exception {
        return show(d, id).get("status").asText();
    }

    static String outcome(Deployed d, String id) throws Exception {
        return show(d, id).get("outcome").asText();
    }

    /** The plan's history as "actor action outcome" lines, as {@code show --json} gives it. */
    static List<String> history(Deployed d, String id, String... args) throws Exception {
        List<String> out = new ArrayList<>();
        show(d, id, args).get("history").forEach(h -> out.add(h.get("actor").asText() + " " + h.get("action").asText() + " "
                + h.get("outcome").asText()));
        return out;
    }

    /** The rows with the one whose key is {@code id} replaced. */
    static List<String> replaced(List<String> rows, int id, String row) {
        List<String> out = new ArrayList<>();
        boolean found = false;
        for (String r : rows) {
            if (r.startsWith("[" + id + ", ")) {
                out.add(row);
                found = true;
            } else {
                out.add(r);
            }
        }
        assertThat(found).as("row %d", id).isTrue();
        return out;
    }

    // ---- the configuration file ------------------------------------------------------------------

    /**
     * A copy of the deployment's configuration file, edited, next to it; its path, for {@code --config}.
     * The edit must change the text.
     */
    static String variant(Deployed d, String name, UnaryOperator<String> edit) throws Exception {
        String text = Files.readString(d.home().resolve("llmsafe.json"));
        String edited = edit.apply(text);
        assertThat(edited).as("the edit of %s", name).isNotEqualTo(text);
        return Files.writeString(d.home().resolve(name + ".json"), edited).toString();
    }

    /** An edit that adds a top-level member. */
    static UnaryOperator<String> top(String member) {
        return t -> t.replaceFirst("^\\{\\n", "{\n  " + member.replace("\\", "\\\\").replace("$", "\\$") + ",\n");
    }

    /** An edit that adds a member to the policy. */
    static UnaryOperator<String> policy(String member) {
        return t -> t.replace("\"policy\": {", "\"policy\": {\n    " + member + ",");
    }
}
