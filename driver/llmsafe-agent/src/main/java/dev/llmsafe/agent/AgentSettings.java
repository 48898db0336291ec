package dev.llmsafe.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The agent's argument, {@code -javaagent:llmsafe-agent.jar=KEY=VALUE,KEY=VALUE...}:
 * <ul>
 *   <li>{@code config=PATH} (required): the llmsafe.json with the policy and the plan store;</li>
 *   <li>{@code scope=NAME}, repeatable: a package (with its subpackages) or a class (with its nested
 *       classes) whose connections are guarded, by where they are obtained;</li>
 *   <li>{@code url=PATTERN}, repeatable: every connection to a JDBC URL matching it is guarded, {@code *}
 *       standing for any characters (a pattern with a comma cannot be written here);</li>
 *   <li>{@code proposer=NAME}: who proposes the guarded connections' plans (default {@code assistant}).</li>
 * </ul>
 * At least one scope or url is required; an unknown key, an empty value or llmsafe's own package as a
 * scope is an error, so that a typo never leaves the application unguarded.
 */
final class AgentSettings {

    private final Path config;
    private final List<String> scopes;
    private final List<String> urls;
    private final List<Pattern> patterns;
    private final String proposer;

    AgentSettings(Path config, List<String> scopes, List<String> urls, String proposer) {
        this.config = config;
        this.scopes = List.copyOf(scopes);
        this.urls = List.copyOf(urls);
        this.patterns = urls.stream().map(AgentSettings::glob).toList();
        this.proposer = proposer;
    }

    /** The llmsafe.json. */
    Path config() {
        return config;
    }

    /** The packages and classes whose connections are guarded. */
    List<String> scopes() {
        return scopes;
    }

    /** The URL patterns, as given. */
    List<String> urls() {
        return urls;
    }

    /** Who proposes the guarded connections' plans. */
    String proposer() {
        return proposer;
    }

    /** Parses the agent argument; the exception's message says what is wrong and how to write it. */
    static AgentSettings parse(String argument) {
        String config = null;
        String proposer = null;
        List<String> scopes = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        for (String pair : Optional.ofNullable(argument).orElse("").split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair.strip() : pair.substring(0, eq).strip();
            String value = eq < 0 ? "" : pair.substring(eq + 1).strip();
            if (value.isEmpty()) {
                throw new IllegalArgumentException("agent argument " + key + " has no value; write " + key + "=...");
            }
            switch (key) {
                case "config" -> config = once(key, config, value);
                case "proposer" -> proposer = once(key, proposer, value);
                case "scope" -> scopes.add(scope(value));
                case "url" -> urls.add(value);
                default -> throw new IllegalArgumentException("agent argument " + key + " is not known; the keys are"
                        + " config, scope, url and proposer");
            }
        }
        if (config == null) {
            throw new IllegalArgumentException("the agent argument names no config: write"
                    + " -javaagent:llmsafe-agent.jar=config=/path/llmsafe.json,scope=com.acme.assistant");
        }
        if (scopes.isEmpty() && urls.isEmpty()) {
            throw new IllegalArgumentException("the agent argument names no scope and no url, so it would guard"
                    + " nothing: add scope=PACKAGE_OR_CLASS or url=PATTERN");
        }
        return new AgentSettings(Path.of(config), scopes, urls, proposer == null ? "assistant" : proposer);
    }

    private static String once(String key, String previous, String value) {
        if (previous != null) {
            throw new IllegalArgumentException("agent argument " + key + " is given twice");
        }
        return value;
    }

    private static String scope(String value) {
        if (!value.matches("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}.$]*")) {
            throw new IllegalArgumentException("scope " + value + " is not a package or class name");
        }
        if (value.equals("dev.llmsafe") || value.startsWith("dev.llmsafe.")) {
            throw new IllegalArgumentException("scope " + value + " is llmsafe's own code, whose connections are"
                    + " never guarded (they are the guard's)");
        }
        return value;
    }

    /** Whether a JDBC URL matches one of the url patterns. */
    boolean guardsUrl(String url) {
        for (Pattern p : patterns) {
            if (p.matcher(url).matches()) {
                return true;
            }
        }
        return false;
    }

    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
