package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** D15: database-level grants of MySQL and MariaDB are matched to a database as the server matches them. */
class MysqlGrantsTest {

    @Test
    void D15_grantsOnPatternsMatchAsTheServerMatchesThem() {
        // % any run, _ any one character, \ makes the next literal; case per lower_case_table_names.
        String[][] cases = {
            {"app%", "app_db", "true"}, {"app%", "app", "true"}, {"app%", "ap", "false"}, {"app%", "xapp", "false"},
            {"app\\_db", "app_db", "true"}, {"app\\_db", "appxdb", "false"}, {"app_db", "appxdb", "true"},
            {"app_db", "app_dbx", "false"}, {"%", "anything", "true"}, {"a%b%c", "aXbYc", "true"},
            {"a%b%c", "aXbY", "false"}, {"app\\%", "app%", "true"}, {"app\\%", "appx", "false"},
            {"App%", "app_db", "false"}, {"app1", "app1", "true"}, {"app1", "App1", "false"},
        };
        for (String[] c : cases) {
            assertThat(MysqlGrants.matches(c[1], c[0], false, true)).as("%s on %s", c[0], c[1])
                    .isEqualTo(Boolean.parseBoolean(c[2]));
        }
        assertThat(MysqlGrants.matches("app_db", "APP%", true, true)).isTrue();
        assertThat(MysqlGrants.matches("App1", "app1", true, true)).isTrue();
        // MySQL with partial_revokes reads the wildcards literally.
        assertThat(MysqlGrants.matches("appxdb", "app_db", false, false)).isFalse();
        assertThat(MysqlGrants.matches("app_db", "app_db", false, false)).isTrue();
    }

    @Test
    void D15_theGrantNamingTheDatabaseDecidesAloneAndOfPatternsOnlyWhatEveryOneGives() {
        List<String[]> exactAndPattern = List.of(new String[] {"app1", "SELECT"}, new String[] {"app%", "REFERENCES"});
        assertThat(MysqlGrants.onDatabase(exactAndPattern, "app1", false, true)).containsExactly("SELECT");
        assertThat(MysqlGrants.onDatabase(exactAndPattern, "app2", false, true)).containsExactly("REFERENCES");
        List<String[]> escaped = List.of(new String[] {"app\\_db", "REFERENCES"}, new String[] {"a%", "SELECT"});
        assertThat(MysqlGrants.onDatabase(escaped, "app_db", false, true)).containsExactly("REFERENCES");
        List<String[]> patterns = List.of(new String[] {"app%", "REFERENCES"}, new String[] {"app%", "SELECT"},
                new String[] {"a%", "REFERENCES"});
        assertThat(MysqlGrants.onDatabase(patterns, "app9", false, true)).containsExactly("REFERENCES");
        assertThat(MysqlGrants.onDatabase(patterns, "b", false, true)).isEmpty();
        List<String[]> differing = List.of(new String[] {"app%", "SELECT"}, new String[] {"a%", "REFERENCES"});
        assertThat(MysqlGrants.onDatabase(differing, "app9", false, true)).isEmpty();
    }
}
