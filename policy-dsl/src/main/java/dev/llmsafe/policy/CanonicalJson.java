package dev.llmsafe.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The canonical JSON of a policy and a configuration: fixed key order, tables and identifiers in name
 * order, every limit written out. Reading it back gives an equal object.
 */
final class CanonicalJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private CanonicalJson() {
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String render(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            DefaultPrettyPrinter pp = new DefaultPrettyPrinter()
                    .withObjectIndenter(new DefaultIndenter("  ", "\n"));
            g.setPrettyPrinter(pp);
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString() + "\n";
    }

    static String policy(Policy p) {
        return render(g -> writePolicy(g, p));
    }

    static String config(LlmSafeConfig c) {
        return render(g -> {
            g.writeStartObject();
            writeConnection(g, "connection", c.planningConnection());
            writeConnection(g, "readConnection", c.readConnection());
            writeConnection(g, "applyConnection", c.applyConnection());
            writeConnection(g, "storeConnection", c.storeConnection());
            if (c.schema().isPresent()) {
                g.writeStringField("schema", c.schema().get().toString());
            }
            if (c.sealKey().isPresent()) {
                g.writeStringField("sealKey", c.sealKey().get().source());
            }
            g.writeBooleanField("allowSelfApprove", c.allowSelfApprove());
            g.writeNumberField("planExpiryHours", c.planExpiryHours());
            g.writeNumberField("lockTimeoutMs", c.lockTimeoutMs());
            g.writeNumberField("statementTimeoutMs", c.statementTimeoutMs());
            if (c.policyIfAny().isPresent()) {
                g.writeFieldName("policy");
                writePolicy(g, c.policyIfAny().get());
            }
            if (c.console().isPresent()) {
                writeConsole(g, c.console().get());
            }
            g.writeEndObject();
        });
    }

    private static void writeConsole(JsonGenerator g, ConsoleSettings c) throws IOException {
        g.writeObjectFieldStart("console");
        g.writeArrayFieldStart("users");
        for (ConsoleSettings.User u : c.users()) {
            g.writeStartObject();
            g.writeStringField("name", u.name());
            writeRoles(g, u.roles());
            g.writeStringField("passwordHash", u.passwordHash().source());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (c.trustedProxy().isPresent()) {
            ConsoleSettings.TrustedProxy p = c.trustedProxy().get();
            g.writeObjectFieldStart("trustedProxy");
            g.writeStringField("header", p.header());
            g.writeArrayFieldStart("addresses");
            for (String a : p.addresses()) {
                g.writeString(a);
            }
            g.writeEndArray();
            writeRoles(g, p.roles());
            g.writeEndObject();
        }
        g.writeNumberField("idleMinutes", c.idleMinutes());
        if (c.tls().isPresent()) {
            g.writeObjectFieldStart("tls");
            g.writeStringField("keyStore", c.tls().get().keyStore());
            g.writeStringField("password", c.tls().get().password().source());
            g.writeEndObject();
        }
        if (c.webhook().isPresent()) {
            g.writeStringField("webhook", c.webhook().get());
        }
        if (c.publicUrl().isPresent()) {
            g.writeStringField("publicUrl", c.publicUrl().get());
        }
        g.writeEndObject();
    }

    private static void writeRoles(JsonGenerator g, java.util.Set<ConsoleSettings.Role> roles) throws IOException {
        g.writeArrayFieldStart("roles");
        for (ConsoleSettings.Role r : new java.util.TreeSet<>(roles)) {
            g.writeString(r.label());
        }
        g.writeEndArray();
    }

    private static void writeConnection(JsonGenerator g, String name, Optional<ConnectionSettings> c)
            throws IOException {
        if (c.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart(name);
        g.writeStringField("url", c.get().url());
        if (c.get().user().isPresent()) {
            g.writeStringField("user", c.get().user().get());
        }
        if (c.get().password().isPresent()) {
            g.writeStringField("password", c.get().password().get().source());
        }
        g.writeEndObject();
    }

    private static void writePolicy(JsonGenerator g, Policy p) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("allow");
        for (QualifiedName t : p.tables().keySet()) {
            g.writeString(t.toString());
        }
        g.writeEndArray();

        if (p.tables().values().stream().anyMatch(t -> t.impact().isPresent())) {
            g.writeObjectFieldStart("impact");
            for (TablePolicy t : p.tables().values()) {
                if (t.impact().isPresent()) {
                    g.writeStringField(t.name().toString(), t.impact().get());
                }
            }
            g.writeEndObject();
        }
        if (!p.secrets().isEmpty()) {
            g.writeObjectFieldStart("denyIdentifiers");
            for (Map.Entry<QualifiedName, String> e : p.secrets().entrySet()) {
                g.writeStringField(e.getKey().toString(), e.getValue());
            }
            g.writeEndObject();
        }
        if (p.tables().values().stream().anyMatch(t -> !t.denyWrite().isEmpty())) {
            g.writeObjectFieldStart("denyWrite");
            for (TablePolicy t : p.tables().values()) {
                for (Identifier column : t.denyWrite().keySet().stream()
                        .sorted(java.util.Comparator.comparing(Identifier::toString)).toList()) {
                    g.writeStringField(t.name() + "." + column, t.denyWrite().get(column));
                }
            }
            g.writeEndObject();
        }
        if (p.tables().values().stream().anyMatch(TablePolicy::autoColumnsDeclared)) {
            g.writeObjectFieldStart("autoColumns");
            for (TablePolicy t : p.tables().values()) {
                if (t.autoColumnsDeclared()) {
                    g.writeArrayFieldStart(t.name().toString());
                    for (Identifier c : t.autoColumns().stream()
                            .sorted(java.util.Comparator.comparing(Identifier::toString)).toList()) {
                        g.writeString(c.toString());
                    }
                    g.writeEndArray();
                }
            }
            g.writeEndObject();
        }
        g.writeNumberField("maxUpdateRows", p.maxUpdateRows());
        g.writeNumberField("maxDeleteRows", p.maxDeleteRows());
        if (p.tables().values().stream().anyMatch(t -> t.maxUpdateRows().isPresent() || t.maxDeleteRows().isPresent())) {
            g.writeObjectFieldStart("limits");
            for (TablePolicy t : p.tables().values()) {
                if (t.maxUpdateRows().isPresent() || t.maxDeleteRows().isPresent()) {
                    g.writeObjectFieldStart(t.name().toString());
                    if (t.maxUpdateRows().isPresent()) {
                        g.writeNumberField("maxUpdateRows", t.maxUpdateRows().getAsInt());
                    }
                    if (t.maxDeleteRows().isPresent()) {
                        g.writeNumberField("maxDeleteRows", t.maxDeleteRows().getAsInt());
                    }
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
        }
        g.writeNumberField("maxStatementLength", p.maxStatementLength());
        g.writeObjectFieldStart("read");
        g.writeNumberField("maxRows", p.read().maxRows());
        if (p.read().maxCost().isPresent()) {
            double cost = p.read().maxCost().getAsDouble();
            if (cost == Math.rint(cost) && Math.abs(cost) < 1e15) {
                g.writeNumberField("maxCost", (long) cost);
            } else {
                g.writeNumberField("maxCost", cost);
            }
        }
        g.writeNumberField("timeoutMs", p.read().timeoutMs());
        g.writeNumberField("holdMs", p.read().holdMs());
        g.writeNumberField("maxBytes", p.read().maxBytes());
        if (!p.read().allowFunctions().isEmpty()) {
            // Only when set, so that the canonical form of every earlier policy stays what it was.
            g.writeArrayFieldStart("allowFunctions");
            for (String f : new java.util.TreeSet<>(p.read().allowFunctions())) { // canonical: sorted
                g.writeString(f);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
