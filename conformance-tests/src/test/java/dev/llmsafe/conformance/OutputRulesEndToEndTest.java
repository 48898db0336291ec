package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.cli.Main;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.EndToEnd.Run;
import dev.llmsafe.testing.Engine;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the tools hand out (R13), end to end on the four-role deployment: {@code llmsafe mcp} run as an
 * assistant runs it (a process on standard input and output) bounds its results in bytes and gives binary
 * exactly, and {@code llmsafe read} gives binary exactly and neutralises CSV formulas.
 */
class OutputRulesEndToEndTest {

    private static final EndToEnd.Setup SETUP = new EndToEnd.Setup(engine -> {
        List<String> sql = new ArrayList<>(List.of(
                "CREATE TABLE blobs (id INT PRIMARY KEY, b " + switch (engine) {
                    case POSTGRES -> "BYTEA";
                    case MYSQL -> "VARBINARY(16)";
                    case SQLITE -> "BLOB";
                } + ")",
                "INSERT INTO blobs VALUES (1, " + switch (engine) {
                    case POSTGRES -> "'\\x00ff80275c'";
                    case MYSQL -> "0x00FF80275C";
                    case SQLITE -> "x'00ff80275c'";
                } + ")",
                "CREATE TABLE notes (id INT PRIMARY KEY, note VARCHAR(100))",
                "INSERT INTO notes VALUES (1, '=HYPERLINK(\"http://evil.example\",\"click\")'), (2, '@SUM(A1)'),"
                        + " (3, 'plain')",
                "CREATE TABLE big (id INT PRIMARY KEY, v VARCHAR(12000))"));
        for (int i = 1; i <= 30; i++) {
            sql.add("INSERT INTO big VALUES (" + i + ", '" + "y".repeat(10_000) + "')");
        }
        return sql;
    }, List.of("blobs", "notes", "big"), List.of(), List.of(), """
              "policy": {"allow": ["blobs", "notes", "big"]}
            """);

    @RegisterExtension
    static final EndToEnd e2e = new EndToEnd(SETUP);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BYTES = "{\"t\":\"bin\",\"len\":5,\"hex\":\"00ff80275c\"}";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R13_readGivesBinaryExactlyAndNeutralisesCsvFormulas(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        Run json = d.llmsafe("read", "SELECT id, b FROM blobs", "--format", "json");
        assertThat(json.status()).as(json.all()).isEqualTo(Main.OK);
        assertThat(JSON.readTree(json.out()).get("rows").toString()).isEqualTo("[[1," + BYTES + "]]");
        assertThat(d.llmsafe("read", "SELECT b FROM blobs", "--format", "csv").out()).isEqualTo("b\r\n\\x00ff80275c\r\n");

        Run csv = d.llmsafe("read", "SELECT id, note FROM notes ORDER BY id", "--format", "csv");
        assertThat(csv.status()).as(csv.all()).isEqualTo(Main.OK);
        assertThat(csv.out()).isEqualTo("id,note\r\n1,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\"\r\n"
                + "2,'@SUM(A1)\r\n3,plain\r\n");
        assertThat(d.llmsafe("read", "SELECT id, note FROM notes ORDER BY id", "--format", "csv", "--csv-raw").out())
                .isEqualTo("id,note\r\n1,\"=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\"\r\n2,@SUM(A1)\r\n3,plain\r\n");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R13_mcpResultsAreBoundedInBytesAndGiveBinaryExactly(Engine engine) throws Exception {
        Deployed d = e2e.deployed(engine);
        String huge = engine == Engine.SQLITE ? "SELECT hex(zeroblob(1500000)) AS v" : "SELECT repeat('x', 3000000) AS v";
        List<JsonNode> results = mcp(d, 100_000, "SELECT id, v FROM big ORDER BY id", huge, "SELECT id, b FROM blobs");

        JsonNode cut = results.get(0).get("structuredContent");
        assertThat(cut.get("truncated").asBoolean()).isTrue();
        assertThat(cut.get("truncatedBy").asText()).isEqualTo("bytes");
        assertThat(cut.get("rowCount").asInt()).isBetween(1, 29);
        assertThat(cut.get("rows").get(0).get(1).asText()).isEqualTo("y".repeat(10_000));

        assertThat(results.get(1).get("isError").asBoolean()).isTrue();
        assertThat(results.get(1).get("_meta").get("dev.llmsafe/refusal").asText()).isEqualTo("RESULT_TOO_LARGE");

        assertThat(results.get(2).get("structuredContent").get("rows").toString()).isEqualTo("[[1," + BYTES + "]]");
    }

    /** {@code llmsafe mcp} as a process: initialize, then one sql_read per statement; the results, in order. */
    private static List<JsonNode> mcp(Deployed d, int maxResultBytes, String... sql) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "mcp", "--max-result-bytes", Integer.toString(maxResultBytes))
                .directory(d.home().toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(d.env());
        Process p = pb.start();
        StringBuilder in = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\"}}}\n");
        for (int i = 0; i < sql.length; i++) {
            in.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i + 1).append(",\"method\":\"tools/call\",\"params\":")
                    .append("{\"name\":\"sql_read\",\"arguments\":{\"sql\":").append(JSON.writeValueAsString(sql[i]))
                    .append("}}}\n");
        }
        try (OutputStream stdin = p.getOutputStream()) {
            stdin.write(in.toString().getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        List<JsonNode> results = new ArrayList<>();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(sql.length + 1);
        for (int i = 1; i < lines.length; i++) {
            assertThat(lines[i].getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(maxResultBytes + 64);
            results.add(JSON.readTree(lines[i]).get("result"));
        }
        return results;
    }
}
