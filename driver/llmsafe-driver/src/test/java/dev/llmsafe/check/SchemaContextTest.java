package dev.llmsafe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SchemaContextTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void R6_theSchemaContextHasAllowlistedTablesOnlyWithoutSecrets(Engine engine) throws Exception {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, password_hash VARCHAR(60),"
                        + " nick VARCHAR(20))",
                // A table-level key: MySQL 8.0 parses a column's REFERENCES and ignores it.
                "CREATE TABLE orders (id INT PRIMARY KEY, member_id INT NOT NULL, status VARCHAR(20) NOT NULL,"
                        + " FOREIGN KEY (member_id) REFERENCES members (id))",
                "CREATE TABLE salaries (id INT PRIMARY KEY, amount INT)");
        if (engine == Engine.POSTGRES) {
            db.execute("COMMENT ON COLUMN orders.status IS 'packed, shipped or cancelled'");
        }
        Policy policy = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money."))
                .table("members").secret("password_hash", "a stored credential"));
        LlmSafeConfig.Builder b = LlmSafeConfig.builder()
                .connection(ConnectionSettings.of(db.url(), db.user(), db.password())).policy(policy);
        if (engine == Engine.POSTGRES) {
            b.schema(db.name());
        }
        try (Deployment d = new Deployment(b.build(), Clock.systemUTC());
             Connection c = d.pool(Deployment.Role.PLAN).getConnection()) {
            d.dialect().initConnection(c);
            SchemaContext s = SchemaContext.read(c, d.dialect(), policy);
            String text = s.text();
            assertThat(text).contains("Table: orders").contains("Changing it: Changing an order moves money.")
                    .contains("Table: members").contains("Read only: changes cannot be proposed")
                    .contains("orders.member_id -> members.id").contains("nick: ")
                    .doesNotContain("password_hash").doesNotContain("salaries");
            assertThat(text).containsPattern("id: \\w+.*\\(primary key\\)");
            assertThat(text).containsPattern("nick: \\w+.*\\(nullable\\)");
            if (engine == Engine.POSTGRES) {
                assertThat(text).contains("status: character varying(20) -- packed, shipped or cancelled");
            }
            JsonNode json = new ObjectMapper().valueToTree(s);
            assertThat(json.get("tables")).hasSize(2);
            assertThat(json.toString()).doesNotContain("password_hash");
            assertThat(json.get("tables").get(1).get("writable").asBoolean()).isTrue();
        }
    }
}
