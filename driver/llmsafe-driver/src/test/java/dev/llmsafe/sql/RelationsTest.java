package dev.llmsafe.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.QualifiedName;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * R9 and R10 on the analysis alone: which names a statement reads as tables under SQL's scoping rules,
 * and which tables a {@code *} or a positional renaming carries whole. The end-to-end cases, on every
 * database, are NamesTest's.
 */
class RelationsTest {

    private final StatementAnalyzer analyzer = new StatementAnalyzer(100_000, 0);

    private Set<String> tables(LexSettings settings, String sql) throws RefusedException {
        return analyzer.analyze(sql, settings).tables().stream().map(QualifiedName::toString).collect(Collectors.toSet());
    }

    private Set<String> stars(LexSettings settings, String sql) throws RefusedException {
        return analyzer.analyze(sql, settings).starTables().stream().map(QualifiedName::toString)
                .collect(Collectors.toSet());
    }

    @Test
    void R9_aCteNameIsInScopeOnlyInsideItsWith() throws RefusedException {
        LexSettings pg = LexSettings.postgres(true);
        assertThat(tables(pg, "WITH x AS (SELECT 1) SELECT * FROM x")).isEmpty();
        assertThat(tables(pg, "WITH x AS (WITH h AS (SELECT 1) SELECT * FROM h) SELECT * FROM h")).containsExactly("h");
        assertThat(tables(pg, "SELECT (SELECT 1 FROM (WITH h AS (SELECT 1) SELECT * FROM h) s), (SELECT 1 FROM h)"))
                .containsExactly("h");
        assertThat(tables(pg, "WITH a AS (SELECT * FROM h), h AS (SELECT 1) SELECT * FROM a, h")).containsExactly("h");
        assertThat(tables(pg, "WITH h AS (SELECT 1) SELECT * FROM public.h")).containsExactly("public.h");
        assertThat(tables(pg, "WITH RECURSIVE n AS (SELECT 1 UNION ALL SELECT 1 FROM n) SELECT * FROM n")).isEmpty();
        // Without RECURSIVE, PostgreSQL and MySQL read the name in its own body as a table.
        assertThat(tables(pg, "WITH n AS (SELECT 1 FROM n) SELECT * FROM n")).containsExactly("n");
        assertThat(tables(LexSettings.sqlite(), "WITH n AS (SELECT 1 FROM n) SELECT * FROM n")).isEmpty();
        // PostgreSQL folds unquoted names; a quoted name keeps its case, and both are cut at 63 bytes.
        assertThat(tables(pg, "WITH \"H\" AS (SELECT 1) SELECT * FROM h")).containsExactly("h");
        assertThat(tables(pg, "WITH H AS (SELECT 1) SELECT * FROM \"h\"")).isEmpty();
        String longName = "c".repeat(63);
        assertThat(tables(pg, "WITH " + longName + "xyz AS (SELECT 1) SELECT * FROM " + longName)).isEmpty();
        // Elsewhere a CTE is only what is spelled exactly as it: the stricter reading.
        assertThat(tables(LexSettings.mysql(""), "WITH H AS (SELECT 1) SELECT * FROM h")).containsExactly("h");
    }

    @Test
    void R9_everyExpressionFormIsWalked() throws RefusedException {
        LexSettings pg = LexSettings.postgres(true);
        String sub = "(SELECT t FROM h)";
        for (String sql : new String[] {
                "SELECT SUBSTRING('a' FROM " + sub + " FOR 1)", "SELECT POSITION('a' IN " + sub + ")",
                "SELECT OVERLAY('a' PLACING " + sub + " FROM 1)", "SELECT count(*) OVER (PARTITION BY " + sub + ") FROM o",
                "SELECT string_agg(x, ',' ORDER BY " + sub + ") FROM o", "SELECT json_object_agg(1, " + sub + ")",
                "SELECT ARRAY(SELECT t FROM h)", "SELECT * FROM o, LATERAL (SELECT t FROM h) l",
                "SELECT * FROM (VALUES (" + sub + ")) v(x)", "SELECT CASE WHEN " + sub + " = 'a' THEN 1 END",
                "SELECT EXTRACT(YEAR FROM " + sub + ")", "SELECT CAST(" + sub + " AS text)",
                "SELECT 1 WHERE 'a' LIKE " + sub + " ESCAPE '!'", "SELECT 1 FROM o GROUP BY " + sub,
                "SELECT 1 FROM o WHERE x = ANY (SELECT t FROM h)", "SELECT (" + sub + ")::text"}) {
            assertThat(tables(pg, sql)).as(sql).contains("h");
        }
        LexSettings my = LexSettings.mysql("");
        for (String sql : new String[] {"SELECT JSON_OBJECTAGG(1, " + sub + ")", "SELECT GROUP_CONCAT(x ORDER BY "
                + sub + ") FROM o", "SELECT SUBSTRING('a' FROM " + sub + " FOR 1)", "SELECT INTERVAL " + sub + " DAY"}) {
            assertThat(tables(my, sql)).as(sql).contains("h");
        }
    }

    @Test
    void R10_starsAndPositionalRenamingsCarryTheirTables() throws RefusedException {
        LexSettings pg = LexSettings.postgres(true);
        assertThat(stars(pg, "WITH x(a, b) AS (SELECT * FROM users) SELECT b FROM x")).containsExactly("users");
        assertThat(stars(pg, "SELECT a FROM users AS u(a, b)")).containsExactly("users");
        assertThat(stars(pg, "SELECT 1, 2 UNION SELECT u.* FROM users u")).containsExactly("users");
        assertThat(stars(pg, "SELECT l.x FROM users u, LATERAL (SELECT u.*) AS l(x)")).containsExactly("users");
        assertThat(stars(pg, "SELECT 1 FROM users NATURAL JOIN other")).containsExactlyInAnyOrder("users", "other");
        assertThat(stars(pg, "SELECT m.* FROM users u JOIN members m ON true")).containsExactly("members");
        assertThat(stars(pg, "SELECT 1 WHERE (1, 2) IN (SELECT * FROM users)")).containsExactly("users");
        // What carries nothing: explicit columns, a CTE or subquery of explicit columns, the query under EXISTS.
        assertThat(stars(pg, "SELECT * FROM (SELECT id FROM users) s")).isEmpty();
        assertThat(stars(pg, "WITH users AS (SELECT 1 AS id) SELECT * FROM users")).isEmpty();
        assertThat(stars(pg, "SELECT 1 FROM o WHERE EXISTS (SELECT * FROM users u WHERE u.id = o.id)")).isEmpty();
        assertThat(stars(pg, "SELECT count(*) FROM users")).isEmpty();
        // ... but a star inside what EXISTS reads is judged on its own.
        assertThat(stars(pg, "SELECT 1 WHERE EXISTS (SELECT * FROM (SELECT * FROM users) s)")).containsExactly("users");
    }

    @Test
    void R10_postgresIdentifiersAreComparedAsTruncatedTo63Bytes() throws RefusedException {
        String secret = "s".repeat(63);
        assertThat(analyzer.analyze("SELECT " + secret + "_more FROM t", LexSettings.postgres(true)).identifiers())
                .contains(secret);
        // A multi-byte character is never cut in half: 31 two-byte characters are 62 bytes.
        String wide = "é".repeat(40);
        assertThat(analyzer.analyze("SELECT " + wide + " FROM t", LexSettings.postgres(true)).identifiers())
                .contains("é".repeat(31));
        assertThat(analyzer.analyze("SELECT " + secret + "_more FROM t", LexSettings.sqlite()).identifiers())
                .contains(secret + "_more");
    }
}
