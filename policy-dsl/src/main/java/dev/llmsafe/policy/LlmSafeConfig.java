package dev.llmsafe.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The contents of {@code llmsafe.json}: where the databases are and what the model may touch.
 * Immutable and thread-safe.
 *
 * <p>Four connections can be named. {@code connection} runs the dry run and must be able to write;
 * {@code readConnection} runs reads (a role that cannot write is the cheapest real guard);
 * {@code applyConnection} commits approved plans; {@code storeConnection} holds plans and audit
 * records. Each one left out falls back as documented in the README, and {@code llmsafe check}
 * says which of them share a credential.
 *
 * <p>A configuration names only what its process uses ({@link #serves()}): one for approving
 * ({@code approve}, {@code reject}, {@code list}, {@code show}) needs only {@code storeConnection} and the
 * seal key; one for applying adds {@code applyConnection} and the policy, which apply re-checks the plan
 * against; one for reading ({@code readConnection} and the policy) reads and proposes nothing. None of
 * them then holds the planning credential. {@link #connection()} and {@link #policy()} of a
 * configuration without them say which key is missing.
 *
 * <p>String values may name environment variables: {@code ${NAME}} or {@code ${NAME:-default}};
 * {@code $${} writes a literal {@code ${}. Unknown keys, mis-cased keys and wrong types are errors
 * with the file, line, column and key.
 */
public final class LlmSafeConfig {

    private final String source;
    private final ConnectionSettings connection;
    private final Optional<ConnectionSettings> readConnection;
    private final Optional<ConnectionSettings> applyConnection;
    private final Optional<ConnectionSettings> storeConnection;
    private final Optional<Identifier> schema;
    private final Optional<Secret> sealKey;
    private final boolean allowSelfApprove;
    private final int planExpiryHours;
    private final int lockTimeoutMs;
    private final int statementTimeoutMs;
    private final Policy policy;
    private final Optional<ConsoleSettings> console;

    private LlmSafeConfig(Builder b) {
        this.source = b.source;
        this.connection = b.connection;
        this.readConnection = Optional.ofNullable(b.readConnection);
        this.applyConnection = Optional.ofNullable(b.applyConnection);
        this.storeConnection = Optional.ofNullable(b.storeConnection);
        this.schema = Optional.ofNullable(b.schema);
        this.sealKey = Optional.ofNullable(b.sealKey);
        this.allowSelfApprove = b.allowSelfApprove;
        this.planExpiryHours = b.planExpiryHours;
        this.lockTimeoutMs = b.lockTimeoutMs;
        this.statementTimeoutMs = b.statementTimeoutMs;
        this.policy = b.policy;
        this.console = Optional.ofNullable(b.console);
        if (connection == null && b.storeConnection == null) {
            throw new IllegalArgumentException("connection is required, or storeConnection for a configuration that"
                    + " only approves, rejects, lists and shows plans");
        }
    }

    /**
     * Reads a config file, taking {@code ${NAME}} values from the process environment. A relative
     * SQLite path in it is read from the file's directory, never the working directory: one file
     * names one database wherever it is run from.
     */
    public static LlmSafeConfig load(Path file) {
        return load(file, System::getenv);
    }

    /**
     * Reads a config file with the given environment (a function from a variable name to its value,
     * or null when unset).
     *
     * @throws ConfigException when the file cannot be read or is not a valid configuration
     */
    public static LlmSafeConfig load(Path file, UnaryOperator<String> environment) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), 0, 0, null,
                    "no such file; create one with `llmsafe init` or point to it with --config, the system"
                            + " property llmsafe.config or the environment variable LLMSAFE_CONFIG");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), 0, 0, null, "cannot read the file: " + e);
        }
        Path directory = file.toAbsolutePath().getParent();
        return new ConfigReader(file.toString(), directory, environment).read(text);
    }

    /**
     * Reads configuration text that is not a file's (a class path resource, text built in code). A
     * relative SQLite path has nothing to be relative to there and is an error; {@link #load} reads
     * it from the file's directory.
     *
     * @param json the text of an {@code llmsafe.json}
     * @param source the name used in error messages
     * @param environment variable name to value, null when unset
     * @throws ConfigException when the text is not a valid configuration
     */
    public static LlmSafeConfig parse(String json, String source, UnaryOperator<String> environment) {
        return new ConfigReader(source, null, environment).read(json);
    }

    /**
     * Reads configuration text whose relative SQLite paths are read from {@code directory}: the
     * driver reads a class path resource this way, with the working directory, which is where the
     * application's own {@code jdbc:llmsafe:sqlite:} URL is read from too.
     *
     * @param json the text of an {@code llmsafe.json}
     * @param source the name used in error messages
     * @param directory the directory relative SQLite paths are read from
     * @param environment variable name to value, null when unset
     * @throws ConfigException when the text is not a valid configuration
     */
    public static LlmSafeConfig parse(String json, String source, Path directory, UnaryOperator<String> environment) {
        return new ConfigReader(source, Objects.requireNonNull(directory, "directory"), environment).read(json);
    }

    /** A builder for applications that configure in code. */
    public static Builder builder() {
        return new Builder();
    }

    /** Where this configuration came from: a path, or {@code "code"}. */
    public String source() {
        return source;
    }

    /**
     * The dry-run connection: a credential that can write, always rolled back.
     *
     * @throws ConfigException when this configuration names none (one for approving or applying only)
     */
    public ConnectionSettings connection() {
        if (connection == null) {
            throw missing("connection", "the planning connection");
        }
        return connection;
    }

    /** The dry-run connection, when this configuration names one. */
    public Optional<ConnectionSettings> planningConnection() {
        return Optional.ofNullable(connection);
    }

    /** What a process with this configuration can do: the roles whose keys it names. */
    public Set<Role> serves() {
        Set<Role> roles = java.util.EnumSet.noneOf(Role.class);
        if (connection != null && policy != null) {
            roles.add(Role.PROPOSE);
        }
        roles.add(Role.APPROVE);
        if ((connection != null || applyConnection.isPresent()) && policy != null) {
            roles.add(Role.APPLY);
        }
        if ((connection != null || readConnection.isPresent()) && policy != null) {
            roles.add(Role.READ);
        }
        return roles;
    }

    /** What a process does with a configuration, and the commands of each. */
    public enum Role {
        /** Reads and plans: {@code jdbc:llmsafe:}, {@code plan}, {@code read}, {@code schema}, {@code mcp}. */
        PROPOSE("propose (plan, read, explain, schema, mcp, jdbc:llmsafe:)", "connection and policy"),
        /** {@code approve}, {@code reject}, {@code list}, {@code show}: the store alone. */
        APPROVE("approve (approve, reject, list, show)", "storeConnection or connection"),
        /** {@code apply}: the store, the apply credential and the policy it re-checks plans against. */
        APPLY("apply", "applyConnection or connection, and policy"),
        /** Guarded reads alone ({@code read}, {@code explain}, the console's read page): no plan is made. */
        READ("read (read, explain, the console's reads)", "readConnection or connection, and policy");

        private final String commands;
        private final String needs;

        Role(String commands, String needs) {
            this.commands = commands;
            this.needs = needs;
        }

        /** The commands of this role, for people. */
        public String commands() {
            return commands;
        }

        /** The keys this role needs, for people. */
        public String needs() {
            return needs;
        }
    }

    private ConfigException missing(String key, String what) {
        Set<Role> serves = serves();
        return new ConfigException(source, 0, 0, key, "this configuration names no " + key + " (" + what
                + "), so it serves " + serves.stream().map(Role::commands).collect(java.util.stream.Collectors.joining(
                        " and ")) + " only; use the configuration of a process that " + (key.equals("policy")
                        ? "proposes or applies" : "proposes") + ", or add " + key);
    }

    /** The connection reads run on, when separate. */
    public Optional<ConnectionSettings> readConnection() {
        return readConnection;
    }

    /** The connection that commits approved plans, when separate. */
    public Optional<ConnectionSettings> applyConnection() {
        return applyConnection;
    }

    /** The connection to the plan and audit store, when separate. */
    public Optional<ConnectionSettings> storeConnection() {
        return storeConnection;
    }

    /** The schema the tables live in (PostgreSQL), pinned on every connection instead of search_path. */
    public Optional<Identifier> schema() {
        return schema;
    }

    /** The key that seals plans and approvals in the store, when set. */
    public Optional<Secret> sealKey() {
        return sealKey;
    }

    /** Whether one actor may both propose and approve (then the audit shows one actor doing both). */
    public boolean allowSelfApprove() {
        return allowSelfApprove;
    }

    /** How long a plan may wait for approval and apply, in hours (default 24; A11). */
    public int planExpiryHours() {
        return planExpiryHours;
    }

    /** The longest a dry run or an apply waits for a row lock, in milliseconds (default 2000; D6, A9). */
    public int lockTimeoutMs() {
        return lockTimeoutMs;
    }

    /** The longest one statement of a dry run or an apply may run, in milliseconds (default 10000; D6, A9). */
    public int statementTimeoutMs() {
        return statementTimeoutMs;
    }

    /**
     * What the model may touch.
     *
     * @throws ConfigException when this configuration names none (one for approving only)
     */
    public Policy policy() {
        if (policy == null) {
            throw missing("policy", "what the model may touch");
        }
        return policy;
    }

    /** The policy, when this configuration names one. */
    public Optional<Policy> policyIfAny() {
        return Optional.ofNullable(policy);
    }

    /** The approval console's settings ({@code llmsafe serve}), when this configuration names them. */
    public Optional<ConsoleSettings> console() {
        return console;
    }

    /**
     * The canonical JSON form. Secrets are written as the file wrote them ({@code ${NAME}}), so the
     * output is safe to show when the file itself kept secrets out.
     */
    public String toJson() {
        return CanonicalJson.config(this);
    }

    /** A short description for people; never shows a secret. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append("Configuration from ").append(source).append('\n');
        sb.append("  connection       ").append(connection == null ? "(not set: this configuration does not propose)"
                : connection.describe()).append('\n');
        sb.append("  readConnection   ").append(readConnection.map(ConnectionSettings::describe)
                .orElse("(not set: reads use the caller's connection)")).append('\n');
        sb.append("  applyConnection  ").append(applyConnection.map(ConnectionSettings::describe)
                .orElse("(not set: apply uses the dry-run credential)")).append('\n');
        sb.append("  storeConnection  ").append(storeConnection.map(ConnectionSettings::describe)
                .orElse("(not set: plans are stored in the dry-run database)")).append('\n');
        schema.ifPresent(s -> sb.append("  schema           ").append(s).append('\n'));
        sb.append("  seal key         ").append(sealKey.isPresent() ? "set" : "not set").append('\n');
        sb.append("  self-approval    ").append(allowSelfApprove ? "allowed" : "refused").append('\n');
        sb.append("  plans expire     after ").append(planExpiryHours).append(" hours\n");
        sb.append("  dry run bounds   ").append(lockTimeoutMs).append(" ms lock wait, ").append(statementTimeoutMs)
                .append(" ms per statement\n");
        console.ifPresent(c -> sb.append("  console          ").append(c.users().size()).append(" users")
                .append(c.trustedProxy().map(p -> ", proxy header " + p.header()).orElse(""))
                .append(c.tls().isPresent() ? ", HTTPS" : ", HTTP").append('\n'));
        if (policy == null) {
            sb.append("  policy           (not set: this configuration does not propose or apply)\n");
        } else {
            for (String line : policy.summary().split("\n")) {
                sb.append("  ").append(line).append('\n');
            }
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LlmSafeConfig c
                && Objects.equals(connection, c.connection) && readConnection.equals(c.readConnection)
                && applyConnection.equals(c.applyConnection) && storeConnection.equals(c.storeConnection)
                && schema.equals(c.schema) && sealKey.equals(c.sealKey)
                && allowSelfApprove == c.allowSelfApprove && planExpiryHours == c.planExpiryHours
                && lockTimeoutMs == c.lockTimeoutMs && statementTimeoutMs == c.statementTimeoutMs
                && Objects.equals(policy, c.policy) && console.equals(c.console);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connection, readConnection, applyConnection, storeConnection, schema, sealKey,
                allowSelfApprove, planExpiryHours, lockTimeoutMs, statementTimeoutMs, policy, console);
    }

    /** The summary; never shows a secret. */
    @Override
    public String toString() {
        return summary();
    }

    /** Builds an {@link LlmSafeConfig} in code. */
    public static final class Builder {
        private String source = "code";
        private ConnectionSettings connection;
        private ConnectionSettings readConnection;
        private ConnectionSettings applyConnection;
        private ConnectionSettings storeConnection;
        private Identifier schema;
        private Secret sealKey;
        private boolean allowSelfApprove;
        private int planExpiryHours = 24;
        private int lockTimeoutMs = 2_000;
        private int statementTimeoutMs = 10_000;
        private Policy policy;
        private ConsoleSettings console;

        private Builder() {
        }

        Builder source(String source) {
            this.source = source;
            return this;
        }

        /** The dry-run connection (required). */
        public Builder connection(ConnectionSettings c) {
            this.connection = c;
            return this;
        }

        /** The read connection. */
        public Builder readConnection(ConnectionSettings c) {
            this.readConnection = c;
            return this;
        }

        /** The apply connection. */
        public Builder applyConnection(ConnectionSettings c) {
            this.applyConnection = c;
            return this;
        }

        /** The store connection. */
        public Builder storeConnection(ConnectionSettings c) {
            this.storeConnection = c;
            return this;
        }

        /** The schema of the tables, as an identifier ({@code public}, or {@code "\"Sales\""} quoted). */
        public Builder schema(String schema) {
            try {
                this.schema = QualifiedName.parse(schema, 1).last();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"" + schema + "\" is not a valid schema name;"
                        + " write a name such as public, in double quotes if it has other characters");
            }
            return this;
        }

        /** The seal key: at least 16 characters, the same on the planning and the applying side. */
        public Builder sealKey(Secret key) {
            checkSealKey(key.reveal());
            this.sealKey = key;
            return this;
        }

        /** Allows one actor to propose and approve. */
        public Builder allowSelfApprove(boolean allow) {
            this.allowSelfApprove = allow;
            return this;
        }

        /** How long a plan may wait, in hours (1 to 8760; default 24). */
        public Builder planExpiryHours(int hours) {
            Policy.checkRange("planExpiryHours", hours, 1, 8760);
            this.planExpiryHours = hours;
            return this;
        }

        /** The lock wait bound of dry runs and applies, in milliseconds (1 to 600000; default 2000). */
        public Builder lockTimeoutMs(int millis) {
            Policy.checkRange("lockTimeoutMs", millis, 1, 600_000);
            this.lockTimeoutMs = millis;
            return this;
        }

        /** The statement bound of dry runs and applies, in milliseconds (1 to 3600000; default 10000). */
        public Builder statementTimeoutMs(int millis) {
            Policy.checkRange("statementTimeoutMs", millis, 1, 3_600_000);
            this.statementTimeoutMs = millis;
            return this;
        }

        /** The policy (required). */
        public Builder policy(Policy policy) {
            this.policy = policy;
            return this;
        }

        /** The approval console's settings. */
        public Builder console(ConsoleSettings console) {
            this.console = console;
            return this;
        }

        /** The configuration. */
        public LlmSafeConfig build() {
            return new LlmSafeConfig(this);
        }
    }

    static void checkSealKey(String key) {
        if (key.length() < 16) {
            throw new IllegalArgumentException("the seal key is too short to be a secret (" + key.length()
                    + " characters); use at least 16 random characters, for example from `openssl rand -hex 32`");
        }
    }
}
