package dev.llmsafe.conformance;

/** Measures one fact in a scratch place and answers as SPEC.md's table cell for that server. */
@FunctionalInterface
interface Probe {

    /**
     * @param db the scratch place, empty but for what earlier probes created there
     * @param server the server it is on
     * @return the answer, plain text without "|" or newlines
     */
    String measure(Scratch db, ServerId server) throws Exception;
}
