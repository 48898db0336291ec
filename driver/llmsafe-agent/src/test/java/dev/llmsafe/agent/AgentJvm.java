package dev.llmsafe.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own for an application under test, started with the built agent jar (or without it): the
 * test's class path without the agent's own classes and Byte Buddy, which come from the jar alone.
 */
final class AgentJvm {

    /** What the JVM did: its exit status, standard output and standard error. */
    record Run(int exit, String out, String err) {
        /** The {@code RESULT name outcome} lines, by name. */
        Map<String, String> results() {
            Map<String, String> r = new LinkedHashMap<>();
            out.lines().filter(l -> l.startsWith("RESULT ")).forEach(l -> {
                String[] p = l.substring("RESULT ".length()).split(" ", 2);
                r.put(p[0], p.length > 1 ? p[1] : "");
            });
            return r;
        }
    }

    private AgentJvm() {
    }

    static Path agentJar() {
        Path jar = Path.of(System.getProperty("llmsafe.agent.jar", "target/llmsafe-agent.jar"));
        assertThat(jar).as("the agent jar (built in package, before these tests)").exists();
        return jar;
    }

    static Run run(String agentArgument, String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        if (agentArgument != null) {
            command.add("-javaagent:" + agentJar().toAbsolutePath() + "=" + agentArgument);
        }
        command.addAll(List.of("-cp", applicationClassPath(), mainClass));
        command.addAll(Arrays.asList(args));
        Path out = Files.createTempFile("agent-app", ".out");
        Path err = Files.createTempFile("agent-app", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the application did not end within 180 s: " + Files.readString(err));
        }
        Run run = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err,
                StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return run;
    }

    private static String applicationClassPath() {
        List<String> kept = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            boolean agentClasses = p.endsWith(Path.of("target", "classes"))
                    && p.getParent().getParent().getFileName().toString().equals("llmsafe-agent");
            if (!agentClasses && !p.getFileName().toString().startsWith("byte-buddy")) {
                kept.add(entry);
            }
        }
        return String.join(File.pathSeparator, kept);
    }
}
