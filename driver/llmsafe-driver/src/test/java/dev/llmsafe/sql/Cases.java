package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.sql.Analysis.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Table-driven statement cases: one SQL text, the dialects it is tried in, and the expected verdict. */
final class Cases {

    static final LexSettings PG = LexSettings.postgres(true);
    static final LexSettings PG_NON_STANDARD = LexSettings.postgres(false);
    static final LexSettings MY = LexSettings.mysql("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO");
    static final LexSettings MY_ANSI = LexSettings.mysql("ANSI_QUOTES,NO_BACKSLASH_ESCAPES");
    static final LexSettings SL = LexSettings.sqlite();
    static final LexSettings[] ALL = {PG, MY, SL};

    /** One statement in one dialect with what must come of it: a {@link Kind} or a {@link Refusal}. */
    record Case(String sql, LexSettings settings, Object expected) {
        @Override
        public String toString() {
            String d = settings == PG_NON_STANDARD ? "postgres(scs=off)" : settings == MY_ANSI ? "mysql(ansi)"
                    : settings.dialect().name().toLowerCase(java.util.Locale.ROOT);
            return d + " " + expected + ": " + sql.replace("\n", "\\n");
        }
    }

    private final List<Case> cases = new ArrayList<>();

    static Cases of() {
        return new Cases();
    }

    Cases add(Object expected, String sql, LexSettings... in) {
        for (LexSettings s : in.length == 0 ? ALL : in) {
            cases.add(new Case(sql, s, expected));
        }
        return this;
    }

    Stream<Case> stream() {
        return cases.stream();
    }

    private Cases() {
    }
}
