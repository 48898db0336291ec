/**
 * The conformance suite's probes and the harness that runs them on a user's database.
 *
 * <p>Each {@link dev.llmsafe.conformance.Fact} is measured by a probe in a scratch place
 * ({@code Scratch}): a schema, database or SQLite file with an administrator credential and roles made
 * for it. The JUnit suite (src/test) runs the probes on the test servers and pins the answers in
 * SPEC.md; {@link dev.llmsafe.conformance.Harness} runs the same probes on a user's server and says
 * what each answer means for the guarantees. The least-privilege roles come from samples/roles, on the
 * classpath under /roles. Uses JDBC, the three vendor drivers and SLF4J; nothing of llmsafe itself.
 */
package dev.llmsafe.conformance;
