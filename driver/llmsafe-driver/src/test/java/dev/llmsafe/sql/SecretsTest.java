package dev.llmsafe.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.policy.Policy;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * R2, D12: the one reading of "is this column secret". Every way a column name reaches the guard (the
 * catalog's spelling, a result's label, a statement's identifier) is matched against the policy the same
 * way: by column name, without case, and as the server truncates it.
 */
class SecretsTest {

    private static final String LONG = "customer_payment_card_verification_value_as_entered_at_checkout_time";
    /** What PostgreSQL keeps of {@link #LONG}: 63 bytes. */
    private static final String LONG_KEPT = LONG.substring(0, 63);

    static Stream<Arguments> cases() {
        return Stream.of(
                // policy's name, dialect, a column name as it reaches the guard, secret?
                Arguments.of("api_token", SqlDialect.POSTGRESQL, "api_token", true),
                Arguments.of("api_token", SqlDialect.MYSQL, "API_TOKEN", true),
                Arguments.of("API_Token", SqlDialect.SQLITE, "api_token", true),
                Arguments.of("members.api_token", SqlDialect.POSTGRESQL, "api_token", true),
                Arguments.of("members.api_token", SqlDialect.MYSQL, "Api_Token", true),
                Arguments.of(LONG, SqlDialect.POSTGRESQL, LONG_KEPT, true),
                Arguments.of(LONG, SqlDialect.POSTGRESQL, LONG, true),
                Arguments.of(LONG_KEPT, SqlDialect.POSTGRESQL, LONG, true),
                Arguments.of(LONG, SqlDialect.SQLITE, LONG_KEPT, false),
                Arguments.of(LONG, SqlDialect.MYSQL, LONG_KEPT, false),
                Arguments.of("api_token", SqlDialect.POSTGRESQL, "api_token2", false),
                Arguments.of("api_token", SqlDialect.POSTGRESQL, "token", false),
                Arguments.of("api_token", SqlDialect.POSTGRESQL, null, false));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void R2_D12_aSecretIsKnownByTheNameTheServerKeeps(String secret, SqlDialect dialect, String column, boolean expected) {
        Secrets secrets = Secrets.of(Policy.define(p -> p.secret(secret, "a card's check value")), dialect);
        assertThat(secrets.isSecret(column)).as(column).isEqualTo(expected);
        assertThat(secrets.of(column).map(Secrets.Secret::described))
                .isEqualTo(expected ? java.util.Optional.of(secret + ", which is a card's check value")
                        : java.util.Optional.empty());
    }
}
