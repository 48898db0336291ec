package dev.llmsafe.dialect;

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
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MySQL and MariaDB through MySQL Connector/J. Measured with Connector/J 26.10.0 on MariaDB
 * 10.11.19, JVM zone America/St_Johns; each fact is noted where it decides a getter. Types that
 * Connector/J reports as CHAR or LONGTEXT (MariaDB's ENUM, SET, UUID, INET6 and JSON) are told apart
 * by the catalog ({@link MySqlCatalogTypes}).
 */
final class MySqlValueReader implements ValueReader {

    private static final Logger LOG = LoggerFactory.getLogger(MySqlValueReader.class);

    private static final Set<String> INTEGERS = Set.of("TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER",
            "BIGINT", "BOOLEAN");
    private static final Set<String> TEXTS = Set.of("CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT",
            "LONGTEXT", "ENUM", "SET", "JSON");
    private static final Set<String> BINARIES = Set.of("BINARY", "VARBINARY", "TINYBLOB", "BLOB", "MEDIUMBLOB",
            "LONGBLOB", "GEOMETRY");

    private final boolean mariadb;

    MySqlValueReader(boolean mariadb) {
        this.mariadb = mariadb;
    }

    @Override
    public String name() {
        return mariadb ? "mariadb" : "mysql";
    }

    /**
     * FLOAT is selected as a DOUBLE: measured, MariaDB's text protocol rounds FLOAT to six significant
     * digits (1.0000001 and 1.0000002, which the server holds as different values, both arrive as
     * "1"), while {@code CAST(f AS DOUBLE)} carries every bit (1.0000001192092896).
     */
    @Override
    public String selectExpression(String quotedColumn, String dataType) {
        if (dataType.toLowerCase(Locale.ROOT).startsWith("float")) {
            return "CAST(" + quotedColumn + " AS DOUBLE) AS " + quotedColumn;
        }
        return quotedColumn;
    }

    @Override
    public RowReader rowReader(Connection session, ResultSetMetaData md) throws SQLException {
        return rowReader(session, md, new MySqlCatalogTypes(session, mariadb));
    }

    @Override
    public RowReader rowReader(Connection session, ResultSetMetaData md, TableInfo table) throws SQLException {
        MySqlCatalogTypes catalog = new MySqlCatalogTypes(session, mariadb);
        catalog.know(table);
        return rowReader(session, md, catalog);
    }

    private RowReader rowReader(Connection session, ResultSetMetaData md, MySqlCatalogTypes catalog)
            throws SQLException {
        ZoneOffset sessionZone = null;
        for (int i = 1; i <= md.getColumnCount() && sessionZone == null; i++) {
            if (type(md, i).equals("TIMESTAMP")) {
                sessionZone = MySqlSessionZone.of(session);
            }
        }
        ZoneOffset zone = sessionZone;
        Columns row = Columns.of(md, i -> column(type(md, i), md, i, catalog, zone));
        LOG.debug("{} row reader for {}", name(), row.columns());
        return row;
    }

    /** Connector/J's type name without UNSIGNED, which does not change how a value is read. */
    private static String type(ResultSetMetaData md, int i) throws SQLException {
        return md.getColumnTypeName(i).toUpperCase(Locale.ROOT).replace(" UNSIGNED", "");
    }

    private ColumnRead column(String type, ResultSetMetaData md, int i, MySqlCatalogTypes catalog,
            ZoneOffset sessionZone) throws SQLException {
        if (INTEGERS.contains(type)) {
            // getString, not getLong: BIGINT UNSIGNED above 2^63-1 throws from getLong (measured).
            return ColumnRead.text(type, s -> new IntegerValue(new BigInteger(s)));
        }
        if (TEXTS.contains(type)) {
            return text(type, catalog.dataType(md.getCatalogName(i), md.getTableName(i), md.getColumnName(i)));
        }
        if (BINARIES.contains(type) || "[B".equals(md.getColumnClassName(i))) {
            return ColumnRead.binary();
        }
        switch (type) {
            case "BIT":
                // TINYINT(1) and BOOLEAN arrive as BIT with precision 1 and getObject gives Boolean.TRUE
                // for the stored value 2 (measured); getLong is exact for them and for BIT(1). A wider
                // BIT(n) is read as its raw bytes: getLong of an all-ones BIT(64) is -1.
                if (md.getPrecision(i) <= 1) {
                    return ColumnRead.integer();
                }
                return (rs, c) -> {
                    byte[] b = rs.getBytes(c);
                    return b == null ? Value.NULL : new IntegerValue(new BigInteger(1, b));
                };
            case "YEAR":
                // getString of YEAR 0000 is "2000-01-01", the same as for 2000 (measured); getLong is 0.
                return ColumnRead.integer();
            case "DECIMAL":
                // getBigDecimal keeps the declared scale (12345678901234.100000, measured).
                return (rs, c) -> {
                    BigDecimal d = rs.getBigDecimal(c);
                    return d == null ? Value.NULL : new DecimalValue(d);
                };
            case "DOUBLE":
                // DOUBLE's text is the shortest exact form (0.10000000000000002 and 0.1 arrive apart).
                return (rs, c) -> {
                    double d = rs.getDouble(c);
                    return rs.wasNull() ? Value.NULL : FloatValue.ofDouble(d);
                };
            case "FLOAT":
                String label = md.getColumnLabel(i);
                throw new UnreadableValueException("column " + label + " is a FLOAT, whose text form the"
                        + " server rounds to six digits; select it as " + selectExpression("`" + label + "`", "float"));
            // Zero dates: getObject throws "Zero date value prohibited" and, with
            // zeroDateTimeBehavior=CONVERT_TO_NULL, returns NULL; getString returns "0000-00-00" in
            // every zeroDateTimeBehavior and in both protocols (measured), so dates are read as text.
            case "DATE":
                return ColumnRead.text(type, TemporalText::date);
            case "DATETIME":
                return ColumnRead.text(type, TemporalText::timestamp);
            case "TIME":
                // TIME is a duration up to 838:59:59; getObject throws for it (measured).
                return ColumnRead.text(type, s -> TimeValue.of(TemporalText.clock(s)));
            case "TIMESTAMP":
                return ColumnRead.text(type, s -> timestamp(s, sessionZone));
            default:
                break;
        }
        String otherType = type.toLowerCase(Locale.ROOT);
        return ColumnRead.text(type, s -> new OtherValue(otherType, s));
    }

    /** A character column, by what the catalog says it really is. */
    private static ColumnRead text(String type, String catalogType) {
        String dataType = catalogType != null ? catalogType : type.toLowerCase(Locale.ROOT);
        switch (dataType) {
            case "json":
                // MySQL's JSON type stores a parsed document: compared canonically.
                return ColumnRead.text(type, JsonbValue::new);
            case MySqlCatalogTypes.MARIADB_JSON:
                return ColumnRead.text(type, JsonValue::new);
            case "enum":
                return ColumnRead.text(type, EnumValue::new);
            case "set":
                return ColumnRead.text(type, SetValue::parse);
            case "uuid":
                return ColumnRead.text(type, s -> {
                    UUID u = UUID.fromString(s);
                    if (!u.toString().equals(s)) {
                        throw new IllegalArgumentException("not a canonical UUID: " + s);
                    }
                    return new UuidValue(u);
                });
            case "inet4":
            case "inet6":
                return ColumnRead.text(type, s -> new OtherValue(dataType, s));
            default:
                return ColumnRead.text(type, TextValue::new);
        }
    }

    /**
     * TIMESTAMP stores an instant and shows it in the session's time zone. Connector/J's
     * getObject(OffsetDateTime) applies the JVM's zone instead (measured: a value shown as 03:30 in a
     * +02:00 session came back as 03:30-02:30), so the text is read and placed at the session's
     * offset, which {@link MySqlSessionZone} requires to be fixed. The zero TIMESTAMP is no instant; it
     * is kept as the zero timestamp it is.
     */
    private static Value timestamp(String text, ZoneOffset sessionZone) {
        TimestampValue local = TemporalText.timestamp(text);
        if (local.date().year() == 0 && local.date().month() == 0 && local.date().day() == 0) {
            return local;
        }
        var date = local.date().toLocalDate()
                .orElseThrow(() -> new IllegalArgumentException("not a date: " + text));
        return new TimestampTzValue(date.atStartOfDay().plusNanos(local.microOfDay() * 1000)
                .toInstant(sessionZone), sessionZone);
    }
}
