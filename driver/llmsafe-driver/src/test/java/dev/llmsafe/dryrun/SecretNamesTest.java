package dev.llmsafe.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.check.SchemaContext;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.MaskedValue;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D12 and R6 on a real server: a secret column is withheld from the card and from the schema context under
 * the name the server keeps. PostgreSQL truncates a 70-character identifier to 63 bytes (measured on 15.20:
 * NOTICE "identifier ... will be truncated"); a policy that names the whole 70 characters must still mask
 * the column the catalog calls by 63, on the card and in the model's schema prompt. Before one reading of
 * the secrets (issue 15) the dry run and the schema context compared the whole name and showed the value.
 */
class SecretNamesTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final String LONG = "customer_payment_card_verification_value_as_entered_at_checkout_time";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D12_R6_aSecretIsWithheldUnderTheNameTheServerKeeps(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        // MySQL and MariaDB refuse an identifier over 64 characters; there the case is the letters' case.
        String secret = engine == Engine.POSTGRES ? LONG : "Card_Check_Value";
        String column = engine == Engine.POSTGRES ? LONG : "card_check_value";
        db.execute("CREATE TABLE cards (id INT PRIMARY KEY, holder VARCHAR(40), " + column + " VARCHAR(8))",
                "INSERT INTO cards VALUES (1, 'Ada', 'cvv-4417')");
        Policy policy = Policy.define(p -> p.table("cards", t -> t.impact("A card pays for orders."))
                .secret(secret, "a card's check value"));
        try (Planning p = new Planning(db)) {
            List<String> before = p.snapshot("cards");
            Plan plan = p.plan(policy, "DELETE FROM cards WHERE id = 1");
            RowChange row = plan.statements().get(0).rows().get(0);
            ColumnChange hidden = row.columns().get(2);
            assertThat(hidden.before()).as(hidden.column()).isInstanceOf(MaskedValue.class);
            assertThat(plan.card()).contains("Ada").doesNotContain("cvv-4417");
            assertThat(plan.toJson()).doesNotContain("cvv-4417");
            assertThat(p.snapshot("cards")).isEqualTo(before);

            try (Connection c = p.pool.getConnection()) {
                String text = SchemaContext.read(c, p.dialect, policy).text();
                assertThat(text).contains("holder").doesNotContainIgnoringCase(column.substring(0, 16));
            }
        }
    }
}
