package dev.llmsafe.mcp;

import dev.llmsafe.tools.SqlTools;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The llmsafe MCP server: the Model Context Protocol over standard input and output (JSON-RPC 2.0, one
 * message per line, UTF-8), offering exactly four tools, {@code sql_read}, {@code sql_plan},
 * {@code sql_plan_status} and {@code sql_schema}, and no way to approve or apply a plan.
 * {@code llmsafe mcp --config PATH} runs it; the tools' work is done by a {@link SqlTools}.
 *
 * <p>Protocol: {@code initialize} (revisions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25; a client
 * asking for another gets 2025-11-25), {@code notifications/initialized}, {@code ping},
 * {@code tools/list}, {@code tools/call}; other notifications are ignored. Malformed input is answered
 * with a JSON-RPC error and the session goes on: not JSON (or invalid UTF-8, or a duplicated key):
 * -32700; not a request, or a message longer than the bound: -32600; an unknown method: -32601; bad
 * parameters or an unknown tool: -32602; a request other than initialize and ping before initialize:
 * -32000. A refusal is not a protocol error: it is a tool result marked {@code isError} whose text
 * holds the refusal's code and message.
 *
 * <p>The proposer named on every plan: the name given to the constructor, else {@code mcp:} followed
 * by the name the client gave in {@code initialize} ({@code clientInfo.name}, for example
 * {@code mcp:claude-code}). Either way it is recorded as given and is not an authorisation boundary
 * (T3); a fixed name from the operator's configuration says more than one a client chose.
 *
 * <p>Bounds: a message from the client is at most {@code maxMessageBytes} bytes, and a tool's result at
 * most {@code maxResultBytes} bytes of JSON (R13, both 1 MiB by default). A read whose rows do not fit
 * is cut to the rows that do and flagged {@code "truncated": true, "truncatedBy": "bytes"}; a result that
 * cannot be cut (a first row, a card, a schema larger than the bound) is refused as
 * {@code RESULT_TOO_LARGE}, saying how to get it another way. Values are never shortened: binary is
 * {@code {"t": "bin", "len": N, "hex": "..."}}, every byte.
 *
 * <p>Nothing is written to the output but protocol messages; the server logs through SLF4J, and the
 * program that runs it must send the log to standard error. That program should also point
 * {@code System.out} at standard error once it has handed the real standard output to
 * {@link #serve}, so that a stray print cannot corrupt the protocol.
 *
 * <p>Threads: {@link #serve} reads, handles and answers one message at a time on the calling thread.
 * The server itself holds no session state, so one instance may serve several streams on several
 * threads, provided its {@link SqlTools} is safe for that.
 */
public final class McpServer {

    /** The default bound on one message, in bytes: 1 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;
    /** The default bound on one tool result, in bytes of JSON: 1 MiB, as much as the server accepts (R13). */
    public static final int DEFAULT_MAX_RESULT_BYTES = 1 << 20;

    private final SqlTools tools;
    private final String proposer;
    private final int maxMessageBytes;
    private final int maxResultBytes;

    /**
     * A server with the default message bound.
     *
     * @param tools does the tools' work
     * @param proposer the name plans are proposed under, or null for {@code mcp:<clientInfo.name>}
     */
    public McpServer(SqlTools tools, String proposer) {
        this(tools, proposer, DEFAULT_MAX_MESSAGE_BYTES);
    }

    /**
     * @param tools does the tools' work
     * @param proposer the name plans are proposed under, or null for {@code mcp:<clientInfo.name>}
     * @param maxMessageBytes the longest message accepted, in bytes; a longer line is answered with an
     *     error without being held in memory
     */
    public McpServer(SqlTools tools, String proposer, int maxMessageBytes) {
        this(tools, proposer, maxMessageBytes, DEFAULT_MAX_RESULT_BYTES);
    }

    /**
     * @param tools does the tools' work
     * @param proposer the name plans are proposed under, or null for {@code mcp:<clientInfo.name>}
     * @param maxMessageBytes the longest message accepted, in bytes
     * @param maxResultBytes the largest tool result sent, in bytes of JSON (R13); at least 1024
     */
    public McpServer(SqlTools tools, String proposer, int maxMessageBytes, int maxResultBytes) {
        this.tools = Objects.requireNonNull(tools, "tools");
        if (maxResultBytes < 1024) {
            throw new IllegalArgumentException("maxResultBytes must be at least 1024: " + maxResultBytes);
        }
        this.maxResultBytes = maxResultBytes;
        if (proposer != null && proposer.isBlank()) {
            throw new IllegalArgumentException("a proposer name must not be blank");
        }
        if (maxMessageBytes < 1024) {
            throw new IllegalArgumentException("maxMessageBytes must be at least 1024: " + maxMessageBytes);
        }
        this.proposer = proposer;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * Serves one session: reads messages from {@code in} and writes the answers to {@code out} until
     * {@code in} ends. Neither stream is closed.
     *
     * @param in the client's messages (standard input)
     * @param out where the answers go (standard output); nothing else is written to it
     * @throws IOException when reading or writing fails, for example because the client went away
     */
    public void serve(InputStream in, OutputStream out) throws IOException {
        new Session(in, out, tools, proposer, version(), maxMessageBytes, maxResultBytes).run();
    }

    private static String version() {
        String v = McpServer.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }
}
