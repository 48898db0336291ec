package dev.llmsafe.policy;

import static dev.llmsafe.policy.ConfigLoaderTest.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every way a configuration can be wrong gets a located error that says what to write instead. */
class ConfigErrorsTest {

    private static final String CONNECTION = "{\n  \"connection\": {\"url\": \"jdbc:sqlite:/srv/app.db\"},\n";

    /** A config whose third line onwards is {@code policyLines}. */
    private static String withPolicy(String policyLines) {
        return CONNECTION + "  \"policy\": {\n" + policyLines + "\n  }\n}\n";
    }

    @Test
    void anUnknownKeySuggestsTheNearestKnownOne() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"maxUpdateRow\": 5")))
                .isEqualTo("llmsafe.json:5:5: policy.maxUpdateRow: unknown key; did you mean \"maxUpdateRows\"?");
    }

    @Test
    void aMisCasedKeyIsRefusedAndNamed() {
        assertThat(errorOf(withPolicy("    \"Allow\": [\"orders\"]")))
                .isEqualTo("llmsafe.json:4:5: policy.Allow: unknown key (keys are case-sensitive); did you mean \"allow\"?");
        assertThat(errorOf("{\"connection\": {\"URL\": \"jdbc:sqlite:/srv/a.db\"}, \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:17: connection.URL: unknown key (keys are case-sensitive); did you mean \"url\"?");
    }

    @Test
    void anUnknownKeyFarFromAnyListsTheKeysAllowedThere() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"read\": {\"frobnicate\": 1}")))
                .isEqualTo("llmsafe.json:5:14: policy.read.frobnicate: unknown key;"
                        + " the keys allowed here are maxRows, maxCost, timeoutMs, holdMs, maxBytes, allowFunctions");
    }

    @Test
    void anUnknownTopLevelKeyIsRefused() {
        assertThat(errorOf(CONNECTION + "  \"polcy\": {\"allow\": []}\n}"))
                .isEqualTo("llmsafe.json:3:3: polcy: unknown key; did you mean \"policy\"?");
    }

    @Test
    void wrongTypesNameWhatWasExpectedAndFound() {
        assertThat(errorOf(withPolicy("    \"allow\": \"orders\"")))
                .isEqualTo("llmsafe.json:4:14: policy.allow: expected a list of table names, found a string");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"maxUpdateRows\": \"200\"")))
                .isEqualTo("llmsafe.json:5:22: policy.maxUpdateRows: expected a whole number from 1 to 10000, found a string");
        assertThat(errorOf(withPolicy("    \"allow\": [42]")))
                .isEqualTo("llmsafe.json:4:15: policy.allow[0]: expected a string, found a number");
        assertThat(errorOf(CONNECTION + "  \"allowSelfApprove\": \"yes\",\n  \"policy\": {\"allow\": []}\n}"))
                .isEqualTo("llmsafe.json:3:23: allowSelfApprove: expected true or false, found a string");
        assertThat(errorOf("{\"connection\": \"jdbc:sqlite:/srv/a.db\", \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:16: connection: expected an object, found a string");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"read\": {\"maxCost\": \"high\"}")))
                .isEqualTo("llmsafe.json:5:25: policy.read.maxCost: expected a positive number, found a string");
    }

    @Test
    void numbersOutOfRangeOrFractionalAreRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"maxDeleteRows\": 0")))
                .isEqualTo("llmsafe.json:5:22: policy.maxDeleteRows: expected a whole number from 1 to 10000, found 0");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"read\": {\"maxRows\": 1.5}")))
                .isEqualTo("llmsafe.json:5:25: policy.read.maxRows: expected a whole number from 1 to 1000000, found 1.5");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"read\": {\"maxCost\": -1}")))
                .isEqualTo("llmsafe.json:5:25: policy.read.maxCost: expected a positive number, found -1");
    }

    @Test
    void anImpactForATableThatIsNotAllowedIsRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"impact\": {\"refunds\": \"moves money\"}")))
                .isEqualTo("llmsafe.json:5:16: policy.impact.refunds: impact for a table that is not in policy.allow;"
                        + " add \"refunds\" to policy.allow or remove this entry");
    }

    @Test
    void limitsAutoColumnsAndDenyWriteForATableThatIsNotAllowedAreRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"limits\": {\"items\": {\"maxDeleteRows\": 1}}")))
                .isEqualTo("llmsafe.json:5:16: policy.limits.items: limits for a table that is not in policy.allow;"
                        + " add \"items\" to policy.allow or remove this entry");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"autoColumns\": {\"items\": [\"x\"]}")))
                .isEqualTo("llmsafe.json:5:21: policy.autoColumns.items: autoColumns for a table that is not in"
                        + " policy.allow; add \"items\" to policy.allow or remove this entry");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"denyWrite\": {\"items.price\": \"no\"}")))
                .isEqualTo("llmsafe.json:5:19: policy.denyWrite.items.price: denyWrite for a table that is not in"
                        + " policy.allow; add \"items\" to policy.allow or remove this entry");
    }

    @Test
    void aDenyWriteKeyMustNameTableAndColumn() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"denyWrite\": {\"price\": \"no\"}")))
                .isEqualTo("llmsafe.json:5:19: policy.denyWrite.price: \"price\" is not a table and column;"
                        + " write it as table.column, for example orders.total_cents");
    }

    @Test
    void aTableNameThatIsNotAnIdentifierIsRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\", \"orders;drop\"]")))
                .isEqualTo("llmsafe.json:4:25: policy.allow[1]: \"orders;drop\" is not a valid table name; write a name"
                        + " such as orders or public.orders, in double quotes if it has other characters: \"Order Lines\"");
        assertThat(errorOf(withPolicy("    \"allow\": [\"a.b.c\"]")))
                .startsWith("llmsafe.json:4:15: policy.allow[0]: \"a.b.c\" is not a valid table name;");
        assertThat(errorOf(withPolicy("    \"allow\": [\"\"]")))
                .startsWith("llmsafe.json:4:15: policy.allow[0]: \"\" is not a valid table name;");
    }

    @Test
    void badColumnAndSecretNamesAreRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"autoColumns\": {\"orders\": [\"updated at\"]}")))
                .isEqualTo("llmsafe.json:5:32: policy.autoColumns.orders[0]: \"updated at\" is not a valid column name;"
                        + " write a name such as updated_at, in double quotes if it has other characters: \"Updated At\"");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"denyIdentifiers\": {\"pass word\": \"x\"}")))
                .isEqualTo("llmsafe.json:5:25: policy.denyIdentifiers.pass word: \"pass word\" is not a valid identifier;"
                        + " write a column name such as password_hash, or qualify it with its table: users.password_hash");
    }

    @Test
    void aTableListedTwiceAndADuplicateKeyAreRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\", \"orders\"]")))
                .isEqualTo("llmsafe.json:4:25: policy.allow[1]: table orders is listed twice");
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"allow\": [\"items\"]")))
                .isEqualTo("llmsafe.json:5:5: policy.allow: duplicate key; each key may appear once");
    }

    @Test
    void requiredKeysAreNamedWhenMissing() {
        assertThat(errorOf("{\n  \"policy\": {\"allow\": []}\n}"))
                .startsWith("llmsafe.json:1:1: connection: required key is missing (a configuration that only approves");
        assertThat(errorOf(withPolicy("    \"maxUpdateRows\": 5")))
                .isEqualTo("llmsafe.json:3:13: policy.allow: required key is missing");
        assertThat(errorOf("{\"connection\": {\"user\": \"x\"}, \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:16: connection.url: required key is missing");
    }

    @Test
    void emptyReasonsAndImpactsAreRefused() {
        assertThat(errorOf(withPolicy("    \"allow\": [\"orders\"],\n    \"impact\": {\"orders\": \"  \"}")))
                .isEqualTo("llmsafe.json:5:26: policy.impact.orders: the impact sentence for orders is empty;"
                        + " say in words why, it is shown to the person who asked");
    }

    @Test
    void aUrlThatIsNotAJdbcUrlOrIsOurOwnIsRefused() {
        assertThat(errorOf("{\"connection\": {\"url\": \"postgres://db/app\"}, \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:24: connection.url: \"postgres://db/app\" is not a JDBC URL; write for example"
                        + " jdbc:postgresql://127.0.0.1:5432/app, jdbc:mysql://127.0.0.1:3306/app or jdbc:sqlite:app.db");
        assertThat(errorOf("{\"connection\": {\"url\": \"jdbc:llmsafe:sqlite:a.db\"}, \"policy\": {\"allow\": []}}"))
                .isEqualTo("llmsafe.json:1:24: connection.url: the configuration names the real database; remove the"
                        + " llmsafe: prefix from jdbc:llmsafe:sqlite:a.db");
    }

    @Test
    void aShortSealKeyIsRefused() {
        assertThat(errorOf(CONNECTION + "  \"sealKey\": \"short\",\n  \"policy\": {\"allow\": []}\n}"))
                .isEqualTo("llmsafe.json:3:14: sealKey: the seal key is too short to be a secret (5 characters);"
                        + " use at least 16 random characters, for example from `openssl rand -hex 32`");
    }

    @Test
    void textThatIsNotJsonIsRefusedWithItsPosition() {
        assertThat(errorOf("{\n  \"connection\": {\"url\": \"jdbc:sqlite:/srv/a.db\"}\n  \"policy\": {}\n}"))
                .startsWith("llmsafe.json:3:3: not valid JSON: Unexpected character ('\"' (code 34)):"
                        + " was expecting comma to separate Object entries");
        assertThat(errorOf("")).isEqualTo("llmsafe.json: the file is empty; it must hold a JSON object");
        assertThat(errorOf("[]")).isEqualTo("llmsafe.json:1:1: expected an object, found a list");
        assertThat(errorOf("{\"connection\": {\"url\": \"jdbc:sqlite:/srv/a.db\"}, \"policy\": {\"allow\": []}} {}"))
                .isEqualTo("llmsafe.json:1:75: text after the end of the JSON object");
    }

    @Test
    void aSchemaThatIsNotAnIdentifierIsRefused() {
        assertThat(errorOf(CONNECTION + "  \"schema\": \"my schema\",\n  \"policy\": {\"allow\": []}\n}"))
                .isEqualTo("llmsafe.json:3:13: schema: \"my schema\" is not a valid schema name;"
                        + " write a name such as public, in double quotes if it has other characters");
    }
}
