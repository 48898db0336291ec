package dev.llmsafe.jdbc;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dialect.Dialect;
import java.io.FilterInputStream;
import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.temporal.Temporal;
import java.util.Date;

/**
 * R12: the bytes of values one read hands out, bounded by {@code policy.read.maxBytes}, because a few
 * huge rows ran the application's JVM out of memory. Text counts its UTF-8 bytes, binary its length,
 * any other object the text it stands for; numbers, dates and booleans are not counted (a row of them
 * is small). The result ends at the first row boundary at which the bound is reached (a
 * {@link java.sql.SQLWarning} with the row cap's SQLState says so), and a single value larger than the
 * whole bound is refused (TOO_LARGE) rather than handed out.
 *
 * <p>Counting what is handed out does not stop a vendor driver that buffers a whole result first:
 * that is bounded where it happens ({@link Dialect#boundValueSize}, pgjdbc's maxResultBuffer), and
 * {@link #translate} turns the driver's refusal into one that names the bound. One per result set,
 * used by the thread that reads it.
 */
final class ReadBytes {

    private final long max;
    private final Dialect dialect;
    private final Connection exec;
    private long used;

    /** A budget of {@code max} bytes; {@code exec} is the connection the read runs on. */
    ReadBytes(long max, Dialect dialect, Connection exec) {
        this.max = max;
        this.dialect = dialect;
        this.exec = exec;
    }

    /** The bound, in bytes. */
    long max() {
        return max;
    }

    /** The bytes handed out so far. */
    long used() {
        return used;
    }

    /** Whether the bound is reached, so that the result ends before the next row. */
    boolean spent() {
        return used >= max;
    }

    /** Counts a text value, refusing one larger than the whole bound. */
    String text(String s) throws SQLException {
        if (s != null) {
            add(utf8Length(s));
        }
        return s;
    }

    /** Counts a binary value. */
    byte[] bytes(byte[] b) throws SQLException {
        if (b != null) {
            add(b.length);
        }
        return b;
    }

    /** Counts an object by its kind. */
    <T> T object(T v) throws SQLException {
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof Date || v instanceof Temporal
                || v instanceof java.util.UUID) {
            return v;
        }
        if (v instanceof String s) {
            text(s);
        } else if (v instanceof byte[] b) {
            bytes(b);
        } else if (!(v instanceof java.sql.Array || v instanceof java.sql.Blob || v instanceof java.sql.Clob)) {
            // PGobject (json, intervals, ...) and the like: what they stand for is their text.
            text(String.valueOf(v));
        }
        return v;
    }

    InputStream stream(InputStream in) {
        return in == null ? null : new CountingStream(in);
    }

    Reader reader(Reader in) {
        return in == null ? null : new CountingReader(in);
    }

    private void add(long n) throws RefusedException {
        if (n > max) {
            throw valueTooLarge(n);
        }
        used += n;
    }

    private RefusedException valueTooLarge(long n) {
        return new RefusedException(Refusal.TOO_LARGE, "a value of this read is " + n + " bytes, larger than"
                + " policy.read.maxBytes (" + max + " bytes), the most one read may return (R12), so it is not handed"
                + " out. Nothing was changed. Read a part of it (substring, length) instead.");
    }

    /**
     * The vendor driver's own refusal to buffer or read a value past the bound, as a failure that says
     * so: a refusal when the connection survived it (SQLite's length limit), and when the driver closed
     * the connection (pgjdbc's maxResultBuffer), an 08006 error so that a pool drops it.
     */
    SQLException translate(SQLException e) {
        return translate(e, dialect, exec, max);
    }

    static SQLException translate(SQLException e, Dialect dialect, Connection exec, long max) {
        if (e instanceof RefusedException || !dialect.isResultTooLarge(e)) {
            return e;
        }
        boolean closed;
        try {
            closed = exec.isClosed();
        } catch (SQLException x) {
            closed = true;
        }
        String what = "the result was larger than policy.read.maxBytes (" + max + " bytes) allows (R12), and the"
                + " database's driver stopped before it filled the application's memory (" + e.getMessage() + ").";
        if (!closed) {
            return new RefusedException(Refusal.TOO_LARGE, what + " Nothing was changed. Narrow the read: fewer rows,"
                    + " fewer or shorter columns (substring, length).", e);
        }
        return new SQLNonTransientConnectionException("llmsafe: " + what + " The driver closed the connection;"
                + " nothing was changed. Open a new connection, and narrow the read: fewer rows, fewer or shorter"
                + " columns.", "08006", e);
    }

    /** UTF-8 length without encoding. */
    static long utf8Length(CharSequence s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            n += utf8Length(s.charAt(i));
        }
        return n;
    }

    private static int utf8Length(char c) {
        // A surrogate pair is 4 bytes: 2 for each half.
        return c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }

    /** A binary stream counted as it is read: one value, refused past the whole bound. */
    private final class CountingStream extends FilterInputStream {
        private long read;

        CountingStream(InputStream in) {
            super(in);
        }

        private int counted(int n) throws IOException {
            if (n > 0) {
                read += n;
                if (read > max) {
                    throw new IOException(valueTooLarge(read));
                }
                used += n;
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return counted(super.read(b, off, len));
        }
    }

    /** A character stream counted as it is read, in UTF-8 bytes. */
    private final class CountingReader extends FilterReader {
        private long read;

        CountingReader(Reader in) {
            super(in);
        }

        private void count(long n) throws IOException {
            read += n;
            if (read > max) {
                throw new IOException(valueTooLarge(read));
            }
            used += n;
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                count(utf8Length((char) c));
            }
            return c;
        }

        @Override
        public int read(char[] cbuf, int off, int len) throws IOException {
            int n = super.read(cbuf, off, len);
            if (n > 0) {
                count(utf8Length(java.nio.CharBuffer.wrap(cbuf, off, n)));
            }
            return n;
        }
    }
}
