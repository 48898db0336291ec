package dev.llmsafe.apply;

import java.util.Locale;

/**
 * Actor names are compared after trimming and case folding, so that " Alice" and "alice" are one
 * person. They are taken at their word: the names catch one identity running both halves, they are
 * not an authorisation boundary (T3). The boundary is the apply credential.
 */
final class Actors {

    private Actors() {
    }

    static boolean same(String a, String b) {
        return normal(a).equals(normal(b));
    }

    static String checked(String actor) {
        if (actor == null || actor.isBlank()) {
            throw new IllegalArgumentException("name the actor (--as NAME): every act is recorded with who did it");
        }
        if (actor.length() > 200) {
            throw new IllegalArgumentException("an actor name is at most 200 characters");
        }
        return actor;
    }

    private static String normal(String s) {
        return s.strip().toLowerCase(Locale.ROOT);
    }
}
