package dev.llmsafe.value;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret column's value reduced to a hash of its canonical form (D12): two masked values are equal
 * exactly when the values were (same algorithm, same key), so a secret column is compared, never
 * skipped, and never shown. {@code algorithm} is {@value #SHA256} (plain, for values nobody can guess)
 * or {@value #HMAC_SHA256} (keyed: a guess cannot be checked without the key). Masking a masked value
 * returns it unchanged.
 */
public record MaskedValue(String algorithm, String hash) implements Value {

    /** {@value}. */
    public static final String TAG = "masked";
    /** {@value}: a plain SHA-256. */
    public static final String SHA256 = "sha256";
    /** {@value}: an HMAC-SHA256 under a key. */
    public static final String HMAC_SHA256 = "hmac-sha256";

    private static final Pattern HASH_HEX = Pattern.compile("[0-9a-f]{64}");

    /** @throws IllegalArgumentException for an unknown algorithm or a malformed hash */
    public MaskedValue {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(hash, "hash");
        if (!algorithm.equals(SHA256) && !algorithm.equals(HMAC_SHA256)) {
            throw new IllegalArgumentException("unknown masking algorithm " + algorithm);
        }
        if (!HASH_HEX.matcher(hash).matches()) {
            throw new IllegalArgumentException("not a lower-case hex SHA-256: " + hash);
        }
    }

    static MaskedValue of(Value value, byte[] key) {
        if (value instanceof MaskedValue m) {
            return m;
        }
        byte[] canonical = ValueJson.canonical(value).getBytes(StandardCharsets.UTF_8);
        if (key == null) {
            return new MaskedValue(SHA256, HexFormat.of().formatHex(BinaryValue.sha256(canonical)));
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return new MaskedValue(HMAC_SHA256, HexFormat.of().formatHex(mac.doFinal(canonical)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    @Override
    public String tag() {
        return TAG;
    }
}
