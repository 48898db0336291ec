package dev.llmsafe.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    static final Map<String, String> ENV = Map.of(
            "LLMSAFE_PASSWORD", "plan-secret",
            "LLMSAFE_APPLY_PASSWORD", "apply-secret",
            "LLMSAFE_SEAL_KEY", "0123456789abcdef0123456789abcdef");
    static final UnaryOperator<String> env = ENV::get;

    static final String FULL = """
            {
              "connection":      { "url": "jdbc:postgresql://127.0.0.1:5432/app", "user": "llm_plan", "password": "${LLMSAFE_PASSWORD}" },
              "readConnection":  { "url": "jdbc:postgresql://127.0.0.1:5432/app", "user": "llm_read" },
              "applyConnection": { "url": "jdbc:postgresql://127.0.0.1:5432/app", "user": "llm_apply", "password": "${LLMSAFE_APPLY_PASSWORD}" },
              "storeConnection": { "url": "jdbc:postgresql://127.0.0.1:5432/app", "user": "llm_store" },
              "schema": "public",
              "sealKey": "${LLMSAFE_SEAL_KEY}",
              "allowSelfApprove": false,
              "policy": {
                "allow": ["orders", "members"],
                "impact": { "orders": "Changing an order moves money: the ship date decides the supplier's payment month." },
                "denyIdentifiers": { "password_hash": "a stored credential" },
                "denyWrite": { "orders.total_cents": "recomputed by billing; change the order lines instead" },
                "autoColumns": { "orders": ["updated_at"] },
                "maxUpdateRows": 200,
                "maxDeleteRows": 50,
                "read": { "maxRows": 1000, "maxCost": 100000, "timeoutMs": 5000 }
              }
            }
            """;

    static LlmSafeConfig parse(String json) {
        return LlmSafeConfig.parse(json, "llmsafe.json", env);
    }

    static String errorOf(String json) {
        try {
            parse(json);
        } catch (ConfigException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a ConfigException for:\n" + json);
    }

    static String minimal(String policyBody) {
        return "{\"connection\": {\"url\": \"jdbc:sqlite:/srv/app.db\"},\n\"policy\": " + policyBody + "}";
    }

    @Test
    void theDocumentedExampleLoads() {
        LlmSafeConfig c = parse(FULL);
        assertThat(c.connection().url()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/app");
        assertThat(c.connection().user()).contains("llm_plan");
        assertThat(c.connection().password().orElseThrow().reveal()).isEqualTo("plan-secret");
        assertThat(c.readConnection().orElseThrow().user()).contains("llm_read");
        assertThat(c.readConnection().orElseThrow().password()).isEmpty();
        assertThat(c.applyConnection().orElseThrow().password().orElseThrow().reveal()).isEqualTo("apply-secret");
        assertThat(c.storeConnection().orElseThrow().user()).contains("llm_store");
        assertThat(c.schema()).contains(Identifier.of("public"));
        assertThat(c.sealKey().orElseThrow().reveal()).isEqualTo("0123456789abcdef0123456789abcdef");
        assertThat(c.allowSelfApprove()).isFalse();

        Policy p = c.policy();
        QualifiedName orders = QualifiedName.parse("orders", 2);
        TablePolicy t = p.table(orders).orElseThrow();
        assertThat(t.impact()).contains("Changing an order moves money: the ship date decides the supplier's payment month.");
        assertThat(t.denyWrite()).containsExactly(Map.entry(Identifier.of("total_cents"),
                "recomputed by billing; change the order lines instead"));
        assertThat(t.autoColumns()).containsExactly(Identifier.of("updated_at"));
        assertThat(p.table(QualifiedName.parse("members", 2)).orElseThrow().impact()).isEmpty();
        assertThat(p.secrets()).containsExactly(Map.entry(QualifiedName.parse("password_hash", 3), "a stored credential"));
        assertThat(p.maxUpdateRows(t)).isEqualTo(200);
        assertThat(p.maxDeleteRows(t)).isEqualTo(50);
        assertThat(p.read()).isEqualTo(new ReadLimits(1000, OptionalDouble.of(100000), 5000));
    }

    @Test
    void onlyConnectionAndAllowAreRequiredAndTheRestHasDefaults() {
        LlmSafeConfig c = parse(minimal("{\"allow\": [\"orders\"]}"));
        assertThat(c.readConnection()).isEmpty();
        assertThat(c.applyConnection()).isEmpty();
        assertThat(c.storeConnection()).isEmpty();
        assertThat(c.schema()).isEmpty();
        assertThat(c.sealKey()).isEmpty();
        assertThat(c.allowSelfApprove()).isFalse();
        assertThat(c.planExpiryHours()).isEqualTo(24);
        assertThat(c.lockTimeoutMs()).isEqualTo(2000);
        assertThat(c.statementTimeoutMs()).isEqualTo(10000);
        Policy p = c.policy();
        assertThat(p.maxUpdateRows()).isEqualTo(Policy.DEFAULT_MAX_UPDATE_ROWS);
        assertThat(p.maxDeleteRows()).isEqualTo(Policy.DEFAULT_MAX_DELETE_ROWS);
        assertThat(p.maxStatementLength()).isEqualTo(Policy.DEFAULT_MAX_STATEMENT_LENGTH);
        assertThat(p.read()).isEqualTo(ReadLimits.DEFAULT);
        assertThat(p.read().maxCost()).isEmpty();
    }

    @Test
    void theDslAndTheJsonProduceEqualPolicies() {
        Policy fromDsl = Policy.define(p -> p
                .table("orders", t -> t
                        .impact("Changing an order moves money: the ship date decides the supplier's payment month.")
                        .denyWrite("total_cents", "recomputed by billing; change the order lines instead")
                        .autoColumns("updated_at"))
                .table("members")
                .secret("password_hash", "a stored credential")
                .maxUpdateRows(200)
                .maxDeleteRows(50)
                .read(r -> r.maxRows(1000).maxCost(100000).timeoutMs(5000)));
        assertThat(parse(FULL).policy()).isEqualTo(fromDsl);
        assertThat(parse(FULL).policy().toJson()).isEqualTo(fromDsl.toJson());
    }

    @Test
    void perTableLimitsAndQuotedNamesLoadAndMatchTheDsl() {
        Policy json = parse(minimal("""
                {
                  "allow": ["public.orders", "\\"Order Lines\\""],
                  "impact": { "public.orders": "moves money", "\\"Order Lines\\"": "changes an invoice" },
                  "limits": { "public.orders": { "maxUpdateRows": 10, "maxDeleteRows": 2 } },
                  "denyWrite": { "\\"Order Lines\\".\\"Unit Price\\"": "set by the catalogue" },
                  "maxStatementLength": 5000
                }""")).policy();
        Policy dsl = Policy.define(p -> p
                .table("\"Order Lines\"", t -> t.impact("changes an invoice").denyWrite("\"Unit Price\"", "set by the catalogue"))
                .table("public.orders", t -> t.impact("moves money").maxUpdateRows(10).maxDeleteRows(2))
                .maxStatementLength(5000));
        assertThat(json).isEqualTo(dsl);
        TablePolicy orders = json.table(QualifiedName.parse("public.orders", 2)).orElseThrow();
        assertThat(orders.maxUpdateRows()).isEqualTo(OptionalInt.of(10));
        assertThat(json.maxUpdateRows(orders)).isEqualTo(10);
        assertThat(json.maxDeleteRows(orders)).isEqualTo(2);
        TablePolicy lines = json.table(new QualifiedName(java.util.List.of(new Identifier("Order Lines", true))))
                .orElseThrow();
        assertThat(lines.denyWrite()).containsKey(new Identifier("Unit Price", true));
        assertThat(json.maxUpdateRows(lines)).isEqualTo(Policy.DEFAULT_MAX_UPDATE_ROWS);
    }

    @Test
    void theConfigRoundTripsThroughItsCanonicalJson() {
        LlmSafeConfig c = parse(FULL);
        String canonical = c.toJson();
        assertThat(parse(canonical)).isEqualTo(c);
        assertThat(parse(canonical).toJson()).isEqualTo(canonical);
        // Secrets come back as the file wrote them, never as the environment's values.
        assertThat(canonical).contains("\"password\" : \"${LLMSAFE_PASSWORD}\"")
                .contains("\"sealKey\" : \"${LLMSAFE_SEAL_KEY}\"")
                .doesNotContain("plan-secret").doesNotContain("0123456789abcdef0123456789abcdef");
    }

    @Test
    void D8_anEmptyAutoColumnsListDeclaresThatTheTriggersChangeNoColumn() {
        Policy file = parse(minimal("{\"allow\": [\"orders\", \"items\"], \"autoColumns\": {\"orders\": []}}")).policy();
        TablePolicy orders = file.table(QualifiedName.parse("orders", 2)).orElseThrow();
        TablePolicy items = file.table(QualifiedName.parse("items", 2)).orElseThrow();
        assertThat(orders.autoColumns()).isEmpty();
        assertThat(orders.autoColumnsDeclared()).isTrue();
        assertThat(items.autoColumnsDeclared()).as("not listed: not declared").isFalse();
        Policy dsl = Policy.define(b -> b.table("orders", t -> t.autoColumns()).table("items"));
        assertThat(dsl).isEqualTo(file);
        assertThat(dsl.toJson()).contains("\"autoColumns\" : {\n    \"orders\" : [ ]\n  }");
        assertThat(parse(minimal(dsl.toJson())).policy()).isEqualTo(dsl);
        assertThat(Policy.define(b -> b.table("orders", t -> t.autoColumns("updated_at"))).table(
                QualifiedName.parse("orders", 2)).orElseThrow().autoColumnsDeclared()).isTrue();
    }

    @Test
    void thePolicyRoundTripsThroughItsCanonicalJson() {
        Policy p = Policy.define(b -> b
                .table("b", t -> t.impact("x").maxDeleteRows(3).autoColumns("z", "a"))
                .table("a")
                .secret("users.password_hash", "credential")
                .read(r -> r.maxCost(12.5)));
        String json = p.toJson();
        Policy back = parse(minimal(json)).policy();
        assertThat(back).isEqualTo(p);
        assertThat(back.toJson()).isEqualTo(json);
        assertThat(json).isEqualTo("""
                {
                  "allow" : [ "a", "b" ],
                  "impact" : {
                    "b" : "x"
                  },
                  "denyIdentifiers" : {
                    "users.password_hash" : "credential"
                  },
                  "autoColumns" : {
                    "b" : [ "a", "z" ]
                  },
                  "maxUpdateRows" : 200,
                  "maxDeleteRows" : 50,
                  "limits" : {
                    "b" : {
                      "maxDeleteRows" : 3
                    }
                  },
                  "maxStatementLength" : 20000,
                  "read" : {
                    "maxRows" : 1000,
                    "maxCost" : 12.5,
                    "timeoutMs" : 5000,
                    "holdMs" : 10000,
                    "maxBytes" : 16777216
                  }
                }
                """);
    }

    @Test
    void secretsNeverShowThemselves() {
        LlmSafeConfig c = parse(FULL);
        assertThat(c.sealKey().orElseThrow().toString()).isEqualTo("********");
        assertThat(c.toString()).doesNotContain("plan-secret").doesNotContain("apply-secret")
                .doesNotContain("0123456789abcdef");
        assertThat(c.connection().toString()).doesNotContain("plan-secret");
    }

    @Test
    void theSummaryTellsAPersonWhatIsAllowed() {
        String s = parse(FULL).summary();
        assertThat(s).contains("Configuration from llmsafe.json")
                .contains("connection       llm_plan at jdbc:postgresql://127.0.0.1:5432/app")
                .contains("seal key         set")
                .contains("self-approval    refused")
                .contains("Tables the model may read (2): members, orders")
                .contains("Tables it may propose changes to (1):")
                .contains("orders: up to 200 rows per UPDATE, 50 per DELETE; never sets total_cents")
                .contains("Secret identifiers, never read or written: password_hash")
                .contains("Reads: at most 1000 rows and 16777216 bytes, 5000 ms, held at most 10000 ms, estimated cost at most"
                        + " 100000");
    }

    /** J8: one configuration file names one database, whichever directory it is run from. */
    @Test
    void J8_aRelativeSqlitePathIsReadFromTheConfigurationFilesDirectory(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("etc app"));
        Path file = conf.resolve("llmsafe.json");
        String abs = dir.resolve("abs.db").toString();
        Files.writeString(file, "{\"connection\": {\"url\": \"jdbc:sqlite:app.db\"},\n"
                + " \"readConnection\": {\"url\": \"jdbc:sqlite:file:data/app.db?mode=ro\"},\n"
                + " \"applyConnection\": {\"url\": \"jdbc:sqlite:../app.db?busy_timeout=1000\"},\n"
                + " \"storeConnection\": {\"url\": \"jdbc:sqlite:" + abs + "\"},\n"
                + " \"policy\": {\"allow\": [\"orders\"]}}");
        LlmSafeConfig c = LlmSafeConfig.load(file, env);
        assertThat(c.connection().url()).isEqualTo("jdbc:sqlite:" + conf.resolve("app.db"));
        assertThat(c.readConnection().orElseThrow().url()).isEqualTo("jdbc:sqlite:file:" + conf + "/data/app.db?mode=ro");
        assertThat(c.applyConnection().orElseThrow().url()).isEqualTo("jdbc:sqlite:" + dir.resolve("app.db") + "?busy_timeout=1000");
        assertThat(c.storeConnection().orElseThrow().url()).isEqualTo("jdbc:sqlite:" + abs);
        // Loaded by a relative path, from anywhere, it is the same file and so the same databases.
        Path relative = Path.of("").toAbsolutePath().relativize(file);
        assertThat(LlmSafeConfig.load(relative, env).connection().url()).isEqualTo(c.connection().url());
        // Other databases' URLs, absolute paths and file: URIs with a path are kept as written.
        for (String url : new String[] {"jdbc:postgresql://127.0.0.1:5432/app", "jdbc:sqlite:" + abs,
                "jdbc:sqlite:file:" + abs + "?mode=ro", "jdbc:sqlite:file:///srv/app.db"}) {
            Files.writeString(file, minimal("{\"allow\": [\"orders\"]}").replace("jdbc:sqlite:/srv/app.db", url));
            assertThat(LlmSafeConfig.load(file, env).connection().url()).isEqualTo(url);
        }
        // Text that is no file (a class path resource) has no directory: a relative path there is refused.
        assertThat(errorOf(minimal("{\"allow\": [\"orders\"]}").replace("/srv/app.db", "app.db")))
                .isEqualTo("llmsafe.json:1:24: connection.url: the SQLite path app.db is relative, and this"
                        + " configuration is not read from a file it could be relative to; give an absolute path"
                        + " (or ${VARIABLE})");
    }

    /** J8: a configuration that would refuse every statement, or plan on a database of its own, does not load. */
    @Test
    void J8_anEmptyAllowlistAndAnInMemoryDatabaseAreRefusedWhereTheyAreWritten() {
        assertThat(errorOf(minimal("{\n  \"allow\": []\n}")))
                .isEqualTo("llmsafe.json:3:12: policy.allow: the list is empty, so every statement would be refused;"
                        + " name the tables the model may read, for example [\"orders\"] (llmsafe init lists the"
                        + " tables it finds)");
        for (String url : new String[] {"jdbc:sqlite::memory:", "jdbc:sqlite:", "jdbc:sqlite:file::memory:",
                "jdbc:sqlite:file::memory:?cache=shared", "jdbc:sqlite:file:mem1?mode=memory&cache=shared",
                "jdbc:sqlite:mem2.db?MODE=Memory"}) {
            for (String key : new String[] {"connection", "readConnection", "applyConnection", "storeConnection"}) {
                String json = minimal("{\"allow\": [\"orders\"]}");
                json = key.equals("connection") ? json.replace("jdbc:sqlite:/srv/app.db", url)
                        : json.replace("},\n\"policy\"", "},\n\"" + key + "\": {\"url\": \"" + url + "\"},\n\"policy\"");
                assertThat(errorOf(json)).as("%s %s", key, url).startsWith("llmsafe.json:" + (key.equals("connection")
                        ? "1:24: " : "2:" + (key.length() + 13) + ": ") + key + ".url: ")
                        .contains("is an in-memory SQLite database, which belongs to the one connection that opens it")
                        .endsWith("Give the path of a database file, for example jdbc:sqlite:app.db");
            }
        }
        // A file whose journal is kept in memory is a file (E9 decides whether it can be planned on).
        assertThat(parse(minimal("{\"allow\": [\"orders\"]}").replace("jdbc:sqlite:/srv/app.db",
                "jdbc:sqlite:/srv/app.db?journal_mode=memory")).connection().url())
                .isEqualTo("jdbc:sqlite:/srv/app.db?journal_mode=memory");
    }

    @Test
    void aFileIsReadFromDiskAndAMissingFileSaysWhatToDo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("llmsafe.json");
        Files.writeString(file, minimal("{\"allow\": [\"orders\"]}"));
        assertThat(LlmSafeConfig.load(file, env).source()).isEqualTo(file.toString());
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> LlmSafeConfig.load(missing, env))
                .isInstanceOf(ConfigException.class)
                .hasMessage(missing + ": no such file; create one with `llmsafe init` or point to it with --config,"
                        + " the system property llmsafe.config or the environment variable LLMSAFE_CONFIG");
    }

    @Test
    void expiryAndBoundsAreRead() {
        LlmSafeConfig c = parse("{\"connection\": {\"url\": \"jdbc:sqlite:/srv/a.db\"}, \"planExpiryHours\": 2,"
                + " \"lockTimeoutMs\": 500, \"statementTimeoutMs\": 1500, \"policy\": {\"allow\": [\"orders\"]}}");
        assertThat(c.planExpiryHours()).isEqualTo(2);
        assertThat(c.lockTimeoutMs()).isEqualTo(500);
        assertThat(c.statementTimeoutMs()).isEqualTo(1500);
        assertThat(parse(c.toJson())).isEqualTo(c);
        assertThat(errorOf("{\"connection\": {\"url\": \"jdbc:sqlite:/srv/a.db\"}, \"planExpiryHours\": 0, \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:69: planExpiryHours: expected a whole number from 1 to 8760, found 0");
    }

    @Test
    void commentsAreAllowed() {
        LlmSafeConfig c = parse("""
                {
                  // the dry-run credential
                  "connection": {"url": "jdbc:sqlite:/srv/app.db"},
                  /* what the model may touch */
                  "policy": {"allow": ["orders"]}
                }""");
        assertThat(c.policy().tables()).hasSize(1);
    }

    /** The console section: users with hashes and roles, a proxy believed from its addresses only, located errors. */
    @Test
    void theConsoleSectionNamesItsUsersAndTheProxyAndRoundTrips() {
        String store = "\"storeConnection\": { \"url\": \"jdbc:postgresql://127.0.0.1:5432/app\" }, ";
        LlmSafeConfig c = parse("{" + store + "\"console\": {\"users\": [{\"name\": \"alice\", \"roles\": [\"approver\","
                + " \"reader\"], \"passwordHash\": \"$2a$10$abcdefghijklmnopqrstuv\"}], \"trustedProxy\": {\"header\":"
                + " \"X-Forwarded-User\", \"addresses\": [\"10.0.0.5\"], \"roles\": [\"reader\"]}, \"idleMinutes\": 15,"
                + " \"tls\": {\"keyStore\": \"/srv/console.p12\", \"password\": \"${LLMSAFE_PASSWORD}\"},"
                + " \"webhook\": \"https://chat.example/hook\"}}");
        ConsoleSettings console = c.console().orElseThrow();
        assertThat(console.users()).singleElement().satisfies(u -> {
            assertThat(u.name()).isEqualTo("alice");
            assertThat(u.roles()).containsExactlyInAnyOrder(ConsoleSettings.Role.APPROVER, ConsoleSettings.Role.READER);
            assertThat(u.passwordHash().reveal()).isEqualTo("$2a$10$abcdefghijklmnopqrstuv");
        });
        assertThat(console.trustedProxy()).hasValueSatisfying(p -> assertThat(p.addresses()).containsExactly("10.0.0.5"));
        assertThat(console.idleMinutes()).isEqualTo(15);
        assertThat(console.tls().orElseThrow().password().reveal()).isNotEqualTo("${LLMSAFE_PASSWORD}");
        assertThat(c.toJson()).contains("\"password\" : \"${LLMSAFE_PASSWORD}\"");
        assertThat(LlmSafeConfig.parse(c.toJson(), "again", env)).isEqualTo(c);
        assertThat(errorOf("{" + store + "\"console\": {\"users\": [{\"name\": \"a\", \"roles\": [\"admin\"],"
                + " \"passwordHash\": \"x\"}]}}")).contains("console.users[0].roles").contains("unknown role \"admin\"");
        assertThat(errorOf("{" + store + "\"console\": {\"users\": [{\"name\": \"a\", \"roles\": [\"reader\"]}]}}"))
                .contains("console.users[0].passwordHash").contains("required key is missing");
        assertThat(errorOf("{" + store + "\"console\": {\"users\": [{\"name\": \"a\", \"roles\": [\"reader\"],"
                + " \"passwordHash\": \"x\"}, {\"name\": \"A\", \"roles\": [\"reader\"], \"passwordHash\": \"y\"}]}}"))
                .contains("console.users[1].name").contains("listed twice");
        assertThat(errorOf("{" + store + "\"console\": {\"trustedProxy\": {\"header\": \"X-User\", \"addresses\":"
                + " [\"proxy.internal\"], \"roles\": [\"reader\"]}}}")).contains("not an IP address");
        assertThat(errorOf("{" + store + "\"console\": {\"trustedProxy\": {\"header\": \"X-User\", \"addresses\": [],"
                + " \"roles\": [\"reader\"]}}}")).contains("believed from nowhere");
        assertThat(errorOf("{" + store + "\"console\": {\"webhok\": \"https://x\"}}")).contains("did you mean \"webhook\"");
    }

    /** O5: a configuration names what its process uses: the approver's and the applier's need no planning credential. */
    @Test
    void O5_aConfigurationForApprovingOrApplyingNeedsNoPlanningCredential() {
        String store = "\"storeConnection\": { \"url\": \"jdbc:postgresql://127.0.0.1:5432/app\", \"user\": \"llm_store\" },"
                + " \"sealKey\": \"${LLMSAFE_SEAL_KEY}\"";
        LlmSafeConfig approver = parse("{" + store + "}");
        assertThat(approver.serves()).containsExactly(LlmSafeConfig.Role.APPROVE);
        assertThat(approver.planningConnection()).isEmpty();
        assertThat(approver.policyIfAny()).isEmpty();
        assertThatThrownBy(approver::connection).isInstanceOf(ConfigException.class)
                .hasMessageContaining("names no connection").hasMessageContaining("approve (approve, reject, list, show) only");
        assertThatThrownBy(approver::policy).isInstanceOf(ConfigException.class).hasMessageContaining("names no policy");
        assertThat(LlmSafeConfig.parse(approver.toJson(), "again", env)).isEqualTo(approver);
        assertThat(approver.summary()).contains("(not set: this configuration does not propose)");

        LlmSafeConfig applier = parse("{" + store + ", \"applyConnection\": { \"url\": \"jdbc:postgresql://127.0.0.1:5432/app\","
                + " \"user\": \"llm_apply\", \"password\": \"${LLMSAFE_APPLY_PASSWORD}\" }, \"policy\": {\"allow\": [\"orders\"]}}");
        assertThat(applier.serves()).containsExactly(LlmSafeConfig.Role.APPROVE, LlmSafeConfig.Role.APPLY);
        assertThat(applier.planningConnection()).isEmpty();

        assertThat(parse(FULL).serves()).containsExactly(LlmSafeConfig.Role.PROPOSE, LlmSafeConfig.Role.APPROVE,
                LlmSafeConfig.Role.APPLY, LlmSafeConfig.Role.READ);
        // The console's file: it approves, applies and reads, and proposes nothing.
        LlmSafeConfig console = parse("{" + store + ", \"applyConnection\": { \"url\": \"jdbc:postgresql://127.0.0.1:5432/app\","
                + " \"user\": \"llm_apply\" }, \"readConnection\": { \"url\": \"jdbc:postgresql://127.0.0.1:5432/app\","
                + " \"user\": \"llm_read\" }, \"policy\": {\"allow\": [\"orders\"]}}");
        assertThat(console.serves()).containsExactly(LlmSafeConfig.Role.APPROVE, LlmSafeConfig.Role.APPLY,
                LlmSafeConfig.Role.READ);
        assertThatThrownBy(console::connection).isInstanceOf(ConfigException.class)
                .hasMessageContaining("names no connection").hasMessageContaining("read (read, explain, the console's reads)");
        // The per-role files of samples/roles/per-role serve what their comments say, and only the
        // application's and the operator's hold the planning credential.
        Path samples = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(samples.resolve("samples/roles/per-role"))) {
            samples = samples.getParent();
        }
        samples = samples.resolve("samples/roles/per-role");
        UnaryOperator<String> any = name -> "a-value-of-16-characters-or-more";
        Map<String, java.util.Set<LlmSafeConfig.Role>> expected = Map.of(
                "application.json", java.util.EnumSet.allOf(LlmSafeConfig.Role.class),
                "operator.json", java.util.EnumSet.allOf(LlmSafeConfig.Role.class),
                "approver.json", java.util.EnumSet.of(LlmSafeConfig.Role.APPROVE),
                "applier.json", java.util.EnumSet.of(LlmSafeConfig.Role.APPROVE, LlmSafeConfig.Role.APPLY),
                "console.json", java.util.EnumSet.of(LlmSafeConfig.Role.APPROVE, LlmSafeConfig.Role.APPLY,
                        LlmSafeConfig.Role.READ));
        for (Map.Entry<String, java.util.Set<LlmSafeConfig.Role>> e : expected.entrySet()) {
            LlmSafeConfig c = LlmSafeConfig.load(samples.resolve(e.getKey()), any);
            assertThat(c.serves()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(c.planningConnection().isPresent()).as(e.getKey()).isEqualTo(e.getValue().contains(LlmSafeConfig.Role.PROPOSE));
        }

        // Nothing to reach at all, or the planning credential without what it proposes under: refused, located.
        assertThat(errorOf("{\"sealKey\": \"${LLMSAFE_SEAL_KEY}\"}")).contains("connection: required key is missing")
                .contains("storeConnection");
        assertThat(errorOf("{\"connection\": {\"url\": \"jdbc:sqlite:/srv/app.db\"}}"))
                .contains("policy: required key is missing");
    }
}
