package dev.llmsafe.plan;

import java.math.BigDecimal;
import dev.llmsafe.dialect.KeyBinding;
import dev.llmsafe.sql.SqlDialect;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

/**
 * One JDBC parameter of a planned statement (D16): the setter it was bound with and its value as
 * canonical text, so that it is stored, shown on the card and bound again at apply exactly as given.
 *
 * @param type the kind of value, which decides the JDBC setter
 * @param value the value as canonical text (ISO dates, plain decimals, base64 bytes); null for NULL
 */
public record Parameter(Type type, String value) {

    /** Kinds of parameter values, named after what they are bound as. */
    public enum Type {
        /** SQL NULL ({@code setNull}). */
        NULL,
        /** {@code setString}. */
        STRING,
        /** {@code setLong} (and the narrower integer setters). */
        LONG,
        /** {@code setBigDecimal}. */
        DECIMAL,
        /** {@code setDouble} (and {@code setFloat}). */
        DOUBLE,
        /** {@code setBoolean}. */
        BOOLEAN,
        /** {@code setBytes}; the value is base64. */
        BYTES,
        /** {@code setObject(LocalDate)}. */
        DATE,
        /** {@code setObject(LocalTime)}. */
        TIME,
        /** {@code setObject(LocalDateTime)}. */
        TIMESTAMP,
        /** {@code setObject(OffsetDateTime)}. */
        TIMESTAMP_TZ,
        /** {@code setObject(UUID)}. */
        UUID
    }

    /** Checks that only NULL has no value. */
    public Parameter {
        Objects.requireNonNull(type, "type");
        if ((type == Type.NULL) != (value == null)) {
            throw new IllegalArgumentException("a " + type + " parameter " + (value == null ? "needs" : "has no") + " value");
        }
    }

    /**
     * The parameter for a Java value as a caller would bind it. Anything that cannot be stored and
     * bound again exactly is refused by throwing {@link IllegalArgumentException}.
     */
    public static Parameter of(Object v) {
        if (v == null) {
            return new Parameter(Type.NULL, null);
        }
        if (v instanceof String s) {
            return new Parameter(Type.STRING, s);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return new Parameter(Type.LONG, v.toString());
        }
        if (v instanceof java.math.BigInteger b) {
            return new Parameter(Type.DECIMAL, b.toString());
        }
        if (v instanceof BigDecimal d) {
            return new Parameter(Type.DECIMAL, d.toString());
        }
        if (v instanceof Double || v instanceof Float) {
            return new Parameter(Type.DOUBLE, Double.toString(((Number) v).doubleValue()));
        }
        if (v instanceof Boolean b) {
            return new Parameter(Type.BOOLEAN, b.toString());
        }
        if (v instanceof byte[] b) {
            return new Parameter(Type.BYTES, Base64.getEncoder().encodeToString(b));
        }
        if (v instanceof LocalDate d) {
            return new Parameter(Type.DATE, d.toString());
        }
        if (v instanceof java.sql.Date d) {
            return new Parameter(Type.DATE, d.toLocalDate().toString());
        }
        if (v instanceof LocalTime t) {
            return new Parameter(Type.TIME, t.toString());
        }
        if (v instanceof java.sql.Time t) {
            return new Parameter(Type.TIME, t.toLocalTime().toString());
        }
        if (v instanceof LocalDateTime t) {
            return new Parameter(Type.TIMESTAMP, t.toString());
        }
        if (v instanceof java.sql.Timestamp t) {
            return new Parameter(Type.TIMESTAMP, t.toLocalDateTime().toString());
        }
        if (v instanceof OffsetDateTime t) {
            return new Parameter(Type.TIMESTAMP_TZ, t.toString());
        }
        if (v instanceof UUID u) {
            return new Parameter(Type.UUID, u.toString());
        }
        throw new IllegalArgumentException("a parameter of type " + v.getClass().getName() + " cannot be stored in a"
                + " plan and bound again exactly; pass a String, a number, a boolean, bytes, a java.time value or a UUID");
    }

    /**
     * Binds this parameter at {@code index} (1-based), as its setter does, but for timestamps and times
     * on MySQL and MariaDB: Connector/J reads MariaDB's version as 5.5 and drops the fraction of a
     * second from {@code setObject(LocalDateTime)}, {@code setTimestamp} and {@code setTime} (measured,
     * Connector/J 26.10 on MariaDB 10.11), so they are sent as text, to the microsecond.
     */
    public void bind(PreparedStatement ps, int index, SqlDialect dialect) throws SQLException {
        if (dialect == SqlDialect.MYSQL && type == Type.TIMESTAMP) {
            ps.setString(index, KeyBinding.mysqlText(LocalDateTime.parse(value)));
        } else if (dialect == SqlDialect.MYSQL && type == Type.TIME) {
            ps.setString(index, KeyBinding.mysqlText(LocalTime.parse(value)));
        } else {
            bind(ps, index);
        }
    }

    /** Binds this parameter at {@code index} (1-based) with its own setter. */
    public void bind(PreparedStatement ps, int index) throws SQLException {
        switch (type) {
            case NULL -> ps.setNull(index, Types.NULL);
            case STRING -> ps.setString(index, value);
            case LONG -> ps.setLong(index, Long.parseLong(value));
            case DECIMAL -> ps.setBigDecimal(index, new BigDecimal(value));
            case DOUBLE -> ps.setDouble(index, Double.parseDouble(value));
            case BOOLEAN -> ps.setBoolean(index, Boolean.parseBoolean(value));
            case BYTES -> ps.setBytes(index, Base64.getDecoder().decode(value));
            case DATE -> ps.setObject(index, LocalDate.parse(value));
            case TIME -> ps.setObject(index, LocalTime.parse(value));
            case TIMESTAMP -> ps.setObject(index, LocalDateTime.parse(value));
            case TIMESTAMP_TZ -> ps.setObject(index, OffsetDateTime.parse(value));
            case UUID -> ps.setObject(index, java.util.UUID.fromString(value));
        }
    }

    /**
     * How the card shows it: strings quoted as text values are (C5: every invisible, control or bidi
     * character an escape, {@link dev.llmsafe.value.Visible}), NULL as NULL, bytes by size.
     */
    public String render() {
        return switch (type) {
            case NULL -> "NULL";
            case STRING, DATE, TIME, TIMESTAMP, TIMESTAMP_TZ, UUID -> dev.llmsafe.value.Visible.quoted(value);
            case BYTES -> "<" + Base64.getDecoder().decode(value).length + " bytes>";
            default -> dev.llmsafe.value.Visible.text(value);
        };
    }
}
