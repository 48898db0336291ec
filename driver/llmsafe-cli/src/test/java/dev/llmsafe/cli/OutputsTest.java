package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.mcp.McpServer;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.tools.DatabaseTools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * R13 on every dialect: the MCP server's results are bounded in bytes and cut by rows, binary values
 * come back exact and typed over MCP and from {@code llmsafe read}, and a CSV value a spreadsheet would
 * run as a formula is neutralised unless {@code --csv-raw} says otherwise.
 */
class OutputsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, ScratchDatabase> SEEDED = new EnumMap<>(Engine.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    static final Policy POLICY = Policy.define(p -> p.table("blobs").table("notes").table("big"));
    /** Each of these begins a formula in a spreadsheet; the last three do not. */
    static final List<String> NOTES = List.of("=HYPERLINK(\"http://evil.example\",\"click\")", "+1+cmd|' /C calc'!A0",
            "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1", "plain", "a=b", " =1");

    @TempDir
    Path dir;

    static ScratchDatabase seeded(Engine engine) throws Exception {
        ScratchDatabase db = SEEDED.get(engine);
        if (db != null) {
            return db;
        }
        db = dbs.get(engine);
        String bin = switch (engine) {
            case POSTGRES -> "bytea";
            case MYSQL -> "VARBINARY(16)";
            case SQLITE -> "BLOB";
        };
        String value = switch (engine) {
            case POSTGRES -> "'\\x00ff80275c'";
            case MYSQL -> "0x00FF80275C";
            case SQLITE -> "x'00ff80275c'";
        };
        db.execute("CREATE TABLE blobs (id INT PRIMARY KEY, b " + bin + ", t VARCHAR(10))",
                "INSERT INTO blobs VALUES (1, " + value + ", 'text'), (2, NULL, NULL)",
                "CREATE TABLE notes (id INT PRIMARY KEY, note VARCHAR(100), n INT)",
                "CREATE TABLE big (id INT PRIMARY KEY, v TEXT)");
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < NOTES.size(); i++) {
            notes.add("(" + (i + 1) + ", '" + NOTES.get(i).replace("'", "''") + "', " + (i == 2 ? -5 : i) + ")");
        }
        db.execute("INSERT INTO notes VALUES " + String.join(", ", notes));
        String chunk = "'" + "y".repeat(10_000) + "'";
        List<String> big = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            big.add("(" + i + ", " + chunk + ")");
        }
        db.execute("INSERT INTO big VALUES " + String.join(", ", big));
        SEEDED.put(engine, db);
        return db;
    }

    static LlmSafeConfig config(ScratchDatabase db) {
        LlmSafeConfig.Builder b = LlmSafeConfig.builder()
                .connection(ConnectionSettings.of(db.url(), db.user(), db.password())).policy(POLICY);
        if (db.engine() == Engine.POSTGRES) {
            b.schema(db.name());
        }
        return b.build();
    }

    /** One MCP session, in process, over the real engine: the results of the calls, in order. */
    static List<JsonNode> mcp(ScratchDatabase db, int maxResultBytes, String... sql) throws Exception {
        StringBuilder in = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\"}}}\n");
        for (int i = 0; i < sql.length; i++) {
            in.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i + 1).append(",\"method\":\"tools/call\",\"params\":")
                    .append("{\"name\":\"sql_read\",\"arguments\":{\"sql\":").append(JSON.writeValueAsString(sql[i]))
                    .append("}}}\n");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Deployment d = new Deployment(config(db), Clock.systemUTC()); DatabaseTools tools = DatabaseTools.over(d)) {
            new McpServer(tools, null, McpServer.DEFAULT_MAX_MESSAGE_BYTES, maxResultBytes)
                    .serve(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)), out);
        }
        List<JsonNode> results = new ArrayList<>();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        for (int i = 1; i < lines.length; i++) {
            assertThat(lines[i].getBytes(StandardCharsets.UTF_8).length).as("message %d", i)
                    .isLessThanOrEqualTo(maxResultBytes + 64);
            results.add(JSON.readTree(lines[i]).get("result"));
        }
        return results;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R13_aToolResultIsBoundedInBytesAndCutByRowsAndSaysSo(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        String huge = switch (engine) {
            case POSTGRES, MYSQL -> "SELECT repeat('x', 3000000) AS v";
            case SQLITE -> "SELECT hex(zeroblob(1500000)) AS v";
        };
        List<JsonNode> r = mcp(db, 200_000, "SELECT id, v FROM big ORDER BY id", "SELECT id FROM big ORDER BY id",
                "SELECT v FROM big WHERE id = 1", huge);

        JsonNode cut = r.get(0).get("structuredContent");
        int kept = cut.get("rowCount").asInt();
        assertThat(kept).isBetween(1, 39);
        assertThat(cut.get("truncated").asBoolean()).isTrue();
        assertThat(cut.get("truncatedBy").asText()).isEqualTo("bytes");
        assertThat(cut.get("rows").get(kept - 1).get(1).asText()).isEqualTo("y".repeat(10_000));
        assertThat(r.get(0).get("content").get(1).get("text").asText()).startsWith("Only the first " + kept + " rows")
                .contains("200000 bytes");
        assertThat(r.get(0).get("isError").asBoolean()).isFalse();

        JsonNode whole = r.get(1).get("structuredContent");
        assertThat(whole.get("rowCount").asInt()).isEqualTo(40);
        assertThat(whole.get("truncated").asBoolean()).isFalse();
        assertThat(whole.has("truncatedBy")).isFalse();
        assertThat(r.get(2).get("structuredContent").get("rows").get(0).get(0).asText()).hasSize(10_000);

        assertThat(r.get(3).get("isError").asBoolean()).isTrue();
        assertThat(r.get(3).get("_meta").get("dev.llmsafe/refusal").asText()).isEqualTo("RESULT_TOO_LARGE");
        assertThat(r.get(3).get("content").get(0).get("text").asText())
                .startsWith("Refused (RESULT_TOO_LARGE): the first row alone is more than the 200000 bytes")
                .contains("substr");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R13_binaryIsExactAndTypedOverMcpAndFromRead(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        String literal = switch (engine) {
            case POSTGRES -> "SELECT '\\x00ff'::bytea AS lit";
            case MYSQL -> "SELECT 0x00FF AS lit";
            case SQLITE -> "SELECT x'00ff' AS lit";
        };
        String expected = "[{\"t\":\"bin\",\"len\":5,\"hex\":\"00ff80275c\"},\"text\"]";
        List<JsonNode> r = mcp(db, McpServer.DEFAULT_MAX_RESULT_BYTES, "SELECT b, t FROM blobs ORDER BY id", literal);
        JsonNode rows = r.get(0).get("structuredContent").get("rows");
        assertThat(rows.get(0).toString()).isEqualTo(expected);
        assertThat(rows.get(1).toString()).isEqualTo("[null,null]");
        assertThat(JSON.readTree(r.get(0).get("content").get(0).get("text").asText()).get("rows").get(0).toString())
                .isEqualTo(expected);
        assertThat(r.get(1).get("structuredContent").get("rows").get(0).toString())
                .isEqualTo("[{\"t\":\"bin\",\"len\":2,\"hex\":\"00ff\"}]");

        writeConfig(db);
        CliTest.Run json = run("read", "SELECT b, t FROM blobs ORDER BY id", "--format", "json");
        assertThat(json.status()).as(json.err()).isZero();
        assertThat(JSON.readTree(json.out()).get("rows").get(0).toString()).isEqualTo(expected);
        CliTest.Run csv = run("read", "SELECT b, t FROM blobs ORDER BY id", "--format", "csv");
        assertThat(csv.out()).isEqualTo("b,t\r\n\\x00ff80275c,text\r\n,\r\n");
        // Not by its key: MySQL prints a binary value read by a key raw in its plan, which is refused (SPEC.md R9.8).
        CliTest.Run table = run("read", "SELECT b FROM blobs ORDER BY id LIMIT 1");
        assertThat(table.out()).startsWith("b\n------------\n\\x00ff80275c\n");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R13_csvValuesASpreadsheetWouldRunAreNeutralisedUnlessRawIsAsked(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        writeConfig(db);
        String sql = "SELECT id, note, n AS \"=cmd\" FROM notes ORDER BY id";
        if (engine == Engine.MYSQL) {
            sql = sql.replace("\"=cmd\"", "`=cmd`");
        }
        CliTest.Run csv = run("read", sql, "--format", "csv");
        assertThat(csv.status()).as(csv.err()).isZero();
        assertThat(csv.out()).isEqualTo("id,note,'=cmd\r\n"
                + "1,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\",0\r\n"
                + "2,'+1+cmd|' /C calc'!A0,1\r\n"
                + "3,'-2+3,-5\r\n"
                + "4,'@SUM(A1:A9),3\r\n"
                + "5,'\t=1+1,4\r\n"
                + "6,\"'\r=1+1\",5\r\n"
                + "7,plain,6\r\n"
                + "8,a=b,7\r\n"
                + "9, =1,8\r\n");
        CliTest.Run raw = run("read", sql, "--format", "csv", "--csv-raw");
        assertThat(raw.out()).startsWith("id,note,=cmd\r\n1,\"=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\",0\r\n"
                + "2,+1+cmd|' /C calc'!A0,1\r\n3,-2+3,-5\r\n");
        CliTest.Run json = run("read", sql, "--format", "json");
        assertThat(JSON.readTree(json.out()).get("rows").get(0).get(1).asText()).isEqualTo(NOTES.get(0));
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE", "POSTGRES"})
    void C5_showAndListShowTheProposerAndTheStatementWithVisibleEscapes(Engine engine) throws Exception {
        ScratchDatabase db = seeded(engine);
        writeConfig(db);
        assertThat(run("migrate").status()).isZero();
        CliTest.Run plan = run("plan", "UPDATE notes SET note = 'x\u202Ey\u200B' WHERE id = 7", "--as", "mallory\u202E");
        assertThat(plan.status()).as(plan.err()).isZero();
        String id = plan.out().substring(5, 41);
        for (CliTest.Run r : List.of(plan, run("list"), run("show", id), run("show", id, "--json"), run("list", "--json"))) {
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out().codePoints().filter(cp -> cp != '\n' && cp != '\r' && dev.llmsafe.value.Visible.hidden(cp)))
                    .as(r.out()).isEmpty();
        }
        assertThat(run("list").out()).contains(id).contains("mallory\\u{202E}")
                .contains("UPDATE notes SET note = 'x\\u{202E}y\\u{200B}' WHERE id = 7");
        assertThat(run("show", id).out()).contains("note: 'plain' -> 'x\\u{202E}y\\u{200B}'")
                .contains("(mallory\\u{202E})").contains("mallory\\u{202E}  propose");
        JsonNode shown = JSON.readTree(run("show", id, "--json").out());
        assertThat(shown.get("plan").get("proposer").asText()).isEqualTo("mallory\u202E");
        assertThat(shown.get("plan").get("display").get("proposer").asText()).isEqualTo("mallory\\u{202E}");
    }

    private void writeConfig(ScratchDatabase db) throws Exception {
        String conn = "{\"url\": " + JSON.writeValueAsString(db.url())
                + (db.user() == null ? "" : ", \"user\": " + JSON.writeValueAsString(db.user()))
                + (db.password() == null ? "" : ", \"password\": " + JSON.writeValueAsString(db.password())) + "}";
        Files.writeString(dir.resolve("llmsafe.json"), "{\"connection\": " + conn + ","
                + (db.engine() == Engine.POSTGRES ? " \"schema\": \"" + db.name() + "\"," : "")
                + " \"policy\": {\"allow\": [\"blobs\", \"notes\", \"big\"],"
                + " \"impact\": {\"notes\": \"A note is what support reads first.\"}}}");
    }

    private CliTest.Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new Main(k -> null, dir), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliTest.Run(status, out.toString(), err.toString());
    }
}
