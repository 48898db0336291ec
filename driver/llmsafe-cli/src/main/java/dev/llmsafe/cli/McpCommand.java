package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.mcp.McpServer;
import dev.llmsafe.tools.DatabaseTools;
import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The MCP server over standard input and output. */
final class McpCommand extends Base {

    private static final Logger LOG = LoggerFactory.getLogger(McpCommand.class);

    String proposer;
    int maxResultBytes = 1048576;

    McpCommand() {
        super("mcp", "Serve the Model Context Protocol over stdin/stdout for an assistant.",
                "Four tools: sql_read, sql_plan, sql_plan_status, sql_schema; none approves or applies. Only protocol",
                "messages go to stdout; logs go to stderr. Ends when stdin ends.");
        option("--as", "NAME", v -> proposer = v, "The proposer named on every plan (recorded as given).",
                "Default: mcp:<the client's name>.");
        intOption("--max-result-bytes", "N", v -> maxResultBytes = v,
                "The largest tool result sent, in bytes of JSON (default: " + maxResultBytes + "). A read is cut to the rows",
                "that fit and says so (truncatedBy: bytes); anything else larger is refused (RESULT_TOO_LARGE).");
    }

    @Override
    int execute() throws Exception {
        PrintStream stdout = System.out;
        // Anything printed by accident now goes to stderr: stdout carries the protocol alone.
        System.setOut(System.err);
        // The server starts and answers whether or not the database is up, and each tool result says
        // what the database answered until it is back: an assistant sees a tool, not a dead process.
        try (Deployment d = new Deployment(config(), java.time.Clock.systemUTC(), true);
             DatabaseTools tools = DatabaseTools.over(d)) {
            LOG.info("llmsafe mcp: serving on stdin/stdout, configuration {}", common.config == null ? "(default)" : common.config);
            new McpServer(tools, proposer, McpServer.DEFAULT_MAX_MESSAGE_BYTES, maxResultBytes).serve(main.stdin, main.stdout == null ? stdout : main.stdout);
            return Main.OK;
        } finally {
            System.setOut(stdout);
        }
    }
}
