package dev.llmsafe.dialect;

import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.Value;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite through sqlite-jdbc. SQLite is dynamically typed: a column declared INTEGER can hold the
 * text 'abc' and one declared TEXT the integer 42, so each value is read by the storage class it has.
 * Measured (sqlite-jdbc 3.54.1.0): getObject follows the storage class of the value, not the declared
 * type (Integer or Long for INTEGER, Double for REAL, String for TEXT, byte[] for BLOB, even in columns
 * declared DATE or BOOLEAN), so it is the getter used.
 */
final class SqliteValueReader implements ValueReader {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteValueReader.class);

    /** The type of a TEXT value whose bytes are not UTF-8; its text is the bytes in hex. */
    static final String INVALID_UTF8 = "text-not-utf8";

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String selectExpression(String quotedColumn, String dataType) {
        return quotedColumn;
    }

    @Override
    public RowReader rowReader(Connection session, ResultSetMetaData md) throws SQLException {
        Columns row = Columns.of(md, i -> {
            String declared = md.getColumnTypeName(i);
            boolean json = declared != null && declared.toUpperCase(Locale.ROOT).contains("JSON");
            return (rs, c) -> read(rs.getObject(c), rs, c, json);
        });
        LOG.debug("SQLite row reader for {}", row.columns());
        return row;
    }

    private static Value read(Object o, ResultSet rs, int c, boolean json) throws SQLException {
        if (o == null) {
            return Value.NULL;
        }
        if (o instanceof Integer || o instanceof Long) {
            return IntegerValue.of(((Number) o).longValue());
        }
        if (o instanceof Double d) {
            return FloatValue.ofDouble(d);
        }
        if (o instanceof byte[] b) {
            return BinaryValue.of(b);
        }
        if (o instanceof String s) {
            // A TEXT value that is not UTF-8 comes back with U+FFFD in place of each bad byte
            // (measured: CAST(x'ff' AS TEXT) and CAST(x'fe' AS TEXT) read as the same string), so a
            // string with U+FFFD is checked against its bytes.
            if (s.indexOf('\uFFFD') >= 0) {
                byte[] bytes = rs.getBytes(c);
                try {
                    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
                } catch (CharacterCodingException e) {
                    return new OtherValue(INVALID_UTF8, HexFormat.of().formatHex(bytes));
                }
            }
            return json ? new JsonValue(s) : new TextValue(s);
        }
        throw new UnreadableValueException("sqlite-jdbc returned a " + o.getClass().getName()
                + " for column " + rs.getMetaData().getColumnLabel(c) + "; only the four storage classes are known");
    }
}
