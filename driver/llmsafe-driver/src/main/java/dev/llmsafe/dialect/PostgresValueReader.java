package dev.llmsafe.dialect;

import dev.llmsafe.value.ArrayValue;
import dev.llmsafe.value.BooleanValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.JsonValue;
import dev.llmsafe.value.JsonbValue;
import dev.llmsafe.value.OtherValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.TimeValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL through pgjdbc. Almost every type is read as the server's text and parsed here, because
 * measured (pgjdbc 42.7.14, PostgreSQL 15.20, JVM zone America/St_Johns) the typed getters lose
 * values: getObject of a {@code date} 'infinity' is a java.sql.Date in the year 8994;
 * {@code 0044-03-15 BC} comes back as 0044 in the Julian calendar; getObject(LocalTime) of
 * {@code 24:00:00} is 23:59:59.999999999; getObject of a {@code timetz} is a java.sql.Time without the
 * microseconds and the offset; getBigDecimal of a NaN numeric throws. getString is exact in the text
 * transfer mode, and in the binary mode pgjdbc switches to after a statement's fifth run it is exact
 * for every type read this way except {@code timetz} (see {@link #timetz}).
 */
final class PostgresValueReader implements ValueReader {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresValueReader.class);

    private static final Set<String> INTEGERS = Set.of("int2", "int4", "int8", "oid", "xid", "cid", "regproc");
    private static final Set<String> TEXTS = Set.of("text", "varchar", "bpchar", "name", "char", "citext");
    private static final Set<String> GEOMETRIC = Set.of("point", "box", "lseg", "line", "circle", "path", "polygon");

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String selectExpression(String quotedColumn, String dataType) {
        return quotedColumn;
    }

    @Override
    public RowReader rowReader(Connection session, ResultSetMetaData md) throws SQLException {
        Columns row = Columns.of(md, i -> column(md.getColumnTypeName(i), md.getColumnType(i)));
        LOG.debug("PostgreSQL row reader for {}", row.columns());
        return row;
    }

    private static ColumnRead column(String type, int sqlType) {
        switch (type) {
            case "bool":
                return (rs, i) -> {
                    boolean b = rs.getBoolean(i);
                    return rs.wasNull() ? Value.NULL : new BooleanValue(b);
                };
            case "bytea":
                return ColumnRead.binary();
            case "timetz":
                return PostgresValueReader::timetz;
            default:
                break;
        }
        if (sqlType == Types.ARRAY && type.startsWith("_")) {
            String elementType = type.substring(1);
            Function<String, Value> element = text(elementType, Types.OTHER);
            char delimiter = elementType.equals("box") ? ';' : ',';
            ColumnRead text = ColumnRead.text(type, s -> PgText.array(s, delimiter, element));
            return (rs, i) -> {
                Value v = text.read(rs, i);
                if (!(v instanceof ArrayValue a)) {
                    return v;
                }
                try {
                    int[] bounds = PgText.binaryLowerBounds(rs.getBytes(i));
                    return bounds == null ? a : PgText.withLowerBounds(a, bounds, 0);
                } catch (RuntimeException e) {
                    throw new UnreadableValueException("cannot read the bounds of array column "
                            + rs.getMetaData().getColumnLabel(i) + ": " + e.getMessage(), e);
                }
            };
        }
        return ColumnRead.text(type, text(type, sqlType));
    }

    /** The parser of a type's text form, for a column and for an array element. */
    private static Function<String, Value> text(String type, int sqlType) {
        if (INTEGERS.contains(type)) {
            return s -> new IntegerValue(new BigInteger(s));
        }
        if (TEXTS.contains(type)) {
            return TextValue::new;
        }
        if (GEOMETRIC.contains(type)) {
            return s -> PgText.geometric(type, s);
        }
        switch (type) {
            case "numeric": return PgText::numeric;
            // Both parse the text and binary forms pgjdbc gives ("1e+300", "1.0E300", "NaN", "-Infinity").
            case "float4": return s -> FloatValue.ofFloat(Float.parseFloat(s));
            case "float8": return s -> FloatValue.ofDouble(Double.parseDouble(s));
            case "bool": return s -> new BooleanValue(bool(s));
            case "bytea": return PgText::bytea;
            case "date": return PgText::date;
            case "time": return PgText::time;
            case "timetz": return PgText::timetz;
            case "timestamp": return PgText::timestamp;
            case "timestamptz": return PgText::timestamptz;
            case "interval": return PgText::interval;
            case "uuid": return s -> new UuidValue(UUID.fromString(s));
            case "json": return JsonValue::new;
            case "jsonb": return JsonbValue::new;
            default: break;
        }
        // pgjdbc reports a user-defined enum as VARCHAR under the enum's own name (measured: a column
        // of CREATE TYPE mood AS ENUM is VARCHAR "mood"); a domain reports its base type. Array
        // elements carry no such hint, so an enum array's labels are OtherValues of the enum type.
        if (sqlType == Types.VARCHAR) {
            return EnumValue::new;
        }
        return s -> new OtherValue(type, s);
    }

    private static boolean bool(String s) {
        if (s.equals("t") || s.equals("true")) {
            return true;
        }
        if (s.equals("f") || s.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("not a boolean: " + s);
    }

    /**
     * {@code timetz} is the one type whose getString is not exact in binary transfer, which pgjdbc
     * switches a repeated query to on its fifth run: it re-renders the value in the session's zone and
     * loses the offset the value was stored with (measured: 12:34:56.123456+05:30 read back as
     * 02:04:56.123456-05), and for 24:00:00 both getString and getObject throw a DateTimeException. So the
     * wire bytes are read (getBytes returns them as they came): in binary transfer an int64 of
     * microseconds and an int32 of seconds west of UTC, whose first byte is always 0; in text transfer
     * the server's text, which begins with a digit and is exact. The same value reads the same in both
     * (J11: a row holding 24:00:00 is found again at apply, after the switch).
     */
    private static Value timetz(ResultSet rs, int i) throws SQLException {
        byte[] raw = rs.getBytes(i);
        if (raw == null) {
            return Value.NULL;
        }
        if (raw.length == 12 && raw[0] == 0) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(raw);
            long micros = b.getLong();
            int west = b.getInt();
            if (micros < 0 || micros > 86_400_000_000L) {
                throw new UnreadableValueException("timetz out of range in binary transfer: " + micros + " us");
            }
            return new TimeValue(micros, Optional.of(ZoneOffset.ofTotalSeconds(-west)));
        }
        return ColumnRead.text("timetz", PgText::timetz).read(rs, i);
    }
}
