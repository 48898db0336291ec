package dev.llmsafe.policy;

import static dev.llmsafe.policy.ConfigLoaderTest.errorOf;
import static dev.llmsafe.policy.ConfigLoaderTest.minimal;
import static dev.llmsafe.policy.ConfigLoaderTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** R11 and R12 in the policy: policy.read.holdMs and policy.read.maxBytes, in the DSL and the file. */
class ReadHoldAndBytesTest {

    @Test
    void R11_holdMsDefaultsToAFewSecondsBeyondTheReadTimeoutAndCanBeSet() {
        assertThat(ReadLimits.DEFAULT.holdMs()).isEqualTo(10_000);
        assertThat(Policy.define(b -> b.read(r -> r.timeoutMs(2000))).read().holdMs()).isEqualTo(7000);
        assertThat(Policy.define(b -> b.read(r -> r.holdMs(1500).timeoutMs(2000))).read().holdMs()).isEqualTo(1500);
        // A holdMs that only followed timeoutMs keeps following it; one that was set stays.
        Policy p = Policy.define(b -> b.read(r -> r.holdMs(1500)).read(r -> r.timeoutMs(100)));
        assertThat(p.read().holdMs()).isEqualTo(1500);
        assertThat(Policy.define(b -> b.read(r -> r.timeoutMs(100)).read(r -> r.timeoutMs(200))).read().holdMs())
                .isEqualTo(5200);
        assertThatThrownBy(() -> Policy.define(b -> b.read(r -> r.holdMs(0))))
                .hasMessage("holdMs must be a whole number from 1 to 3600000, was 0");

        assertThat(parse(minimal("{\"allow\": [\"t\"], \"read\": {\"holdMs\": 2500}}")).policy().read().holdMs())
                .isEqualTo(2500);
        assertThat(parse(minimal("{\"allow\": [\"t\"], \"read\": {\"timeoutMs\": 1000}}")).policy().read().holdMs())
                .isEqualTo(6000);
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"holdMs\": \"soon\"}}")))
                .isEqualTo("llmsafe.json:2:47: policy.read.holdMs: expected a whole number from 1 to 3600000, found"
                        + " a string");
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"holdMs\": 0}}")))
                .isEqualTo("llmsafe.json:2:47: policy.read.holdMs: expected a whole number from 1 to 3600000, found 0");
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"holdMS\": 10}}")))
                .isEqualTo("llmsafe.json:2:37: policy.read.holdMS: unknown key (keys are case-sensitive); did you mean"
                        + " \"holdMs\"?");
    }

    @Test
    void R12_maxBytesDefaultsTo16MiBAndIsBoundedInTheDslAndTheFile() {
        assertThat(ReadLimits.DEFAULT.maxBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(Policy.define(b -> b.read(r -> r.maxBytes(4096))).read().maxBytes()).isEqualTo(4096);
        assertThatThrownBy(() -> Policy.define(b -> b.read(r -> r.maxBytes(100))))
                .hasMessage("maxBytes must be a whole number from 1024 to 1073741824, was 100");

        assertThat(parse(minimal("{\"allow\": [\"t\"], \"read\": {\"maxBytes\": 65536}}")).policy().read().maxBytes())
                .isEqualTo(65536);
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"maxBytes\": 2147483648}}")))
                .isEqualTo("llmsafe.json:2:49: policy.read.maxBytes: expected a whole number from 1024 to 1073741824,"
                        + " found 2147483648");
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"maxBytes\": 1.5}}")))
                .startsWith("llmsafe.json:2:49: policy.read.maxBytes: expected a whole number");
    }

    @Test
    void R11_R12_bothRoundTripThroughTheCanonicalJson() {
        Policy p = Policy.define(b -> b.table("t").read(r -> r.holdMs(1234).maxBytes(5000)));
        LlmSafeConfig c = LlmSafeConfig.builder().connection(ConnectionSettings.of("jdbc:sqlite:/srv/a.db")).policy(p).build();
        String json = c.toJson();
        assertThat(json).contains("\"holdMs\" : 1234").contains("\"maxBytes\" : 5000");
        assertThat(LlmSafeConfig.parse(json, "x.json", name -> null).policy()).isEqualTo(p);
        assertThat(new ReadLimits(10, OptionalDouble.empty(), 2000)).isEqualTo(
                new ReadLimits(10, OptionalDouble.empty(), 2000, 7000, ReadLimits.DEFAULT_MAX_BYTES));
    }
}
