package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SPEC.md's rule table cannot rot: every rule has a test method named after its id in some module's
 * tests (as {@code R4_...} or {@code ..._R4_...}), every rule says where it is done, every test class a
 * rule names exists, and every rule is exercised end to end by a {@code *EndToEndTest} of this module.
 */
class SpecRulesTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| ([A-EG-Z][0-9]+) \\| (.*) \\| (.*) \\|$");
    private static final Pattern METHOD = Pattern.compile("void ([A-Za-z0-9_]+)\\(");
    private static final Pattern TEST_CLASS = Pattern.compile("\\b([A-Z][A-Za-z]+Test)\\b");

    /** Rule id to its status column. */
    private static Map<String, String> rules(Path spec) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ROW.matcher(Files.readString(spec));
        while (m.find()) {
            out.put(m.group(1), m.group(3));
        }
        return out;
    }

    @Test
    void everyRuleIsDoneAndHasATestNamedAfterItInAClassThatExists() throws IOException {
        Path root = SpecFacts.specFile().getParent();
        Map<String, String> rules = rules(root.resolve("SPEC.md"));
        assertThat(rules).as("rules in SPEC.md").hasSizeGreaterThan(70).containsKeys("S1", "W1", "D1", "A1", "T1", "R1",
                "J1", "E1", "C1");

        Set<String> classes = new TreeSet<>();
        List<String> methods = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().replace('\\', '/').contains("/src/test/java/")
                    && p.toString().endsWith(".java") && !p.toString().contains("/target/")).toList()) {
                classes.add(f.getFileName().toString().replace(".java", ""));
                Matcher m = METHOD.matcher(Files.readString(f));
                while (m.find()) {
                    methods.add(m.group(1));
                }
            }
        }

        List<String> problems = new ArrayList<>();
        rules.forEach((id, status) -> {
            Pattern named = Pattern.compile("(^|_)" + id + "(_|$)");
            if (methods.stream().noneMatch(n -> named.matcher(n).find())) {
                problems.add(id + ": no test method is named after it");
            }
            if (!status.startsWith("done")) {
                problems.add(id + ": not done: " + status);
            }
            Matcher c = TEST_CLASS.matcher(status);
            while (c.find()) {
                if (!classes.contains(c.group(1))) {
                    problems.add(id + ": names " + c.group(1) + ", which does not exist");
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    /**
     * Issue 8: every rule is exercised end to end in this module too, by a test method named after it
     * that drives the URL, the configuration file and the command line on the four-role deployment.
     */
    @Test
    void everyRuleIsExercisedEndToEndByATestOfThisModule() throws IOException {
        Path root = SpecFacts.specFile().getParent();
        Set<String> rules = rules(root.resolve("SPEC.md")).keySet();
        List<String> methods = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root.resolve("conformance-tests/src/test/java"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith("EndToEndTest.java")).toList()) {
                Matcher m = METHOD.matcher(Files.readString(f));
                while (m.find()) {
                    methods.add(m.group(1));
                }
            }
        }
        assertThat(rules.stream().filter(id -> methods.stream()
                .noneMatch(n -> Pattern.compile("(^|_)" + id + "(_|$)").matcher(n).find())).toList())
                .as("rules no *EndToEndTest of conformance-tests names").isEmpty();
    }
}
