package dev.llmsafe.sql;

import static dev.llmsafe.sql.Cases.ALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Policy;
import org.junit.jupiter.api.Test;

class SecretCheckTest {

    private static final Policy POLICY = Policy.define(p -> p.table("users").table("orders")
            .secret("password_hash", "a stored credential").secret("users.api_token", "a bearer token"));
    private static final StatementAnalyzer ANALYZER = new StatementAnalyzer(10_000);

    private static void refused(String sql) {
        for (LexSettings s : ALL) {
            assertThatThrownBy(() -> SecretCheck.check(ANALYZER.analyze(sql, s), POLICY))
                    .as(s.dialect() + ": " + sql)
                    .isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.DENIED_IDENTIFIER));
        }
    }

    @Test
    void R2_aSecretIsRefusedByReferenceWhateverItsAliasOrPosition() {
        refused("SELECT password_hash FROM users");
        refused("SELECT u.password_hash AS x FROM users u");
        refused("SELECT id FROM users WHERE password_hash LIKE 'a%'");
        refused("SELECT id FROM orders WHERE id IN (SELECT id FROM users WHERE length(Password_Hash) > 3)");
        refused("SELECT md5(API_TOKEN) FROM users");
        refused("UPDATE users SET password_hash = 'x' WHERE id = 1");
        refused("UPDATE users SET name = 'x' WHERE api_token = 'y'");
        assertThatThrownBy(() -> SecretCheck.check(ANALYZER.analyze("SELECT \"password_hash\" FROM users",
                LexSettings.postgres(true)), POLICY))
                .hasMessage("Refused (DENIED_IDENTIFIER): the statement names password_hash, which is a stored"
                        + " credential and is never read or written through this connection, whatever alias it is"
                        + " given. Leave it out of the statement.");
    }

    @Test
    void R2_aStatementWithoutSecretsPassesAndAStringMentioningOneIsNotAReference() throws Exception {
        for (LexSettings s : ALL) {
            SecretCheck.check(ANALYZER.analyze("SELECT id, name FROM users WHERE note = 'password_hash'", s), POLICY);
        }
    }
}
