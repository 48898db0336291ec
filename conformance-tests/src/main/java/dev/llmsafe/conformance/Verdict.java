package dev.llmsafe.conformance;

/**
 * What one measured fact means for llmsafe's guarantees on the server it was measured on.
 *
 * @param status whether the guarantees built on the fact hold
 * @param meaning what the answer means, in a sentence a database team can act on
 */
record Verdict(Status status, String meaning) {

    /** How a fact bears on the guarantees. */
    enum Status {
        /** The answer is the one llmsafe relies on. */
        HOLDS("ok"),
        /** A known limit of this database: llmsafe declares it on every card, or does not rely on it. */
        LIMIT("limit"),
        /** A fact the guarantees depend on does not hold here, or the answer is one llmsafe was not built for. */
        FAILS("FAILS"),
        /** The fact does not apply to this kind of database (no such type, setting or role). */
        NOT_APPLICABLE("n/a"),
        /** The fact could not be measured with this credential. */
        NOT_MEASURED("not measured");

        final String label;

        Status(String label) {
            this.label = label;
        }
    }

    static Verdict holds(String meaning) {
        return new Verdict(Status.HOLDS, meaning);
    }

    static Verdict limit(String meaning) {
        return new Verdict(Status.LIMIT, meaning);
    }

    static Verdict fails(String meaning) {
        return new Verdict(Status.FAILS, meaning);
    }
}
