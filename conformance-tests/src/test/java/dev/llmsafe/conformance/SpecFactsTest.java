package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a column measured on a new server gets into SPEC.md: where it goes, and that it reads back as measured. */
class SpecFactsTest {

    private static final List<String> SPEC = List.of(
            "# SPEC", "", SpecFacts.HEADING, "", "### Timeouts", "",
            "| id | fact | PostgreSQL 15.20 | PostgreSQL 17.11 | MariaDB 10.11.19 | MySQL 8.0.31 | SQLite 3.54.1 | what it means |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
            "| F01 | a sleep | stopped | stopped | stopped \\| late | not stopped | no such setting | bounds |",
            "", "text between tables", "",
            "| id | fact | PostgreSQL 15.20 | MariaDB 10.11.19 | what it means |",
            "| --- | --- | --- | --- | --- |",
            "| F02 | a value | exact | 'a\\\\b' | values |",
            "", "## Next section", "| F09 | not a fact of this section |");

    @ParameterizedTest(name = "{0} {1} goes before column {2} of the first table")
    @CsvSource({
            "POSTGRES, 16.15, 3", "POSTGRES, 18.6, 4", "POSTGRES, 9.6, 2", "MARIADB, 11.8.9, 5",
            "MARIADB, 10.6.1, 4", "MYSQL, 9.7.4, 6", "SQLITE, 3.55.0, 7"})
    void aColumnGoesAfterItsProductsLowerVersionsAndBeforeTheNextProduct(ServerId.Flavor flavor, String version,
            int position) {
        ServerId server = new ServerId(flavor, version);
        List<String> out = SpecFacts.withColumn(SPEC, server, Map.of("F01", "x", "F02", "y"));
        List<String> header = List.of(out.get(6).substring(2, out.get(6).length() - 2).split(" \\| "));
        assertThat(header.indexOf(server.label())).isEqualTo(position);
        assertThat(header).hasSize(9);
    }

    @Test
    void answersReadBackAsMeasuredWithMarkdownsEscapesAndTheRestIsUnchanged(@TempDir Path dir) throws Exception {
        ServerId pg18 = new ServerId(ServerId.Flavor.POSTGRES, "18.6");
        String tricky = "'a\\b' * 2 | c";
        List<String> out = SpecFacts.withColumn(SPEC, pg18, Map.of("F01", "stopped with error 57014", "F02", tricky));
        Path file = dir.resolve("SPEC.md");
        Files.write(file, out);
        SpecFacts spec = SpecFacts.read(file);
        assertThat(spec.cell("F01", "PostgreSQL 18.6")).isEqualTo("stopped with error 57014");
        assertThat(spec.cell("F02", "PostgreSQL 18.6")).isEqualTo(tricky);
        assertThat(spec.cell("F01", "MariaDB 10.11.19")).as("an escaped bar stays in its cell").isEqualTo("stopped | late");
        assertThat(spec.cell("F02", "MariaDB 10.11.19")).isEqualTo("'a\\b'");
        assertThat(spec.ids()).containsExactly("F01", "F02");
        assertThat(out.get(7)).isEqualTo("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        assertThat(out.subList(out.indexOf("## Next section"), out.size()))
                .containsExactly("## Next section", "| F09 | not a fact of this section |");
        assertThat(out).hasSameSizeAs(SPEC);
    }

    @Test
    void aColumnThatIsThereOrAnAnswerThatIsMissingIsRefused() {
        ServerId pg15 = new ServerId(ServerId.Flavor.POSTGRES, "15.20");
        assertThatThrownBy(() -> SpecFacts.withColumn(SPEC, pg15, Map.of("F01", "x", "F02", "y")))
                .hasMessageContaining("already has a column PostgreSQL 15.20");
        ServerId pg18 = new ServerId(ServerId.Flavor.POSTGRES, "18.6");
        assertThatThrownBy(() -> SpecFacts.withColumn(SPEC, pg18, Map.of("F01", "x")))
                .hasMessageContaining("no answer for F02");
        assertThatThrownBy(() -> SpecFacts.withColumn(SPEC, pg18, Map.of("F01", "x", "F02", "y", "F03", "z")))
                .hasMessageContaining("no row for [F03]");
    }
}
