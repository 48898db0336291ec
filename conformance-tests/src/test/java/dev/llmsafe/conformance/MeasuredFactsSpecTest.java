package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC.md's "Measured facts" tables cannot rot: every fact of the suite has a row, and for each
 * server this run reaches, the column of that server's version says what the suite measured. A run
 * on a version with no column writes the column to target/measured-facts/ and says so; with
 * {@code -Dllmsafe.facts.insert=true} it adds the column to SPEC.md itself ({@link SpecFacts#withColumn}).
 */
class MeasuredFactsSpecTest {

    /** Set to true, a run on a version with no column of its own adds that column to SPEC.md. */
    static final String INSERT = "llmsafe.facts.insert";

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @Test
    void everyFactHasOneRowInSpecAndEveryRowIsAFact() throws Exception {
        SpecFacts spec = SpecFacts.read(SpecFacts.specFile());
        List<String> facts = Arrays.stream(Fact.values()).map(Fact::name).toList();
        assertThat(spec.duplicates()).as("fact rows that appear twice").isEmpty();
        assertThat(spec.ids()).as("fact rows in SPEC.md, in the suite's order").containsExactlyElementsOf(facts);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void specSaysWhatThisRunMeasured(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        ServerId server = ServerId.of(db.admin());
        List<Answer> answers = new ArrayList<>();
        for (Fact f : Fact.values()) {
            answers.add(Measured.answer(f, db));
        }
        Path out = writeColumn(server, answers);
        SpecFacts spec = SpecFacts.read(SpecFacts.specFile());
        Optional<String> column = spec.columnFor(server);
        if (Boolean.getBoolean(INSERT) && !column.equals(Optional.of(server.label()))) {
            Path file = SpecFacts.specFile();
            Map<String, String> byId = new LinkedHashMap<>();
            answers.forEach(a -> byId.put(a.fact().name(), a.text()));
            Files.write(file, SpecFacts.withColumn(Files.readAllLines(file), server, byId));
            System.err.println("NOTICE: added the column " + server.label() + " to " + file + "; read it and commit it");
            spec = SpecFacts.read(file);
            column = Optional.of(server.label());
        }
        if (column.isEmpty()) {
            String why = "SPEC.md has no column for " + server.label() + " (nor for another " + server.series()
                    + " release); this run's answers are in " + out + "; -D" + INSERT + "=true adds them to SPEC.md";
            System.err.println("NOTICE: " + why);
            Assumptions.abort(why);
        }
        if (!column.get().equals(server.label())) {
            System.err.println("NOTICE: SPEC.md's column " + column.get() + " is compared with " + server.label()
                    + "; if they agree, rename the column to the version measured last");
        }
        SoftAssertions softly = new SoftAssertions();
        for (Answer a : answers) {
            // actual: what SPEC.md says; expected: what this run measured.
            softly.assertThat(spec.cell(a.fact().name(), column.get()))
                    .as("SPEC.md's %s under %s (%s), against the answer measured on %s", a.fact().name(),
                            column.get(), a.fact().title(), server.label())
                    .isEqualTo(a.text());
        }
        softly.assertAll();
    }

    /** The run's answers as a table column, ready to paste into SPEC.md. */
    private static Path writeColumn(ServerId server, List<Answer> answers) throws Exception {
        StringBuilder md = new StringBuilder("| id | fact | " + server.label() + " |\n|---|---|---|\n");
        for (Answer a : answers) {
            md.append("| ").append(a.fact().name()).append(" | ").append(a.fact().title()).append(" | ")
                    .append(a.text()).append(" |\n");
        }
        Path dir = Path.of("target", "measured-facts");
        Files.createDirectories(dir);
        Path file = dir.resolve(server.label().replace(' ', '-') + ".md");
        Files.writeString(file, md);
        return file.toAbsolutePath();
    }
}
