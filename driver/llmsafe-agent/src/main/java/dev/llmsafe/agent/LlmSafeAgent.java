package dev.llmsafe.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The javaagent: {@code java -javaagent:llmsafe-agent.jar=config=/path/llmsafe.json,scope=com.acme.assistant
 * -cp app.jar:llmsafe-driver.jar:...}. The argument is {@link AgentSettings}'s. The connections the
 * configured scope obtains, from any DataSource or Driver (DriverManager's included), and every connection
 * to a configured URL pattern, are the model's, as through {@code jdbc:llmsafe:}; everything else keeps its
 * raw connections, from the same pools.
 *
 * <p>At start ({@code premain}) an argument or a configuration that does not load stops the JVM, after
 * the located message on standard error: an application that asked to be guarded does not run unguarded.
 * Attached to a running JVM ({@code agentmain}), the same error fails the attach and nothing is woven.
 * llmsafe-driver (and its dependencies) and the vendor driver must be on the application's class path;
 * the agent jar holds only the agent and Byte Buddy, relocated.
 */
public final class LlmSafeAgent {

    static final String[] BOOTSTRAP = {"dev/llmsafe/agent/bootstrap/Dispatch.class",
        "dev/llmsafe/agent/bootstrap/Dispatch$Hook.class"};

    private LlmSafeAgent() {
    }

    /** The agent given with {@code -javaagent:}: a failure stops the JVM. */
    public static void premain(String argument, Instrumentation instrumentation) {
        try {
            start(argument, instrumentation);
        } catch (RuntimeException | LinkageError | IOException e) {
            System.err.println("llmsafe agent: " + reason(e));
            System.err.println("llmsafe agent: the JVM stops rather than run unguarded.");
            System.exit(78);
        }
    }

    /** The agent attached to a running JVM: a failure fails the attach, and nothing is woven. */
    public static void agentmain(String argument, Instrumentation instrumentation) throws IOException {
        try {
            start(argument, instrumentation);
        } catch (LinkageError e) {
            throw new IllegalStateException(reason(e), e);
        }
    }

    private static void start(String argument, Instrumentation instrumentation) throws IOException {
        onBootstrapPath(instrumentation);
        Installer.install(argument, instrumentation);
    }

    private static String reason(Throwable e) {
        if (e instanceof NoClassDefFoundError) {
            return "llmsafe-driver is not on the class path (" + e.getMessage() + "): put llmsafe-driver, its"
                    + " dependencies and the database's driver on the application's class path";
        }
        return e.getMessage();
    }

    /**
     * Puts {@code Dispatch} on the bootstrap class path, in a jar of its own, before any class that uses it
     * is loaded: every class loader then finds that one copy, and the agent's hook is the one it calls.
     */
    private static void onBootstrapPath(Instrumentation instrumentation) throws IOException {
        Path jar = Files.createTempFile("llmsafe-agent-bootstrap", ".jar");
        jar.toFile().deleteOnExit();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (String name : BOOTSTRAP) {
                try (InputStream in = LlmSafeAgent.class.getClassLoader().getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IOException("the agent jar lacks " + name);
                    }
                    out.putNextEntry(new JarEntry(name));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
    }
}
