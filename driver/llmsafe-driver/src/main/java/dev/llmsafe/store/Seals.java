package dev.llmsafe.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checksums and seals (T2). A checksum catches an accidental or careless edit of a stored plan; anyone
 * with write access to the store can recompute it. A seal is an HMAC under a key the store's credential
 * never sees, so editing a plan, or marking one approved that no person approved, needs that key too.
 * The plan and its approval are sealed separately because they are written at different times.
 */
final class Seals {

    private final byte[] key;

    Seals(byte[] key) {
        this.key = key == null ? null : key.clone();
    }

    boolean keyed() {
        return key != null;
    }

    static String checksum(String planJson) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(planJson.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String planSeal(String id, String planJson) {
        return mac("plan\n" + id + "\n" + planJson);
    }

    String approvalSeal(String id, String checksum, String approvedBy, String approvedAt) {
        return mac("approval\n" + id + "\n" + checksum + "\n" + approvedBy + "\n" + approvedAt);
    }

    private String mac(String text) {
        if (key == null) {
            return null;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compares in constant time, so that a seal cannot be guessed one character at a time. */
    static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8),
                b.getBytes(StandardCharsets.UTF_8));
    }
}
