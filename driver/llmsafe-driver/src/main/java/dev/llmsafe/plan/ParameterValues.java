package dev.llmsafe.plan;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The Java values a parameter can hold, each kept as canonical text that gives back an equal object of
 * the same class: a float as its own {@link Float#toString} (never widened to a double), a decimal
 * with its scale, bytes as base64, the java.sql and java.util dates as the instant they hold (the
 * driver turns that into a wall clock in the JVM's zone, which the parameter records beside it).
 * Only these exact classes are kept; a subclass (a vendor's own Timestamp) or any other class is
 * refused, because it could send something its text does not say.
 */
final class ParameterValues {

    /** A value as kept: its class and its text. */
    record Kept(String javaClass, String text) {
    }

    private record Codec(Function<Object, String> encode, Function<String, Object> decode) {
    }

    private static final String BYTES = "[B";

    private static final Map<String, Codec> CODECS = Map.ofEntries(
            Map.entry(Boolean.class.getName(), new Codec(Object::toString, Boolean::valueOf)),
            Map.entry(Byte.class.getName(), new Codec(Object::toString, Byte::valueOf)),
            Map.entry(Short.class.getName(), new Codec(Object::toString, Short::valueOf)),
            Map.entry(Integer.class.getName(), new Codec(Object::toString, Integer::valueOf)),
            Map.entry(Long.class.getName(), new Codec(Object::toString, Long::valueOf)),
            Map.entry(Float.class.getName(), new Codec(o -> floatText((Float) o), Float::valueOf)),
            Map.entry(Double.class.getName(), new Codec(o -> doubleText((Double) o), Double::valueOf)),
            Map.entry(BigDecimal.class.getName(), new Codec(Object::toString, BigDecimal::new)),
            Map.entry(BigInteger.class.getName(), new Codec(Object::toString, BigInteger::new)),
            Map.entry(String.class.getName(), new Codec(o -> (String) o, s -> s)),
            Map.entry(Character.class.getName(), new Codec(Object::toString, ParameterValues::character)),
            Map.entry(BYTES, new Codec(o -> Base64.getEncoder().encodeToString((byte[]) o),
                    s -> Base64.getDecoder().decode(s))),
            Map.entry(UUID.class.getName(), new Codec(Object::toString, ParameterValues::uuid)),
            Map.entry(URL.class.getName(), new Codec(o -> ((URL) o).toExternalForm(), ParameterValues::url)),
            Map.entry(LocalDate.class.getName(), new Codec(Object::toString, LocalDate::parse)),
            Map.entry(LocalTime.class.getName(), new Codec(Object::toString, LocalTime::parse)),
            Map.entry(LocalDateTime.class.getName(), new Codec(Object::toString, LocalDateTime::parse)),
            Map.entry(OffsetDateTime.class.getName(), new Codec(Object::toString, OffsetDateTime::parse)),
            Map.entry(OffsetTime.class.getName(), new Codec(Object::toString, OffsetTime::parse)),
            Map.entry(ZonedDateTime.class.getName(), new Codec(Object::toString, ZonedDateTime::parse)),
            Map.entry(Instant.class.getName(), new Codec(Object::toString, Instant::parse)),
            Map.entry(java.sql.Timestamp.class.getName(), new Codec(o -> ((java.sql.Timestamp) o).toInstant().toString(),
                    s -> java.sql.Timestamp.from(Instant.parse(s)))),
            Map.entry(java.sql.Date.class.getName(), new Codec(o -> millis((java.util.Date) o),
                    s -> new java.sql.Date(Instant.parse(s).toEpochMilli()))),
            Map.entry(java.sql.Time.class.getName(), new Codec(o -> millis((java.util.Date) o),
                    s -> new java.sql.Time(Instant.parse(s).toEpochMilli()))),
            Map.entry(java.util.Date.class.getName(), new Codec(o -> millis((java.util.Date) o),
                    s -> new java.util.Date(Instant.parse(s).toEpochMilli()))));

    /**
     * Classes a driver turns into text or an instant through the JVM's default time zone (the java.sql
     * and java.util dates: pgjdbc, Connector/J and sqlite-jdbc format them in it), or into the
     * connection's zone, which Connector/J takes from the JVM unless told otherwise. Their parameters
     * record the JVM zone, and are replayed only in a JVM with the same one.
     */
    private static final Set<String> ZONED = Set.of(java.sql.Timestamp.class.getName(), java.sql.Date.class.getName(),
            java.sql.Time.class.getName(), java.util.Date.class.getName(), OffsetDateTime.class.getName(),
            OffsetTime.class.getName(), ZonedDateTime.class.getName(), Instant.class.getName());

    private static final DateTimeFormatter WALL = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS");

    private ParameterValues() {
    }

    /**
     * The kept form of a value, or null for null.
     *
     * @throws IllegalArgumentException for a value that cannot be kept exactly
     */
    static Kept keep(Object v) {
        if (v == null) {
            return null;
        }
        String name = v instanceof byte[] ? BYTES : v.getClass().getName();
        Codec codec = CODECS.get(name);
        if (codec == null) {
            throw new IllegalArgumentException("a value of class " + v.getClass().getName() + " cannot be kept in a plan"
                    + " and sent again exactly (it is no plain value whose text says all it sends); bind a String, a"
                    + " number, a boolean, bytes, a java.time or java.sql date, or a UUID, or the value as text with"
                    + " setObject(index, text, Types.OTHER)");
        }
        String text = codec.encode().apply(v);
        Object back = codec.decode().apply(text);
        if (!same(v, back)) {
            throw new IllegalArgumentException("the " + v.getClass().getSimpleName() + " value " + text + " does not read"
                    + " back as itself");
        }
        return new Kept(name, text);
    }

    /** The value again, of its own class. */
    static Object restore(String javaClass, String text) {
        if (text == null) {
            return null;
        }
        Codec codec = CODECS.get(javaClass);
        if (codec == null) {
            throw new IllegalArgumentException("no parameter value of class " + javaClass);
        }
        return codec.decode().apply(text);
    }

    /** Whether a driver converts values of this class through a time zone that is not in the value. */
    static boolean zoned(String javaClass) {
        return javaClass != null && ZONED.contains(javaClass);
    }

    /** Whether the class is one a parameter can keep. */
    static boolean known(String javaClass) {
        return CODECS.containsKey(javaClass);
    }

    /**
     * How a person reads the value: java.sql and java.util dates as the wall clock the driver sends in
     * the zone given (what {@code Timestamp.toString()} printed in the application), the rest as kept.
     */
    static String display(String javaClass, String text, String zone) {
        if (text == null) {
            return null;
        }
        if (javaClass.startsWith("java.sql.") || javaClass.equals(java.util.Date.class.getName())) {
            if (zone == null) {
                return text;
            }
            String wall = WALL.format(LocalDateTime.ofInstant(Instant.parse(text), ZoneId.of(zone)));
            wall = wall.replaceFirst("\\.?0+$", "");
            if (javaClass.equals(java.sql.Date.class.getName()) && wall.endsWith(" 00:00:00")) {
                return wall.substring(0, wall.length() - " 00:00:00".length());
            }
            if (javaClass.equals(java.sql.Time.class.getName()) && wall.startsWith("1970-01-01 ")) {
                return wall.substring("1970-01-01 ".length());
            }
            return wall;
        }
        return text;
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return java.util.Arrays.equals(x, y);
        }
        if (a instanceof Float x && b instanceof Float y) {
            return Float.floatToRawIntBits(x) == Float.floatToRawIntBits(y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y);
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.unscaledValue().equals(y.unscaledValue()) && x.scale() == y.scale();
        }
        if (a instanceof URL x && b instanceof URL y) {
            // URL.equals resolves host names: compared as text, never over the network.
            return x.toExternalForm().equals(y.toExternalForm());
        }
        if (a instanceof ZonedDateTime x && b instanceof ZonedDateTime y) {
            return x.equals(y) && x.getZone().equals(y.getZone());
        }
        return a.equals(b);
    }

    private static String floatText(Float f) {
        return Float.toString(f);
    }

    private static String doubleText(Double d) {
        return Double.toString(d);
    }

    private static String millis(java.util.Date d) {
        return Instant.ofEpochMilli(d.getTime()).toString();
    }

    private static Character character(String s) {
        if (s.length() != 1) {
            throw new IllegalArgumentException("not one character: " + s);
        }
        return s.charAt(0);
    }

    private static UUID uuid(String s) {
        UUID u = UUID.fromString(s);
        if (!u.toString().equals(s)) {
            throw new IllegalArgumentException("not a canonical UUID: " + s);
        }
        return u;
    }

    @SuppressWarnings("deprecation")
    private static URL url(String s) {
        try {
            // What setURL was given, read back as written: a URL need not be a valid URI.
            return new URL(s);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a URL: " + s, e);
        }
    }
}
