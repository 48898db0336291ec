package dev.llmsafe.value;

/**
 * One value of one column as the database holds it. Every implementation is an immutable record;
 * two values are equal when they have the same type and the same content, which is what the planner
 * (D10, D13), the rollback proof (D7) and the applier (A4) compare.
 *
 * <p>Every value has a stable JSON form ({@link #toJson()}, {@link #fromJson(String)}; the schema is in
 * the package documentation) that reads back equal (A10), a text form for the card ({@link #render()},
 * C1), and a masked form that carries only a hash ({@link #masked()}, D12).
 */
public sealed interface Value
        permits NullValue, IntegerValue, DecimalValue, FloatValue, BooleanValue, TextValue, BinaryValue,
                DateValue, TimeValue, TimestampValue, TimestampTzValue, IntervalValue, UuidValue, EnumValue,
                SetValue, JsonValue, JsonbValue, ArrayValue, OtherValue, MaskedValue {

    /** SQL NULL. */
    Value NULL = new NullValue();

    /** The type tag of the JSON form: short, stable, part of the public format. */
    String tag();

    /** True for SQL NULL. */
    default boolean isNull() {
        return this instanceof NullValue;
    }

    /** The value for a card: unambiguous, long values elided in the middle (see {@link ValueText}). */
    default String render() {
        return ValueText.render(this);
    }

    /** The stable JSON form, one line. {@code Value.fromJson(v.toJson()).equals(v)} always holds. */
    default String toJson() {
        return ValueJson.write(this);
    }

    /** Reads the JSON form back; a malformed or unknown form is an {@link IllegalArgumentException}. */
    static Value fromJson(String json) {
        return ValueJson.read(json);
    }

    /**
     * This value reduced to a plain SHA-256 of its canonical form (D12). Anyone can hash a guess and
     * compare, so use {@link #masked(byte[])} with a key where the values are guessable.
     */
    default MaskedValue masked() {
        return MaskedValue.of(this, null);
    }

    /** This value reduced to an HMAC-SHA256 of its canonical form under the key (D12). */
    default MaskedValue masked(byte[] key) {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("a masking key must not be empty");
        }
        return MaskedValue.of(this, key);
    }
}
