package dev.llmsafe.mcp;

import static dev.llmsafe.mcp.JsonRpc.INTERNAL_ERROR;
import static dev.llmsafe.mcp.JsonRpc.INVALID_REQUEST;
import static dev.llmsafe.mcp.JsonRpc.METHOD_NOT_FOUND;
import static dev.llmsafe.mcp.JsonRpc.NOT_INITIALIZED;
import static dev.llmsafe.mcp.JsonRpc.PARSE_ERROR;
import static dev.llmsafe.mcp.JsonRpc.invalidParams;
import static dev.llmsafe.mcp.JsonRpc.quote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.tools.SqlTools;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MCP session: reads one message per line, answers each in order, until the input ends. Every
 * message gets its answer before the next line is read, so there is nothing to cancel and no two tool
 * calls ever overlap. Nothing is written to the output but JSON-RPC messages; a malformed message is
 * answered with an error and the next line is read.
 */
final class Session {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private static final String INSTRUCTIONS = "This server reads a database under a policy and turns writes "
            + "into plans that a person must approve. Use sql_schema to learn the tables, sql_read for SELECT "
            + "queries, sql_plan to propose an UPDATE or DELETE (nothing changes; show the user the card it "
            + "returns) and sql_plan_status to follow a plan. Nothing here can approve or apply a plan.";

    private final LineReader reader;
    private final OutputStream out;
    private final Tools tools;
    private final String configuredProposer;
    private final String serverVersion;
    private final int maxMessageBytes;

    /** Null until initialize has been answered. */
    private ProtocolVersion version;
    private String proposer;

    Session(InputStream in, OutputStream out, SqlTools sql, String configuredProposer, String serverVersion,
            int maxMessageBytes, int maxResultBytes) {
        this.reader = new LineReader(in, maxMessageBytes);
        this.out = out;
        this.tools = new Tools(sql, maxResultBytes);
        this.configuredProposer = configuredProposer;
        this.serverVersion = serverVersion;
        this.maxMessageBytes = maxMessageBytes;
    }

    void run() throws IOException {
        LineReader.Line line;
        while ((line = reader.next()) != null) {
            if (line.tooLong()) {
                LOG.warn("dropped a message of {} bytes; the limit is {}", line.length(), maxMessageBytes);
                // The id, where the kept ends of the message show it, so that the client's call fails now.
                send(JsonRpc.error(RequestIds.of(line.head(), line.tail()), INVALID_REQUEST,
                        "Message too large: the limit is " + maxMessageBytes + " bytes per message"));
                continue;
            }
            JsonNode message;
            try {
                message = JsonRpc.MAPPER.readTree(line.bytes());
            } catch (JsonProcessingException e) {
                // Also invalid UTF-8 and duplicated keys. The text is not logged: it may hold data.
                LOG.warn("a message that is not JSON: {}", e.getOriginalMessage());
                send(JsonRpc.error(null, PARSE_ERROR, "Parse error: " + e.getOriginalMessage()));
                continue;
            }
            if (message == null || message.isMissingNode()) {
                continue; // a blank line
            }
            JsonNode answer = message.isArray() ? batch((ArrayNode) message) : handle(message);
            if (answer != null) {
                send(answer);
            }
        }
        LOG.debug("the input ended; the session is over");
    }

    /** JSON-RPC batches: part of MCP 2025-03-26 only, and never holding initialize (which comes first). */
    private JsonNode batch(ArrayNode messages) {
        if (version == null || !version.acceptsBatches()) {
            return JsonRpc.error(null, INVALID_REQUEST, "JSON-RPC batches are not part of MCP "
                    + (version == null ? "before initialize" : version.id()) + "; send one message per line");
        }
        if (messages.isEmpty()) {
            return JsonRpc.error(null, INVALID_REQUEST, "An empty batch");
        }
        ArrayNode answers = JsonRpc.MAPPER.createArrayNode();
        for (JsonNode m : messages) {
            JsonNode answer = handle(m);
            if (answer != null) {
                answers.add(answer);
            }
        }
        return answers.isEmpty() ? null : answers;
    }

    /** The answer to one message, or null when it needs none (a notification, a response). */
    private JsonNode handle(JsonNode message) {
        if (!message.isObject()) {
            return JsonRpc.error(null, INVALID_REQUEST, "A message must be a JSON object");
        }
        JsonNode id = message.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber())) {
            // MCP: a request id is a string or an integer, never null.
            return JsonRpc.error(null, INVALID_REQUEST, "id must be a string or an integer");
        }
        JsonNode jsonrpc = message.get("jsonrpc");
        if (jsonrpc == null || !"2.0".equals(jsonrpc.textValue())) {
            return JsonRpc.error(id, INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        JsonNode method = message.get("method");
        if (method == null) {
            if (id != null && (message.has("result") || message.has("error"))) {
                LOG.debug("ignored a response: this server sends no requests");
                return null;
            }
            return JsonRpc.error(id, INVALID_REQUEST, "A request needs a method");
        }
        if (!method.isTextual()) {
            return JsonRpc.error(id, INVALID_REQUEST, "method must be a string");
        }
        JsonNode params = message.get("params");
        if (id == null) {
            notification(method.textValue());
            return null;
        }
        try {
            if (params != null && !params.isObject()) {
                throw invalidParams("params must be a JSON object");
            }
            ObjectNode p = params == null ? JsonRpc.object() : (ObjectNode) params;
            return JsonRpc.result(id, request(method.textValue(), p));
        } catch (JsonRpc.Failure f) {
            return JsonRpc.error(id, f.code(), f.getMessage());
        } catch (RuntimeException e) {
            // A defect here or in SqlTools: the client learns that much; the stack trace goes to the log.
            LOG.error("{} failed", method.textValue(), e);
            return JsonRpc.error(id, INTERNAL_ERROR, "Internal error; the server's log (standard error) has the details");
        }
    }

    private JsonNode request(String method, ObjectNode params) throws JsonRpc.Failure {
        switch (method) {
            case "initialize":
                return initialize(params);
            case "ping":
                return JsonRpc.object(); // answered before initialize too, as MCP allows
            case "tools/list":
                return tools.list(initialized(method), params);
            case "tools/call":
                return tools.call(initialized(method), params, proposer);
            default:
                throw new JsonRpc.Failure(METHOD_NOT_FOUND, "Method not found: " + quote(method));
        }
    }

    private ProtocolVersion initialized(String method) throws JsonRpc.Failure {
        if (version == null) {
            throw new JsonRpc.Failure(NOT_INITIALIZED, "Server not initialized: send initialize before " + method);
        }
        return version;
    }

    private JsonNode initialize(ObjectNode params) throws JsonRpc.Failure {
        if (version != null) {
            throw new JsonRpc.Failure(INVALID_REQUEST, "Already initialized: initialize is sent once per session");
        }
        JsonNode requested = params.get("protocolVersion");
        if (requested == null || !requested.isTextual()) {
            throw invalidParams("initialize needs protocolVersion, a string");
        }
        JsonNode client = params.get("clientInfo");
        if (client == null || !client.isObject() || !client.path("name").isTextual()) {
            throw invalidParams("initialize needs clientInfo with a name");
        }
        JsonNode capabilities = params.get("capabilities");
        if (capabilities != null && !capabilities.isObject()) {
            throw invalidParams("capabilities must be a JSON object");
        }
        // MCP: answer with the client's version when we speak it, else with our latest; the client
        // then decides whether it can go on.
        version = ProtocolVersion.of(requested.textValue()).orElse(ProtocolVersion.latest());
        String clientName = client.get("name").textValue();
        proposer = configuredProposer != null ? configuredProposer : "mcp:" + printable(clientName);
        LOG.info("MCP session: client {} {}, protocol {} (asked for {}), plans proposed as {}", quote(clientName),
                quote(client.path("version").asText("")), version.id(), quote(requested.textValue()), proposer);

        ObjectNode result = JsonRpc.object();
        result.put("protocolVersion", version.id());
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        ObjectNode info = result.putObject("serverInfo");
        info.put("name", "llmsafe");
        if (version.hasStructuredOutput()) {
            info.put("title", "llmsafe-jdbc");
        }
        info.put("version", serverVersion);
        result.put("instructions", INSTRUCTIONS);
        return result;
    }

    private void notification(String method) {
        switch (method) {
            case "notifications/initialized":
                if (version == null) {
                    LOG.warn("notifications/initialized before initialize; ignored");
                }
                break;
            case "notifications/cancelled":
                // Requests are answered one at a time, in order: the one being cancelled is answered already.
                LOG.debug("notifications/cancelled: nothing is running");
                break;
            default:
                LOG.debug("ignored notification {}", quote(method));
        }
    }

    private void send(JsonNode message) throws IOException {
        byte[] bytes = JsonRpc.write(message).getBytes(StandardCharsets.UTF_8);
        out.write(bytes);
        out.write('\n');
        out.flush();
        // System.out is a PrintStream, which swallows write errors; a client that went away must end the session.
        if (out instanceof PrintStream ps && ps.checkError()) {
            throw new IOException("the output is closed");
        }
    }

    /** A client's name as it may appear on a card: printable characters only, and not too many. */
    static String printable(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().filter(c -> !Character.isISOControl(c) && !Character.isWhitespace(c))
                .limit(64).forEach(b::appendCodePoint);
        return b.length() == 0 ? "unnamed-client" : b.toString();
    }
}
