package dev.llmsafe.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class InterpolationTest {

    private static final UnaryOperator<String> ENV = Map.of("HOST", "db", "PORT", "5432", "EMPTY", "")::get;

    @Test
    void namesAreReplacedByTheirValues() {
        assertThat(Interpolation.expand("jdbc:postgresql://${HOST}:${PORT}/app", ENV))
                .isEqualTo("jdbc:postgresql://db:5432/app");
        assertThat(Interpolation.expand("no variables", ENV)).isEqualTo("no variables");
        assertThat(Interpolation.expand("${EMPTY}", ENV)).isEmpty();
    }

    @Test
    void aDefaultIsUsedOnlyWhenTheVariableIsUnset() {
        assertThat(Interpolation.expand("${USER_NAME:-llm_plan}", ENV)).isEqualTo("llm_plan");
        assertThat(Interpolation.expand("${HOST:-other}", ENV)).isEqualTo("db");
        assertThat(Interpolation.expand("${EMPTY:-other}", ENV)).isEmpty();
        assertThat(Interpolation.expand("${MISSING:-}", ENV)).isEmpty();
        assertThat(Interpolation.expand("${MISSING:-a:-b}", ENV)).isEqualTo("a:-b");
    }

    @Test
    void aDoubledDollarIsALiteral() {
        assertThat(Interpolation.expand("pa$${HOST}ss", ENV)).isEqualTo("pa${HOST}ss");
        assertThat(Interpolation.expand("cost $5", ENV)).isEqualTo("cost $5");
    }

    @Test
    void anUnsetVariableWithoutADefaultIsAnErrorNamingIt() {
        assertThatThrownBy(() -> Interpolation.expand("${LLMSAFE_PASSWORD}", ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("environment variable LLMSAFE_PASSWORD is not set; set it, or give a default:"
                        + " ${LLMSAFE_PASSWORD:-value}");
    }

    @Test
    void malformedReferencesAreErrors() {
        assertThatThrownBy(() -> Interpolation.expand("${HOST", ENV))
                .hasMessage("\"${\" is not closed; write ${NAME} or ${NAME:-default}, or $${ for a literal ${");
        assertThatThrownBy(() -> Interpolation.expand("${1X}", ENV))
                .hasMessage("\"${1X}\" does not name an environment variable; write ${NAME} or ${NAME:-default},"
                        + " or $${ for a literal ${");
    }

    @Test
    void aMissingVariableInTheFileIsLocated() {
        String json = "{\n  \"connection\": {\"url\": \"jdbc:sqlite:/srv/a.db\", \"password\": \"${NOPE}\"},\n"
                + "  \"policy\": {\"allow\": []}\n}";
        assertThatThrownBy(() -> LlmSafeConfig.parse(json, "llmsafe.json", ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessage("llmsafe.json:2:62: connection.password: environment variable NOPE is not set;"
                        + " set it, or give a default: ${NOPE:-value}")
                .satisfies(e -> {
                    ConfigException c = (ConfigException) e;
                    assertThat(c.line()).isEqualTo(2);
                    assertThat(c.column()).isEqualTo(62);
                    assertThat(c.key()).isEqualTo("connection.password");
                });
    }

    @Test
    void everyStringValueIsInterpolated() {
        String json = "{\"connection\": {\"url\": \"jdbc:postgresql://${HOST}:${PORT}/app\", \"user\": \"${U:-reader}\"},"
                + " \"policy\": {\"allow\": [\"orders\"], \"impact\": {\"orders\": \"ships from ${HOST}\"}}}";
        LlmSafeConfig c = LlmSafeConfig.parse(json, "x", ENV);
        assertThat(c.connection().url()).isEqualTo("jdbc:postgresql://db:5432/app");
        assertThat(c.connection().user()).contains("reader");
        assertThat(c.policy().tables().values().iterator().next().impact()).contains("ships from db");
    }
}
