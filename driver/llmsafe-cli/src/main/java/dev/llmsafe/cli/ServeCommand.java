package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.console.ConsoleServer;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The approval console in a browser. */
@Command(name = "serve", description = {"Serve the approval console: plans read, approved, rejected and applied in a",
        "browser by the users of the configuration's console section; guarded reads with their CSV. The store,",
        "apply and read credentials and the seal key stay on this server. Runs until stopped (Ctrl-C, SIGTERM)."})
final class ServeCommand extends Base {

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", description = {"The address to",
            "listen on (default: ${DEFAULT-VALUE}, this machine only; put a reverse proxy or console.tls before",
            "anything wider)."})
    String bind;

    @Option(names = "--port", paramLabel = "N", defaultValue = "8080", description = "The port (default: ${DEFAULT-VALUE}).")
    int port;

    @Override
    int execute() throws Exception {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port is 0 to 65535, not " + port);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (Deployment d = new Deployment(config(), java.time.Clock.systemUTC(), true);
             ConsoleServer console = ConsoleServer.start(d, new InetSocketAddress(bind, port))) {
            boolean tls = d.config().console().flatMap(c -> c.tls()).isPresent();
            out().println("llmsafe serve: the approval console is at " + (tls ? "https" : "http") + "://" + bind + ":"
                    + console.port() + "/");
            out().flush();
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "llmsafe-serve-stop"));
            stopped.await();
        }
        return Main.OK;
    }
}
