package dev.llmsafe.policy;

import static dev.llmsafe.policy.ConfigLoaderTest.errorOf;
import static dev.llmsafe.policy.ConfigLoaderTest.minimal;
import static dev.llmsafe.policy.ConfigLoaderTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** R7 in the policy: policy.read.allowFunctions, in the DSL and the file. */
class ReadFunctionsConfigTest {

    @Test
    void R7_allowFunctionsIsEmptyByDefaultAndTakesNamesInAnyCase() {
        assertThat(ReadLimits.DEFAULT.allowFunctions()).isEmpty();
        assertThat(Policy.define(b -> b.read(r -> r.allowFunctions("My_Discount", "app.tax"))).read().allowFunctions())
                .containsExactlyInAnyOrder("my_discount", "app.tax");
        assertThat(Policy.define(b -> b.read(r -> r.allowFunctions("a")).read(r -> r.maxRows(5))).read().allowFunctions())
                .containsExactly("a");
        for (String bad : new String[] {"f()", "", "a.b.c", "x; drop", "1f", "\"q\""}) {
            assertThatThrownBy(() -> Policy.define(b -> b.read(r -> r.allowFunctions(bad)))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowFunctions takes names");
        }
    }

    @Test
    void R7_allowFunctionsIsReadFromTheFileWithLocatedErrors() {
        assertThat(parse(minimal("{\"allow\": [\"t\"], \"read\": {\"allowFunctions\": [\"my_discount\", \"app.Tax\"]}}"))
                .policy().read().allowFunctions()).isEqualTo(Set.of("my_discount", "app.tax"));
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"allowFunctions\": \"my_discount\"}}")))
                .startsWith("llmsafe.json:2:").contains("policy.read.allowFunctions: expected a list of function names");
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"allowFunctions\": [\"lo_open(1)\"]}}")))
                .startsWith("llmsafe.json:2:").contains("policy.read.allowFunctions[0]").contains("without parentheses");
        assertThat(errorOf(minimal("{\"allow\": [\"t\"], \"read\": {\"allowFunctions\": [7]}}")))
                .contains("policy.read.allowFunctions[0]");
    }

    @Test
    void R7_allowFunctionsRoundTripsThroughTheCanonicalJsonAndIsLeftOutWhenEmpty() {
        Policy p = Policy.define(b -> b.table("t").read(r -> r.allowFunctions("b_fn", "a_fn")));
        LlmSafeConfig c = LlmSafeConfig.builder().connection(ConnectionSettings.of("jdbc:sqlite:/srv/a.db")).policy(p).build();
        assertThat(c.toJson()).contains("\"allowFunctions\" : [ \"a_fn\", \"b_fn\" ]");
        assertThat(LlmSafeConfig.parse(c.toJson(), "x.json", name -> null).policy()).isEqualTo(p);
        LlmSafeConfig plain = LlmSafeConfig.builder().connection(ConnectionSettings.of("jdbc:sqlite:/srv/a.db"))
                .policy(Policy.define(b -> b.table("t"))).build();
        assertThat(plain.toJson()).doesNotContain("allowFunctions");
    }
}
