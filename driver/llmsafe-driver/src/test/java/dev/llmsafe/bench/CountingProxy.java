package dev.llmsafe.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy in front of a database server that counts round trips on the wire: one per burst of bytes
 * the client sends that the server then answers (pipelined messages sent together count once, as they
 * cost one wait). With {@link #record} on, it keeps the printable text of each client burst, with the number of the
 * connection it came on, to see what
 * was sent. {@link #cut} breaks every connection open through it, as a network or a server restart would.
 * For benchmarks, and for tests of other modules that count what goes on the wire.
 */
public final class CountingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String upstreamHost;
    private final int upstreamPort;
    private final AtomicLong roundTrips = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    private final List<String> sent = new ArrayList<>();
    private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean record;

    private CountingProxy(String host, int port) throws IOException {
        this.upstreamHost = host;
        this.upstreamPort = port;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "counting-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    /** A proxy for the server of a JDBC URL ({@code jdbc:postgresql://host:port/...}, {@code jdbc:mysql://...}). */
    public static CountingProxy forUrl(String jdbcUrl) throws IOException {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return new CountingProxy(uri.getHost(), uri.getPort());
    }

    /** The same URL through this proxy. */
    public String url(String jdbcUrl) {
        return jdbcUrl.replaceFirst("//[^/]+/", "//127.0.0.1:" + server.getLocalPort() + "/");
    }

    /** Round trips so far, on every connection. */
    public long roundTrips() {
        return roundTrips.get();
    }

    /** Connections opened through this proxy so far. */
    public int connections() {
        return connections.get();
    }

    /** Closes every connection open through this proxy, both ways; new ones are still accepted. */
    public void cut() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** Starts keeping what the client sends, from now on. */
    public synchronized void record(boolean on) {
        record = on;
        sent.clear();
    }

    /** What the client sent since {@link #record} was turned on, one line per burst. */
    public synchronized List<String> sent() {
        return List.copyOf(sent);
    }

    private void accept() {
        while (!closed.get()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(upstreamHost, upstreamPort));
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                // Whose turn it is: a client burst after a server answer starts a new round trip.
                AtomicBoolean clientTurn = new AtomicBoolean(false);
                int number = connections.incrementAndGet();
                pump(client, upstream, true, clientTurn, number);
                pump(upstream, client, false, clientTurn, number);
            } catch (IOException e) {
                if (!closed.get()) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromClient, AtomicBoolean clientTurn, int number) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[65536];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    if (fromClient) {
                        if (!clientTurn.getAndSet(true)) {
                            roundTrips.incrementAndGet();
                        }
                        if (record) {
                            keep(number, buf, n);
                        }
                    } else {
                        clientTurn.set(false);
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // One side closed: the other follows.
            } finally {
                try {
                    to.close();
                    from.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }, "counting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private synchronized void keep(int number, byte[] buf, int n) {
        StringBuilder text = new StringBuilder("[connection " + number + "] ");
        for (int i = 0; i < n && text.length() < 300; i++) {
            char c = (char) (buf[i] & 0xff);
            text.append(c >= 32 && c < 127 ? c : ' ');
        }
        sent.add(text.toString().replaceAll(" {2,}", " ").trim());
    }

    @Override
    public void close() throws IOException {
        closed.set(true);
        server.close();
    }
}
