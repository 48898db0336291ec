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

    /** One line without its terminator ({@code \n}, or {@code \r\n}); {@code bytes} is null when it was too long. */
    record Line(byte[] bytes, long length) {

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
                    line = new ByteArrayOutputStream();
                } else {
                    line.write(buffer, start, n);
                }
            }
            if (position < limit) {
                position++; // the \n
                return finish(line, length, dropping);
            }
        }
    }

    private Line finish(ByteArrayOutputStream line, long length, boolean dropping) {
        if (dropping) {
            return new Line(null, length);
        }
        byte[] bytes = line.toByteArray();
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] == '\r') {
            end--;
        }
        if (end > maxBytes) {
            return new Line(null, length);
        }
        return new Line(end == bytes.length ? bytes : Arrays.copyOf(bytes, end), length);
    }
}
