package dev.llmsafe.policy;

import dev.llmsafe.policy.JsonTree.Arr;
import dev.llmsafe.policy.JsonTree.Bool;
import dev.llmsafe.policy.JsonTree.Member;
import dev.llmsafe.policy.JsonTree.Node;
import dev.llmsafe.policy.JsonTree.Num;
import dev.llmsafe.policy.JsonTree.Obj;
import dev.llmsafe.policy.JsonTree.Str;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Turns the text of {@code llmsafe.json} into an {@link LlmSafeConfig}, failing closed: every key
 * is known, every type checked, every error located.
 */
final class ConfigReader {

    private static final List<String> TOP_KEYS = List.of("connection", "readConnection", "applyConnection",
            "storeConnection", "schema", "sealKey", "allowSelfApprove", "planExpiryHours", "lockTimeoutMs",
            "statementTimeoutMs", "policy", "console");
    private static final List<String> CONSOLE_KEYS = List.of("users", "trustedProxy", "idleMinutes", "tls", "webhook",
            "publicUrl");
    private static final List<String> USER_KEYS = List.of("name", "roles", "passwordHash");
    private static final List<String> PROXY_KEYS = List.of("header", "addresses", "roles");
    private static final List<String> TLS_KEYS = List.of("keyStore", "password");
    private static final List<String> CONNECTION_KEYS = List.of("url", "user", "password");
    private static final List<String> POLICY_KEYS = List.of("allow", "impact", "denyIdentifiers", "denyWrite",
            "autoColumns", "maxUpdateRows", "maxDeleteRows", "limits", "read", "maxStatementLength");
    private static final List<String> LIMIT_KEYS = List.of("maxUpdateRows", "maxDeleteRows");
    private static final List<String> READ_KEYS = List.of("maxRows", "maxCost", "timeoutMs", "holdMs", "maxBytes",
            "allowFunctions");

    private final String source;
    private final Path directory;
    private final UnaryOperator<String> environment;

    /**
     * @param source the name used in error messages
     * @param directory the configuration file's directory, which relative SQLite paths are read from;
     *     null when the text is not a file's
     * @param environment variable name to value, null when unset
     */
    ConfigReader(String source, Path directory, UnaryOperator<String> environment) {
        this.source = source;
        this.directory = directory;
        this.environment = environment;
    }

    LlmSafeConfig read(String text) {
        Obj root = object(JsonTree.parse(text, source), null);
        checkKeys(root, null, TOP_KEYS);
        LlmSafeConfig.Builder b = LlmSafeConfig.builder().source(source);
        // A configuration names what its process uses (LlmSafeConfig.serves): connection and policy may be
        // left out by one that only approves (storeConnection) or applies (applyConnection and policy).
        optional(root, "connection").ifPresent(m -> b.connection(connection(m.value(), "connection")));
        if (optional(root, "connection").isEmpty() && optional(root, "storeConnection").isEmpty()) {
            throw error(root, "connection", "required key is missing (a configuration that only approves, rejects,"
                    + " lists and shows plans may name storeConnection instead)");
        }
        optional(root, "readConnection").ifPresent(m -> b.readConnection(connection(m.value(), "readConnection")));
        optional(root, "applyConnection").ifPresent(m -> b.applyConnection(connection(m.value(), "applyConnection")));
        optional(root, "storeConnection").ifPresent(m -> b.storeConnection(connection(m.value(), "storeConnection")));
        optional(root, "schema").ifPresent(m -> {
            String schema = string(m.value(), "schema");
            guarded(m.value(), "schema", () -> b.schema(schema));
        });
        optional(root, "sealKey").ifPresent(m -> {
            Str raw = (Str) expect(m.value(), "sealKey", Str.class, "a string");
            String key = interpolate(raw, "sealKey");
            guarded(raw, "sealKey", () -> b.sealKey(Secret.fromFile(key, raw.value())));
        });
        optional(root, "allowSelfApprove").ifPresent(m -> b.allowSelfApprove(bool(m.value(), "allowSelfApprove")));
        optional(root, "planExpiryHours").ifPresent(m -> b.planExpiryHours(integer(m.value(), "planExpiryHours", 1, 8760)));
        optional(root, "lockTimeoutMs").ifPresent(m -> b.lockTimeoutMs(integer(m.value(), "lockTimeoutMs", 1, 600_000)));
        optional(root, "statementTimeoutMs").ifPresent(m ->
                b.statementTimeoutMs(integer(m.value(), "statementTimeoutMs", 1, 3_600_000)));
        optional(root, "policy").ifPresent(m -> b.policy(policy(m.value())));
        optional(root, "console").ifPresent(m -> b.console(console(m.value())));
        if (optional(root, "policy").isEmpty() && optional(root, "connection").isPresent()) {
            throw error(root, "policy", "required key is missing: a configuration with the planning connection"
                    + " proposes, and needs the policy");
        }
        return b.build();
    }

    private ConnectionSettings connection(Node node, String path) {
        Obj o = object(node, path);
        checkKeys(o, path, CONNECTION_KEYS);
        Node urlNode = required(o, path, "url");
        String written = string(urlNode, path + ".url");
        String url = guarded(urlNode, path + ".url", () -> SqliteUrls.resolve(written, directory));
        Optional<String> user = optional(o, "user").map(m -> string(m.value(), path + ".user"));
        Optional<Secret> password = optional(o, "password").map(m -> {
            Str raw = (Str) expect(m.value(), path + ".password", Str.class, "a string");
            return Secret.fromFile(interpolate(raw, path + ".password"), raw.value());
        });
        return guarded(urlNode, path + ".url", () -> new ConnectionSettings(url, user, password));
    }

    private ConsoleSettings console(Node node) {
        Obj o = object(node, "console");
        checkKeys(o, "console", CONSOLE_KEYS);
        List<ConsoleSettings.User> users = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        optional(o, "users").ifPresent(m -> {
            Arr list = (Arr) expect(m.value(), "console.users", Arr.class, "a list of users");
            for (int i = 0; i < list.items().size(); i++) {
                String path = "console.users[" + i + "]";
                Obj u = object(list.items().get(i), path);
                checkKeys(u, path, USER_KEYS);
                Node nameNode = required(u, path, "name");
                String name = string(nameNode, path + ".name").strip();
                if (name.isEmpty()) {
                    throw error(nameNode, path + ".name", "a user's name must not be blank");
                }
                if (!names.add(name.toLowerCase(java.util.Locale.ROOT))) {
                    throw error(nameNode, path + ".name", "user " + name + " is listed twice (names are compared"
                            + " without case)");
                }
                Str hash = (Str) expect(required(u, path, "passwordHash"), path + ".passwordHash", Str.class,
                        "a string printed by `llmsafe hash-password`");
                users.add(new ConsoleSettings.User(name, roles(required(u, path, "roles"), path + ".roles"),
                        Secret.fromFile(interpolate(hash, path + ".passwordHash"), hash.value())));
            }
        });
        Optional<ConsoleSettings.TrustedProxy> proxy = optional(o, "trustedProxy").map(m -> {
            Obj p = object(m.value(), "console.trustedProxy");
            checkKeys(p, "console.trustedProxy", PROXY_KEYS);
            Node headerNode = required(p, "console.trustedProxy", "header");
            String header = string(headerNode, "console.trustedProxy.header");
            if (!header.matches("[A-Za-z0-9-]+")) {
                throw error(headerNode, "console.trustedProxy.header", "not a header name; write one such as"
                        + " X-Forwarded-User");
            }
            Arr addresses = (Arr) expect(required(p, "console.trustedProxy", "addresses"),
                    "console.trustedProxy.addresses", Arr.class, "a list of the proxy's IP addresses");
            if (addresses.items().isEmpty()) {
                throw error(addresses, "console.trustedProxy.addresses", "the list is empty, so the header would be"
                        + " believed from nowhere; name the proxy's addresses, for example [\"127.0.0.1\"]");
            }
            List<String> list = new ArrayList<>();
            for (int i = 0; i < addresses.items().size(); i++) {
                Node a = addresses.items().get(i);
                String address = string(a, "console.trustedProxy.addresses[" + i + "]");
                if (!address.matches("[0-9.]+|[0-9A-Fa-f:]+")) {
                    throw error(a, "console.trustedProxy.addresses[" + i + "]", "not an IP address (names are not"
                            + " resolved: a name could be made to point anywhere)");
                }
                list.add(address);
            }
            return new ConsoleSettings.TrustedProxy(header, list, roles(required(p, "console.trustedProxy", "roles"),
                    "console.trustedProxy.roles"));
        });
        int idle = optional(o, "idleMinutes").map(m -> integer(m.value(), "console.idleMinutes", 1, 1440)).orElse(30);
        Optional<ConsoleSettings.Tls> tls = optional(o, "tls").map(m -> {
            Obj t = object(m.value(), "console.tls");
            checkKeys(t, "console.tls", TLS_KEYS);
            String store = string(required(t, "console.tls", "keyStore"), "console.tls.keyStore");
            Str pw = (Str) expect(required(t, "console.tls", "password"), "console.tls.password", Str.class, "a string");
            return new ConsoleSettings.Tls(store, Secret.fromFile(interpolate(pw, "console.tls.password"), pw.value()));
        });
        Optional<String> webhook = optional(o, "webhook").map(m -> httpUrl(m.value(), "console.webhook"));
        Optional<String> publicUrl = optional(o, "publicUrl").map(m -> httpUrl(m.value(), "console.publicUrl"));
        return new ConsoleSettings(users, proxy, idle, tls, webhook, publicUrl);
    }

    private java.util.Set<ConsoleSettings.Role> roles(Node node, String path) {
        Arr list = (Arr) expect(node, path, Arr.class, "a list of roles: reader, approver, applier");
        java.util.Set<ConsoleSettings.Role> roles = java.util.EnumSet.noneOf(ConsoleSettings.Role.class);
        for (int i = 0; i < list.items().size(); i++) {
            Node item = list.items().get(i);
            String role = string(item, path + "[" + i + "]");
            ConsoleSettings.Role r = java.util.Arrays.stream(ConsoleSettings.Role.values())
                    .filter(x -> x.label().equals(role)).findFirst()
                    .orElseThrow(() -> error(item, path, "unknown role \"" + role + "\"; the roles are reader, approver"
                            + " and applier"));
            roles.add(r);
        }
        if (roles.isEmpty()) {
            throw error(list, path, "no role; give at least reader");
        }
        return roles;
    }

    private String httpUrl(Node node, String path) {
        String url = string(node, path);
        if (!url.startsWith("https://") && !url.startsWith("http://")) {
            throw error(node, path, "expected an http:// or https:// URL");
        }
        return url;
    }

    private Policy policy(Node node) {
        Obj o = object(node, "policy");
        checkKeys(o, "policy", POLICY_KEYS);
        Policy.Builder b = Policy.builder();

        Arr allow = (Arr) expect(required(o, "policy", "allow"), "policy.allow", Arr.class, "a list of table names");
        if (allow.items().isEmpty()) {
            throw error(allow, "policy.allow", "the list is empty, so every statement would be refused; name the"
                    + " tables the model may read, for example [\"orders\"] (llmsafe init lists the tables it finds)");
        }
        Map<QualifiedName, String> written = new LinkedHashMap<>();
        Map<QualifiedName, Map<String, Node>> details = new LinkedHashMap<>();
        for (int i = 0; i < allow.items().size(); i++) {
            Node item = allow.items().get(i);
            String path = "policy.allow[" + i + "]";
            String name = string(item, path);
            QualifiedName q = guarded(item, path, () -> Policy.tableName(name));
            if (written.putIfAbsent(q, name) != null) {
                throw error(item, path, "table " + q + " is listed twice");
            }
            details.put(q, new LinkedHashMap<>());
        }

        attachPerTable(o, "impact", details);
        attachPerTable(o, "limits", details);
        attachPerTable(o, "autoColumns", details);
        Map<QualifiedName, List<Member>> denyWrite = denyWriteByTable(o, details);

        for (Map.Entry<QualifiedName, String> e : written.entrySet()) {
            Map<String, Node> d = details.get(e.getKey());
            String table = e.getValue();
            b.table(table, t -> tableDetails(t, table, d, denyWrite.getOrDefault(e.getKey(), List.of())));
        }

        optional(o, "denyIdentifiers").ifPresent(m -> {
            Obj ids = object(m.value(), "policy.denyIdentifiers");
            rejectDuplicates(ids, "policy.denyIdentifiers");
            for (Member id : ids.members().values()) {
                String path = "policy.denyIdentifiers." + id.key();
                String reason = string(id.value(), path);
                guarded(id.keyAt(), path, () -> Policy.secretName(id.key()));
                guarded(id.value().at(), path, () -> b.secret(id.key(), reason));
            }
        });
        optional(o, "maxUpdateRows").ifPresent(m ->
                b.maxUpdateRows(integer(m.value(), "policy.maxUpdateRows", 1, Policy.MAX_ROW_CEILING)));
        optional(o, "maxDeleteRows").ifPresent(m ->
                b.maxDeleteRows(integer(m.value(), "policy.maxDeleteRows", 1, Policy.MAX_ROW_CEILING)));
        optional(o, "maxStatementLength").ifPresent(m -> b.maxStatementLength(
                integer(m.value(), "policy.maxStatementLength", 1, Policy.MAX_STATEMENT_LENGTH_LIMIT)));
        optional(o, "read").ifPresent(m -> readLimits(b, m.value()));
        return b.build();
    }

    private void tableDetails(Policy.TableBuilder t, String table, Map<String, Node> d, List<Member> denyWrite) {
        Node impact = d.get("impact");
        if (impact != null) {
            String path = "policy.impact." + table;
            String sentence = string(impact, path);
            guarded(impact, path, () -> t.impact(sentence));
        }
        Node limits = d.get("limits");
        if (limits != null) {
            String path = "policy.limits." + table;
            Obj lo = object(limits, path);
            checkKeys(lo, path, LIMIT_KEYS);
            optional(lo, "maxUpdateRows").ifPresent(m ->
                    t.maxUpdateRows(integer(m.value(), path + ".maxUpdateRows", 1, Policy.MAX_ROW_CEILING)));
            optional(lo, "maxDeleteRows").ifPresent(m ->
                    t.maxDeleteRows(integer(m.value(), path + ".maxDeleteRows", 1, Policy.MAX_ROW_CEILING)));
        }
        Node auto = d.get("autoColumns");
        if (auto != null) {
            String path = "policy.autoColumns." + table;
            Arr columns = (Arr) expect(auto, path, Arr.class, "a list of column names");
            // An empty list is a declaration too: this table's triggers change no column (D8).
            t.autoColumns();
            for (int i = 0; i < columns.items().size(); i++) {
                Node c = columns.items().get(i);
                String column = string(c, path + "[" + i + "]");
                guarded(c, path + "[" + i + "]", () -> t.autoColumns(column));
            }
        }
        for (Member m : denyWrite) {
            String path = "policy.denyWrite." + m.key();
            String reason = string(m.value(), path);
            String column = QualifiedName.parse(m.key(), 3).last().toString();
            guarded(m.value().at(), path, () -> t.denyWrite(column, reason));
        }
    }

    /** Entries of {@code policy.<section>}, keyed by table; a table that is not allowed is an error. */
    private void attachPerTable(Obj policy, String section, Map<QualifiedName, Map<String, Node>> details) {
        Optional<Member> m = optional(policy, section);
        if (m.isEmpty()) {
            return;
        }
        String sectionPath = "policy." + section;
        Obj o = object(m.get().value(), sectionPath);
        rejectDuplicates(o, sectionPath);
        for (Member entry : o.members().values()) {
            String path = sectionPath + "." + entry.key();
            QualifiedName q = guarded(entry.keyAt(), path, () -> Policy.tableName(entry.key()));
            Map<String, Node> d = details.get(q);
            if (d == null) {
                throw error(entry.keyAt(), path, notAllowed(section, entry.key()));
            }
            d.put(section, entry.value());
        }
    }

    private Map<QualifiedName, List<Member>> denyWriteByTable(Obj policy, Map<QualifiedName, ?> allowed) {
        Map<QualifiedName, List<Member>> out = new LinkedHashMap<>();
        optional(policy, "denyWrite").ifPresent(m -> {
            Obj o = object(m.value(), "policy.denyWrite");
            rejectDuplicates(o, "policy.denyWrite");
            for (Member entry : o.members().values()) {
                String path = "policy.denyWrite." + entry.key();
                QualifiedName q = guarded(entry.keyAt(), path, () -> {
                    try {
                        QualifiedName n = QualifiedName.parse(entry.key(), 3);
                        if (n.qualifier() == null) {
                            throw new IllegalArgumentException();
                        }
                        return n;
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("\"" + entry.key() + "\" is not a table and column;"
                                + " write it as table.column, for example orders.total_cents");
                    }
                });
                QualifiedName table = q.qualifier();
                if (!allowed.containsKey(table)) {
                    throw error(entry.keyAt(), path, notAllowed("denyWrite", table.toString()));
                }
                out.computeIfAbsent(table, k -> new ArrayList<>()).add(entry);
            }
        });
        return out;
    }

    private static String notAllowed(String section, String table) {
        return section + " for a table that is not in policy.allow; add \"" + table
                + "\" to policy.allow or remove this entry";
    }

    private void readLimits(Policy.Builder b, Node node) {
        Obj o = object(node, "policy.read");
        checkKeys(o, "policy.read", READ_KEYS);
        b.read(r -> {
            optional(o, "maxRows").ifPresent(m -> r.maxRows(integer(m.value(), "policy.read.maxRows", 1, 1_000_000)));
            optional(o, "timeoutMs").ifPresent(m ->
                    r.timeoutMs(integer(m.value(), "policy.read.timeoutMs", 1, ReadLimits.MAX_MS)));
            optional(o, "holdMs").ifPresent(m -> r.holdMs(integer(m.value(), "policy.read.holdMs", 1, ReadLimits.MAX_MS)));
            optional(o, "maxBytes").ifPresent(m -> r.maxBytes(integer(m.value(), "policy.read.maxBytes",
                    ReadLimits.MIN_BYTES, ReadLimits.MAX_BYTES)));
            optional(o, "allowFunctions").ifPresent(m -> {
                String path = "policy.read.allowFunctions";
                Arr names = (Arr) expect(m.value(), path, Arr.class, "a list of function names");
                for (int i = 0; i < names.items().size(); i++) {
                    Node item = names.items().get(i);
                    String name = string(item, path + "[" + i + "]");
                    guarded(item, path + "[" + i + "]", () -> r.allowFunctions(name));
                }
            });
            optional(o, "maxCost").ifPresent(m -> {
                Num n = (Num) expect(m.value(), "policy.read.maxCost", Num.class, "a positive number");
                double cost = n.value().doubleValue();
                if (!(cost > 0) || Double.isInfinite(cost)) {
                    throw error(n, "policy.read.maxCost", "expected a positive number, found " + n.value());
                }
                r.maxCost(cost);
            });
        });
    }

    // ---- generic, located readers ----

    private Obj object(Node node, String path) {
        Obj o = (Obj) expect(node, path, Obj.class, "an object");
        rejectDuplicates(o, path);
        return o;
    }

    private void rejectDuplicates(Obj o, String path) {
        if (!o.duplicates().isEmpty()) {
            Member d = o.duplicates().get(0);
            throw error(d.keyAt(), join(path, d.key()), "duplicate key; each key may appear once");
        }
    }

    private void checkKeys(Obj o, String path, List<String> known) {
        for (Member m : o.members().values()) {
            if (!known.contains(m.key())) {
                throw error(m.keyAt(), join(path, m.key()), unknownKey(m.key(), known));
            }
        }
    }

    static String unknownKey(String key, List<String> known) {
        for (String k : known) {
            if (k.equalsIgnoreCase(key)) {
                return "unknown key (keys are case-sensitive); did you mean \"" + k + "\"?";
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(key.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        if (best != null && bestDistance <= Math.max(2, best.length() / 3)) {
            return "unknown key; did you mean \"" + best + "\"?";
        }
        return "unknown key; the keys allowed here are " + String.join(", ", known);
    }

    /** Levenshtein distance, for suggestions. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private Node required(Obj o, String path, String key) {
        Member m = o.members().get(key);
        if (m == null) {
            throw error(o, join(path, key), "required key is missing");
        }
        return m.value();
    }

    private static Optional<Member> optional(Obj o, String key) {
        return Optional.ofNullable(o.members().get(key));
    }

    private Node expect(Node node, String path, Class<? extends Node> type, String expected) {
        if (!type.isInstance(node)) {
            throw error(node, path, "expected " + expected + ", found " + node.kind());
        }
        return node;
    }

    private String string(Node node, String path) {
        return interpolate((Str) expect(node, path, Str.class, "a string"), path);
    }

    private boolean bool(Node node, String path) {
        return ((Bool) expect(node, path, Bool.class, "true or false")).value();
    }

    private int integer(Node node, String path, int min, int max) {
        String expected = "a whole number from " + min + " to " + max;
        Node n = expect(node, path, Num.class, expected);
        Num num = (Num) n;
        BigDecimal v = new BigDecimal(num.value().toString());
        if (!num.integral() || v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw error(n, path, "expected " + expected + ", found " + num.value());
        }
        return v.intValue();
    }

    private String interpolate(Str s, String path) {
        return guarded(s, path, () -> Interpolation.expand(s.value(), environment));
    }

    private interface Step<T> {
        T run();
    }

    private <T> T guarded(Node node, String path, Step<T> step) {
        return guarded(node.at(), path, step);
    }

    private <T> T guarded(JsonTree.Position at, String path, Step<T> step) {
        try {
            return step.run();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source, at.line(), at.column(), path, e.getMessage());
        }
    }

    private ConfigException error(Node node, String path, String problem) {
        return error(node.at(), path, problem);
    }

    private ConfigException error(JsonTree.Position at, String path, String problem) {
        return new ConfigException(source, at.line(), at.column(), path, problem);
    }

    private static String join(String path, String key) {
        return path == null ? key : path + "." + key;
    }
}
