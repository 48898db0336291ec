package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Set;

/**
 * The fixed offset of a MySQL/MariaDB session, which TIMESTAMP values are shown in. A zone with
 * daylight saving time shows two instants of the fall-back hour as the same text, so a session in one
 * cannot be read exactly: the reader refuses and asks for {@code SET time_zone = '+00:00'}.
 */
final class MySqlSessionZone {

    private static final Set<String> UTC_NAMES = Set.of("UTC", "GMT", "Z", "Etc/UTC", "Etc/GMT",
            "Coordinated Universal Time");

    private MySqlSessionZone() {
    }

    /** The session's offset, asked of the server. */
    static ZoneOffset of(Connection session) throws SQLException {
        try (Statement s = session.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@session.time_zone, @@system_time_zone")) {
            rs.next();
            return offset(rs.getString(1), rs.getString(2));
        }
    }

    /** The offset of a time_zone setting (and the system zone, for SYSTEM), or a refusal. */
    static ZoneOffset offset(String timeZone, String systemTimeZone) throws UnreadableValueException {
        String zone = timeZone == null ? "" : timeZone.trim();
        if (zone.toUpperCase(Locale.ROOT).equals("SYSTEM")) {
            zone = systemTimeZone == null ? "" : systemTimeZone.trim();
        }
        if (UTC_NAMES.contains(zone)) {
            return ZoneOffset.UTC;
        }
        if (zone.matches("[+-]\\d{1,2}:\\d{2}")) {
            return TemporalText.offset(zone.length() == 5 ? zone.charAt(0) + "0" + zone.substring(1) : zone);
        }
        throw new UnreadableValueException("the session time zone is '" + timeZone + "'"
                + (timeZone != null && timeZone.equalsIgnoreCase("SYSTEM") ? " ('" + systemTimeZone + "')" : "")
                + ", which may have daylight saving time: TIMESTAMP values of the hour that repeats cannot be"
                + " told apart. Set time_zone = '+00:00' on this session.");
    }
}
