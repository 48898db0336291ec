package dev.llmsafe.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** D12: a secret column is compared by hash, never skipped and never shown. */
class MaskedValueTest {

    private static final byte[] KEY = "a seal key of sixteen+ chars".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    static Iterable<Value> samples() {
        return Samples.all();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void D12_aMaskedValueCarriesNothingOfTheValue(Value v) {
        MaskedValue m = v.masked(KEY);
        assertThat(m.render()).isEqualTo("<masked>");
        String json = m.toJson();
        String alg = v instanceof MaskedValue already ? already.algorithm() : "hmac-sha256";
        assertThat(json).matches("\\{\"t\":\"masked\",\"alg\":\"" + alg + "\",\"v\":\"[0-9a-f]{64}\"}");
        assertThat(Value.fromJson(json)).isEqualTo(m);
    }

    @Test
    void D12_maskedValuesAreEqualExactlyWhenTheValuesAre() {
        for (Value a : Samples.all()) {
            for (Value b : Samples.all()) {
                if (a instanceof MaskedValue || b instanceof MaskedValue) {
                    continue;
                }
                assertThat(a.masked(KEY).equals(b.masked(KEY))).as("%s vs %s", a, b).isEqualTo(a.equals(b));
                assertThat(a.masked().equals(b.masked())).as("%s vs %s", a, b).isEqualTo(a.equals(b));
            }
        }
    }

    @Test
    void D12_theRoleEscalationInASecretColumnIsStillAChange() {
        assertThat(new JsonbValue("{\"role\":\"user\"}").masked(KEY))
                .isNotEqualTo(new JsonbValue("{\"role\":\"admin\"}").masked(KEY));
        assertThat(new TextValue("hunter2").masked(KEY)).isEqualTo(new TextValue("hunter2").masked(KEY));
        assertThat(Value.NULL.masked(KEY)).isNotEqualTo(new TextValue("").masked(KEY));
    }

    @Test
    void D12_theDisplayOffsetOfATimestampDoesNotChangeItsHash() {
        Instant i = Instant.parse("2024-10-27T01:30:00.000001Z");
        assertThat(new TimestampTzValue(i, ZoneOffset.ofHours(2)).masked(KEY))
                .isEqualTo(new TimestampTzValue(i, ZoneOffset.UTC).masked(KEY));
    }

    @Test
    void D12_aKeyedHashDiffersFromThePlainOneAndFromOtherKeys() {
        Value v = new TextValue("1234");
        assertThat(v.masked().algorithm()).isEqualTo(MaskedValue.SHA256);
        assertThat(v.masked()).isNotEqualTo(v.masked(KEY));
        assertThat(v.masked(KEY)).isNotEqualTo(v.masked(new byte[] {1}));
        assertThat(v.masked(KEY).masked(new byte[] {1})).isEqualTo(v.masked(KEY));
    }

    @Test
    void D12_twoDifferentSecretsRenderAsDifferentOnTheCard() {
        ValueText.RenderedChange c = ValueText.renderChange(new TextValue("a").masked(KEY), new TextValue("b").masked(KEY));
        assertThat(c.before()).isEqualTo("<masked>");
        assertThat(c.after()).isEqualTo("<masked, different>");
    }
}
