package dev.llmsafe.value;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Binary data (bytea, BLOB, VARBINARY), kept as its length, its SHA-256 and its first
 * {@value #HEAD_BYTES} bytes, never as the whole array: a plan may hold many megabyte-sized blobs, and
 * a card shows only size and hash. Two values are equal when length, hash and head are equal; the head
 * is a function of the bytes, so this is equality of content (up to a SHA-256 collision).
 */
public record BinaryValue(long length, String sha256, String head) implements Value {

    /** {@value}. */
    public static final String TAG = "bin";
    /** How many leading bytes are kept for display. */
    public static final int HEAD_BYTES = 16;

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern HEX = Pattern.compile("([0-9a-f]{2})*");

    /** @throws IllegalArgumentException for a negative length, a malformed hash or head */
    public BinaryValue {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(head, "head");
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        if (!SHA256_HEX.matcher(sha256).matches()) {
            throw new IllegalArgumentException("not a lower-case hex SHA-256: " + sha256);
        }
        if (!HEX.matcher(head).matches() || head.length() / 2 != Math.min(length, HEAD_BYTES)) {
            throw new IllegalArgumentException("head must be the first min(length, " + HEAD_BYTES
                    + ") bytes in lower-case hex: " + head);
        }
    }

    /** The value of these bytes; the array is not kept. */
    public static BinaryValue of(byte[] bytes) {
        return new BinaryValue(bytes.length, HexFormat.of().formatHex(sha256(bytes)),
                HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, HEAD_BYTES)));
    }

    /** True when {@link #head()} holds every byte. */
    public boolean complete() {
        return length <= HEAD_BYTES;
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String tag() {
        return TAG;
    }
}
