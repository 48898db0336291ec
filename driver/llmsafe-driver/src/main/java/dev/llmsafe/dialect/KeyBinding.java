package dev.llmsafe.dialect;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.sql.SqlDialect;
import dev.llmsafe.value.BinaryValue;
import dev.llmsafe.value.BooleanValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.FloatValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.JsonValue;
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
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds rows again by the primary key values read from them (J11): the condition, and each value bound
 * back so that the database compares it as the column's own type, exactly.
 *
 * <ul>
 *   <li>PostgreSQL: every value as its text input form, untyped ({@link PgLiteral}), so that the server
 *       reads it as the column's type: {@code timetz}, BC dates, {@code numeric} NaN, enums, arrays,
 *       {@code char(n)} with its padding, intervals, all alike.
 *   <li>MySQL and MariaDB: numbers through typed setters (a number compared with a string is compared as a
 *       double there, which would match neighbouring 64-bit keys); dates, times and timestamps as text to
 *       the microsecond, zero dates included (Connector/J drops the fraction of a second otherwise, see
 *       {@link #mysqlText(LocalDateTime)}), TIMESTAMP in the session's own time zone.
 *   <li>SQLite: each value by its storage class, compared with {@code IS}, because SQLite lets a column of
 *       a composite primary key hold NULL (and REAL), which {@code IN} never matches.
 * </ul>
 *
 * A value that cannot be bound back (binary longer than its kept head, known only by its hash) is
 * KEY_NOT_BINDABLE, refused before the statement runs ({@link #unbindable}).
 */
public final class KeyBinding {

    private static final DateTimeFormatter MYSQL_DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter MYSQL_TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    private final Connection session;
    private final SqlDialect dialect;
    private ZoneOffset mysqlZone;

    /**
     * @param session the connection the query runs on (MySQL's TIMESTAMP keys are written in its time zone)
     * @param dialect the database's SQL dialect
     */
    public KeyBinding(Connection session, SqlDialect dialect) {
        this.session = session;
        this.dialect = dialect;
    }

    /**
     * Why a key value cannot be bound back exactly here, or empty when it can.
     *
     * @return a phrase naming the value's kind, for the refusal
     */
    public static Optional<String> unbindable(Value v, SqlDialect dialect) {
        if (v instanceof BinaryValue b && !b.complete()) {
            return Optional.of("a binary value of " + b.length() + " bytes (a plan keeps only the first "
                    + BinaryValue.HEAD_BYTES + " bytes of binary data and a hash of the rest)");
        }
        boolean known = switch (dialect) {
            case POSTGRESQL -> !v.isNull() && PgLiteral.text(v).isPresent();
            case MYSQL -> !v.isNull() && (v instanceof IntegerValue || v instanceof DecimalValue || v instanceof FloatValue
                    || v instanceof TextValue || v instanceof BinaryValue || v instanceof DateValue
                    || v instanceof TimestampValue || v instanceof TimestampTzValue || v instanceof TimeValue
                    || v instanceof EnumValue || v instanceof SetValue || v instanceof UuidValue
                    || v instanceof OtherValue || v instanceof BooleanValue);
            case SQLITE -> v.isNull() || v instanceof IntegerValue || v instanceof FloatValue || v instanceof TextValue
                    || v instanceof JsonValue || v instanceof BinaryValue
                    || v instanceof OtherValue o && o.type().equals(SqliteValueReader.INVALID_UTF8);
        };
        return known ? Optional.empty() : Optional.of("a value of type " + v.tag());
    }

    /**
     * The condition that matches exactly the rows with these keys.
     *
     * @param quotedColumns the key columns, quoted, in key order
     * @param keys one value per key column for each row
     */
    public String condition(List<String> quotedColumns, List<List<Value>> keys) {
        List<String> tuples = new ArrayList<>(keys.size());
        if (dialect == SqlDialect.SQLITE) {
            for (List<Value> k : keys) {
                List<String> parts = new ArrayList<>(k.size());
                for (int i = 0; i < k.size(); i++) {
                    parts.add(quotedColumns.get(i) + " IS " + placeholder(k.get(i)));
                }
                tuples.add("(" + String.join(" AND ", parts) + ")");
            }
            return "(" + String.join(" OR ", tuples) + ")";
        }
        String tuple = quotedColumns.size() == 1 ? "?" : "(" + String.join(", ", quotedColumns.stream().map(c -> "?").toList()) + ")";
        String lhs = quotedColumns.size() == 1 ? quotedColumns.get(0) : "(" + String.join(", ", quotedColumns) + ")";
        for (int i = 0; i < keys.size(); i++) {
            tuples.add(tuple);
        }
        return lhs + " IN (" + String.join(", ", tuples) + ")";
    }

    /** SQLite keeps a TEXT value that is not UTF-8 as its bytes; it is bound as those bytes, read as text. */
    private static String placeholder(Value v) {
        return v instanceof OtherValue o && o.type().equals(SqliteValueReader.INVALID_UTF8) ? "CAST(? AS TEXT)" : "?";
    }

    /**
     * Binds {@code v} at {@code index}, in the order {@link #condition} placed the parameters.
     *
     * @throws RefusedException KEY_NOT_BINDABLE for a value {@link #unbindable} names
     */
    public void bind(PreparedStatement ps, int index, Value v) throws SQLException {
        Optional<String> why = unbindable(v, dialect);
        if (why.isPresent()) {
            throw notBindable(why.get());
        }
        switch (dialect) {
            case POSTGRESQL -> ps.setObject(index, PgLiteral.text(v).orElseThrow(), Types.OTHER);
            case MYSQL -> bindMysql(ps, index, v);
            case SQLITE -> bindSqlite(ps, index, v);
        }
    }

    /** The refusal for a key value that cannot be bound back. */
    public static RefusedException notBindable(String what) {
        return new RefusedException(Refusal.KEY_NOT_BINDABLE, "a row's primary key holds " + what + ", which cannot be"
                + " bound back into a query exactly, so the row could not be found again after the statement ran or at"
                + " apply. Nothing was changed. Change that row through the application, or give the table a key of"
                + " another type.");
    }

    private void bindMysql(PreparedStatement ps, int index, Value v) throws SQLException {
        if (v instanceof IntegerValue i) {
            BigInteger b = i.value();
            if (b.bitLength() < 64) {
                ps.setLong(index, b.longValue());
            } else {
                ps.setBigDecimal(index, new BigDecimal(b));
            }
        } else if (v instanceof DecimalValue d) {
            ps.setBigDecimal(index, d.value());
        } else if (v instanceof FloatValue f) {
            ps.setDouble(index, f.value());
        } else if (v instanceof BooleanValue b) {
            ps.setBoolean(index, b.value());
        } else if (v instanceof BinaryValue b) {
            ps.setBytes(index, HexFormat.of().parseHex(b.head()));
        } else if (v instanceof DateValue d) {
            ps.setString(index, mysqlDate(d));
        } else if (v instanceof TimestampValue t) {
            ps.setString(index, mysqlDate(t.date()) + " " + mysqlClock(t.microOfDay()));
        } else if (v instanceof TimestampTzValue t) {
            LocalDateTime local = LocalDateTime.ofInstant(t.instant(), zone());
            ps.setString(index, mysqlText(local));
        } else if (v instanceof TimeValue t) {
            ps.setString(index, (t.micros() < 0 ? "-" : "") + mysqlClock(Math.abs(t.micros())));
        } else if (v instanceof SetValue s) {
            ps.setString(index, s.text());
        } else if (v instanceof EnumValue e) {
            ps.setString(index, e.label());
        } else if (v instanceof UuidValue u) {
            ps.setString(index, u.value().toString());
        } else if (v instanceof OtherValue o) {
            ps.setString(index, o.text());
        } else {
            ps.setString(index, ((TextValue) v).value());
        }
    }

    private static void bindSqlite(PreparedStatement ps, int index, Value v) throws SQLException {
        if (v.isNull()) {
            ps.setNull(index, Types.NULL);
        } else if (v instanceof IntegerValue i) {
            ps.setLong(index, i.value().longValueExact());
        } else if (v instanceof FloatValue f) {
            ps.setDouble(index, f.value());
        } else if (v instanceof BinaryValue b) {
            ps.setBytes(index, HexFormat.of().parseHex(b.head()));
        } else if (v instanceof OtherValue o) {
            ps.setBytes(index, HexFormat.of().parseHex(o.text()));
        } else if (v instanceof JsonValue j) {
            ps.setString(index, j.text());
        } else {
            ps.setString(index, ((TextValue) v).value());
        }
    }

    /** The session's offset, asked once: TIMESTAMP compares in the session's time zone. */
    private ZoneOffset zone() throws SQLException {
        if (mysqlZone == null) {
            mysqlZone = MySqlSessionZone.of(session);
        }
        return mysqlZone;
    }

    /** A date with its zero parts as MySQL writes them ({@code 0000-00-00}, {@code 2024-00-15}). */
    private static String mysqlDate(DateValue d) {
        return String.format(Locale.ROOT, "%04d-%02d-%02d", d.year(), d.month(), d.day());
    }

    private static String mysqlClock(long micros) {
        long seconds = micros / 1_000_000;
        return String.format(Locale.ROOT, "%02d:%02d:%02d.%06d", seconds / 3600, seconds / 60 % 60, seconds % 60,
                micros % 1_000_000);
    }

    /**
     * A timestamp as MySQL and MariaDB read it from text, to the microsecond (their finest). Connector/J
     * 26.10 takes MariaDB 10.11 for a 5.5 server (its version string begins 5.5.5-) and drops the fraction
     * of a second from a LocalDateTime or Timestamp parameter: measured, not guessed.
     */
    public static String mysqlText(LocalDateTime t) {
        return MYSQL_DATETIME.format(t);
    }

    /** A time of day as MySQL and MariaDB read it from text, to the microsecond. */
    public static String mysqlText(LocalTime t) {
        return MYSQL_TIME.format(t);
    }
}
