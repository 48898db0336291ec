package dev.llmsafe.value;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** At least one value of every kind, with the edges each kind has. */
final class Samples {

    private Samples() {
    }

    static List<Value> all() {
        return List.of(
                Value.NULL,
                IntegerValue.of(Long.MAX_VALUE),
                IntegerValue.of(Long.MIN_VALUE),
                new IntegerValue(new BigInteger("18446744073709551615")),
                DecimalValue.of("1.10"),
                DecimalValue.of("1.1"),
                DecimalValue.of("-0.00000000000000000001"),
                new DecimalValue(new BigDecimal("1E+3")),
                DecimalValue.of("12345678901234567890123456789012345.123456789012345678901234567890"),
                FloatValue.ofDouble(0.1),
                FloatValue.ofDouble(Math.nextUp(0.1)),
                FloatValue.ofDouble(-0.0),
                FloatValue.ofDouble(Double.NaN),
                FloatValue.ofDouble(Double.NEGATIVE_INFINITY),
                FloatValue.ofDouble(Double.MIN_VALUE),
                FloatValue.ofFloat(0.1f),
                FloatValue.ofFloat(Math.nextUp(1.0f)),
                new BooleanValue(true),
                new BooleanValue(false),
                new TextValue(""),
                new TextValue("NULL"),
                new TextValue("it's a \\ \"quote\"\n\t\u202E\u0000 é 😀 日本"),
                new TextValue("x".repeat(5000)),
                BinaryValue.of(new byte[0]),
                BinaryValue.of(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}),
                BinaryValue.of(new byte[100_000]),
                new DateValue(2024, 2, 29),
                new DateValue(0, 0, 0),
                new DateValue(2024, 0, 15),
                new DateValue(-43, 3, 15),
                new DateValue(5874897, 12, 31),
                TimeValue.of(0),
                TimeValue.of(86_400_000_000L),
                TimeValue.of(-(838L * 3600 + 59 * 60 + 59) * 1_000_000 - 1),
                new TimeValue(45_296_123_456L, Optional.of(ZoneOffset.ofHoursMinutes(5, 30))),
                new TimeValue(1, Optional.of(ZoneOffset.ofHoursMinutesSeconds(-15, -59, -1))),
                new TimestampValue(new DateValue(2024, 5, 1), 45_296_123_456L),
                new TimestampValue(new DateValue(0, 0, 0), 0),
                new TimestampValue(new DateValue(-43, 3, 15), 43_200_000_000L),
                new TimestampTzValue(Instant.parse("2024-10-27T01:30:00.000001Z"), ZoneOffset.ofHours(2)),
                new TimestampTzValue(Instant.parse("1850-01-01T00:00:00Z"), ZoneOffset.ofHoursMinutesSeconds(0, 53, 28)),
                new TimestampTzValue(Instant.parse("-0043-03-15T12:00:00Z"), ZoneOffset.UTC),
                new IntervalValue(14, -3, 14_706_000_007L),
                new IntervalValue(0, 0, 0),
                new IntervalValue(-2_136_000_000, 0, -1),
                new UuidValue(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
                new EnumValue("happy"),
                new SetValue(List.of("a", "c")),
                new SetValue(List.of()),
                new JsonValue("{\"b\":1,  \"a\":[1,2.10]}"),
                new JsonbValue("{\"role\":\"user\",\"n\":2.10,\"big\":123456789012345678901234567890}"),
                new JsonbValue("[]"),
                new ArrayValue(List.of(IntegerValue.of(1), Value.NULL, new TextValue("NULL"))),
                new ArrayValue(List.of(new ArrayValue(List.of(IntegerValue.of(1))), new ArrayValue(List.of()))),
                new ArrayValue(List.of(new ArrayValue(List.of(IntegerValue.of(1)), -1),
                        new ArrayValue(List.of(IntegerValue.of(2)), -1)), 2),
                new OtherValue("inet", "10.0.0.1/8"),
                new OtherValue("numeric", "NaN"),
                new TextValue("secret").masked(),
                new TextValue("secret").masked(new byte[] {1, 2, 3}));
    }
}
