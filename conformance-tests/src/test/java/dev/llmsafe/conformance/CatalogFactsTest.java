package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D8, D15: what a least-privilege role sees in the catalog, as {@link CatalogFacts} measures it,
 * asserted per server: the answers the code relies on. The probes live in the main code, where the
 * harness runs them on a user's server.
 */
class CatalogFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F20_triggersSeenByALeastPrivilegeRole(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F20, dbs.get(engine));
        switch (a.flavor()) {
            // information_schema.triggers shows a trigger to roles with a privilege other than SELECT on
            // its table, which the planning role has; pg_trigger shows it to everyone.
            case POSTGRES -> assertThat(a.text()).isEqualTo("admin: pg_trigger 1, information_schema 1"
                    + " · planning: pg_trigger 1, information_schema 1 · least-privilege role: pg_trigger 1, information_schema 1");
            // Every role holding TRIGGER sees it, the least-privilege role included (it has TRIGGER on the table).
            // Those without it see it on MariaDB 10.11.19 and 11.8.9 (a write privilege on the table is enough)
            // and not on 11.4.5: all of them or none, which is why the dialect believes only TRIGGER.
            case MARIADB -> {
                for (String seeing : java.util.List.of(CatalogFacts.ADMIN, "planning + database TRIGGER",
                        "planning + database SELECT, TRIGGER (the seed)", CatalogFacts.LEAST)) {
                    assertThat(a.part(seeing)).as(seeing).isEqualTo("1");
                }
                String without = a.part(CatalogFacts.PLANNING);
                assertThat(without).isIn("0", "1");
                for (String other : java.util.List.of("planning + database SELECT", "planning + database REFERENCES")) {
                    assertThat(a.part(other)).as(other).isEqualTo(without);
                }
            }
            // MySQL 8.4 (the seed's measurement): only with the TRIGGER privilege.
            case MYSQL -> {
                assertThat(a.part(CatalogFacts.ADMIN)).isEqualTo("1");
                assertThat(a.part(CatalogFacts.PLANNING)).isEqualTo("0");
                assertThat(a.part(CatalogFacts.LEAST)).isEqualTo("1");
            }
            case SQLITE -> assertThat(a.text()).isEqualTo("n/a (no roles: whoever opens the file reads the whole schema)");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F21_anInboundCascadeIsHiddenFromTheTableGrantsRoleAndSeenByTheLeastPrivilegeRole(Engine engine)
            throws Exception {
        Answer a = Measured.answer(Fact.F21, dbs.get(engine));
        switch (a.flavor()) {
            // pg_constraint is not filtered; information_schema hides a constraint from roles without a
            // privilege other than SELECT on the referencing table, so the dialect must ask pg_constraint.
            case POSTGRES -> assertThat(a.text()).isEqualTo("admin: pg_constraint CASCADE, information_schema CASCADE"
                    + " · planning: pg_constraint CASCADE, information_schema hidden"
                    + " · least-privilege role: pg_constraint CASCADE, information_schema hidden");
            // SELECT on the database shows that a foreign key exists (KEY_COLUMN_USAGE) but not its rule
            // (REFERENTIAL_CONSTRAINTS); any database-level privilege other than SELECT shows both.
            case MARIADB -> assertThat(a.text()).isEqualTo("admin: CASCADE · planning: hidden"
                    + " · planning + database SELECT: FK seen, rule hidden · planning + database TRIGGER: CASCADE"
                    + " · planning + database REFERENCES: CASCADE · planning + database SELECT, TRIGGER (the seed): CASCADE"
                    + " · least-privilege role: CASCADE");
            case MYSQL -> {
                assertThat(a.part(CatalogFacts.ADMIN)).isEqualTo("CASCADE");
                assertThat(a.part(CatalogFacts.PLANNING)).isEqualTo("hidden");
                assertThat(a.part(CatalogFacts.LEAST)).isEqualTo("CASCADE");
            }
            case SQLITE -> assertThat(a.text()).isEqualTo("n/a (no roles: whoever opens the file reads the whole schema)");
        }
    }
}
