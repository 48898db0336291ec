package dev.llmsafe.dialect;

import dev.llmsafe.sql.SqlDialect;
import dev.llmsafe.value.BooleanValue;
import dev.llmsafe.value.DateValue;
import dev.llmsafe.value.DecimalValue;
import dev.llmsafe.value.EnumValue;
import dev.llmsafe.value.IntegerValue;
import dev.llmsafe.value.TextValue;
import dev.llmsafe.value.TimestampTzValue;
import dev.llmsafe.value.TimestampValue;
import dev.llmsafe.value.UuidValue;
import dev.llmsafe.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/**
 * Binds a primary-key value read from the database back into a query, typed so that the database
 * compares it as the column's own type (PostgreSQL refuses {@code integer = character varying}).
 */
public final class KeyBinding {

    private KeyBinding() {
    }

    /** Whether a key value of this kind can be bound back. */
    public static boolean supported(Value v) {
        return v instanceof IntegerValue || v instanceof DecimalValue || v instanceof TextValue
                || v instanceof UuidValue || v instanceof DateValue || v instanceof TimestampValue
                || v instanceof TimestampTzValue || v instanceof BooleanValue || v instanceof EnumValue;
    }

    /**
     * Binds {@code v} at {@code index}.
     *
     * @throws IllegalArgumentException for a kind {@link #supported} refuses
     */
    public static void bind(PreparedStatement ps, int index, Value v, SqlDialect dialect) throws SQLException {
        if (v instanceof IntegerValue i) {
            BigInteger b = i.value();
            if (b.bitLength() < 64) {
                ps.setLong(index, b.longValue());
            } else {
                ps.setBigDecimal(index, new BigDecimal(b));
            }
        } else if (v instanceof DecimalValue d) {
            ps.setBigDecimal(index, d.value());
        } else if (v instanceof TextValue t) {
            ps.setString(index, t.value());
        } else if (v instanceof UuidValue u) {
            if (dialect == SqlDialect.POSTGRESQL) {
                ps.setObject(index, u.value());
            } else {
                ps.setString(index, u.value().toString());
            }
        } else if (v instanceof DateValue d) {
            ps.setObject(index, LocalDate.of(d.year(), d.month(), d.day()));
        } else if (v instanceof TimestampValue t) {
            LocalDateTime at = LocalDateTime.of(LocalDate.of(t.date().year(), t.date().month(), t.date().day()),
                    LocalTime.ofNanoOfDay(t.microOfDay() * 1000));
            if (dialect == SqlDialect.MYSQL) {
                // Connector/J drops the fraction of a second of a LocalDateTime sent to MariaDB (see mysqlText).
                ps.setString(index, mysqlText(at));
            } else {
                ps.setObject(index, at);
            }
        } else if (v instanceof TimestampTzValue t) {
            ps.setObject(index, t.instant().atOffset(t.shown()));
        } else if (v instanceof BooleanValue b) {
            ps.setBoolean(index, b.value());
        } else if (v instanceof EnumValue e) {
            if (dialect == SqlDialect.POSTGRESQL) {
                ps.setObject(index, e.label(), Types.OTHER);
            } else {
                ps.setString(index, e.label());
            }
        } else {
            throw new IllegalArgumentException("a key value of type " + v.tag() + " cannot be bound");
        }
    }

    private static final DateTimeFormatter MYSQL_DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter MYSQL_TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

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
