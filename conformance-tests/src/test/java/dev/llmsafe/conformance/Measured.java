package dev.llmsafe.conformance;

import dev.llmsafe.testing.ScratchDatabase;
import java.util.HashMap;
import java.util.Map;

/**
 * Measures each fact once per server and JVM, and prints it with the server version. The fact tests
 * assert the answers; {@link MeasuredFactsSpecTest} compares the same answers with SPEC.md, so a run
 * of the whole suite measures every fact once, while a test run on its own still measures what it
 * needs.
 */
final class Measured {

    private static final Map<String, Answer> ANSWERS = new HashMap<>();

    private Measured() {
    }

    /**
     * The fact's answer on the scratch database's server: measured now in that database, or taken
     * from an earlier measurement on the same server in this JVM. A probe that fails is not
     * remembered, so its failure is reported by every test that asks.
     */
    static synchronized Answer answer(Fact fact, ScratchDatabase db) throws Exception {
        Scratch scratch = new TestScratch(db);
        ServerId server = ServerId.of(scratch);
        String key = fact.name() + "@" + server.label();
        Answer known = ANSWERS.get(key);
        if (known != null) {
            return known;
        }
        long start = System.nanoTime();
        Answer answer = new Answer(fact, server, fact.probe().measure(scratch, server));
        ANSWERS.put(key, answer);
        System.out.printf("measured %s on %s (%d ms): %s -> %s%n", fact.name(), server.label(),
                (System.nanoTime() - start) / 1_000_000, fact.title(), answer.text());
        return answer;
    }
}
