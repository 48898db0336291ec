package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A10: every value reads back from its JSON form equal to itself, and the form is the documented one. */
class ValueJsonTest {

    static Iterable<Value> samples() {
        return Samples.all();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void A10_everyValueRoundTripsThroughItsJsonForm(Value v) {
        String json = v.toJson();
        Value back = Value.fromJson(json);
        assertThat(back).isEqualTo(v);
        assertThat(back.toJson()).isEqualTo(json);
        assertThat(back.render()).isEqualTo(v.render());
    }

    @Test
    void A10_differentValuesHaveDifferentJsonForms() {
        Set<String> forms = new HashSet<>();
        for (Value v : Samples.all()) {
            assertThat(forms.add(v.toJson())).as("a second value with the form %s", v.toJson()).isTrue();
        }
    }

    @Test
    void A10_theJsonFormIsTheDocumentedOne() {
        assertThat(IntegerValue.of(Long.MAX_VALUE).toJson()).isEqualTo("{\"t\":\"int\",\"v\":\"9223372036854775807\"}");
        assertThat(DecimalValue.of("1.10").toJson()).isEqualTo("{\"t\":\"dec\",\"v\":\"1.10\"}");
        assertThat(FloatValue.ofFloat(0.1f).toJson()).isEqualTo("{\"t\":\"f32\",\"v\":\"0.1\"}");
        assertThat(Value.NULL.toJson()).isEqualTo("{\"t\":\"null\"}");
        assertThat(new DateValue(0, 0, 0).toJson()).isEqualTo("{\"t\":\"date\",\"v\":\"0000-00-00\"}");
        assertThat(new DateValue(-43, 3, 15).toJson()).isEqualTo("{\"t\":\"date\",\"v\":\"-0043-03-15\"}");
        assertThat(new TimestampTzValue(Instant.parse("2024-10-27T01:30:00.000001Z"), ZoneOffset.ofHours(2)).toJson())
                .isEqualTo("{\"t\":\"tstz\",\"v\":\"2024-10-27T01:30:00.000001Z\",\"shown\":\"+02:00\"}");
        assertThat(new IntervalValue(14, -3, 14_706_000_007L).toJson())
                .isEqualTo("{\"t\":\"interval\",\"months\":14,\"days\":-3,\"micros\":\"14706000007\"}");
        assertThat(BinaryValue.of(new byte[] {1, 2}).toJson()).isEqualTo("{\"t\":\"bin\",\"len\":2,\"sha256\":"
                + "\"a12871fee210fb8619291eaea194581cbd2531e4b23759d225f6806923f63222\",\"head\":\"0102\"}");
    }

    @Test
    void A10_aTimestampKeepsTheOffsetItWasShownIn() {
        TimestampTzValue v = new TimestampTzValue(Instant.parse("1850-01-01T00:00:00Z"),
                ZoneOffset.ofHoursMinutesSeconds(0, 53, 28));
        TimestampTzValue back = (TimestampTzValue) Value.fromJson(v.toJson());
        assertThat(back.shown()).isEqualTo(v.shown());
        assertThat(back.render()).isEqualTo("1850-01-01T00:53:28.000000+00:53:28");
    }

    @Test
    void A10_aMalformedFormIsRefusedNotGuessed() {
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"int\",\"v\":42}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"int\",\"v\":\"42\",\"x\":1}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fields");
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"money\",\"v\":\"1\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown value type");
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"date\",\"v\":\"2024-13-01\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"date\",\"v\":\"024-01-01\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"bin\",\"len\":3,\"sha256\":\"00\",\"head\":\"010203\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"jsonb\",\"v\":\"{\\\"a\\\":\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Value.fromJson("{\"t\":\"null\"} trailing")).isInstanceOf(IllegalArgumentException.class);
    }
}
