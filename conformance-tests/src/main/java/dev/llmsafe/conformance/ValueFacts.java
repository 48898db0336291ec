package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.Predicate;

/**
 * D13: how values arrive through each Java driver, per getter. A value that a getter rounds, wraps,
 * shifts or re-spells is a value the card would show wrongly, or a change it would miss; the table
 * says which getter keeps each one exact.
 *
 * <p>Values are read in a JVM whose default time zone is {@link #READ_ZONE} (UTC+9, no daylight
 * saving) while the servers' sessions run in UTC: on a machine where both are UTC a time zone shift
 * is invisible, and a user's machine is rarely that machine.
 */
final class ValueFacts {

    static final String READ_ZONE = "Asia/Tokyo";

    enum Getter {
        OBJECT("getObject"), LONG("getLong"), BIG_DECIMAL("getBigDecimal"), STRING("getString"), BYTES("getBytes"),
        LOCAL_DATE_TIME("getObject(LocalDateTime)"), OFFSET_DATE_TIME("getObject(OffsetDateTime)");

        final String label;

        Getter(String label) {
            this.label = label;
        }

        Object read(ResultSet rs) throws SQLException {
            return switch (this) {
                case OBJECT -> rs.getObject(1);
                case LONG -> rs.getLong(1);
                case BIG_DECIMAL -> rs.getBigDecimal(1);
                case STRING -> rs.getString(1);
                case BYTES -> rs.getBytes(1);
                case LOCAL_DATE_TIME -> rs.getObject(1, LocalDateTime.class);
                case OFFSET_DATE_TIME -> rs.getObject(1, OffsetDateTime.class);
            };
        }
    }

    private static final List<Getter> INTEGER_GETTERS = List.of(Getter.OBJECT, Getter.LONG, Getter.BIG_DECIMAL, Getter.STRING);
    private static final List<Getter> TIME_GETTERS = List.of(Getter.OBJECT, Getter.STRING, Getter.LOCAL_DATE_TIME,
            Getter.OFFSET_DATE_TIME);
    private static final List<Getter> TEXT_GETTERS = List.of(Getter.OBJECT, Getter.STRING, Getter.BYTES);

    /**
     * One value to store and read back.
     *
     * @param types the column type per flavor; a flavor missing here answers {@code notApplicable}
     * @param literals the SQL literal per flavor, {@code *} for every flavor not named
     * @param exact when a getter's result represents the stored value exactly
     */
    private record ValueCase(String table, Map<Flavor, String> types, Map<String, String> literals,
                             List<Getter> getters, Predicate<Object> exact, String notApplicable) {

        String literal(Flavor f) {
            return literals.getOrDefault(f.name(), literals.get("*"));
        }
    }

    private static final BigDecimal BIGINT_MAX = new BigDecimal("9223372036854775807");
    private static final BigDecimal UNSIGNED_MAX = new BigDecimal("18446744073709551615");
    private static final BigDecimal DECIMAL_38_10 = new BigDecimal("1234567890123456789012345678.0123456789");
    private static final LocalDateTime LOCAL = LocalDateTime.parse("2024-02-29T13:45:56.123456");
    private static final Instant INSTANT = Instant.parse("2024-02-29T13:45:56.123456Z");
    private static final String JSON = "{\"role\":\"admin\"}";
    private static final byte[] BINARY = HexFormat.of().parseHex("00ff80275c");

    static final ValueCase BIGINT = new ValueCase("f11",
            Map.of(Flavor.POSTGRES, "BIGINT", Flavor.MARIADB, "BIGINT", Flavor.MYSQL, "BIGINT", Flavor.SQLITE, "INTEGER"),
            Map.of("*", "9223372036854775807"), INTEGER_GETTERS, numericallyEqual(BIGINT_MAX), null);

    static final ValueCase BIGINT_UNSIGNED = new ValueCase("f12",
            Map.of(Flavor.MARIADB, "BIGINT UNSIGNED", Flavor.MYSQL, "BIGINT UNSIGNED", Flavor.SQLITE, "INTEGER"),
            Map.of("*", "18446744073709551615"), INTEGER_GETTERS, numericallyEqual(UNSIGNED_MAX),
            "n/a (no unsigned integer type)");

    static final ValueCase DECIMAL = new ValueCase("f13",
            Map.of(Flavor.POSTGRES, "NUMERIC(38,10)", Flavor.MARIADB, "DECIMAL(38,10)", Flavor.MYSQL, "DECIMAL(38,10)",
                    Flavor.SQLITE, "DECIMAL(38,10)"),
            Map.of("*", "1234567890123456789012345678.0123456789"),
            List.of(Getter.OBJECT, Getter.BIG_DECIMAL, Getter.STRING), numericallyEqual(DECIMAL_38_10), null);

    static final ValueCase TIMESTAMP = new ValueCase("f14",
            Map.of(Flavor.POSTGRES, "TIMESTAMP(6)", Flavor.MARIADB, "DATETIME(6)", Flavor.MYSQL, "DATETIME(6)",
                    Flavor.SQLITE, "DATETIME"),
            Map.of("*", "'2024-02-29 13:45:56.123456'"), TIME_GETTERS, ValueFacts::sameLocalTime, null);

    static final ValueCase TIMESTAMP_TZ = new ValueCase("f15",
            Map.of(Flavor.POSTGRES, "TIMESTAMPTZ(6)", Flavor.MARIADB, "TIMESTAMP(6)", Flavor.MYSQL, "TIMESTAMP(6)",
                    Flavor.SQLITE, "DATETIME"),
            // MySQL/MariaDB TIMESTAMP literals are read in the session time zone, set to UTC for the insert.
            Map.of("POSTGRES", "'2024-02-29 13:45:56.123456+00'", "SQLITE", "'2024-02-29 13:45:56.123456+00:00'",
                    "*", "'2024-02-29 13:45:56.123456'"),
            TIME_GETTERS, ValueFacts::sameInstant, null);

    static final ValueCase ZERO_DATE = new ValueCase("f16",
            Map.of(Flavor.MARIADB, "DATETIME", Flavor.MYSQL, "DATETIME"),
            Map.of("*", "'0000-00-00 00:00:00'"), List.of(Getter.OBJECT, Getter.STRING, Getter.LOCAL_DATE_TIME),
            o -> "0000-00-00 00:00:00".equals(o), "n/a (no zero dates)");

    static final ValueCase JSON_VALUE = new ValueCase("f17",
            Map.of(Flavor.POSTGRES, "JSON", Flavor.MARIADB, "JSON", Flavor.MYSQL, "JSON", Flavor.SQLITE, "JSON"),
            Map.of("*", "'" + JSON + "'"), TEXT_GETTERS, ValueFacts::sameJson, null);

    static final ValueCase JSONB_VALUE = new ValueCase("f18", Map.of(Flavor.POSTGRES, "JSONB"),
            Map.of("*", "'" + JSON + "'"), TEXT_GETTERS, ValueFacts::sameJson, "n/a (PostgreSQL type)");

    static final ValueCase BINARY_VALUE = new ValueCase("f19",
            Map.of(Flavor.POSTGRES, "BYTEA", Flavor.MARIADB, "VARBINARY(16)", Flavor.MYSQL, "VARBINARY(16)",
                    Flavor.SQLITE, "BLOB"),
            Map.of("POSTGRES", "'\\x00ff80275c'", "*", "X'00ff80275c'"),
            List.of(Getter.OBJECT, Getter.BYTES, Getter.STRING), o -> o instanceof byte[] b && Arrays.equals(b, BINARY),
            null);

    private ValueFacts() {
    }

    static String bigint(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, BIGINT);
    }

    static String bigintUnsigned(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, BIGINT_UNSIGNED);
    }

    static String decimal(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, DECIMAL);
    }

    static String timestamp(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, TIMESTAMP);
    }

    static String timestampTz(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, TIMESTAMP_TZ);
    }

    static String zeroDate(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, ZERO_DATE);
    }

    static String json(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, JSON_VALUE);
    }

    static String jsonb(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, JSONB_VALUE);
    }

    static String binary(Scratch db, ServerId s) throws SQLException {
        return measure(db, s, BINARY_VALUE);
    }

    private static String measure(Scratch db, ServerId server, ValueCase v) throws SQLException {
        String type = v.types().get(server.flavor());
        if (type == null) {
            return v.notApplicable();
        }
        try (Connection c = db.connect()) {
            if (server.flavor() == Flavor.MARIADB || server.flavor() == Flavor.MYSQL) {
                // Zero dates only exist where sql_mode lets them in (MySQL 8's default does not): they are
                // legacy data that an application still has to read. TIMESTAMP literals are UTC here.
                Sql.exec(c, "SET SESSION sql_mode = ''", "SET SESSION time_zone = '+00:00'");
            }
            Sql.exec(c, "CREATE TABLE " + v.table() + " (id INT PRIMARY KEY, v " + type + ")",
                    "INSERT INTO " + v.table() + " VALUES (1, " + v.literal(server.flavor()) + ")");
        }
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(READ_ZONE));
        // A connection opened in this zone: the drivers take the JVM's zone when they connect.
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            if (server.flavor() == Flavor.MARIADB || server.flavor() == Flavor.MYSQL) {
                // The session in UTC, as the dialect pins it, rather than in the server's default zone: the
                // answer is then the same on a server whose default zone is not UTC. Connector/J's own
                // conversions still use the JVM's zone, which is what F15 shows.
                Sql.exec(c, "SET SESSION time_zone = '+00:00'");
            }
            Answer.Parts parts = new Answer.Parts();
            for (Getter g : v.getters()) {
                try (ResultSet rs = s.executeQuery("SELECT v FROM " + v.table() + " WHERE id = 1")) {
                    rs.next();
                    parts.put(g.label, describe(g, rs, v.exact()));
                }
            }
            return parts.toString();
        } finally {
            TimeZone.setDefault(original);
        }
    }

    private static String describe(Getter g, ResultSet rs, Predicate<Object> exact) {
        Object o;
        try {
            o = g.read(rs);
        } catch (SQLException e) {
            return Sql.error(e);
        }
        String type = o == null ? "" : o.getClass().getSimpleName() + " ";
        String prefix = g == Getter.OBJECT ? type : "";
        if (o != null && exact.test(o)) {
            return prefix + "exact";
        }
        return prefix + render(o);
    }

    static String render(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof byte[] b) {
            return "0x" + HexFormat.of().formatHex(b);
        }
        if (o instanceof String s) {
            return quote(s);
        }
        if (o instanceof Timestamp t) {
            // The instant: Timestamp.toString() shows the JVM zone's wall clock, which hides a shift.
            return t.toInstant().toString();
        }
        if (o.getClass().getName().equals("org.postgresql.util.PGobject")) {
            return quote(o.toString());
        }
        return o.toString();
    }

    /**
     * In single quotes, as it came; a character that is not printable ASCII (or is the table's "|")
     * is shown as a Java escape (backslash, u, four hex digits) so that a table cell can show it.
     */
    private static String quote(String s) {
        StringBuilder b = new StringBuilder("'");
        for (char ch : s.toCharArray()) {
            if (ch < 0x20 || ch > 0x7e || ch == '|') {
                b.append(String.format("\\u%04x", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.append('\'').toString();
    }

    private static Predicate<Object> numericallyEqual(BigDecimal expected) {
        return o -> {
            if (!(o instanceof Number) && !(o instanceof String)) {
                return false;
            }
            try {
                return new BigDecimal(o.toString()).compareTo(expected) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        };
    }

    private static boolean sameLocalTime(Object o) {
        return o instanceof Timestamp t && t.toLocalDateTime().equals(LOCAL)
                || o instanceof LocalDateTime l && l.equals(LOCAL)
                || o instanceof String s && s.equals("2024-02-29 13:45:56.123456");
    }

    private static boolean sameInstant(Object o) {
        return o instanceof Timestamp t && t.toInstant().equals(INSTANT)
                || o instanceof OffsetDateTime d && d.toInstant().equals(INSTANT);
    }

    private static boolean sameJson(Object o) {
        String text = o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
        return (o instanceof String || o instanceof byte[] || o.getClass().getName().equals("org.postgresql.util.PGobject"))
                && text.equals(JSON);
    }

}
