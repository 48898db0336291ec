package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/** {@code hash-password} and {@code serve}'s refusals, which need no server to run. */
class ConsoleCommandsTest {

    @TempDir
    Path dir;

    private CliTest.Run run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Main main = new Main(Map.<String, String>of()::get, dir,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), null);
        int status = Main.run(main, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliTest.Run(status, out.toString(), err.toString());
    }

    @Test
    void hashPasswordPrintsABcryptHashOfTheLineOnStdinAndNeverTakesThePasswordAsAnArgument() {
        CliTest.Run r = run("correct horse battery staple\n", "hash-password");
        assertThat(r.status()).as(r.err()).isZero();
        String hash = r.out().strip();
        assertThat(hash).startsWith("$2a$12$").hasSize(60);
        assertThat(BCrypt.checkpw("correct horse battery staple", hash)).isTrue();
        assertThat(r.out()).doesNotContain("horse");
        CliTest.Run argv = run("", "hash-password", "hunter2");
        assertThat(argv.status()).isEqualTo(Main.USAGE);
        assertThat(argv.out()).isEmpty();
        CliTest.Run empty = run("", "hash-password");
        assertThat(empty.status()).isEqualTo(Main.USAGE);
        assertThat(empty.err()).contains("no password on standard input");
        CliTest.Run tooLong = run("x".repeat(73) + "\n", "hash-password");
        assertThat(tooLong.status()).isEqualTo(Main.USAGE);
        assertThat(tooLong.err()).contains("BCrypt reads only the first 72");
    }

    @Test
    void serveRefusesAConfigurationWithoutAConsoleSectionOrWithAPasswordInPlaceOfAHash() throws Exception {
        Path db = Files.createFile(dir.resolve("app.db"));
        String store = "\"storeConnection\": {\"url\": \"jdbc:sqlite:" + db + "\"}";
        Path none = Files.writeString(dir.resolve("none.json"), "{" + store + "}");
        CliTest.Run r = run("", "serve", "--config", none.toString(), "--port", "0");
        assertThat(r.status()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("console").contains("no console section");
        Path plain = Files.writeString(dir.resolve("plain.json"), "{" + store + ", \"console\": {\"users\": [{\"name\":"
                + " \"alice\", \"roles\": [\"approver\"], \"passwordHash\": \"hunter2\"}]}}");
        CliTest.Run p = run("", "serve", "--config", plain.toString(), "--port", "0");
        assertThat(p.status()).isEqualTo(Main.USAGE);
        assertThat(p.err()).contains("console.users[0].passwordHash").contains("not a BCrypt hash");
    }
}
