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
    void R2_aWholeRowReadIsRefusedWhereThePolicyHasSecrets() throws Exception {
        LexSettings pg = LexSettings.postgres(true);
        for (String sql : new String[] {"SELECT u FROM users u", "SELECT row_to_json(u) FROM users AS u WHERE id = 1",
                "SELECT to_jsonb(u.*) FROM users u", "SELECT users FROM users", "SELECT u::text FROM users u",
                "WITH s AS (SELECT * FROM users) SELECT s FROM s", "SELECT json_agg(t) FROM (SELECT * FROM users) t",
                "SELECT (SELECT array_agg(z) FROM users z) AS q", "SELECT ROW(u.*) FROM users u",
                "UPDATE users SET name = row_to_json(users)::text WHERE id = 1"}) {
            assertThatThrownBy(() -> SecretCheck.check(ANALYZER.analyze(sql, pg), POLICY)).as(sql)
                    .isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).isEqualTo(Refusal.DENIED_IDENTIFIER))
                    .hasMessageContaining("whole rows");
        }
        // The same statements pass a policy without secrets; stars in a select list and count(*) always pass.
        Policy noSecrets = Policy.define(p -> p.table("users"));
        SecretCheck.check(ANALYZER.analyze("SELECT row_to_json(u) FROM users u", pg), noSecrets);
        for (String sql : new String[] {"SELECT * FROM users", "SELECT u.* FROM users u", "SELECT count(*) FROM users",
                "SELECT x.id FROM (SELECT * FROM users) x", "SELECT u.id, u.name FROM users u"}) {
            SecretCheck.check(ANALYZER.analyze(sql, pg), POLICY);
        }
    }

    @Test
    void R2_aStatementWithoutSecretsPassesAndAStringMentioningOneIsNotAReference() throws Exception {
        for (LexSettings s : ALL) {
            SecretCheck.check(ANALYZER.analyze("SELECT id, name FROM users WHERE note = 'password_hash'", s), POLICY);
        }
    }
}
