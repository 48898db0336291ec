package dev.llmsafe.apply;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
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

    /** J11: a missing or overlong name is a refusal, a SQLException like every other failure here. */
    static String checked(String actor) throws RefusedException {
        if (actor == null || actor.isBlank()) {
            throw new RefusedException(Refusal.INVALID_ARGUMENT, "name the actor (--as NAME): every act is recorded"
                    + " with who did it.");
        }
        if (actor.length() > 200) {
            throw new RefusedException(Refusal.INVALID_ARGUMENT, "an actor name is at most 200 characters. Use a"
                    + " shorter name.");
        }
        return actor;
    }

    /** J11: the plan an act names. */
    static java.util.UUID planId(java.util.UUID id) throws RefusedException {
        if (id == null) {
            throw new RefusedException(Refusal.INVALID_ARGUMENT, "no plan is named. Name the plan by its id.");
        }
        return id;
    }

    private static String normal(String s) {
        return s.strip().toLowerCase(Locale.ROOT);
    }
}
