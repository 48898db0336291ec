package dev.llmsafe.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What a language model may touch through an llmsafe connection. Immutable and thread-safe.
 *
 * <p>Default deny: a table that is not listed cannot be read or written. A listed table can be
 * read; it can be written only when it also has an impact sentence, which every card shows.
 * Write it in code with {@link #define}:
 *
 * <pre>{@code
 * Policy policy = Policy.define(p -> p
 *     .table("orders", t -> t
 *         .impact("Changing an order moves money: the ship date decides the supplier's payment month.")
 *         .denyWrite("total_cents", "recomputed by billing; change the order lines instead"))
 *     .table("members")
 *     .secret("password_hash", "a stored credential")
 *     .maxDeleteRows(50)
 *     .read(r -> r.maxRows(500).timeoutMs(3000)));
 * }</pre>
 *
 * or load it from {@code llmsafe.json} with {@link LlmSafeConfig#load}.
 */
public final class Policy {

    /** UPDATE ceiling when the policy names none. */
    public static final int DEFAULT_MAX_UPDATE_ROWS = 200;
    /** DELETE ceiling when the policy names none. */
    public static final int DEFAULT_MAX_DELETE_ROWS = 50;
    /** Longest statement accepted, in characters, when the policy names none (S1). */
    public static final int DEFAULT_MAX_STATEMENT_LENGTH = 20_000;

    static final int MAX_ROW_CEILING = 10_000;
    static final int MAX_STATEMENT_LENGTH_LIMIT = 1_000_000;
    static final int MAX_REASON_LENGTH = 1_000;

    private final Map<QualifiedName, TablePolicy> tables;
    private final Map<QualifiedName, String> secrets;
    private final int maxUpdateRows;
    private final int maxDeleteRows;
    private final int maxStatementLength;
    private final ReadLimits read;

    private Policy(Builder b) {
        this.tables = Collections.unmodifiableMap(new LinkedHashMap<>(sortedByName(b.tables)));
        this.secrets = Collections.unmodifiableMap(new LinkedHashMap<>(sortedByName(b.secrets)));
        this.maxUpdateRows = b.maxUpdateRows;
        this.maxDeleteRows = b.maxDeleteRows;
        this.maxStatementLength = b.maxStatementLength;
        this.read = b.read;
    }

    /** Builds a policy with the typed DSL; see the class comment for an example. */
    public static Policy define(Consumer<Builder> spec) {
        Builder b = new Builder();
        spec.accept(b);
        return b.build();
    }

    /** A builder to fill step by step. */
    public static Builder builder() {
        return new Builder();
    }

    /** The allowlisted tables, by name as written, in name order. */
    public Map<QualifiedName, TablePolicy> tables() {
        return tables;
    }

    /** The policy of one table, looked up by the name as written in the policy. */
    public Optional<TablePolicy> table(QualifiedName name) {
        return Optional.ofNullable(tables.get(name));
    }

    /** Identifiers denied for reads and writes wherever they appear, each with its reason. */
    public Map<QualifiedName, String> secrets() {
        return secrets;
    }

    /** The policy-wide UPDATE ceiling. */
    public int maxUpdateRows() {
        return maxUpdateRows;
    }

    /** The policy-wide DELETE ceiling. */
    public int maxDeleteRows() {
        return maxDeleteRows;
    }

    /** The UPDATE ceiling that applies to one table: its own if set, else the policy's (D3). */
    public int maxUpdateRows(TablePolicy table) {
        return table.maxUpdateRows().orElse(maxUpdateRows);
    }

    /** The DELETE ceiling that applies to one table: its own if set, else the policy's (D3). */
    public int maxDeleteRows(TablePolicy table) {
        return table.maxDeleteRows().orElse(maxDeleteRows);
    }

    /** The longest statement accepted, in characters (S1). */
    public int maxStatementLength() {
        return maxStatementLength;
    }

    /** Bounds on reads. */
    public ReadLimits read() {
        return read;
    }

    /** The canonical JSON form, the {@code policy} object of {@code llmsafe.json}. */
    public String toJson() {
        return CanonicalJson.policy(this);
    }

    /** A short description for people, used by {@code llmsafe check}. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append("Tables the model may read (").append(tables.size()).append("): ")
                .append(String.join(", ", tables.keySet().stream().map(QualifiedName::toString).toList()))
                .append('\n');
        var writable = tables.values().stream().filter(t -> t.impact().isPresent()).toList();
        sb.append("Tables it may propose changes to (").append(writable.size()).append(")")
                .append(writable.isEmpty() ? ": none; add an impact sentence to allow writes" : ":").append('\n');
        for (TablePolicy t : writable) {
            sb.append("  ").append(t.name()).append(": up to ").append(maxUpdateRows(t))
                    .append(" rows per UPDATE, ").append(maxDeleteRows(t)).append(" per DELETE");
            if (!t.denyWrite().isEmpty()) {
                sb.append("; never sets ").append(String.join(", ",
                        t.denyWrite().keySet().stream().map(Identifier::toString).sorted().toList()));
            }
            sb.append('\n');
        }
        sb.append("Secret identifiers, never read or written: ")
                .append(secrets.isEmpty() ? "none" : String.join(", ",
                        secrets.keySet().stream().map(QualifiedName::toString).toList()))
                .append('\n');
        sb.append("Reads: at most ").append(read.maxRows()).append(" rows and ").append(read.maxBytes())
                .append(" bytes, ").append(read.timeoutMs()).append(" ms, held at most ").append(read.holdMs())
                .append(" ms, ").append(read.maxCost().isPresent()
                        ? "estimated cost at most " + formatNumber(read.maxCost().getAsDouble())
                        : "no cost gate").append('\n');
        return sb.toString();
    }

    static String formatNumber(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Policy p
                && tables.equals(p.tables) && secrets.equals(p.secrets)
                && maxUpdateRows == p.maxUpdateRows && maxDeleteRows == p.maxDeleteRows
                && maxStatementLength == p.maxStatementLength && read.equals(p.read);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tables, secrets, maxUpdateRows, maxDeleteRows, maxStatementLength, read);
    }

    @Override
    public String toString() {
        return "Policy" + toJson();
    }

    private static <V> Map<QualifiedName, V> sortedByName(Map<QualifiedName, V> map) {
        Map<String, QualifiedName> keys = new TreeMap<>();
        map.keySet().forEach(k -> keys.put(k.toString(), k));
        Map<QualifiedName, V> out = new LinkedHashMap<>();
        keys.values().forEach(k -> out.put(k, map.get(k)));
        return out;
    }

    static void checkRange(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    what + " must be a whole number from " + min + " to " + max + ", was " + value);
        }
    }

    static String checkReason(String what, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException(what + " is empty; say in words why, it is shown to the person who asked");
        }
        if (reason.length() > MAX_REASON_LENGTH) {
            throw new IllegalArgumentException(what + " is longer than " + MAX_REASON_LENGTH + " characters");
        }
        return reason.strip();
    }

    static QualifiedName tableName(String name) {
        try {
            return QualifiedName.parse(name, 2);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + name + "\" is not a valid table name; write a name such as"
                    + " orders or public.orders, in double quotes if it has other characters: \"Order Lines\"");
        }
    }

    static Identifier columnName(String name) {
        try {
            QualifiedName q = QualifiedName.parse(name, 1);
            return q.last();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + name + "\" is not a valid column name; write a name such as"
                    + " updated_at, in double quotes if it has other characters: \"Updated At\"");
        }
    }

    static QualifiedName secretName(String name) {
        try {
            return QualifiedName.parse(name, 3);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + name + "\" is not a valid identifier; write a column name"
                    + " such as password_hash, or qualify it with its table: users.password_hash");
        }
    }

    /** Builds a {@link Policy}. Each method checks its argument and throws {@link IllegalArgumentException}. */
    public static final class Builder {
        private final Map<QualifiedName, TablePolicy> tables = new LinkedHashMap<>();
        private final Map<QualifiedName, String> secrets = new LinkedHashMap<>();
        private int maxUpdateRows = DEFAULT_MAX_UPDATE_ROWS;
        private int maxDeleteRows = DEFAULT_MAX_DELETE_ROWS;
        private int maxStatementLength = DEFAULT_MAX_STATEMENT_LENGTH;
        private ReadLimits read = ReadLimits.DEFAULT;

        private Builder() {
        }

        /** Allows reading a table. Without an impact sentence it cannot be written. */
        public Builder table(String name) {
            return table(name, t -> { });
        }

        /** Allows a table and describes it. */
        public Builder table(String name, Consumer<TableBuilder> spec) {
            QualifiedName q = tableName(name);
            if (tables.containsKey(q)) {
                throw new IllegalArgumentException("table " + q + " is listed twice");
            }
            TableBuilder tb = new TableBuilder(q);
            spec.accept(tb);
            tables.put(q, tb.build());
            return this;
        }

        /** Denies an identifier (a column name, optionally qualified by its table) in reads and writes. */
        public Builder secret(String identifier, String reason) {
            QualifiedName q = secretName(identifier);
            if (secrets.containsKey(q)) {
                throw new IllegalArgumentException("secret " + q + " is listed twice");
            }
            secrets.put(q, checkReason("the reason for secret " + q, reason));
            return this;
        }

        /** The UPDATE ceiling for every table without its own (1 to 10000; default 200). */
        public Builder maxUpdateRows(int rows) {
            checkRange("maxUpdateRows", rows, 1, MAX_ROW_CEILING);
            this.maxUpdateRows = rows;
            return this;
        }

        /** The DELETE ceiling for every table without its own (1 to 10000; default 50). */
        public Builder maxDeleteRows(int rows) {
            checkRange("maxDeleteRows", rows, 1, MAX_ROW_CEILING);
            this.maxDeleteRows = rows;
            return this;
        }

        /** The longest statement accepted, in characters (default 20000). */
        public Builder maxStatementLength(int chars) {
            checkRange("maxStatementLength", chars, 1, MAX_STATEMENT_LENGTH_LIMIT);
            this.maxStatementLength = chars;
            return this;
        }

        /** Bounds on reads. */
        public Builder read(Consumer<ReadBuilder> spec) {
            ReadBuilder rb = new ReadBuilder(read);
            spec.accept(rb);
            this.read = new ReadLimits(rb.maxRows, rb.maxCost, rb.timeoutMs,
                    rb.holdMs != null ? rb.holdMs : ReadLimits.defaultHoldMs(rb.timeoutMs), rb.maxBytes,
                    rb.allowFunctions);
            return this;
        }

        /** The policy. */
        public Policy build() {
            return new Policy(this);
        }
    }

    /** Describes one table inside {@link Builder#table(String, Consumer)}. */
    public static final class TableBuilder {
        private final QualifiedName name;
        private String impact;
        private OptionalInt maxUpdateRows = OptionalInt.empty();
        private OptionalInt maxDeleteRows = OptionalInt.empty();
        private final Set<Identifier> autoColumns = new LinkedHashSet<>();
        private boolean autoColumnsDeclared;
        private final Map<Identifier, String> denyWrite = new LinkedHashMap<>();

        private TableBuilder(QualifiedName name) {
            this.name = name;
        }

        /** The business consequence of changing this table, in a sentence a non-engineer can judge. */
        public TableBuilder impact(String sentence) {
            this.impact = checkReason("the impact sentence for " + name, sentence);
            return this;
        }

        /** This table's UPDATE ceiling (1 to 10000). */
        public TableBuilder maxUpdateRows(int rows) {
            checkRange("maxUpdateRows", rows, 1, MAX_ROW_CEILING);
            this.maxUpdateRows = OptionalInt.of(rows);
            return this;
        }

        /** This table's DELETE ceiling (1 to 10000). */
        public TableBuilder maxDeleteRows(int rows) {
            checkRange("maxDeleteRows", rows, 1, MAX_ROW_CEILING);
            this.maxDeleteRows = OptionalInt.of(rows);
            return this;
        }

        /**
         * Columns the database changes by itself (a trigger, ON UPDATE) that its catalog may not report.
         * Called with none, it declares that this table's triggers change no column (D8): its UPDATEs are
         * then planned, and a column a trigger does change anyway is shown and checked like any other.
         */
        public TableBuilder autoColumns(String... columns) {
            autoColumnsDeclared = true;
            for (String c : columns) {
                Identifier id = columnName(c);
                if (!autoColumns.add(id)) {
                    throw new IllegalArgumentException("auto column " + id + " of " + name + " is listed twice");
                }
            }
            return this;
        }

        /** A column a write may not set, with the reason the refusal gives. */
        public TableBuilder denyWrite(String column, String reason) {
            Identifier id = columnName(column);
            if (denyWrite.containsKey(id)) {
                throw new IllegalArgumentException("write-denied column " + id + " of " + name + " is listed twice");
            }
            denyWrite.put(id, checkReason("the reason for denying writes to " + name + "." + id, reason));
            return this;
        }

        private TablePolicy build() {
            return new TablePolicy(name, Optional.ofNullable(impact), maxUpdateRows, maxDeleteRows,
                    autoColumns, denyWrite, autoColumnsDeclared);
        }
    }

    /** Sets bounds on reads inside {@link Builder#read(Consumer)}. */
    public static final class ReadBuilder {
        private int maxRows;
        private OptionalDouble maxCost;
        private int timeoutMs;
        private Integer holdMs;
        private int maxBytes;
        private java.util.Set<String> allowFunctions;

        private ReadBuilder(ReadLimits from) {
            this.maxRows = from.maxRows();
            this.maxCost = from.maxCost();
            this.timeoutMs = from.timeoutMs();
            // A holdMs that only followed the old timeoutMs follows the new one too.
            this.holdMs = from.holdMs() == ReadLimits.defaultHoldMs(from.timeoutMs()) ? null : from.holdMs();
            this.maxBytes = from.maxBytes();
            this.allowFunctions = new java.util.TreeSet<>(from.allowFunctions());
        }

        /** Rows returned at most (default 1000). */
        public ReadBuilder maxRows(int rows) {
            checkRange("maxRows", rows, 1, 1_000_000);
            this.maxRows = rows;
            return this;
        }

        /** The highest estimated cost (EXPLAIN) a read may have; unset means no cost gate. */
        public ReadBuilder maxCost(double cost) {
            if (!(cost > 0) || !Double.isFinite(cost)) {
                throw new IllegalArgumentException("maxCost must be a positive number, was " + cost);
            }
            this.maxCost = OptionalDouble.of(cost);
            return this;
        }

        /** The statement timeout of a read, in milliseconds (default 5000). */
        public ReadBuilder timeoutMs(int millis) {
            checkRange("timeoutMs", millis, 1, ReadLimits.MAX_MS);
            this.timeoutMs = millis;
            return this;
        }

        /**
         * How long the model's connection may hold a transaction or an open result set, in
         * milliseconds (R11; default timeoutMs + 5000).
         */
        public ReadBuilder holdMs(int millis) {
            checkRange("holdMs", millis, 1, ReadLimits.MAX_MS);
            this.holdMs = millis;
            return this;
        }

        /**
         * R7: functions a read may call beyond the dialect's built-in allowlist, by name (an unquoted
         * name or schema.name, any case): routines of the application's that compute from their
         * arguments alone. A name of a type allows casts to it. Adds to those already allowed.
         */
        public ReadBuilder allowFunctions(String... names) {
            allowFunctions.addAll(ReadLimits.functionNames(java.util.List.of(names)));
            return this;
        }

        /** The bytes of values a read may return, 1 KiB to 1 GiB (R12; default 16 MiB). */
        public ReadBuilder maxBytes(int bytes) {
            checkRange("maxBytes", bytes, ReadLimits.MIN_BYTES, ReadLimits.MAX_BYTES);
            this.maxBytes = bytes;
            return this;
        }
    }
}
