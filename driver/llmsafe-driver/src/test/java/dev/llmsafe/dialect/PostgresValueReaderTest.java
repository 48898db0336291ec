package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.ArrayValue;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.BooleanValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.IntervalValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.JsonbValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.TimeValue;
import dev.llmsafe.value.TimestampTzValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The PostgreSQL reader on a real server (D13, A10). */
class PostgresValueReaderTest extends TypeMatrix {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String LONG_A = "repeat('a', 2500) || 'b' || repeat('a', 2499)";
    private static final String LONG_B = "repeat('a', 2500) || 'c' || repeat('a', 2499)";

    @Override
    ScratchDatabase db() {
        return dbs.get(Engine.POSTGRES);
    }

    @Override
    ValueReader reader() {
        return ValueReader.postgres();
    }

    @Override
    List<String> setup() {
        return List.of("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
    }

    @Override
    List<String> sessionSetup() {
        // The fall-back hour of 2024-10-27 repeats in Berlin; the JVM is elsewhere (TypeMatrix).
        return List.of("SET TimeZone = 'Europe/Berlin'");
    }

    @Override
    List<Col> columns() {
        return List.of(
                new Col("i2", "smallint", "32767", "32766"),
                new Col("i8", "bigint", "9223372036854775807", "9223372036854775806"),
                new Col("n", "numeric", "12345678901234567890.123456789", "12345678901234567890.123456788"),
                new Col("nscale", "numeric", "1.10", "1.1"),
                new Col("n2", "numeric(10,2)", "1.10", "1.11"),
                new Col("nnan", "numeric", "'NaN'", "0"),
                new Col("r", "real", "'1.0000001'", "'1.0000002'"),
                new Col("d", "double precision", "0.1", "0.10000000000000002"),
                new Col("dzero", "double precision", "'0'", "'-0'"),
                new Col("b", "boolean", "true", "false"),
                new Col("t", "text", LONG_A, LONG_B),
                new Col("tu", "text", "'héllo 😀 日本'", "'héllo 😁 日本'"),
                new Col("ch", "char(5)", "'ab'", "'ac'"),
                new Col("by", "bytea", "decode(repeat('00', 100000), 'hex')",
                        "set_byte(decode(repeat('00', 100000), 'hex'), 50000, 1)"),
                new Col("dt", "date", "'2024-02-29'", "'2024-03-01'"),
                new Col("dtbc", "date", "'0044-03-15 BC'", "'0044-03-16 BC'"),
                new Col("dtinf", "date", "'infinity'", "'-infinity'"),
                new Col("tm", "time", "'12:34:56.123456'", "'12:34:56.123457'"),
                new Col("tm24", "time", "'24:00:00'", "'23:59:59.999999'"),
                new Col("ttz", "timetz", "'12:34:56.123456+05:30'", "'12:34:56.123457+05:30'"),
                new Col("ttzoff", "timetz", "'12:34:56+05:30'", "'07:04:56+00'"),
                new Col("ts", "timestamp", "'2024-05-01 12:34:56.123456'", "'2024-05-01 12:34:56.123457'"),
                new Col("tsbc", "timestamp", "'0044-03-15 12:00:00 BC'", "'0044-03-15 12:00:00.000001 BC'"),
                new Col("tstz", "timestamptz", "'2024-10-27 01:30:00.000001+00'", "'2024-10-27 01:30:00.000002+00'"),
                new Col("tsfold", "timestamptz", "'2024-10-27 00:30:00+00'", "'2024-10-27 01:30:00+00'"),
                new Col("iv", "interval", "'1 year 2 mons -3 days 04:05:06.000007'",
                        "'1 year 2 mons -3 days 04:05:06.000008'"),
                new Col("ivrep", "interval", "'1 mon'", "'30 days'"),
                new Col("u", "uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12'"),
                new Col("e", "mood", "'ok'", "'happy'"),
                new Col("j", "json", "'{\"role\":\"user\",\"b\":1}'", "'{\"role\":\"admin\",\"b\":1}'"),
                new Col("jb", "jsonb", "'{\"role\":\"user\",\"b\":1}'", "'{\"role\":\"admin\",\"b\":1}'"),
                new Col("jbnum", "jsonb", "'{\"n\":2.10}'", "'{\"n\":2.1}'"),
                new Col("ai", "int[]", "'{1,2,3}'", "'{1,2,4}'"),
                new Col("at", "text[]", "'{\"a,b\",NULL,\"NULL\"}'", "'{\"a,b\",\"NULL\",\"NULL\"}'"),
                new Col("a2", "int[][]", "'{{1,2},{3,4}}'", "'{{1,2},{3,5}}'"),
                new Col("ats", "timestamptz[]", "ARRAY['2024-05-01 12:00:00.000001+00'::timestamptz]",
                        "ARRAY['2024-05-01 12:00:00.000002+00'::timestamptz]"),
                new Col("alb", "int[]", "'[0:1]={5,6}'", "'{5,6}'"),
                new Col("pt", "point", "'(1,2)'", "'(1,2.0000000000000004)'"),
                new Col("ip", "inet", "'10.0.0.1'", "'10.0.0.2'"));
    }

    @Test
    void D13_valuesAreReadAsTheDatabaseHoldsThem() throws SQLException {
        List<Value> row = read(table(), 1);
        assertThat(valueOf(row, "i8")).isEqualTo(IntegerValue.of(Long.MAX_VALUE));
        assertThat(valueOf(row, "n")).isEqualTo(DecimalValue.of("12345678901234567890.123456789"));
        assertThat(valueOf(row, "nscale")).isEqualTo(DecimalValue.of("1.10"));
        assertThat(valueOf(row, "nnan")).isEqualTo(new OtherValue("numeric", "NaN"));
        assertThat(valueOf(row, "r")).isEqualTo(FloatValue.ofFloat(1.0000001f));
        assertThat(valueOf(row, "d")).isEqualTo(FloatValue.ofDouble(0.1));
        assertThat(valueOf(row, "b")).isEqualTo(new BooleanValue(true));
        assertThat(valueOf(row, "t")).isEqualTo(new TextValue("a".repeat(2500) + "b" + "a".repeat(2499)));
        assertThat(valueOf(row, "tu")).isEqualTo(new TextValue("héllo 😀 日本"));
        assertThat(valueOf(row, "ch")).isEqualTo(new TextValue("ab   "));
        assertThat(valueOf(row, "by")).isEqualTo(BinaryValue.of(new byte[100_000]));
        assertThat(valueOf(row, "dt")).isEqualTo(new DateValue(2024, 2, 29));
        assertThat(valueOf(row, "dtbc")).isEqualTo(new DateValue(-43, 3, 15));
        assertThat(valueOf(row, "dtinf")).isEqualTo(new OtherValue("date", "infinity"));
        assertThat(valueOf(row, "tm24")).isEqualTo(TimeValue.of(86_400_000_000L));
        assertThat(valueOf(row, "ttz")).isEqualTo(new TimeValue(45_296_123_456L, Optional.of(ZoneOffset.ofHoursMinutes(5, 30))));
        assertThat(valueOf(row, "ts")).isEqualTo(new TimestampValue(new DateValue(2024, 5, 1), 45_296_123_456L));
        assertThat(valueOf(row, "tsbc")).isEqualTo(new TimestampValue(new DateValue(-43, 3, 15), 43_200_000_000L));
        assertThat(valueOf(row, "tstz")).isEqualTo(new TimestampTzValue(Instant.parse("2024-10-27T01:30:00.000001Z"), ZoneOffset.UTC));
        assertThat(((TimestampTzValue) valueOf(row, "tstz")).shown()).isEqualTo(ZoneOffset.ofHours(1));
        assertThat(valueOf(row, "iv")).isEqualTo(new IntervalValue(14, -3, 14_706_000_007L));
        assertThat(valueOf(row, "ivrep")).isEqualTo(new IntervalValue(1, 0, 0));
        assertThat(valueOf(row, "u")).isEqualTo(new UuidValue(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")));
        assertThat(valueOf(row, "e")).isEqualTo(new EnumValue("ok"));
        assertThat(valueOf(row, "j")).isEqualTo(new JsonValue("{\"role\":\"user\",\"b\":1}"));
        assertThat(valueOf(row, "jb")).isEqualTo(new JsonbValue("{\"b\":1,\"role\":\"user\"}"));
        assertThat(valueOf(row, "at")).isEqualTo(new ArrayValue(List.of(new TextValue("a,b"), Value.NULL, new TextValue("NULL"))));
        assertThat(valueOf(row, "a2")).isEqualTo(new ArrayValue(List.of(
                new ArrayValue(List.of(IntegerValue.of(1), IntegerValue.of(2))),
                new ArrayValue(List.of(IntegerValue.of(3), IntegerValue.of(4))))));
        assertThat(valueOf(row, "alb")).isEqualTo(new ArrayValue(List.of(IntegerValue.of(5), IntegerValue.of(6)), 0));
        assertThat(valueOf(row, "alb").render()).isEqualTo("[0:1]={5, 6}");
        assertThat(valueOf(row, "pt")).isEqualTo(new OtherValue("point", "(1.0,2.0)"));
        assertThat(valueOf(row, "ip")).isEqualTo(new OtherValue("inet", "10.0.0.1"));
    }

    @Test
    void D13_theRoleEscalationIsAChangeAndReorderedJsonbKeysAreNot() throws SQLException {
        Connection c = table();
        List<List<Value>> ba = dryRun(c, 1, "jb = '{\"b\": 1, \"role\": \"admin\"}', j = '{\"b\":1,\"role\":\"user\"}'");
        assertThat(valueOf(ba.get(1), "jb")).isEqualTo(new JsonbValue("{\"b\":1,\"role\":\"admin\"}"));
        assertThat(valueOf(ba.get(1), "jb").render() + " " + valueOf(ba.get(0), "jb").render())
                .isEqualTo("{\"b\":1,\"role\":\"admin\"} {\"b\":1,\"role\":\"user\"}");
        assertThat(valueOf(ba.get(1), "j")).as("json is text: reordered keys are a change")
                .isNotEqualTo(valueOf(ba.get(0), "j"));
        ba = dryRun(c, 1, "jb = '{ \"b\" : 1 ,  \"role\":\"user\" }'");
        assertThat(valueOf(ba.get(1), "jb")).isEqualTo(valueOf(ba.get(0), "jb"));
    }

    /** pgjdbc switches a statement to binary transfer on its fifth run; prepareThreshold=-1 forces it. */
    @Test
    void D13_textAndBinaryTransferReadTheSameValuesInAnySessionTimeZone() throws SQLException {
        List<Value> text = readPlain(table(), 1);
        try (Connection binary = connect("prepareThreshold=-1")) {
            execute(binary, "SET TimeZone = 'Asia/Kathmandu'");
            assertThat(read(binary, 1)).isEqualTo(text);
            assertThat(read(binary, 2)).isEqualTo(readPlain(table(), 2));
            for (String step : List.of("ttzoff = '07:04:56+00'", "tsfold = '2024-10-27 01:30:00+00'", "r = '1.0000002'",
                    "alb = '{5,6}'", "ai = '[0:2]={1,2,3}'")) {
                List<List<Value>> ba = dryRun(binary, 1, step);
                assertThat(ba.get(1)).as(step).isNotEqualTo(ba.get(0));
            }
        }
    }

    @Test
    void D13_intervalsReadTheSameInIsoStyleAndOtherStylesAreRefused() throws SQLException {
        Value postgresStyle = base("iv");
        try (Connection c = connect("")) {
            execute(c, "SET IntervalStyle = 'iso_8601'");
            assertThat(valueOf(readPlain(c, 1), "iv")).isEqualTo(postgresStyle);
            assertThat(valueOf(readPlain(c, 1), "ivrep")).isEqualTo(base("ivrep"));
            execute(c, "SET IntervalStyle = 'sql_standard'");
            assertThatThrownBy(() -> readPlain(c, 1)).isInstanceOf(UnreadableValueException.class)
                    .hasMessageContaining("interval");
        }
    }

    @Test
    void D13_J11_midnightAtTheEndOfTheDayKeepsItsOffsetInTextAndBinaryTransfer() throws SQLException {
        try (Connection c = connect("")) {
            c.setAutoCommit(false);
            execute(c, "UPDATE matrix SET ttz = '24:00:00-15:59' WHERE id = 1");
            assertThat(valueOf(readPlain(c, 1), "ttz"))
                    .isEqualTo(new TimeValue(86_400_000_000L, Optional.of(ZoneOffset.ofHoursMinutes(-15, -59))));
            c.rollback();
        }
        try (Connection binary = connect("prepareThreshold=-1")) {
            binary.setAutoCommit(false);
            execute(binary, "UPDATE matrix SET ttz = '24:00:00-15:59' WHERE id = 1");
            // J11: pgjdbc's getString and getObject throw for it in binary transfer; the wire bytes do not.
            assertThat(valueOf(read(binary, 1), "ttz"))
                    .isEqualTo(new TimeValue(86_400_000_000L, Optional.of(ZoneOffset.ofHoursMinutes(-15, -59))));
            assertThat(read(binary, 1)).isEqualTo(readPlain(binary, 1));
            binary.rollback();
        }
    }
}
