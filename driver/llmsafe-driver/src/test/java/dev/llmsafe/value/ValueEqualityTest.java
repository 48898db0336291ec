package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** D13: equality is by type and content, exact; no tolerance, no coercion between types. */
class ValueEqualityTest {

    @Test
    void D13_everySampleEqualsOnlyItself() {
        List<Value> all = Samples.all();
        for (int i = 0; i < all.size(); i++) {
            for (int j = 0; j < all.size(); j++) {
                assertThat(all.get(i).equals(all.get(j))).as("%s vs %s", all.get(i), all.get(j)).isEqualTo(i == j);
            }
        }
    }

    @Test
    void D13_theRoleEscalationIsAChange() {
        assertThat(new JsonbValue("{\"role\":\"user\"}")).isNotEqualTo(new JsonbValue("{\"role\":\"admin\"}"));
        assertThat(new JsonValue("{\"role\":\"user\"}")).isNotEqualTo(new JsonValue("{\"role\":\"admin\"}"));
    }

    @Test
    void D13_jsonbIgnoresKeyOrderAndWhitespaceButJsonDoesNot() {
        assertThat(new JsonbValue("{\"b\": 1,\n \"a\": [1, {\"y\":2,\"x\":1}]}"))
                .isEqualTo(new JsonbValue("{\"a\":[1,{\"x\":1,\"y\":2}],\"b\":1}"));
        assertThat(new JsonbValue("{\"b\":1,\"a\":2}").text()).isEqualTo("{\"a\":2,\"b\":1}");
        assertThat(new JsonValue("{\"b\":1,\"a\":2}")).isNotEqualTo(new JsonValue("{\"a\":2,\"b\":1}"));
        assertThat(new JsonbValue("[1,2]")).isNotEqualTo(new JsonbValue("[2,1]"));
    }

    @Test
    void D13_jsonbKeepsNumbersAsWrittenAndTheLastOfDuplicateKeys() {
        assertThat(new JsonbValue("{\"n\":2.10}").text()).isEqualTo("{\"n\":2.10}");
        assertThat(new JsonbValue("{\"n\":2.10}")).isNotEqualTo(new JsonbValue("{\"n\":2.1}"));
        assertThat(new JsonbValue("{\"n\":12345678901234567890123}").text()).isEqualTo("{\"n\":12345678901234567890123}");
        assertThat(new JsonbValue("{\"a\":1,\"a\":2}")).isEqualTo(new JsonbValue("{\"a\":2}"));
        assertThat(new JsonbValue("\"\\u00e9\"")).isEqualTo(new JsonbValue("\"é\""));
    }

    @Test
    void D13_decimalScaleIsPartOfTheValue() {
        assertThat(DecimalValue.of("1.10")).isNotEqualTo(DecimalValue.of("1.1"));
        assertThat(DecimalValue.of("1.10")).isEqualTo(new DecimalValue(new BigDecimal("1.10")));
        assertThat(DecimalValue.of("0.00000000000000000001")).isEqualTo(DecimalValue.of("1E-20"));
    }

    @Test
    void D13_floatsCompareBitForBitWithoutTolerance() {
        assertThat(FloatValue.ofDouble(0.1)).isNotEqualTo(FloatValue.ofDouble(Math.nextUp(0.1)));
        assertThat(FloatValue.ofDouble(0.0)).isNotEqualTo(FloatValue.ofDouble(-0.0));
        assertThat(FloatValue.ofDouble(Double.NaN)).isEqualTo(FloatValue.ofDouble(Double.NaN));
        assertThat(FloatValue.ofFloat(0.5f)).isNotEqualTo(FloatValue.ofDouble(0.5));
        assertThatThrownBy(() -> new FloatValue(0.1, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void D13_typesDoNotCoerce() {
        assertThat(IntegerValue.of(1)).isNotEqualTo(DecimalValue.of("1"));
        assertThat(IntegerValue.of(1)).isNotEqualTo(new TextValue("1"));
        assertThat(new TextValue("NULL")).isNotEqualTo(Value.NULL);
        assertThat(new EnumValue("a")).isNotEqualTo(new TextValue("a"));
        assertThat(new JsonValue("{}")).isNotEqualTo(new JsonbValue("{}"));
        assertThat(new ArrayValue(List.of(Value.NULL))).isNotEqualTo(new ArrayValue(List.of(new TextValue("NULL"))));
    }

    @Test
    void D13_aTimestampWithTimeZoneIsItsInstantWhateverOffsetShowsIt() {
        Instant i = Instant.parse("2024-10-27T01:30:00.000001Z");
        assertThat(new TimestampTzValue(i, ZoneOffset.ofHours(2))).isEqualTo(new TimestampTzValue(i, ZoneOffset.UTC));
        assertThat(new TimestampTzValue(i, ZoneOffset.UTC))
                .isNotEqualTo(new TimestampTzValue(i.plusNanos(1000), ZoneOffset.UTC));
        assertThatThrownBy(() -> new TimestampTzValue(i.plusNanos(1), ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void D13_aTimeWithTimeZoneKeepsItsOffset() {
        assertThat(new TimeValue(45_000_000_000L, Optional.of(ZoneOffset.ofHoursMinutes(5, 30))))
                .isNotEqualTo(new TimeValue(25_200_000_000L, Optional.of(ZoneOffset.UTC)));
        assertThat(TimeValue.of(1)).isNotEqualTo(new TimeValue(1, Optional.of(ZoneOffset.UTC)));
    }

    @Test
    void D13_zeroDatesAreKeptAsTheyAre() {
        assertThat(new DateValue(0, 0, 0).toLocalDate()).isEmpty();
        assertThat(new DateValue(2024, 2, 30).toLocalDate()).isEmpty();
        assertThat(new DateValue(2024, 2, 29).toLocalDate()).isPresent();
        assertThat(new DateValue(0, 0, 0)).isNotEqualTo(new DateValue(0, 0, 1));
        assertThatThrownBy(() -> new DateValue(2024, 13, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void D13_intervalsAreCompareAsStoredNotNormalised() {
        assertThat(new IntervalValue(1, 0, 0)).isNotEqualTo(new IntervalValue(0, 30, 0));
        assertThat(new IntervalValue(14, -3, 14_706_000_007L).postgresText())
                .isEqualTo("1 year 2 mons -3 days +04:05:06.000007");
        assertThat(new IntervalValue(-12, 2, -1_000_000).postgresText()).isEqualTo("-1 years +2 days -00:00:01");
        assertThat(new IntervalValue(0, 0, 0).postgresText()).isEqualTo("00:00:00");
    }

    @Test
    void D13_binaryIsComparedByHashAndLengthAndDoesNotKeepTheBytes() {
        byte[] a = new byte[1_000_000];
        byte[] b = a.clone();
        b[500_000] = 1;
        assertThat(BinaryValue.of(a)).isNotEqualTo(BinaryValue.of(b));
        assertThat(BinaryValue.of(a)).isEqualTo(BinaryValue.of(a.clone()));
        assertThat(BinaryValue.of(a).head()).hasSize(2 * BinaryValue.HEAD_BYTES);
        assertThat(BinaryValue.of(new byte[0])).isNotEqualTo(BinaryValue.of(new byte[1]));
    }
}
