package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** C1: every value on a card is shown unambiguously, exactly as these strings. */
class ValueTextTest {

    @Test
    void C1_nullAndTheTextNullLookDifferent() {
        assertThat(Value.NULL.render()).isEqualTo("NULL");
        assertThat(new TextValue("NULL").render()).isEqualTo("'NULL'");
        assertThat(new TextValue("").render()).isEqualTo("''");
    }

    @Test
    void C1_textIsQuotedWithQuotesDoubledAndControlsVisible() {
        assertThat(new TextValue("it's").render()).isEqualTo("'it''s'");
        assertThat(new TextValue("a\\nb").render()).isEqualTo("'a\\\\nb'");
        assertThat(new TextValue("a\nb\r\tc").render()).isEqualTo("'a\\nb\\r\\tc'");
        assertThat(new TextValue("admin\u202E").render()).isEqualTo("'admin\\u{202E}'");
        assertThat(new TextValue("a\u00A0b\u200Bc\u0000").render()).isEqualTo("'a\\u{A0}b\\u{200B}c\\u{0}'");
        assertThat(new TextValue("\uD800x").render()).isEqualTo("'\\u{D800}x'");
        assertThat(new TextValue("héllo wörld 😀 日本").render()).isEqualTo("'héllo wörld 😀 日本'");
    }

    @Test
    void C1_longTextIsElidedInTheMiddleWithItsLength() {
        String s = "abcdefgh" + "m".repeat(1188) + "wxyz";
        assertThat(new TextValue(s).render())
                .isEqualTo("'abcdefgh" + "m".repeat(72) + "…(1200 chars)…" + "m".repeat(20) + "wxyz'");
        assertThat(new TextValue("x".repeat(ValueText.MAX_CHARS)).render()).isEqualTo("'" + "x".repeat(120) + "'");
        assertThat(new TextValue("😀".repeat(200)).render())
                .isEqualTo("'" + "😀".repeat(80) + "…(200 chars)…" + "😀".repeat(24) + "'");
    }

    @Test
    void C1_numbersAreShownAsWritten() {
        assertThat(IntegerValue.of(Long.MAX_VALUE).render()).isEqualTo("9223372036854775807");
        assertThat(new IntegerValue(new BigInteger("18446744073709551615")).render()).isEqualTo("18446744073709551615");
        assertThat(DecimalValue.of("1.10").render()).isEqualTo("1.10");
        assertThat(DecimalValue.of("1E-20").render()).isEqualTo("0.00000000000000000001");
        assertThat(FloatValue.ofDouble(0.1).render()).isEqualTo("0.1");
        assertThat(FloatValue.ofDouble(Math.nextUp(0.1)).render()).isEqualTo("0.10000000000000002");
        assertThat(FloatValue.ofFloat(Math.nextUp(1.0f)).render()).isEqualTo("1.0000001");
        assertThat(FloatValue.ofDouble(-0.0).render()).isEqualTo("-0.0");
        assertThat(FloatValue.ofDouble(Double.NaN).render()).isEqualTo("NaN");
        assertThat(new BooleanValue(true).render()).isEqualTo("true");
    }

    @Test
    void C1_binaryIsShownBySizeAndHash() {
        assertThat(BinaryValue.of(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}).render())
                .isEqualTo("0xdeadbeef (4 bytes)");
        assertThat(BinaryValue.of(new byte[0]).render()).isEqualTo("0x (0 bytes)");
        assertThat(BinaryValue.of(new byte[100_000]).render())
                .isEqualTo("0x00000000000000000000000000000000… (100000 bytes, sha256 9192c25b734f)");
    }

    @Test
    void C1_datesAndTimesAreIsoWithMicroseconds() {
        assertThat(new DateValue(2024, 5, 1).render()).isEqualTo("2024-05-01");
        assertThat(new DateValue(0, 0, 0).render()).isEqualTo("0000-00-00");
        assertThat(new DateValue(2024, 0, 15).render()).isEqualTo("2024-00-15");
        assertThat(new DateValue(-43, 3, 15).render()).isEqualTo("-0043-03-15");
        assertThat(new DateValue(12345, 1, 1).render()).isEqualTo("+12345-01-01");
        assertThat(new TimestampValue(new DateValue(2024, 5, 1), 45_296_000_000L).render())
                .isEqualTo("2024-05-01T12:34:56.000000");
        assertThat(new TimestampValue(new DateValue(0, 0, 0), 0).render()).isEqualTo("0000-00-00T00:00:00.000000");
        assertThat(new TimestampTzValue(Instant.parse("2024-10-27T01:30:00.000001Z"), ZoneOffset.ofHours(2)).render())
                .isEqualTo("2024-10-27T03:30:00.000001+02:00");
        assertThat(new TimestampTzValue(Instant.parse("2024-10-27T01:30:00Z"), ZoneOffset.UTC).render())
                .isEqualTo("2024-10-27T01:30:00.000000+00:00");
        assertThat(TimeValue.of(45_296_123_456L).render()).isEqualTo("12:34:56.123456");
        assertThat(TimeValue.of(86_400_000_000L).render()).isEqualTo("24:00:00.000000");
        assertThat(TimeValue.of(-(838L * 3600 + 59 * 60 + 59) * 1_000_000).render()).isEqualTo("-838:59:59.000000");
        assertThat(new TimeValue(45_296_123_456L, Optional.of(ZoneOffset.ofHoursMinutes(5, 30))).render())
                .isEqualTo("12:34:56.123456+05:30");
        assertThat(new IntervalValue(14, -3, 14_706_000_007L).render()).isEqualTo("1 year 2 mons -3 days +04:05:06.000007");
    }

    @Test
    void C1_jsonIsShownAsJson() {
        assertThat(new JsonValue("{\"b\":1,  \"a\":[1,2.10]}").render()).isEqualTo("{\"b\":1,  \"a\":[1,2.10]}");
        assertThat(new JsonValue("{\n  \"a\": \"x\\ny\"\n}").render()).isEqualTo("{\\u{A}  \"a\": \"x\\ny\"\\u{A}}");
        assertThat(new JsonbValue("{\"role\": \"admin\", \"a\": 1}").render()).isEqualTo("{\"a\":1,\"role\":\"admin\"}");
    }

    @Test
    void C1_otherKindsAreShownByTheirNature() {
        assertThat(new UuidValue(UUID.fromString("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11")).render())
                .isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        assertThat(new EnumValue("happy").render()).isEqualTo("'happy'");
        assertThat(new SetValue(List.of("a", "c")).render()).isEqualTo("'a,c'");
        assertThat(new SetValue(List.of()).render()).isEqualTo("''");
        assertThat(new ArrayValue(List.of(IntegerValue.of(1), Value.NULL, new TextValue("NULL"))).render())
                .isEqualTo("{1, NULL, 'NULL'}");
        assertThat(new ArrayValue(List.of(new ArrayValue(List.of(IntegerValue.of(1))), new ArrayValue(List.of()))).render())
                .isEqualTo("{{1}, {}}");
        assertThat(new ArrayValue(List.of(new ArrayValue(List.of(IntegerValue.of(1)), -1),
                new ArrayValue(List.of(IntegerValue.of(2)), -1)), 2).render()).isEqualTo("[2:3][-1:-1]={{1}, {2}}");
        assertThat(new OtherValue("inet", "10.0.0.1/8").render()).isEqualTo("inet '10.0.0.1/8'");
        assertThat(new TextValue("x").masked().render()).isEqualTo("<masked>");
    }

    @Test
    void C1_longArraysAreElidedByElement() {
        List<Value> many = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            many.add(IntegerValue.of(i));
        }
        assertThat(new ArrayValue(many).render())
                .isEqualTo("{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …(100 elements)…, 96, 97, 98, 99, 100}");
    }

    @Test
    void C1_differentSamplesRenderDifferently() {
        Set<String> seen = new HashSet<>();
        for (Value v : Samples.all()) {
            if (v instanceof MaskedValue || v instanceof TimestampTzValue) {
                continue; // masked values all read <masked>; instants render in their own offset
            }
            assertThat(seen.add(v.tag() + " " + v.render())).as("%s", v).isTrue();
        }
    }

    @Test
    void C1_aOneCharacterChangeInALongTextIsShownWhereItIs() {
        String before = "a".repeat(2500) + "b" + "a".repeat(2499);
        String after = "a".repeat(2500) + "c" + "a".repeat(2499);
        assertThat(new TextValue(before).render()).isEqualTo(new TextValue(after).render());
        ValueText.RenderedChange c = ValueText.renderChange(new TextValue(before), new TextValue(after));
        assertThat(c.before()).isEqualTo("…" + "a".repeat(30) + "b" + "a".repeat(29) + "…(at char 2502 of 5002)");
        assertThat(c.after()).isEqualTo("…" + "a".repeat(30) + "c" + "a".repeat(29) + "…(at char 2502 of 5002)");
    }

    @Test
    void C1_aChangeThatRendersDifferentlyIsShownAsItRenders() {
        ValueText.RenderedChange c = ValueText.renderChange(new JsonbValue("{\"role\":\"user\"}"),
                new JsonbValue("{\"role\":\"admin\"}"));
        assertThat(c).isEqualTo(new ValueText.RenderedChange("{\"role\":\"user\"}", "{\"role\":\"admin\"}"));
        assertThat(ValueText.renderChange(Value.NULL, new TextValue("NULL")))
                .isEqualTo(new ValueText.RenderedChange("NULL", "'NULL'"));
    }

    @Test
    void C1_aOneByteChangeInALargeBlobShowsDifferentHashes() {
        byte[] a = new byte[100_000];
        byte[] b = a.clone();
        b[50_000] = 1;
        ValueText.RenderedChange c = ValueText.renderChange(BinaryValue.of(a), BinaryValue.of(b));
        assertThat(c.before()).isNotEqualTo(c.after());
        assertThat(c.before()).startsWith("0x00000000000000000000000000000000… (100000 bytes, sha256 ");
    }
}
