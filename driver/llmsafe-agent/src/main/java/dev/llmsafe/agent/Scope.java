package dev.llmsafe.agent;

import java.util.List;

/**
 * Where a connection is being obtained, read from the call stack with {@link StackWalker}: the first
 * frame, from the innermost, that is llmsafe's own code or in a configured scope decides. llmsafe's own
 * code (the driver's engine opening its dry-run, store or read connection, an {@code LlmSafeDataSource}
 * borrowing from the application's pool) is never guarded again; the agent's own frames are skipped.
 * Each class is judged once ({@link ClassValue}), so a walk costs the frames it visits and a lookup each.
 */
final class Scope {

    /** What the stack says. */
    enum Verdict {
        /** Obtained by llmsafe itself: never guarded. */
        OWN,
        /** Obtained by code in the scope: guarded. */
        GUARDED,
        /** Neither: the application's own connection, left raw. */
        OUTSIDE,
        /** A frame that decides nothing (the application's outside the scope, the agent's); never the answer. */
        NEUTRAL
    }

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final List<String> names;
    private final ClassValue<Verdict> verdicts = new ClassValue<>() {
        @Override
        protected Verdict computeValue(Class<?> type) {
            return judge(type.getName());
        }
    };

    Scope(List<String> names) {
        this.names = List.copyOf(names);
    }

    /** The verdict of the current call stack. */
    Verdict ofCaller() {
        return WALKER.walk(frames -> {
            var it = frames.iterator();
            while (it.hasNext()) {
                Verdict v = verdicts.get(it.next().getDeclaringClass());
                if (v != Verdict.NEUTRAL) {
                    return v;
                }
            }
            return Verdict.OUTSIDE;
        });
    }

    /** A class's verdict: NEUTRAL for a class that decides nothing (the application's, the agent's). */
    Verdict judge(String className) {
        if (className.startsWith("dev.llmsafe.agent.")) {
            return Verdict.NEUTRAL;
        }
        if (className.startsWith("dev.llmsafe.")) {
            return Verdict.OWN;
        }
        for (String n : names) {
            if (className.startsWith(n) && (className.length() == n.length() || className.charAt(n.length()) == '.'
                    || className.charAt(n.length()) == '$')) {
                return Verdict.GUARDED;
            }
        }
        return Verdict.NEUTRAL;
    }
}
