package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.Setter;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D16, D17: a prepared statement planned through {@code jdbc:llmsafe:} does what the same statement,
 * bound the same way, does when run raw: a table of setters (with and without their SQL type), values
 * (extremes included) and statement shapes, each run both ways by {@link Differential}, which compares
 * the card and the applied table with the raw run's. The measured cases of issue 14 are in the table.
 */
class ParameterReplayTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Differential> FIXTURES = new EnumMap<>(Engine.class);
    private static final String IMPACT = "Values are test data.";

    /** What the raw run does, and so what llmsafe must do. */
    enum Expect {
        /** Raw changes rows: a plan. */
        PLAN,
        /** Raw rejects the statement: refused with the database's reason. */
        REJECTED,
        /** Raw changes no row: refused (NO_ROWS or NO_CHANGE). */
        NOTHING,
        /** The vendor driver refuses the setter itself: the guarded statement does too. */
        BIND_FAILS,
        /** Whatever raw does, the promises hold. */
        EITHER
    }

    record Case(String name, String sql, Differential.Bind bind, Map<Engine, Expect> expect, Differential.Bind raw) {
        Case(String name, String sql, Differential.Bind bind, Map<Engine, Expect> expect) {
            this(name, sql, bind, expect, bind);
        }
    }

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void close() {
        FIXTURES.values().forEach(Differential::close);
        Guarded.restoreSink();
    }

    static Differential fixture(Engine engine) throws SQLException {
        Differential d = FIXTURES.get(engine);
        if (d == null) {
            ScratchDatabase db = dbs.get(engine);
            d = table(db, "v", "");
            FIXTURES.put(engine, d);
        }
        return d;
    }

    /** A table of the ordinary types of the engine, five rows, as {@code name} and {@code raw_name}. */
    static Differential table(ScratchDatabase db, String name, String urlOptions) throws SQLException {
        String common = "i4 INT, i8 BIGINT, f8 %s, num %s, txt %s, ts %s, tstz %s, d DATE, b BOOLEAN";
        String ddl = switch (db.engine()) {
            case POSTGRES -> "CREATE TABLE {t} (id INT PRIMARY KEY, " + String.format(common, "DOUBLE PRECISION",
                    "NUMERIC(30,10)", "TEXT", "TIMESTAMP(6)", "TIMESTAMPTZ(6)")
                    + ", j JSONB, u UUID, bin BYTEA, iv INTERVAL, ip INET, m mood)";
            case MYSQL -> "CREATE TABLE {t} (id INT PRIMARY KEY, " + String.format(common, "DOUBLE", "DECIMAL(30,10)",
                    "VARCHAR(100)", "DATETIME(6)", "TIMESTAMP(6) NULL DEFAULT NULL") + ", bin VARBINARY(16))";
            case SQLITE -> "CREATE TABLE {t} (id INTEGER PRIMARY KEY, " + String.format(common, "REAL", "NUMERIC", "TEXT",
                    "DATETIME", "TEXT") + ", bin BLOB)";
        };
        if (db.engine() == Engine.POSTGRES) {
            db.execute("DO $$ BEGIN CREATE TYPE mood AS ENUM ('ok', 'sad'); EXCEPTION WHEN duplicate_object THEN NULL;"
                    + " END $$");
        }
        String bytes = db.engine() == Engine.POSTGRES ? "'\\x00ff'" : "X'00ff'";
        String tz = db.engine() == Engine.MYSQL ? "" : "+00";
        String[] rows = {
            "1, 100000, 1, 1.5, 1.5, 'abc', '2024-02-29 13:45:56.123456', '2024-02-29 13:45:56.123456" + tz
                    + "', '2024-02-29', TRUE, " + bytes,
            "2, 2, 2, 2.5, 2.5, 'def', '2024-03-01 00:00:00', '2024-03-01 00:00:00" + tz + "', '2024-03-01', FALSE, "
                    + bytes,
            "3, 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",
            // MariaDB's TIMESTAMP begins in 1970.
            "4, 4, 4, 4.5, 4.5, 'ghi', '1900-03-01 12:00:00', '" + (db.engine() == Engine.MYSQL ? "1971" : "1900")
                    + "-03-01 12:00:00" + tz + "', '1900-03-01', TRUE, " + bytes,
            "5, -5, -5, -5.5, -5.5, '', '2024-12-31 23:59:59.999999', '2024-12-31 23:59:59.999999" + tz
                    + "', '2024-12-31', FALSE, " + bytes,
        };
        String[] pg = {
            ", '{\"a\": 1}', '00000000-0000-0000-0000-000000000001', '1 day', '10.0.0.1', 'ok'",
            ", '{\"a\": 2}', '00000000-0000-0000-0000-000000000002', '2 hours', '10.0.0.2', 'sad'",
            ", NULL, NULL, NULL, NULL, NULL",
            ", '{}', '00000000-0000-0000-0000-000000000004', '0', '::1', 'ok'",
            ", '[]', '00000000-0000-0000-0000-000000000005', '-1 day', '10.0.0.5', 'ok'",
        };
        List<String> seed = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            String cols = db.engine() == Engine.POSTGRES
                    ? "(id, i4, i8, f8, num, txt, ts, tstz, d, b, bin, j, u, iv, ip, m)" : "";
            seed.add("INSERT INTO {t} " + cols + " VALUES (" + rows[i] + (db.engine() == Engine.POSTGRES ? pg[i] : "")
                    + ")");
        }
        return new Differential(db, name, IMPACT, ddl, seed, urlOptions);
    }

    private static Map<Engine, Expect> all(Expect e) {
        Map<Engine, Expect> m = new EnumMap<>(Engine.class);
        for (Engine engine : Engine.values()) {
            m.put(engine, e);
        }
        return m;
    }

    private static Map<Engine, Expect> on(Expect pg, Expect my, Expect lite) {
        return new EnumMap<>(Map.of(Engine.POSTGRES, pg, Engine.MYSQL, my, Engine.SQLITE, lite));
    }

    private static Map<Engine, Expect> only(Engine engine, Expect e) {
        return new EnumMap<>(Map.of(engine, e));
    }

    private static String text(Engine e) {
        return e == Engine.MYSQL ? "CHAR" : "TEXT";
    }

    /** Every setter JDBC has that can be kept, with and without its SQL type, and the measured cases of issue 14. */
    static List<Case> cases(Engine engine) {
        String text = text(engine);
        Timestamp micros = Timestamp.valueOf("2025-01-02 03:04:05.654321");
        List<Case> c = new ArrayList<>();
        // Measured: PostgreSQL computes int4 * int4 in 32 bits and the application's statement fails; setLong is int8.
        c.add(new Case("setInt overflows i4 * ?", "UPDATE {t} SET i8 = i4 * ? WHERE id = 1",
                ps -> ps.setInt(1, 100000), on(Expect.REJECTED, Expect.PLAN, Expect.PLAN)));
        c.add(new Case("setLong does not", "UPDATE {t} SET i8 = i4 * ? WHERE id = 1",
                ps -> ps.setLong(1, 100000L), all(Expect.PLAN)));
        // Measured: setFloat(0.1f) wrote 0.10000000149011612 through setDouble where the application writes 0.1.
        c.add(new Case("setFloat into a double", "UPDATE {t} SET f8 = ? WHERE id = 2", ps -> ps.setFloat(1, 0.1f),
                all(Expect.PLAN)));
        c.add(new Case("setFloat as text", "UPDATE {t} SET txt = CAST(? AS " + text + ") WHERE id = 2",
                ps -> ps.setFloat(1, 0.1f), all(Expect.PLAN)));
        c.add(new Case("setFloat into a decimal", "UPDATE {t} SET num = ? WHERE id = 2", ps -> ps.setFloat(1, 0.1f),
                all(Expect.PLAN)));
        c.add(new Case("setDouble largest", "UPDATE {t} SET f8 = ? WHERE id = 1", ps -> ps.setDouble(1, Double.MAX_VALUE),
                all(Expect.PLAN)));
        c.add(new Case("setDouble smallest", "UPDATE {t} SET f8 = ? WHERE id = 1",
                ps -> ps.setDouble(1, Double.MIN_VALUE), all(Expect.EITHER)));
        c.add(new Case("setDouble NaN", "UPDATE {t} SET f8 = ? WHERE id = 1", ps -> ps.setDouble(1, Double.NaN),
                all(Expect.EITHER)));
        c.add(new Case("setLong smallest", "UPDATE {t} SET i8 = ? WHERE id = 2", ps -> ps.setLong(1, Long.MIN_VALUE),
                all(Expect.PLAN)));
        c.add(new Case("setLong largest", "UPDATE {t} SET i8 = ? WHERE id = 2", ps -> ps.setLong(1, Long.MAX_VALUE),
                all(Expect.PLAN)));
        c.add(new Case("setShort", "UPDATE {t} SET i4 = ? WHERE id = 2", ps -> ps.setShort(1, Short.MIN_VALUE),
                all(Expect.PLAN)));
        c.add(new Case("setByte", "UPDATE {t} SET i4 = ? WHERE id = 2", ps -> ps.setByte(1, Byte.MIN_VALUE),
                all(Expect.PLAN)));
        c.add(new Case("setBigDecimal", "UPDATE {t} SET num = ? WHERE id = 3",
                ps -> ps.setBigDecimal(1, new BigDecimal("12345678901234567890.0123456789")), all(Expect.PLAN)));
        c.add(new Case("setString", "UPDATE {t} SET txt = ? WHERE id = 3", ps -> ps.setString(1, "it's \u00e9\u200b\\ \""),
                all(Expect.PLAN)));
        c.add(new Case("setNString", "UPDATE {t} SET txt = ? WHERE id = 2", ps -> ps.setNString(1, "\u65e5\u672c"),
                on(Expect.BIND_FAILS, Expect.PLAN, Expect.BIND_FAILS)));
        c.add(new Case("setBoolean", "UPDATE {t} SET b = ? WHERE id = 1", ps -> ps.setBoolean(1, false),
                all(Expect.PLAN)));
        c.add(new Case("setBytes", "UPDATE {t} SET bin = ? WHERE id = 1",
                ps -> ps.setBytes(1, new byte[] {0, -1, 0x27, 0x5c}), all(Expect.PLAN)));
        c.add(new Case("setNull VARCHAR", "UPDATE {t} SET txt = ? WHERE id = 1", ps -> ps.setNull(1, Types.VARCHAR),
                all(Expect.PLAN)));
        c.add(new Case("setNull INTEGER", "UPDATE {t} SET i4 = ? WHERE id = 1", ps -> ps.setNull(1, Types.INTEGER),
                all(Expect.PLAN)));
        c.add(new Case("setNull with a type name", "UPDATE {t} SET txt = ? WHERE id = 2",
                ps -> ps.setNull(1, Types.VARCHAR, "text"), all(Expect.PLAN)));
        // Issue 14: setNull in `? IS NULL` was refused; PostgreSQL types it by the setter's SQL type.
        c.add(new Case("setNull in ? IS NULL", "UPDATE {t} SET i4 = 7 WHERE id = 3 AND ? IS NULL",
                ps -> ps.setNull(1, Types.INTEGER), all(Expect.PLAN)));
        // Measured: PostgreSQL has no integer = character varying, and the untyped NULL the plan sent hid it.
        c.add(new Case("setNull VARCHAR compared with an int", "UPDATE {t} SET b = (i4 = ?) WHERE id = 1",
                ps -> ps.setNull(1, Types.VARCHAR), on(Expect.REJECTED, Expect.PLAN, Expect.PLAN)));
        // Measured: MariaDB stores setTimestamp's microseconds as whole seconds (Connector/J drops them).
        c.add(new Case("setTimestamp with microseconds", "UPDATE {t} SET ts = ? WHERE id = 2",
                ps -> ps.setTimestamp(1, micros), all(Expect.PLAN)));
        c.add(new Case("setTimestamp into a timestamp with time zone", "UPDATE {t} SET tstz = ? WHERE id = 2",
                ps -> ps.setTimestamp(1, micros), all(Expect.PLAN)));
        // Measured: PostgreSQL cannot type a timestamp parameter sent untyped in ? IS NOT NULL.
        c.add(new Case("setTimestamp in ? IS NOT NULL", "UPDATE {t} SET i4 = 11 WHERE id = 1 AND ? IS NOT NULL",
                ps -> ps.setTimestamp(1, micros), on(Expect.REJECTED, Expect.PLAN, Expect.PLAN)));
        // Measured: on MariaDB `ts <> ?` with a LocalDateTime matched other rows on the card than raw.
        c.add(new Case("setObject LocalDateTime in WHERE", "UPDATE {t} SET i4 = 9 WHERE id <= 2 AND ts <> ?",
                ps -> ps.setObject(1, LocalDateTime.parse("2024-02-29T13:45:56.123456")), all(Expect.EITHER)));
        c.add(new Case("setDate", "UPDATE {t} SET d = ? WHERE id = 2", ps -> ps.setDate(1, java.sql.Date.valueOf(
                "2024-03-02")), all(Expect.PLAN)));
        // Measured: sqlite-jdbc binds a Date as epoch milliseconds, which no text date is less than.
        c.add(new Case("setDate in WHERE d < ?", "UPDATE {t} SET i4 = 12 WHERE d < ?",
                ps -> ps.setDate(1, java.sql.Date.valueOf("2030-01-01")), on(Expect.PLAN, Expect.PLAN, Expect.NOTHING)));
        c.add(new Case("setTime as text", "UPDATE {t} SET txt = CAST(? AS " + text + ") WHERE id = 1",
                ps -> ps.setTime(1, java.sql.Time.valueOf("13:45:56")), all(Expect.PLAN)));
        c.add(new Case("setObject LocalDate", "UPDATE {t} SET d = ? WHERE id = 1",
                ps -> ps.setObject(1, LocalDate.of(2024, 3, 3)), all(Expect.EITHER)));
        c.add(new Case("setObject OffsetDateTime", "UPDATE {t} SET tstz = ? WHERE id = 1",
                ps -> ps.setObject(1, OffsetDateTime.parse("2024-02-29T13:45:56.123456+05:30")), all(Expect.EITHER)));
        c.add(new Case("setObject OffsetTime", "UPDATE {t} SET txt = CAST(? AS TEXT) WHERE id = 1",
                ps -> ps.setObject(1, OffsetTime.parse("12:34:56.123456+05:30")), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject json OTHER", "UPDATE {t} SET j = ? WHERE id = 1",
                ps -> ps.setObject(1, "{\"role\":\"admin\"}", Types.OTHER), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject jsonb OTHER into a cast", "UPDATE {t} SET j = CAST(? AS JSONB) WHERE id = 2",
                ps -> ps.setObject(1, "{\"b\":[1,2]}", Types.OTHER), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject uuid OTHER", "UPDATE {t} SET u = ? WHERE id = 1",
                ps -> ps.setObject(1, "00000000-0000-0000-0000-0000000000aa", Types.OTHER),
                only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject inet OTHER", "UPDATE {t} SET ip = ? WHERE id = 1",
                ps -> ps.setObject(1, "192.0.2.7", Types.OTHER), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject interval OTHER", "UPDATE {t} SET iv = ? WHERE id = 1",
                ps -> ps.setObject(1, "1 day 02:03:04", Types.OTHER), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject enum OTHER", "UPDATE {t} SET m = ? WHERE id = 1",
                ps -> ps.setObject(1, "sad", Types.OTHER), only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject UUID", "UPDATE {t} SET u = ? WHERE id = 2",
                ps -> ps.setObject(1, UUID.fromString("00000000-0000-0000-0000-0000000000bb")),
                only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setObject '12' INTEGER", "UPDATE {t} SET i4 = ? WHERE id = 1",
                ps -> ps.setObject(1, "12", Types.INTEGER), all(Expect.PLAN)));
        // Measured: pgjdbc and sqlite-jdbc do not implement the SQLType form; it binds as its int type.
        boolean sqlType = engine == Engine.MYSQL;
        c.add(new Case("setObject JDBCType.INTEGER", "UPDATE {t} SET i4 = ? WHERE id = 1",
                ps -> ps.setObject(1, 42, JDBCType.INTEGER), all(Expect.PLAN),
                sqlType ? ps -> ps.setObject(1, 42, JDBCType.INTEGER) : ps -> ps.setObject(1, 42, Types.INTEGER)));
        c.add(new Case("setObject JDBCType.NUMERIC with a scale", "UPDATE {t} SET num = ? WHERE id = 1",
                ps -> ps.setObject(1, new BigDecimal("3.14159"), JDBCType.NUMERIC, 2), all(Expect.PLAN),
                sqlType ? ps -> ps.setObject(1, new BigDecimal("3.14159"), JDBCType.NUMERIC, 2)
                        : ps -> ps.setObject(1, new BigDecimal("3.14159"), Types.NUMERIC, 2)));
        c.add(new Case("setObject DECIMAL with a scale", "UPDATE {t} SET num = ? WHERE id = 1",
                ps -> ps.setObject(1, new BigDecimal("2.71828"), Types.DECIMAL, 3), all(Expect.PLAN)));
        c.add(new Case("setTimestamp with a Calendar", "UPDATE {t} SET ts = ? WHERE id = 1",
                ps -> ps.setTimestamp(1, micros, Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"))),
                all(Expect.PLAN)));
        c.add(new Case("setDate with a Calendar", "UPDATE {t} SET d = ? WHERE id = 1",
                ps -> ps.setDate(1, java.sql.Date.valueOf("2024-05-06"),
                        Calendar.getInstance(TimeZone.getTimeZone("America/St_Johns"))), all(Expect.PLAN)));
        // Issue 14: functions with integer arguments were refused once setInt was sent as setLong.
        c.add(new Case("round(n, ?)", "UPDATE {t} SET num = round(num, ?) WHERE id = 1", ps -> ps.setInt(1, 0),
                all(Expect.PLAN)));
        c.add(new Case("round(n, ?) with setLong", "UPDATE {t} SET num = round(num, ?) WHERE id = 1",
                ps -> ps.setLong(1, 0L), on(Expect.REJECTED, Expect.PLAN, Expect.PLAN)));
        c.add(new Case("substr(x, ?, ?)", "UPDATE {t} SET txt = substr(txt, ?, ?) WHERE id = 1", ps -> {
            ps.setInt(1, 2);
            ps.setInt(2, 1);
        }, all(Expect.PLAN)));
        c.add(new Case("lpad(x, ?, '*')", "UPDATE {t} SET txt = lpad(txt, ?, '*') WHERE id = 1", ps -> ps.setInt(1, 5),
                on(Expect.PLAN, Expect.PLAN, Expect.REJECTED)));
        c.add(new Case("make_date(?, ?, ?)", "UPDATE {t} SET d = make_date(?, ?, ?) WHERE id = 1", ps -> {
            ps.setInt(1, 2020);
            ps.setInt(2, 1);
            ps.setInt(3, 2);
        }, only(Engine.POSTGRES, Expect.PLAN)));
        c.add(new Case("setURL", "UPDATE {t} SET txt = ? WHERE id = 1",
                ps -> ps.setURL(1, url("http://example.invalid/a?b=c")), all(Expect.EITHER)));
        c.add(new Case("DELETE with setInt", "DELETE FROM {t} WHERE i4 = ?", ps -> ps.setInt(1, 2), all(Expect.PLAN)));
        c.add(new Case("setObject no row", "UPDATE {t} SET i4 = 1 WHERE id = ?", ps -> ps.setObject(1, 99),
                all(Expect.NOTHING)));
        c.removeIf(k -> !k.expect().containsKey(engine));
        return c;
    }

    @SuppressWarnings("deprecation")
    private static java.net.URL url(String s) {
        try {
            return new java.net.URL(s);
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static void check(Differential d, Case k) throws SQLException {
        Differential.Outcome o = d.run(k.sql(), k.bind(), k.raw());
        Expect e = k.expect().get(d.db.engine());
        String what = k.name() + ": " + o;
        switch (e) {
            case PLAN -> assertThat(o.plan()).as(what).isPresent();
            case REJECTED, BIND_FAILS -> assertThat((Object) o.rawError()).as(what).isNotNull();
            case NOTHING -> {
                assertThat((Object) o.refusal()).as(what).isNotNull();
                assertThat(o.refusal().code()).as(what).isIn(Refusal.NO_ROWS, Refusal.NO_CHANGE);
            }
            case EITHER -> { }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_everySetterIsReplayedExactlyAsTheApplicationBoundIt(Engine engine) throws SQLException {
        Differential d = fixture(engine);
        for (Case k : cases(engine)) {
            check(d, k);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_theParameterIsKeptWithItsSetterTypeAndValueOnTheCardAndInThePlan(Engine engine) throws SQLException {
        Differential d = fixture(engine);
        Differential.Outcome o = d.run("UPDATE {t} SET f8 = ?, i4 = ?, txt = ? WHERE id = ?", ps -> {
            ps.setFloat(1, 0.1f);
            ps.setObject(2, "12", Types.INTEGER);
            ps.setNull(3, Types.VARCHAR);
            ps.setShort(4, (short) 1);
        });
        Plan plan = o.plan().orElseThrow();
        assertThat(plan.statements().get(0).parameters()).containsExactly(Parameter.of(Setter.SET_FLOAT, 0.1f),
                Parameter.ofObject("12", Types.INTEGER), Parameter.ofNull(Types.VARCHAR), Parameter.of(Setter.SET_SHORT,
                        (short) 1));
        assertThat(plan.card()).contains("[1: 0.1 (setFloat), 2: '12' (setObject(INTEGER) of a String),"
                + " 3: NULL (setNull(VARCHAR)), 4: 1 (setShort)]");
        assertThat(plan.toJson()).contains("\"parameters\":[{\"setter\":\"SET_FLOAT\",\"class\":\"java.lang.Float\","
                + "\"value\":\"0.1\"},{\"setter\":\"SET_OBJECT_TYPE\",\"sqlType\":4,\"class\":\"java.lang.String\","
                + "\"value\":\"12\"},{\"setter\":\"SET_NULL\",\"sqlType\":12,\"value\":null},{\"setter\":\"SET_SHORT\","
                + "\"class\":\"java.lang.Short\",\"value\":\"1\"}]");
        assertThat(Plan.fromJson(plan.toJson())).isEqualTo(plan);
        // The SQLType form is kept as the form the vendor driver implements.
        Differential.Outcome typed = d.run("UPDATE {t} SET i4 = ? WHERE id = 1", ps -> ps.setObject(1, 42, JDBCType.INTEGER),
                engine == Engine.MYSQL ? ps -> ps.setObject(1, 42, JDBCType.INTEGER) : ps -> ps.setObject(1, 42, Types.INTEGER));
        assertThat(typed.plan().orElseThrow().statements().get(0).parameters().get(0)).isEqualTo(engine == Engine.MYSQL
                ? Parameter.ofObject(42, JDBCType.INTEGER) : Parameter.ofObject(42, Types.INTEGER));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_aBindingThatCannotBeKeptExactlyIsRefusedWithItsOwnCode(Engine engine) throws SQLException {
        Differential d = fixture(engine);
        d.reset();
        List<Differential.Bind> unkeepable = List.of(
                ps -> ps.setBinaryStream(1, new ByteArrayInputStream(new byte[] {1})),
                ps -> ps.setCharacterStream(1, new StringReader("x")),
                ps -> ps.setAsciiStream(1, new ByteArrayInputStream(new byte[] {'x'}), 1),
                ps -> ps.setObject(1, new StringBuilder("x")),
                ps -> ps.setObject(1, new java.sql.Timestamp(0) { }));
        for (Differential.Bind b : unkeepable) {
            try (PreparedStatement ps = d.guarded().prepareStatement("UPDATE v SET txt = ? WHERE id = 1")) {
                try {
                    b.bind(ps);
                } catch (SQLException vendorRefused) {
                    continue;
                }
                d.g.refusedUnchanged(Refusal.PARAMETER_NOT_REPLAYABLE, ps::executeUpdate);
            }
        }
        assertThatThrownBy(() -> Parameter.withCalendar(Setter.SET_TIMESTAMP_CALENDAR, new Timestamp(0),
                new java.util.GregorianCalendar(new java.util.SimpleTimeZone(3_600_000, "Custom"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Calendar");
    }

    /**
     * The driver turns a java.sql date into text in the JVM's default zone: with a zone whose historic
     * offset has seconds (Asia/Kolkata in 1900, +05:21:10), the dry run and the apply bind it
     * as the application did, and an apply in a JVM of another zone is refused rather than sent otherwise.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_D17_inAnotherJvmZoneTheReplayBindsAsTheApplicationDid(Engine engine) throws SQLException {
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
        Differential d = fixture(engine);
        try {
            d.reconnect();
            Timestamp old = Timestamp.valueOf("1900-03-01 12:00:00.5");
            List<Case> zoned = new ArrayList<>(List.of(
                    // MariaDB's TIMESTAMP begins in 1970: rejected raw, and so refused.
                    new Case("setTimestamp 1900 into a timestamp with time zone", "UPDATE {t} SET tstz = ? WHERE id = 4",
                            ps -> ps.setTimestamp(1, old), on(Expect.PLAN, Expect.REJECTED, Expect.PLAN)),
                    // Connector/J drops the half second for MariaDB 10.x, which it takes for MySQL 5.5: the
                    // application's statement changes nothing there.
                    new Case("setTimestamp 1900 into a timestamp", "UPDATE {t} SET ts = ? WHERE id = 4",
                            ps -> ps.setTimestamp(1, old), on(Expect.PLAN,
                                    d.db.announcedAsMysql55() ? Expect.NOTHING : Expect.PLAN, Expect.PLAN)),
                    new Case("setDate 1900", "UPDATE {t} SET d = ? WHERE id = 4",
                            ps -> ps.setDate(1, java.sql.Date.valueOf("1900-03-02")), all(Expect.PLAN)),
                    new Case("setTimestamp 1900 in WHERE", "UPDATE {t} SET i4 = 44 WHERE tstz < ?",
                            ps -> ps.setTimestamp(1, old), all(Expect.EITHER))));
            if (engine == Engine.POSTGRES) {
                // The session's TimeZone (pgjdbc's is the JVM's) decides the day of a timestamptz.
                zoned.add(new Case("the session's TimeZone decides a date", "UPDATE {t} SET d = CAST(tstz AS DATE)"
                        + " WHERE id = 5", ps -> { }, all(Expect.PLAN)));
            }
            for (Case k : zoned) {
                check(d, k);
            }
            d.reset();
            PlanPendingException pending;
            try (PreparedStatement ps = d.guarded().prepareStatement("UPDATE v SET ts = ? WHERE id = 4")) {
                ps.setTimestamp(1, Timestamp.valueOf("1900-03-01 12:30:00"));
                pending = d.g.plannedUnchanged(ps::executeUpdate);
            }
            assertThat(pending.getMessage()).contains("'1900-03-01 12:30:00' (setTimestamp, JVM zone Asia/Kolkata)");
            // Asia/Kolkata was at +05:21:10 in 1900 (Madras time), which the instant keeps.
            assertThat(pending.plan().statements().get(0).parameters().get(0).value()).isEqualTo("1900-03-01T07:08:50Z");
            TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
            assertThatThrownBy(() -> dev.llmsafe.plan.ParameterReplay.check(pending.plan().statements().get(0)
                    .parameters())).isInstanceOf(RefusedException.class)
                    .hasMessageContaining("-Duser.timezone=Asia/Kolkata")
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.PARAMETER_NOT_REPLAYABLE));
        } finally {
            TimeZone.setDefault(before);
            d.reconnect();
        }
    }

    /**
     * D17: on MariaDB, an application whose session is at +09:00 (Connector/J connectionTimeZone with
     * forceConnectionTimeZoneToSession) gets a card, and an apply, in +09:00: a TIMESTAMP literal and
     * DATE(ts) mean there what they mean to the application (the dry run used to run at +00:00).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void D17_theDryRunAndTheApplyRunInTheApplicationsSessionSettings(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        try (Differential d = table(db, "z", "connectionTimeZone=%2B09:00&forceConnectionTimeZoneToSession=true")) {
            try (java.sql.Statement s = d.raw().createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT @@session.time_zone")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("+09:00");
            }
            List<Case> session = List.of(
                    new Case("a TIMESTAMP literal", "UPDATE {t} SET tstz = '2024-02-29 13:45:56' WHERE id = 1", ps -> { },
                            all(Expect.PLAN)),
                    new Case("DATE() of a TIMESTAMP", "UPDATE {t} SET d = DATE(tstz) WHERE id = 5", ps -> { },
                            all(Expect.PLAN)),
                    new Case("setTimestamp into a TIMESTAMP", "UPDATE {t} SET tstz = ? WHERE id = 2",
                            ps -> ps.setTimestamp(1, Timestamp.valueOf("2024-06-01 08:00:00")), all(Expect.PLAN)),
                    new Case("a TIMESTAMP compared with a literal", "UPDATE {t} SET i4 = 8 WHERE tstz < '2024-03-01 08:30:00'",
                            ps -> { }, all(Expect.PLAN)));
            for (Case k : session) {
                check(d, k);
            }
            Differential.Outcome o = d.run("UPDATE {t} SET tstz = '2024-02-29 13:45:56' WHERE id = 1", ps -> { });
            assertThat(o.plan().orElseThrow().session().values()).containsEntry("time_zone", "+09:00");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D17_theApplicationsSessionSettingsAreRecordedInThePlan(Engine engine) throws SQLException {
        Differential d = fixture(engine);
        Plan plan = d.run("UPDATE {t} SET i4 = 77 WHERE id = 1", ps -> { }).plan().orElseThrow();
        Set<String> expected = switch (engine) {
            case POSTGRES -> Set.of("TimeZone", "DateStyle", "IntervalStyle", "standard_conforming_strings",
                    "extra_float_digits");
            case MYSQL -> Set.of("time_zone", "sql_mode", "div_precision_increment", "collation_connection");
            case SQLITE -> Set.of("foreign_keys", "recursive_triggers");
        };
        assertThat(plan.session().recorded()).isTrue();
        assertThat(plan.session().values().keySet()).containsAll(expected);
        assertThat(Plan.fromJson(plan.toJson()).session()).isEqualTo(plan.session());
        if (engine == Engine.SQLITE) {
            // sqlite-jdbc leaves foreign keys off (F28); the engine's connections turn them on for themselves.
            assertThat(plan.session().values()).containsEntry("foreign_keys", "0");
        }
        if (engine == Engine.POSTGRES) {
            assertThat(plan.session().values()).containsEntry("TimeZone", TimeZone.getDefault().getID());
        }
    }

    /** A10: every kind of kept parameter comes back out of the store as it went in. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_A10_everyKindOfParameterRoundTripsThroughTheStore(Engine engine) throws SQLException {
        Differential d = fixture(engine);
        Plan plan = d.run("UPDATE {t} SET i4 = 78 WHERE id = 1", ps -> { }).plan().orElseThrow();
        List<Parameter> kinds = List.of(Parameter.of(Setter.SET_FLOAT, Float.MIN_VALUE), Parameter.of(Setter.SET_FLOAT, -0.0f),
                Parameter.of(Setter.SET_DOUBLE, Double.NaN), Parameter.of(Setter.SET_BIG_DECIMAL, new BigDecimal("1E+3")),
                Parameter.of(Setter.SET_BYTES, new byte[] {0, -1}), Parameter.of(Setter.SET_STRING, "\u0000'\"\\"),
                Parameter.of(Setter.SET_TIMESTAMP, Timestamp.valueOf("1900-03-01 12:00:00.123456789")),
                Parameter.of(Setter.SET_DATE, new java.sql.Date(-1)), Parameter.of(Setter.SET_OBJECT, new java.util.Date(0)),
                Parameter.of(Setter.SET_OBJECT, java.time.ZonedDateTime.parse("2024-03-31T02:30+02:00[Europe/Paris]")),
                Parameter.of(Setter.SET_OBJECT, java.math.BigInteger.TWO.pow(80)), Parameter.of(Setter.SET_OBJECT, 'x'),
                Parameter.of(Setter.SET_OBJECT, LocalDate.MIN), Parameter.of(Setter.SET_OBJECT, OffsetTime.MAX),
                Parameter.of(Setter.SET_URL, url("http://example.invalid/x y")), Parameter.ofNull(Types.OTHER, "mood"),
                Parameter.ofObject("1", Types.NUMERIC, 3), Parameter.ofObject(null, JDBCType.VARCHAR, 7),
                Parameter.withCalendar(Setter.SET_TIME_CALENDAR, java.sql.Time.valueOf("23:59:59"),
                        Calendar.getInstance(TimeZone.getTimeZone("Asia/Kathmandu"))));
        dev.llmsafe.plan.PlannedStatement s = plan.statements().get(0);
        Plan many = new Plan(UUID.randomUUID(), plan.createdAt(), plan.proposer(), plan.database(),
                List.of(new dev.llmsafe.plan.PlannedStatement(s.sql(), kinds, s.kind(), s.table(), s.impact(), s.keyColumns(),
                        s.changedColumns(), s.autoColumns(), s.affectedRows(), s.rows())),
                plan.limitations(), plan.warnings(), plan.session());
        d.store().save(many);
        Plan back = d.store().load(many.id()).plan();
        assertThat(back).isEqualTo(many);
        for (int i = 0; i < kinds.size(); i++) {
            Object a = kinds.get(i).javaValue();
            Object b = back.statements().get(0).parameters().get(i).javaValue();
            assertThat(a instanceof byte[] x ? java.util.Arrays.toString(x) : a)
                    .isEqualTo(b instanceof byte[] y ? java.util.Arrays.toString(y) : b);
        }
    }

    /**
     * A plan stored in format llmsafe-plan/1 (parameters as a kind and a value, no session) still reads and
     * is shown; its apply is refused, because what the application bound and the session it ran in are
     * not known.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void D16_D17_aPlanOfTheOldFormatIsShownAndNeverApplied(Engine engine) throws Exception {
        Differential d = fixture(engine);
        for (boolean parameters : List.of(true, false)) {
            Plan plan = d.run(parameters ? "UPDATE {t} SET i4 = ? WHERE id = 1" : "UPDATE {t} SET i4 = 79 WHERE id = 1",
                    ps -> {
                        if (parameters) {
                            ps.setInt(1, 79);
                        }
                    }).plan().orElseThrow();
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            com.fasterxml.jackson.databind.node.ObjectNode old = (com.fasterxml.jackson.databind.node.ObjectNode)
                    json.readTree(plan.toJson());
            old.put("format", "llmsafe-plan/1");
            old.put("id", UUID.randomUUID().toString());
            old.remove("session");
            com.fasterxml.jackson.databind.node.ArrayNode params = (com.fasterxml.jackson.databind.node.ArrayNode)
                    old.get("statements").get(0).get("parameters");
            params.removeAll();
            if (parameters) {
                params.addObject().put("type", "LONG").put("value", "79");
            }
            Plan v1 = Plan.fromJson(json.writeValueAsString(old));
            assertThat(v1.session().recorded()).isFalse();
            if (parameters) {
                assertThat(v1.statements().get(0).parameters().get(0).setter()).isEqualTo(Setter.NOT_RECORDED);
                assertThat(v1.card()).contains("[1: 79 (setter not recorded, llmsafe-plan/1)]");
            }
            d.reset();
            d.store().save(v1);
            new dev.llmsafe.apply.Approver(d.store(), false).approve(v1.id(), "approver");
            List<?> before = List.copyOf(d.rows("v").values());
            assertThatThrownBy(() -> d.applier().apply(v1.id(), "approver")).isInstanceOf(RefusedException.class)
                    .hasMessageContaining("llmsafe-plan/1")
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(parameters
                            ? Refusal.PARAMETER_NOT_REPLAYABLE : Refusal.SESSION_NOT_REPRODUCIBLE));
            assertThat(List.copyOf(d.rows("v").values())).isEqualTo(before);
        }
    }
}
