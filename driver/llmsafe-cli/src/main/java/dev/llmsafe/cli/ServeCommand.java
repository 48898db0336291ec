package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.console.ConsoleServer;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/** The approval console in a browser. */
final class ServeCommand extends Base {

    String bind = "127.0.0.1";
    int port = 8080;

    ServeCommand() {
        super("serve", "Serve the approval console in a browser.",
                "Plans read, approved, rejected and applied by the users of the configuration's console section;",
                "guarded reads with their CSV. The store, apply and read credentials and the seal key stay on this",
                "server. Runs until stopped (Ctrl-C, SIGTERM).");
        option("--bind", "ADDRESS", v -> bind = v, "The address to",
                "listen on (default: " + bind + ", this machine only; put a reverse proxy or console.tls before",
                "anything wider).");
        intOption("--port", "N", v -> port = v, "The port (default: " + port + ").");
    }

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
