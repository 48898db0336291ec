package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.Value;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The SQLite reader (D13, A10): values by the storage class they have, not the declared type. */
class SqliteValueReaderTest extends TypeMatrix {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String A2500 = "replace(hex(zeroblob(2500)), '00', 'a')";
    private static final String A2499 = "replace(hex(zeroblob(2499)), '00', 'a')";

    @Override
    ScratchDatabase db() {
        return dbs.get(Engine.SQLITE);
    }

    @Override
    ValueReader reader() {
        return ValueReader.sqlite();
    }

    @Override
    List<Col> columns() {
        return List.of(
                new Col("i", "INTEGER", "9223372036854775807", "9223372036854775806"),
                new Col("r", "REAL", "0.1", "0.10000000000000002"),
                new Col("t", "TEXT", A2500 + " || 'b' || " + A2499, A2500 + " || 'c' || " + A2499),
                new Col("tu", "TEXT", "'héllo 😀 日本'", "'héllo 😁 日本'"),
                new Col("b", "BLOB", "zeroblob(100000)", "zeroblob(50000) || x'01' || zeroblob(49999)"),
                new Col("n", "NUMERIC", "1.5", "1.5000000000000002"),
                new Col("j", "JSON", "'{\"role\":\"user\",\"b\":1}'", "'{\"role\":\"admin\",\"b\":1}'"),
                new Col("dyn", "", "1", "'1'"),
                new Col("tx", "TEXT", "'1'", "x'31'"),
                new Col("dt", "DATETIME", "'2024-05-01 12:34:56.123456'", "'2024-05-01 12:34:56.123457'"),
                new Col("bad", "TEXT", "CAST(x'ff' AS TEXT)", "CAST(x'fe' AS TEXT)"),
                new Col("bo", "BOOLEAN", "1", "2"),
                new Col("de", "DECIMAL(10,2)", "'1.10'", "'1.11'"));
    }

    @Test
    void D13_valuesAreReadByTheirStorageClass() throws SQLException {
        List<Value> row = read(table(), 1);
        assertThat(valueOf(row, "i")).isEqualTo(IntegerValue.of(Long.MAX_VALUE));
        assertThat(valueOf(row, "r")).isEqualTo(FloatValue.ofDouble(0.1));
        assertThat(valueOf(row, "b")).isEqualTo(BinaryValue.of(new byte[100_000]));
        assertThat(valueOf(row, "n")).isEqualTo(FloatValue.ofDouble(1.5));
        assertThat(valueOf(row, "j")).isEqualTo(new JsonValue("{\"role\":\"user\",\"b\":1}"));
        assertThat(valueOf(row, "dyn")).isEqualTo(IntegerValue.of(1));
        assertThat(valueOf(row, "tx")).isEqualTo(new TextValue("1"));
        assertThat(valueOf(row, "bad")).isEqualTo(new OtherValue(SqliteValueReader.INVALID_UTF8, "ff"));
        assertThat(valueOf(row, "bo")).isEqualTo(IntegerValue.of(1));
        assertThat(valueOf(row, "de")).as("NUMERIC affinity stores 1.10 as the REAL 1.1").isEqualTo(FloatValue.ofDouble(1.1));
    }

    @Test
    void D13_theSameTextInAnotherStorageClassIsAChange() throws SQLException {
        List<List<Value>> ba = dryRun(table(), 1, "dyn = '1', i = 9223372036854775807.0");
        assertThat(valueOf(ba.get(1), "dyn")).isEqualTo(new TextValue("1"));
        assertThat(valueOf(ba.get(1), "i")).as("INTEGER affinity cannot keep this REAL exactly")
                .isEqualTo(FloatValue.ofDouble(9.223372036854775807E18));
    }
}
