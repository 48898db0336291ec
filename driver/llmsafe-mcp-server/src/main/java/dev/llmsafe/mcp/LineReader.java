package dev.llmsafe.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads newline-delimited messages as bytes, at most a bound per line. A longer line is read to its end
 * and dropped, never held: a client (or whatever writes to our standard input) cannot make the server
 * buffer an unbounded line, and the next line is read normally.
 */
final class LineReader {

    /** How much of the beginning and of the end of a dropped line is kept, to find the request's id in. */
    static final int KEPT = 4096;

    /**
     * One line without its terminator ({@code \n}, or {@code \r\n}); {@code bytes} is null when it was
     * too long, and then {@code head} and {@code tail} hold its first and last {@link #KEPT} bytes at most.
     */
    record Line(byte[] bytes, long length, byte[] head, byte[] tail) {

        Line(byte[] bytes, long length) {
            this(bytes, length, null, null);
        }

        boolean tooLong() {
            return bytes == null;
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;

    LineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or null at the end of the input. A last line without a newline is still a line. */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long length = 0;
        boolean dropping = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return length == 0 ? null : finish(line, length, dropping);
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int n = position - start;
            length += n;
            if (!dropping) {
                // The terminator's \r may still come, so one byte over the bound is allowed until the line ends.
                if (line.size() + n > maxBytes + 1L) {
                    dropping = true;
                    byte[] sofar = line.toByteArray();
                    head = Arrays.copyOf(sofar, Math.min(KEPT, sofar.length));
                    int more = Math.min(KEPT - head.length, n);
                    if (more > 0) {
                        head = Arrays.copyOf(head, head.length + more);
                        System.arraycopy(buffer, start, head, head.length - more, more);
                    }
                    tailLength = 0;
                    keepTail(sofar, 0, sofar.length);
                    keepTail(buffer, start, n);
                    line = new ByteArrayOutputStream();
                } else {
                    line.write(buffer, start, n);
                }
            } else {
                keepTail(buffer, start, n);
            }
            if (position < limit) {
                position++; // the \n
                return finish(line, length, dropping);
            }
        }
    }

    private byte[] head;
    private final byte[] tail = new byte[KEPT];
    private int tailLength;

    /** Keeps the last {@link #KEPT} bytes seen of a line being dropped. */
    private void keepTail(byte[] from, int offset, int n) {
        if (n >= KEPT) {
            System.arraycopy(from, offset + n - KEPT, tail, 0, KEPT);
            tailLength = KEPT;
            return;
        }
        int keep = Math.min(tailLength, KEPT - n);
        System.arraycopy(tail, tailLength - keep, tail, 0, keep);
        System.arraycopy(from, offset, tail, keep, n);
        tailLength = keep + n;
    }

    private Line finish(ByteArrayOutputStream line, long length, boolean dropping) {
        if (dropping) {
            byte[] end = Arrays.copyOf(tail, tailLength);
            if (end.length > 0 && end[end.length - 1] == '\r') {
                end = Arrays.copyOf(end, end.length - 1);
            }
            return new Line(null, length, head, end);
        }
        byte[] bytes = line.toByteArray();
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] == '\r') {
            end--;
        }
        if (end > maxBytes) {
            return new Line(null, length, Arrays.copyOf(bytes, Math.min(KEPT, end)),
                    Arrays.copyOfRange(bytes, Math.max(0, end - KEPT), end));
        }
        return new Line(end == bytes.length ? bytes : Arrays.copyOf(bytes, end), length);
    }
}
