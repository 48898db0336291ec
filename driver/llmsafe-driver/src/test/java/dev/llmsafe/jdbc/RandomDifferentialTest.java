package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D16, D17 at random: seeded UPDATE and DELETE statements over a table of the dialect's types (64-bit
 * extremes, decimals, timestamps with fractions and zones, JSON, UUID, binary, unicode, NULL beside ''),
 * with literals and with parameters bound by every kind of setter, each run by {@link Differential}: planned
 * through {@code jdbc:llmsafe:}, and raw on a copy and committed. The card must list exactly what the raw
 * run changed, the applied plan must leave the table as the raw run left its copy, and a statement the raw
 * run rejects or that changes nothing never becomes a plan.
 *
 * <p>Reproducible: {@code -Dllmsafe.differential.seed=N} chooses the statements (every failure names its
 * seed and statement), {@code -Dllmsafe.differential.statements=N} how many per dialect and zone.
 */
class RandomDifferentialTest {

    private static final long SEED = Long.getLong("llmsafe.differential.seed", 20261202L);
    private static final int STATEMENTS = Integer.getInteger("llmsafe.differential.statements", 120);

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Differential> FIXTURES = new EnumMap<>(Engine.class);

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void close() {
        FIXTURES.values().forEach(Differential::close);
        Guarded.restoreSink();
    }

    private static Differential fixture(Engine engine) throws SQLException {
        Differential d = FIXTURES.get(engine);
        if (d == null) {
            ScratchDatabase db = dbs.get(engine);
            d = ParameterReplayTest.table(db, "r", "");
            FIXTURES.put(engine, d);
        }
        return d;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_randomStatementsDoWhatTheyDoRaw(Engine engine) throws SQLException {
        runAll(fixture(engine), SEED, STATEMENTS);
    }

    /** The same under JVM zones with odd offsets: pgjdbc sets the session's TimeZone to the JVM's. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_D17_randomStatementsDoWhatTheyDoRawInOtherZones(Engine engine) throws SQLException {
        TimeZone before = TimeZone.getDefault();
        Differential d = fixture(engine);
        try {
            for (String zone : List.of("Pacific/Chatham", "America/St_Johns")) {
                TimeZone.setDefault(TimeZone.getTimeZone(zone));
                d.reconnect();
                runAll(d, SEED + zone.hashCode(), Math.max(1, STATEMENTS / 3));
            }
        } finally {
            TimeZone.setDefault(before);
            d.reconnect();
        }
    }

    private static void runAll(Differential d, long seed, int count) throws SQLException {
        Generator g = new Generator(d.db.engine(), new Random(seed));
        int plans = 0;
        int rejected = 0;
        for (int i = 0; i < count; i++) {
            Statement s = g.statement();
            String what = "seed " + seed + ", statement " + i + " in " + TimeZone.getDefault().getID() + ": " + s;
            Differential.Outcome o;
            try {
                o = d.run(s.sql(), s::bind);
            } catch (AssertionError | SQLException e) {
                throw new AssertionError(what + "\n" + e.getMessage(), e);
            }
            plans += o.plan().isPresent() ? 1 : 0;
            rejected += o.rawError() != null ? 1 : 0;
        }
        // The generator must exercise plans, not only refusals: most of its statements change a row.
        assertThat(plans).as("plans among %d statements (seed %d, %d rejected raw)", count, seed, rejected)
                .isGreaterThan(count / 3);
    }

    /** One generated statement: its text with {@code {t}} for the table, and its parameters in order. */
    record Statement(String sql, List<Param> params) {
        void bind(PreparedStatement ps) throws SQLException {
            for (int i = 0; i < params.size(); i++) {
                params.get(i).bind().bind(ps, i + 1);
            }
        }

        @Override
        public String toString() {
            return sql + " " + params;
        }
    }

    /** A parameter: how it is bound, at the index it is given, and how a failure message names it. */
    record Param(String shown, Setting bind) {
        @Override
        public String toString() {
            return shown;
        }
    }

    @FunctionalInterface
    interface Setting {
        void bind(PreparedStatement ps, int index) throws SQLException;
    }

    /** A piece of SQL and the parameters it holds. */
    record Term(String sql, List<Param> params) {
        static Term literal(String sql) {
            return new Term(sql, List.of());
        }

        static Term param(String shown, Setting bind) {
            return new Term("?", List.of(new Param(shown, bind)));
        }

        /** This term inside a template, {@code %s} for it. */
        Term in(String template) {
            return new Term(template.formatted(sql), params);
        }
    }

    /** Random statements over the table {@link ParameterReplayTest#table} makes. */
    static final class Generator {
        private final Engine engine;
        private final Random random;
        private final List<String> columns;

        Generator(Engine engine, Random random) {
            this.engine = engine;
            this.random = random;
            List<String> c = new ArrayList<>(List.of("i4", "i8", "f8", "num", "txt", "ts", "tstz", "d", "b", "bin"));
            if (engine == Engine.POSTGRES) {
                c.addAll(List.of("j", "u", "iv", "ip", "m"));
            }
            this.columns = List.copyOf(c);
        }

        Statement statement() {
            List<Term> parts = new ArrayList<>();
            String sql;
            if (random.nextInt(4) == 0) {
                Term where = where();
                parts.add(where);
                sql = "DELETE FROM {t} WHERE " + where.sql();
            } else {
                Set<String> assigned = new LinkedHashSet<>();
                int n = 1 + random.nextInt(3);
                while (assigned.size() < n) {
                    assigned.add(pick(columns));
                }
                List<String> sets = new ArrayList<>();
                for (String column : assigned) {
                    Term value = value(column);
                    parts.add(value);
                    sets.add(column + " = " + value.sql());
                }
                Term where = where();
                parts.add(where);
                sql = "UPDATE {t} SET " + String.join(", ", sets) + " WHERE " + where.sql();
            }
            List<Param> params = new ArrayList<>();
            parts.forEach(p -> params.addAll(p.params()));
            return new Statement(sql, List.copyOf(params));
        }

        private Term where() {
            Term first = predicate();
            return switch (random.nextInt(4)) {
                case 0 -> {
                    Term second = predicate();
                    List<Param> both = new ArrayList<>(first.params());
                    both.addAll(second.params());
                    yield new Term("(" + first.sql() + (random.nextBoolean() ? " AND " : " OR ") + second.sql() + ")",
                            both);
                }
                default -> first;
            };
        }

        private Term predicate() {
            int k = 1 + random.nextInt(6);
            return switch (random.nextInt(10)) {
                case 0 -> Term.literal("id = " + k);
                case 1 -> Term.literal("id IN (" + k + ", " + (1 + random.nextInt(6)) + ")");
                case 2 -> Term.param("setInt(" + k + ")", (ps, i) -> ps.setInt(i, k)).in("id = %s");
                case 3 -> Term.param("setLong(" + k + ")", (ps, i) -> ps.setLong(i, k)).in("id <> %s");
                case 4 -> Term.literal("txt IS NULL");
                case 5 -> Term.literal(random.nextBoolean() ? "txt = ''" : "txt LIKE 'a%'");
                case 6 -> Term.param("setInt(2)", (ps, i) -> ps.setInt(i, 2)).in("i4 > %s");
                case 7 -> Term.literal(random.nextBoolean() ? "b = TRUE" : "NOT b");
                case 8 -> Term.param("setBigDecimal(2)", (ps, i) -> ps.setBigDecimal(i, new BigDecimal("2")))
                        .in("num < %s");
                default -> Term.literal("i8 BETWEEN -5 AND 3");
            };
        }

        private Term value(String column) {
            return switch (column) {
                case "i4" -> pick(List.of(
                        Term.literal(String.valueOf(pick(List.of(0, -1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE)))),
                        Term.literal("i4 + 1"), Term.literal("i4 * 2"), Term.literal("NULL"),
                        Term.param("setInt(MAX)", (ps, i) -> ps.setInt(i, Integer.MAX_VALUE)),
                        Term.param("setLong(41)", (ps, i) -> ps.setLong(i, 41L)),
                        Term.param("setShort(-3)", (ps, i) -> ps.setShort(i, (short) -3)),
                        Term.param("setByte(5)", (ps, i) -> ps.setByte(i, (byte) 5)),
                        Term.param("setObject(Integer 6)", (ps, i) -> ps.setObject(i, 6)),
                        Term.param("setObject('12', INTEGER)", (ps, i) -> ps.setObject(i, "12", Types.INTEGER)),
                        Term.param("setNull(INTEGER)", (ps, i) -> ps.setNull(i, Types.INTEGER)),
                        Term.param("setInt(1)", (ps, i) -> ps.setInt(i, 1)).in("i4 + %s")));
                case "i8" -> pick(List.of(
                        Term.literal(String.valueOf(pick(List.of(Long.MAX_VALUE, Long.MIN_VALUE + 1, 0L)))),
                        Term.literal("i8 - 1"),
                        Term.param("setLong(MIN)", (ps, i) -> ps.setLong(i, Long.MIN_VALUE)),
                        Term.param("setLong(MAX)", (ps, i) -> ps.setLong(i, Long.MAX_VALUE)),
                        Term.param("setObject(Long 9)", (ps, i) -> ps.setObject(i, 9L)),
                        Term.param("setBigDecimal(2^62)", (ps, i) -> ps.setBigDecimal(i, new BigDecimal("4611686018427387904"))),
                        Term.param("setNull(BIGINT)", (ps, i) -> ps.setNull(i, Types.BIGINT))));
                case "f8" -> pick(List.of(
                        Term.literal("0.1"), Term.literal("-1.5E300"), Term.literal("f8 / 3"),
                        Term.param("setDouble(0.1)", (ps, i) -> ps.setDouble(i, 0.1)),
                        Term.param("setDouble(MAX)", (ps, i) -> ps.setDouble(i, Double.MAX_VALUE)),
                        Term.param("setFloat(0.1f)", (ps, i) -> ps.setFloat(i, 0.1f)),
                        Term.param("setObject(Double 2.5)", (ps, i) -> ps.setObject(i, 2.5d)),
                        Term.param("setNull(DOUBLE)", (ps, i) -> ps.setNull(i, Types.DOUBLE))));
                case "num" -> pick(List.of(
                        Term.literal("12345678901234567890.0123456789"), Term.literal("num * 2"),
                        Term.literal("round(num, 1)"),
                        Term.param("setBigDecimal(-1E-10)", (ps, i) -> ps.setBigDecimal(i, new BigDecimal("-0.0000000001"))),
                        Term.param("setBigDecimal(1E+3)", (ps, i) -> ps.setBigDecimal(i, new BigDecimal("1E+3"))),
                        Term.param("setObject(3.14159, DECIMAL, 2)",
                                (ps, i) -> ps.setObject(i, new BigDecimal("3.14159"), Types.DECIMAL, 2)),
                        Term.param("setFloat(0.1f)", (ps, i) -> ps.setFloat(i, 0.1f)),
                        Term.param("setInt(-7)", (ps, i) -> ps.setInt(i, -7))));
                case "txt" -> pick(List.of(
                        Term.literal("''"), Term.literal("'it''s'"), Term.literal("upper(txt)"), Term.literal("NULL"),
                        Term.literal(engine == Engine.MYSQL ? "CONCAT(txt, 'x')" : "txt || 'x'"),
                        Term.param("setString('')", (ps, i) -> ps.setString(i, "")),
                        Term.param("setString(unicode)", (ps, i) -> ps.setString(i, "\u00e9\u65e5\u200b\\ \"")),
                        Term.param("setString('NULL')", (ps, i) -> ps.setString(i, "NULL")),
                        Term.param("setString(200 chars)", (ps, i) -> ps.setString(i, "y".repeat(200))),
                        Term.param("setObject(String)", (ps, i) -> ps.setObject(i, "obj")),
                        Term.param("setNull(VARCHAR)", (ps, i) -> ps.setNull(i, Types.VARCHAR))));
                case "ts" -> pick(List.of(
                        Term.literal("'2024-01-01 00:00:00.5'"),
                        Term.param("setTimestamp(micros)",
                                (ps, i) -> ps.setTimestamp(i, Timestamp.valueOf("2025-01-02 03:04:05.654321"))),
                        Term.param("setObject(LocalDateTime)",
                                (ps, i) -> ps.setObject(i, LocalDateTime.parse("2024-10-27T02:30:00.000001"))),
                        Term.param("setNull(TIMESTAMP)", (ps, i) -> ps.setNull(i, Types.TIMESTAMP))));
                case "tstz" -> engine == Engine.POSTGRES ? pick(List.of(
                        Term.literal("'2024-03-31 02:30:00+02'"),
                        Term.param("setTimestamp(micros)",
                                (ps, i) -> ps.setTimestamp(i, Timestamp.valueOf("2025-01-02 03:04:05.654321"))),
                        Term.param("setObject(OffsetDateTime)",
                                (ps, i) -> ps.setObject(i, OffsetDateTime.parse("2024-02-29T13:45:56.123456+05:45")))))
                        : pick(List.of(Term.literal("'2024-06-01 08:00:00'"),
                        Term.param("setTimestamp(2024)",
                                (ps, i) -> ps.setTimestamp(i, Timestamp.valueOf("2024-06-01 08:00:00.25")))));
                case "d" -> pick(List.of(
                        Term.literal("'2024-03-02'"),
                        Term.param("setDate(2024-02-29)", (ps, i) -> ps.setDate(i, java.sql.Date.valueOf("2024-02-29"))),
                        Term.param("setObject(LocalDate 1900)", (ps, i) -> ps.setObject(i, LocalDate.of(1900, 1, 1)))));
                case "b" -> pick(List.of(
                        Term.literal("TRUE"), Term.literal("NOT b"),
                        Term.param("setBoolean(true)", (ps, i) -> ps.setBoolean(i, true)),
                        Term.param("setObject(Boolean false)", (ps, i) -> ps.setObject(i, Boolean.FALSE)),
                        Term.param("setNull(BOOLEAN)", (ps, i) -> ps.setNull(i, Types.BOOLEAN))));
                case "bin" -> {
                    byte[] bytes = new byte[random.nextInt(6)];
                    random.nextBytes(bytes);
                    String hex = HexFormat.of().formatHex(bytes);
                    yield pick(List.of(
                            Term.literal(engine == Engine.POSTGRES ? "'\\x" + hex + "'" : "X'" + hex + "'"),
                            Term.param("setBytes(" + hex + ")", (ps, i) -> ps.setBytes(i, bytes)),
                            Term.param("setNull(VARBINARY)", (ps, i) -> ps.setNull(i, Types.VARBINARY))));
                }
                case "j" -> pick(List.of(
                        Term.literal("'{\"a\": [1, 2.50, null]}'"), Term.literal("j || '{\"b\": \"\\u00e9\"}'"),
                        Term.param("setObject(json, OTHER)", (ps, i) -> ps.setObject(i, "{\"x\":1e2}", Types.OTHER))));
                case "u" -> pick(List.of(
                        Term.literal("'00000000-0000-0000-0000-0000000000cc'"),
                        Term.param("setObject(UUID)", (ps, i) -> ps.setObject(i, new UUID(-1L, 1L)))));
                case "iv" -> pick(List.of(Term.literal("'1 mon -2 days 03:00:00.5'"), Term.literal("iv * 2")));
                case "ip" -> pick(List.of(
                        Term.literal("'2001:db8::1/64'"),
                        Term.param("setObject(inet, OTHER)", (ps, i) -> ps.setObject(i, "192.0.2.9", Types.OTHER))));
                case "m" -> pick(List.of(
                        Term.literal("'sad'"),
                        Term.param("setObject(enum, OTHER)", (ps, i) -> ps.setObject(i, "ok", Types.OTHER))));
                default -> throw new IllegalArgumentException(column);
            };
        }

        private <T> T pick(List<T> from) {
            return from.get(random.nextInt(from.size()));
        }
    }
}
