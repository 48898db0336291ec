/**
 * The typed value model: what one column of one row holds, as the database holds it (D13).
 *
 * <p>{@link dev.llmsafe.value.Value} is a sealed interface over immutable records, one per kind of
 * value. Equality is by type and content, exact: 64-bit and unsigned integers, decimals with their
 * scale, floats bit for bit, timestamps to the microsecond, MySQL zero dates as they are, binary by
 * SHA-256, JSON as text and JSONB canonically. The dialect readers produce values, the planner and the
 * applier compare them, the store keeps them in their JSON form, the card renders them. This package
 * sits below all of those and depends on nothing of the project, only on Jackson; it knows nothing of
 * JDBC.
 *
 * <h2>JSON form</h2>
 * One object per value; {@code t} is the type tag. The tags and fields are a public, stable format
 * (stored plans, C4 cards): a new kind of value gets a new tag, an existing one never changes meaning.
 * Numbers that must stay exact are strings. Reading is strict: unknown tags and missing or extra fields
 * are errors.
 *
 * <table>
 *   <caption>Value JSON form</caption>
 *   <tr><th>t</th><th>record</th><th>fields</th><th>example</th></tr>
 *   <tr><td>null</td><td>NullValue</td><td></td><td>{@code {"t":"null"}}</td></tr>
 *   <tr><td>int</td><td>IntegerValue</td><td>v: decimal digits</td>
 *       <td>{@code {"t":"int","v":"18446744073709551615"}}</td></tr>
 *   <tr><td>dec</td><td>DecimalValue</td><td>v: BigDecimal text, scale kept</td>
 *       <td>{@code {"t":"dec","v":"1.10"}}</td></tr>
 *   <tr><td>f64, f32</td><td>FloatValue</td><td>v: shortest exact text, NaN, Infinity, -Infinity</td>
 *       <td>{@code {"t":"f64","v":"0.1"}}</td></tr>
 *   <tr><td>bool</td><td>BooleanValue</td><td>v: true or false</td><td>{@code {"t":"bool","v":true}}</td></tr>
 *   <tr><td>text</td><td>TextValue</td><td>v: the text</td><td>{@code {"t":"text","v":"héllo"}}</td></tr>
 *   <tr><td>bin</td><td>BinaryValue</td><td>len: byte count; sha256, head: lower-case hex</td>
 *       <td>{@code {"t":"bin","len":4,"sha256":"5f78…","head":"deadbeef"}}</td></tr>
 *   <tr><td>date</td><td>DateValue</td><td>v: ISO date, zero parts allowed</td>
 *       <td>{@code {"t":"date","v":"0000-00-00"}}, {@code "-0043-03-15"}</td></tr>
 *   <tr><td>time</td><td>TimeValue</td><td>v: [-]HH:MM:SS.ffffff; offset (timetz only)</td>
 *       <td>{@code {"t":"time","v":"12:34:56.123456","offset":"+05:30"}}</td></tr>
 *   <tr><td>ts</td><td>TimestampValue</td><td>v: ISO local timestamp, six fraction digits</td>
 *       <td>{@code {"t":"ts","v":"2024-05-01T12:34:56.123456"}}</td></tr>
 *   <tr><td>tstz</td><td>TimestampTzValue</td><td>v: the instant in UTC; shown: the offset it was shown in</td>
 *       <td>{@code {"t":"tstz","v":"2024-10-27T01:30:00.000001Z","shown":"+02:00"}}</td></tr>
 *   <tr><td>interval</td><td>IntervalValue</td><td>months, days: integers; micros: digits</td>
 *       <td>{@code {"t":"interval","months":14,"days":-3,"micros":"14706000007"}}</td></tr>
 *   <tr><td>uuid</td><td>UuidValue</td><td>v: lower-case UUID</td>
 *       <td>{@code {"t":"uuid","v":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}}</td></tr>
 *   <tr><td>enum</td><td>EnumValue</td><td>v: the label</td><td>{@code {"t":"enum","v":"happy"}}</td></tr>
 *   <tr><td>set</td><td>SetValue</td><td>v: the members</td><td>{@code {"t":"set","v":["a","c"]}}</td></tr>
 *   <tr><td>json</td><td>JsonValue</td><td>v: the JSON text as stored</td>
 *       <td>{@code {"t":"json","v":"{\"b\":1, \"a\":2}"}}</td></tr>
 *   <tr><td>jsonb</td><td>JsonbValue</td><td>v: the canonical JSON text</td>
 *       <td>{@code {"t":"jsonb","v":"{\"a\":2,\"b\":1}"}}</td></tr>
 *   <tr><td>array</td><td>ArrayValue</td><td>v: the elements' JSON forms; lower: the first index,
 *       only when not 1</td>
 *       <td>{@code {"t":"array","v":[{"t":"int","v":"1"},{"t":"null"}]}}</td></tr>
 *   <tr><td>other</td><td>OtherValue</td><td>type: the database's type name; v: its exact text</td>
 *       <td>{@code {"t":"other","type":"inet","v":"10.0.0.1/8"}}</td></tr>
 *   <tr><td>masked</td><td>MaskedValue</td><td>alg: sha256 or hmac-sha256; v: lower-case hex</td>
 *       <td>{@code {"t":"masked","alg":"hmac-sha256","v":"9c1e…"}}</td></tr>
 * </table>
 *
 * <p>A masked value hashes the JSON form above without {@code shown} (the only field that is display,
 * not content), so equal values give equal hashes.
 *
 * <h2>Showing text to a person</h2>
 * {@link dev.llmsafe.value.Visible} is the one place that decides how any text reaches a screen (C5):
 * controls, bidi and invisible characters become escapes, and the escape is never ambiguous.
 * {@link dev.llmsafe.value.ValueText} renders values with it; the card, {@code llmsafe show},
 * {@code list} and {@code read}, and the JSON printers use it too. {@link dev.llmsafe.value.LookAlike}
 * says when the two sides of a change look the same (C6), with {@code Confusables}' skeleton.
 */
package dev.llmsafe.value;
