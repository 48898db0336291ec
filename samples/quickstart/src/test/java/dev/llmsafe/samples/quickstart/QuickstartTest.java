package dev.llmsafe.samples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CI runs the quickstart and checks the story it tells, and the rows it leaves. */
class QuickstartTest {

    @TempDir
    Path dir;

    @Test
    void theQuickstartEndsWithTheRowsTheCardShowed() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Quickstart q = new Quickstart(dir, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        UUID id = q.run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("Plan " + id + " is proposed, not applied. Nothing in the database has changed.")
                .contains("2 rows would change, in 1 column: status")
                .contains("status: 'packed' -> 'shipped'")
                .contains("Marking an order shipped emails the customer.")
                .contains("Plan " + id + " is approved by alice@example.com")
                .contains("Plan " + id + " is applied: 2 rows committed, exactly as the card showed.");
        // Between the card and the apply, the rows were unchanged.
        int card = out.indexOf("== 6.");
        int approve = out.indexOf("== 7.");
        assertThat(out.substring(card, approve)).contains("1 R-1 packed", "2 R-2 packed", "3 R-3 shipped");
        assertThat(q.orders(dir.resolve("app.db"))).containsExactly("1 R-1 shipped", "2 R-2 shipped", "3 R-3 shipped");
        // It says where its files are and what a user runs next, and no step looks like a shell command it skipped.
        assertThat(out).contains("Its files are in " + dir).contains("$ llmsafe init --url ").contains("$ llmsafe migrate\n")
                .contains("$ llmsafe check\n").contains("llmsafe migrate --config llmsafe.json   (run in this process)");
        assertThat(out.substring(0, out.indexOf("== Where this is"))).doesNotContain("$ llmsafe");
    }
}
