package dev.llmsafe.mcp;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The MCP server over this process's standard input and output, with {@link ShopTools}: the subprocess
 * that {@link McpSdkClientTest} starts, set up as {@code llmsafe mcp} will be.
 */
final class ShopServerMain {

    private ShopServerMain() {
    }

    /**
     * @param args optionally, the proposer name
     */
    public static void main(String[] args) throws IOException {
        OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        // From here on only the server writes to standard output: a stray print lands on standard error.
        System.setOut(System.err);
        System.out.println("ShopServerMain: serving MCP on standard input and output");
        new McpServer(new ShopTools(), args.length > 0 ? args[0] : null).serve(System.in, protocol);
    }
}
