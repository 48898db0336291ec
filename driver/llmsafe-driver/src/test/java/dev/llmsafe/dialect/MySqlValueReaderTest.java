package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.JsonbValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.SetValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.TimeValue;
import dev.llmsafe.value.TimestampTzValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The MySQL/MariaDB reader on a real server (D13, A10); MariaDB 10.11 in CI, MySQL 8.4 elsewhere. */
class MySqlValueReaderTest extends TypeMatrix {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String ONES = "b'" + "1".repeat(64) + "'";

    private Boolean mariadb;

    @Override
    ScratchDatabase db() {
        return dbs.get(Engine.MYSQL);
    }

    boolean mariadb() throws SQLException {
        if (mariadb == null) {
            mariadb = db().serverVersion().toLowerCase().contains("mariadb");
        }
        return mariadb;
    }

    @Override
    ValueReader reader() throws SQLException {
        return mariadb() ? ValueReader.mariadb() : ValueReader.mysql();
    }

    @Override
    List<String> sessionSetup() {
        // Zero dates are what this test is about; MySQL 8 refuses them by default.
        return List.of("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'", "SET time_zone = '+00:00'");
    }

    @Override
    List<Col> columns() throws SQLException {
        List<Col> cols = new ArrayList<>(List.of(
                new Col("ti1", "TINYINT(1)", "1", "2"),
                new Col("bi", "BIGINT", "9223372036854775807", "9223372036854775806"),
                new Col("bu", "BIGINT UNSIGNED", "18446744073709551615", "18446744073709551614"),
                new Col("de", "DECIMAL(30,10)", "12345678901234567890.1234567891", "12345678901234567890.1234567892"),
                new Col("fl", "FLOAT", "1.0000001", "1.0000002"),
                new Col("db", "DOUBLE", "0.1", "0.10000000000000002"),
                new Col("bt", "BIT(64)", ONES, "b'" + "1".repeat(63) + "0'"),
                new Col("b1", "BIT(1)", "b'0'", "b'1'"),
                new Col("vc", "VARCHAR(100)", "'héllo 😀 日本'", "'héllo 😁 日本'"),
                new Col("lt", "LONGTEXT", "CONCAT(REPEAT('a', 2500), 'b', REPEAT('a', 2499))",
                        "CONCAT(REPEAT('a', 2500), 'c', REPEAT('a', 2499))"),
                new Col("bl", "LONGBLOB", "REPEAT(x'00', 100000)",
                        "CONCAT(REPEAT(x'00', 50000), x'01', REPEAT(x'00', 49999))"),
                new Col("dt", "DATE", "'2024-05-01'", "'2024-05-02'"),
                new Col("dz", "DATE", "'0000-00-00'", "'0000-00-01'"),
                new Col("dzp", "DATE", "'2024-00-15'", "'2024-00-16'"),
                new Col("dtm", "DATETIME(6)", "'2024-05-01 12:34:56.123456'", "'2024-05-01 12:34:56.123457'"),
                new Col("dtz", "DATETIME", "'0000-00-00 00:00:00'", "'0000-00-00 00:00:01'"),
                new Col("ts", "TIMESTAMP(6) NULL DEFAULT NULL", "'2024-10-27 01:30:00.000001'", "'2024-10-27 01:30:00.000002'"),
                new Col("tsz", "TIMESTAMP NULL DEFAULT NULL", "'0000-00-00 00:00:00'", "'1970-01-01 00:00:01'"),
                new Col("tm", "TIME(6)", "'-838:59:59.000000'", "'-838:59:58.999999'"),
                new Col("yr", "YEAR", "0", "2000"),
                new Col("en", "ENUM('sad','ok','happy')", "'ok'", "'happy'"),
                new Col("st", "SET('a','b','c')", "'a,c'", "'a,b,c'"),
                new Col("js", "JSON", "'{\"role\":\"user\",\"b\":1}'", "'{\"role\":\"admin\",\"b\":1}'")));
        if (mariadb()) {
            cols.add(new Col("uu", "UUID", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12'"));
            cols.add(new Col("i6", "INET6", "'::1'", "'::2'"));
        }
        return cols;
    }

    @Test
    void D13_valuesAreReadAsTheDatabaseHoldsThem() throws SQLException {
        List<Value> row = read(table(), 1);
        assertThat(valueOf(row, "ti1")).isEqualTo(IntegerValue.of(1));
        assertThat(valueOf(row, "bi")).isEqualTo(IntegerValue.of(Long.MAX_VALUE));
        assertThat(valueOf(row, "bu")).isEqualTo(new IntegerValue(new BigInteger("18446744073709551615")));
        assertThat(valueOf(row, "de")).isEqualTo(DecimalValue.of("12345678901234567890.1234567891"));
        assertThat(valueOf(row, "fl")).isEqualTo(FloatValue.ofDouble(1.0000001f));
        assertThat(valueOf(row, "db")).isEqualTo(FloatValue.ofDouble(0.1));
        assertThat(valueOf(row, "bt")).isEqualTo(new IntegerValue(new BigInteger("18446744073709551615")));
        assertThat(valueOf(row, "b1")).isEqualTo(IntegerValue.of(0));
        assertThat(valueOf(row, "vc")).isEqualTo(new TextValue("héllo 😀 日本"));
        assertThat(valueOf(row, "bl")).isEqualTo(BinaryValue.of(new byte[100_000]));
        assertThat(valueOf(row, "dz")).isEqualTo(new DateValue(0, 0, 0));
        assertThat(valueOf(row, "dzp")).isEqualTo(new DateValue(2024, 0, 15));
        assertThat(valueOf(row, "dtm")).isEqualTo(new TimestampValue(new DateValue(2024, 5, 1), 45_296_123_456L));
        assertThat(valueOf(row, "dtz")).isEqualTo(new TimestampValue(new DateValue(0, 0, 0), 0));
        assertThat(valueOf(row, "ts")).isEqualTo(new TimestampTzValue(Instant.parse("2024-10-27T01:30:00.000001Z"), ZoneOffset.UTC));
        assertThat(valueOf(row, "tsz")).isEqualTo(new TimestampValue(new DateValue(0, 0, 0), 0));
        assertThat(valueOf(row, "tm")).isEqualTo(TimeValue.of(-(838L * 3600 + 59 * 60 + 59) * 1_000_000));
        assertThat(valueOf(row, "yr")).isEqualTo(IntegerValue.of(0));
        assertThat(valueOf(row, "en")).isEqualTo(new EnumValue("ok"));
        assertThat(valueOf(row, "st")).isEqualTo(new SetValue(List.of("a", "c")));
        if (mariadb()) {
            assertThat(valueOf(row, "js")).isEqualTo(new JsonValue("{\"role\":\"user\",\"b\":1}"));
            assertThat(valueOf(row, "uu")).isEqualTo(new UuidValue(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")));
            assertThat(valueOf(row, "i6")).isEqualTo(new OtherValue("inet6", "::1"));
        } else {
            assertThat(valueOf(row, "js")).isEqualTo(new JsonbValue("{\"b\":1,\"role\":\"user\"}"));
        }
    }

    @Test
    void D13_theRoleEscalationIsAChange() throws SQLException {
        List<List<Value>> ba = dryRun(table(), 1, "js = '{\"role\":\"admin\",\"b\":1}'");
        assertThat(valueOf(ba.get(0), "js").render()).contains("\"role\":\"user\"");
        assertThat(valueOf(ba.get(1), "js").render()).contains("\"role\":\"admin\"");
        ba = dryRun(table(), 1, "js = '{\"b\":1,\"role\":\"user\"}'");
        if (mariadb()) {
            assertThat(valueOf(ba.get(1), "js")).as("MariaDB JSON is text").isNotEqualTo(valueOf(ba.get(0), "js"));
        } else {
            assertThat(valueOf(ba.get(1), "js")).as("MySQL JSON is a document").isEqualTo(valueOf(ba.get(0), "js"));
        }
    }

    @Test
    void D13_textAndBinaryProtocolAndAnyFixedSessionZoneReadTheSameValues() throws SQLException {
        List<Value> text = readPlain(table(), 1);
        try (Connection binary = connect("useServerPrepStmts=true&zeroDateTimeBehavior=CONVERT_TO_NULL")) {
            assertThat(read(binary, 1)).isEqualTo(text);
            execute(binary, "SET time_zone = '+05:30'");
            List<Value> shifted = read(binary, 1);
            assertThat(shifted).isEqualTo(text);
            assertThat(((TimestampTzValue) valueOf(shifted, "ts")).render()).isEqualTo("2024-10-27T07:00:00.000001+05:30");
            for (String step : List.of("fl = 1.0000002", "ts = '2024-10-27 07:00:00.000002'", "yr = 2000", "dz = '0000-00-01'")) {
                List<List<Value>> ba = dryRun(binary, 1, step);
                assertThat(ba.get(1)).as(step).isNotEqualTo(ba.get(0));
            }
        }
    }

    @Test
    void D13_aFloatReadAsRoundedTextIsRefused() throws SQLException {
        Connection c = table();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT fl FROM matrix WHERE id = 1")) {
            assertThatThrownBy(() -> reader().rowReader(c, rs.getMetaData()))
                    .isInstanceOf(UnreadableValueException.class).hasMessageContaining("CAST(`fl` AS DOUBLE)");
        }
    }

    @Test
    void D13_aSessionTimeZoneWithDaylightSavingTimeIsRefused() throws UnreadableValueException {
        assertThat(MySqlSessionZone.offset("+00:00", "CET")).isEqualTo(ZoneOffset.UTC);
        assertThat(MySqlSessionZone.offset("-5:00", "UTC")).isEqualTo(ZoneOffset.ofHours(-5));
        assertThat(MySqlSessionZone.offset("SYSTEM", "UTC")).isEqualTo(ZoneOffset.UTC);
        assertThatThrownBy(() -> MySqlSessionZone.offset("Europe/Berlin", "UTC"))
                .isInstanceOf(UnreadableValueException.class).hasMessageContaining("time_zone = '+00:00'");
        assertThatThrownBy(() -> MySqlSessionZone.offset("SYSTEM", "CET"))
                .isInstanceOf(UnreadableValueException.class).hasMessageContaining("CET");
    }

    @Test
    void D13_mariadbJsonIsFoundByItsCheckConstraint() {
        assertThat(MySqlCatalogTypes.jsonValidColumn("json_valid(`js`)")).isEqualTo("js");
        assertThat(MySqlCatalogTypes.jsonValidColumn("json_valid(`a``b`)")).isEqualTo("a`b");
        assertThat(MySqlCatalogTypes.jsonValidColumn("json_valid(`a`) and `b` > 0")).isNull();
        assertThat(MySqlCatalogTypes.jsonValidColumn("`a` > 0")).isNull();
    }
}
