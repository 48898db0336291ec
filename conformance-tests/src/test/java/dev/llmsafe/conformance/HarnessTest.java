package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import dev.llmsafe.testing.TestServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The harness as a database team runs it, in-process, on the test servers and on a SQLite file: the
 * report names every fact with its verdict, the exit status is 0 on the servers llmsafe was built on,
 * and nothing it created is left behind; the user's SQLite file is not written.
 */
class HarnessTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    static Run harness(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Harness.run(env::get, new PrintWriter(out), new PrintWriter(err), args);
        return new Run(status, out.toString(), err.toString());
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void everyFactHoldsOnTheTestServerAndNothingIsLeftBehind(Engine engine) throws Exception {
        TestServers.Server s = TestServers.require(engine);
        Map<String, String> env = new HashMap<>();
        env.put("DB_PASSWORD", s.password());
        Run r = s.password() == null ? harness(env, "--url", s.url(), "--user", s.user())
                : harness(env, "--url", s.url(), "--user", s.user(), "--password-env", "DB_PASSWORD");

        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Harness.OK);
        assertEveryFactReported(r);
        assertThat(r.out()).contains("Server:  " + (engine == Engine.POSTGRES ? "PostgreSQL " : "M"))
                .containsPattern(Fact.values().length + " facts on [A-Za-z]+ [0-9.]+: \\d+ ok, \\d+ limits?, 0 failing, \\d+ not applicable,"
                        + " 0 not measured")
                .contains("Exit status 0: every fact llmsafe's guarantees depend on holds here");
        Matcher m = Pattern.compile("Scratch: (schema|database) (llmsafe_cf_\\d+_[0-9a-f]+),").matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        String name = m.group(2);
        // Roles were made for the catalog and side-effect facts (they passed, so they were measured).
        assertThat(r.out()).containsPattern("Dropped " + m.group(1) + " " + name + " and its \\d+ roles, " + name + "_r1 to "
                + name + "_r\\d+\\.");
        try (Connection c = s.connect()) {
            String like = name.replace("_", "\\_") + "%";
            if (engine == Engine.POSTGRES) {
                assertThat(Sql.count(c, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE '" + like + "'")).isZero();
                assertThat(Sql.count(c, "SELECT count(*) FROM pg_roles WHERE rolname LIKE '" + like + "'")).isZero();
            } else {
                assertThat(Sql.count(c, "SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '"
                        + like + "'")).isZero();
                assertThat(Sql.count(c, "SELECT count(*) FROM mysql.user WHERE user LIKE '" + like + "'")).isZero();
            }
        }
    }

    @Test
    void onSqliteItMeasuresACopyAndLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("app.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            Sql.exec(c, "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT)", "INSERT INTO orders VALUES (1, 'packed')");
        }
        byte[] before = Files.readAllBytes(file);

        Run r = harness(Map.of(), "--url", "jdbc:sqlite:" + file);

        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Harness.OK);
        assertEveryFactReported(r);
        // SQLite's missing statement timeout is a limit the cards declare, not a failure.
        assertThat(r.out()).containsPattern("F01  limit .*\\n     measured: no such setting\\n     means:    No statement"
                + " timeout on SQLite");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        Matcher m = Pattern.compile("Scratch: a temporary copy of the file, in (\\S+);").matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        assertThat(Path.of(m.group(1))).doesNotExist();
    }

    /**
     * A credential that may create a schema but not roles: the facts that compare roles are reported
     * as not measured, with what the credential lacks, the others are measured, and the exit status
     * says the run is incomplete.
     */
    @Test
    void aCredentialThatCannotCreateRolesLeavesTheRoleFactsNotMeasured() throws Exception {
        TestServers.Server s = TestServers.require(Engine.POSTGRES);
        String database = s.url().replaceFirst("^jdbc:postgresql://[^/]+/", "").replaceFirst("\\?.*$", "");
        TestRole owner = dbs.fresh(Engine.POSTGRES).createRole("GRANT CREATE ON DATABASE " + database + " TO {role}");

        Run r = harness(Map.of("PW", owner.password()), "--url", s.url(), "--user", owner.name(), "--password-env", "PW");

        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Harness.INCOMPLETE);
        for (Fact f : List.of(Fact.F20, Fact.F21, Fact.F22, Fact.F23, Fact.F24)) {
            assertThat(r.out()).containsPattern("(?m)^" + f.name() + "  not measured  " + Pattern.quote(f.title()) + "\\R"
                    + "     measured: \\(not measured\\)\\R     means:    this credential may not create a role");
        }
        assertThat(r.out()).containsPattern(Fact.values().length + " facts on PostgreSQL [0-9.]+: \\d+ ok, \\d+ limits?, 0 failing, \\d+ not"
                + " applicable, 5 not measured")
                .contains("Exit status 3: some facts could not be measured with this credential");
        Matcher m = Pattern.compile("Dropped schema (llmsafe_cf_\\d+_[0-9a-f]+)\\.").matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        try (Connection c = s.connect()) {
            assertThat(Sql.count(c, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + m.group(1) + "'")).isZero();
        }
    }

    @Test
    void usageErrorsAndAnUnreachableServerSayWhatToDo() {
        Run none = harness(Map.of());
        assertThat(none.status()).isEqualTo(Harness.USAGE);
        assertThat(none.err()).startsWith("--url is required").contains("Usage: java -jar");

        Run unset = harness(Map.of(), "--url", "jdbc:postgresql://127.0.0.1:5432/x", "--password-env", "NOPE");
        assertThat(unset.status()).isEqualTo(Harness.USAGE);
        assertThat(unset.err()).startsWith("--password-env NOPE: the variable NOPE is not set");

        Run mariadb = harness(Map.of(), "--url", "jdbc:mariadb://127.0.0.1:3306/x");
        assertThat(mariadb.status()).isEqualTo(Harness.USAGE);
        assertThat(mariadb.err()).startsWith("write jdbc:mysql://... for MariaDB too");

        Run down = harness(Map.of(), "--url", "jdbc:postgresql://127.0.0.1:1/app?user=nobody&password=secret");
        assertThat(down.status()).isEqualTo(Harness.ERROR);
        assertThat(down.err()).startsWith("Could not create a scratch place on jdbc:postgresql://127.0.0.1:1/app as nobody:")
                .doesNotContain("secret");
        assertThat(down.out()).isEmpty();
    }

    private static void assertEveryFactReported(Run r) {
        for (Fact f : Fact.values()) {
            assertThat(r.out()).as(f.name()).containsPattern("(?m)^" + f.name() + "  (ok|limit|n/a) +" + Pattern.quote(f.title()) + "$");
        }
    }
}
