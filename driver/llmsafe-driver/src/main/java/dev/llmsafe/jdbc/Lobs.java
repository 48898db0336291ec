package dev.llmsafe.jdbc;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.Arrays;
import java.util.Set;

/**
 * J10: a LOB read through llmsafe is the column's own value, held in memory, never a locator the vendor
 * driver follows on its connection. pgjdbc's {@code getBlob}, {@code getClob} and {@code getObject(i,
 * Blob.class)} take any column's value for the oid of a large object and read it (measured, pgjdbc
 * 42.7.14 on PostgreSQL 15: {@code SELECT 23494} or {@code SELECT '23494'}, then getBlob, returned large
 * object 23494, whatever table it belongs to, and said "large object 77 does not exist" for another);
 * large objects are not tables, so no allowlist can name them. The vendor's LOB accessors are therefore
 * never called: a Blob is made of the column's bytes ({@code getBytes}), a Clob or NClob of its text
 * ({@code getString}), on every dialect alike (sqlite-jdbc has no getBlob of its own; Connector/J builds
 * the same in-memory objects).
 *
 * <p>A column whose type is a number is refused: its value is not the content of a LOB (JDBC's own
 * table of getter conversions allows none), and on PostgreSQL it is the reference to one (an {@code oid}
 * column reports {@link Types#BIGINT}), which llmsafe does not follow.
 */
final class Lobs {

    private static final Set<Integer> NUMBERS = Set.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT,
            Types.REAL, Types.FLOAT, Types.DOUBLE, Types.NUMERIC, Types.DECIMAL, Types.BIT, Types.BOOLEAN);

    private Lobs() {
    }

    /**
     * The column's bytes as a read-only Blob, or null for SQL NULL.
     *
     * @param budget the read's byte bound (R12), counting the copy; null where none applies
     */
    static Blob blob(ResultSet vendor, int column, ReadBytes budget) throws SQLException {
        check(vendor, column, "getBlob");
        byte[] bytes = vendor.getBytes(column);
        if (budget != null) {
            budget.bytes(bytes);
        }
        return bytes == null ? null : new ReadOnlyBlob(new Bytes(bytes));
    }

    /** The column's text as a read-only Clob, or null for SQL NULL; counted as {@link #blob}. */
    static Clob clob(ResultSet vendor, int column, ReadBytes budget) throws SQLException {
        check(vendor, column, "getClob");
        String text = vendor.getString(column);
        if (budget != null) {
            budget.text(text);
        }
        return text == null ? null : new ReadOnlyClob(new Text(text));
    }

    /** The column's text as a read-only NClob, or null for SQL NULL; counted as {@link #blob}. */
    static NClob nclob(ResultSet vendor, int column, ReadBytes budget) throws SQLException {
        check(vendor, column, "getNClob");
        String text = vendor.getString(column); // pgjdbc and sqlite-jdbc have no getNString; a Java string is Unicode
        if (budget != null) {
            budget.text(text);
        }
        return text == null ? null : new ReadOnlyNClob(new Text(text));
    }

    /** Whether a getter asked for a LOB by its class ({@code getObject(i, Blob.class)}). */
    static boolean isLob(Class<?> type) {
        return type == Blob.class || type == Clob.class || type == NClob.class;
    }

    /** The LOB of a class for which {@link #isLob} holds, of the column's own value. */
    static Object byClass(ResultSet vendor, int column, Class<?> type, ReadBytes budget) throws SQLException {
        return type == NClob.class ? nclob(vendor, column, budget) : type == Clob.class ? clob(vendor, column, budget)
                : blob(vendor, column, budget);
    }

    /** A value the vendor's getObject made a LOB of is read again as the column's own value. */
    static Object ownValue(ResultSet vendor, int column, Object value, ReadBytes budget) throws SQLException {
        if (value instanceof NClob) {
            return nclob(vendor, column, budget);
        }
        if (value instanceof Clob) {
            return clob(vendor, column, budget);
        }
        if (value instanceof Blob) {
            return blob(vendor, column, budget);
        }
        return value;
    }

    private static void check(ResultSet vendor, int column, String getter) throws SQLException {
        int type = vendor.getMetaData().getColumnType(column);
        if (NUMBERS.contains(type)) {
            throw Guard.forbidden(getter + " on a column of type " + vendor.getMetaData().getColumnTypeName(column),
                    "a number is not the content of a LOB, and on PostgreSQL it is the oid of a large object, stored"
                            + " outside every table, where no policy can allow or deny it (J10). Read the number with"
                            + " getLong, or select a binary or text column (bytea, BLOB, TEXT).");
        }
    }

    private static SQLException readOnly() {
        return new SQLFeatureNotSupportedException("a LOB read through llmsafe is a copy of the column's value");
    }

    /** A Blob in memory; {@link ReadOnlyBlob} refuses its writes before they get here. */
    private static final class Bytes implements Blob {
        private final byte[] b;

        Bytes(byte[] bytes) {
            this.b = bytes;
        }

        @Override
        public long length() {
            return b.length;
        }

        @Override
        public byte[] getBytes(long pos, int length) throws SQLException {
            int from = start(pos, b.length);
            return Arrays.copyOfRange(b, from, from + Math.max(0, Math.min(length, b.length - from)));
        }

        @Override
        public InputStream getBinaryStream() {
            return new ByteArrayInputStream(b);
        }

        @Override
        public InputStream getBinaryStream(long pos, long length) throws SQLException {
            int from = start(pos, b.length);
            if (length < 0 || from + length > b.length) {
                throw new SQLException("position " + pos + " and length " + length + " are outside the " + b.length
                        + " bytes of the Blob", "22023");
            }
            return new ByteArrayInputStream(b, from, (int) length);
        }

        @Override
        public long position(byte[] pattern, long start) throws SQLException {
            for (int i = start(start, b.length); pattern != null && i + pattern.length <= b.length; i++) {
                if (Arrays.equals(b, i, i + pattern.length, pattern, 0, pattern.length)) {
                    return i + 1;
                }
            }
            return -1;
        }

        @Override
        public long position(Blob pattern, long start) throws SQLException {
            return position(pattern.getBytes(1, (int) pattern.length()), start);
        }

        // @formatter:off
        @Override public int setBytes(long pos, byte[] bytes) throws SQLException { throw readOnly(); }
        @Override public int setBytes(long pos, byte[] bytes, int offset, int len) throws SQLException { throw readOnly(); }
        @Override public OutputStream setBinaryStream(long pos) throws SQLException { throw readOnly(); }
        @Override public void truncate(long len) throws SQLException { throw readOnly(); }
        @Override public void free() { }
        // @formatter:on
    }

    /** A Clob and NClob in memory; {@link ReadOnlyClob} refuses its writes before they get here. */
    private static final class Text implements NClob {
        private final String s;

        Text(String text) {
            this.s = text;
        }

        @Override
        public long length() {
            return s.length();
        }

        @Override
        public String getSubString(long pos, int length) throws SQLException {
            int from = start(pos, s.length());
            return s.substring(from, from + Math.max(0, Math.min(length, s.length() - from)));
        }

        @Override
        public Reader getCharacterStream() {
            return new StringReader(s);
        }

        @Override
        public Reader getCharacterStream(long pos, long length) throws SQLException {
            int from = start(pos, s.length());
            if (length < 0 || from + length > s.length()) {
                throw new SQLException("position " + pos + " and length " + length + " are outside the " + s.length()
                        + " characters of the Clob", "22023");
            }
            return new StringReader(s.substring(from, from + (int) length));
        }

        @Override
        public InputStream getAsciiStream() {
            return new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
        }

        @Override
        public long position(String searchstr, long start) throws SQLException {
            int at = searchstr == null ? -1 : s.indexOf(searchstr, start(start, s.length()));
            return at < 0 ? -1 : at + 1;
        }

        @Override
        public long position(Clob searchstr, long start) throws SQLException {
            return position(searchstr.getSubString(1, (int) searchstr.length()), start);
        }

        // @formatter:off
        @Override public int setString(long pos, String str) throws SQLException { throw readOnly(); }
        @Override public int setString(long pos, String str, int offset, int len) throws SQLException { throw readOnly(); }
        @Override public OutputStream setAsciiStream(long pos) throws SQLException { throw readOnly(); }
        @Override public Writer setCharacterStream(long pos) throws SQLException { throw readOnly(); }
        @Override public void truncate(long len) throws SQLException { throw readOnly(); }
        @Override public void free() { }
        // @formatter:on
    }

    /** A LOB position (1 is the first) as an index, checked as JDBC asks. */
    private static int start(long pos, int length) throws SQLException {
        if (pos < 1 || pos > length + 1L) {
            throw new SQLException("position " + pos + " is outside the LOB of length " + length, "22023");
        }
        return (int) (pos - 1);
    }
}
