package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.conformance.RoleScript.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The role scripts of samples/roles are read the way their header tells a person to run them: every
 * placeholder documented at the top, every role a section, a statement per table, and no placeholder
 * ever left in the SQL.
 */
class RoleScriptTest {

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "mysql"})
    void everyPlaceholderIsDocumentedAtTheTopAndEveryRoleHasASection(String stem) throws IOException {
        String text = Files.readString(samples().resolve(stem + ".sql"));
        String header = text.substring(0, text.indexOf("-- role: "));
        RoleScript script = RoleScript.load(stem);
        assertThat(script.placeholders()).isNotEmpty()
                .allSatisfy(p -> assertThat(header).as("the header of %s.sql documents {%s}", stem, p).contains("{" + p + "}"));
        for (Role role : Role.values()) {
            assertThat(text).contains("-- role: " + role.key() + " ");
        }
    }

    @Test
    void aStatementNamingAListIsRepeatedPerTableAndLeftOutForNone() {
        RoleScript s = RoleScript.parse("t.sql", """
                -- role: plan
                CREATE ROLE {plan_role};
                GRANT UPDATE ON {schema}.{written_table}
                  TO {plan_role};
                GRANT INSERT ON {schema}.{trigger_table} TO {plan_role};
                """);
        Map<String, String> values = Map.of("schema", "app", "plan_role", "p");
        assertThat(s.statements(EnumSet.of(Role.PLAN), values, Map.of("written_table", List.of("a", "b"))))
                .containsExactly("CREATE ROLE p", "GRANT UPDATE ON app.a TO p", "GRANT UPDATE ON app.b TO p");
        assertThat(s.grants(Role.PLAN, values, Map.of("written_table", List.of("a"), "trigger_table", List.of("log"))))
                .containsExactly("GRANT UPDATE ON app.a TO p", "GRANT INSERT ON app.log TO p");
        assertThat(s.statements(EnumSet.of(Role.READ), values, Map.of())).isEmpty();
    }

    @Test
    void aPlaceholderWithoutAValueIsAnErrorNotSql() {
        RoleScript s = RoleScript.parse("t.sql", "-- role: read\nGRANT SELECT ON {schema}.t TO {read_role};\n");
        assertThatThrownBy(() -> s.statements(EnumSet.allOf(Role.class), Map.of("schema", "app"), Map.of()))
                .hasMessageContaining("no value for {read_role}");
    }

    static Path samples() {
        return SpecFacts.specFile().getParent().resolve("samples").resolve("roles");
    }
}
