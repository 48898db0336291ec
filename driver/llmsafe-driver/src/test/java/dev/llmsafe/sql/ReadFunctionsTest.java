package dev.llmsafe.sql;

import static dev.llmsafe.sql.Cases.MY;
import static dev.llmsafe.sql.Cases.PG;
import static dev.llmsafe.sql.Cases.SL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.testing.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * R7 on the text alone: a read uses only the built-in functions, casts and operators that compute
 * from their arguments (and what the policy adds); everything else is FORBIDDEN_FUNCTION. The same
 * attacks through the driver, on the servers, with what they would have changed: ReadFunctionsServerTest.
 */
class ReadFunctionsTest {

    private static final StatementAnalyzer ANALYZER = new StatementAnalyzer(100_000, 0);

    private static void check(String sql, LexSettings settings, Set<String> allowed) throws RefusedException {
        ReadFunctions.check(ANALYZER.analyze(sql, settings), allowed, Set.of());
    }

    /** The functions of each class that reach past their arguments; every one refused. */
    static Stream<Cases.Case> attacks() {
        return Cases.of()
                // large objects: write although the session is read-only
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT lowrite(lo_open(16400, 131072), 'x')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT lo_truncate64(lo_open(16400, 131072), 0)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT lo_get(16400)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT loread(lo_open(16400, 262144), 10)", PG)
                // SQL run from a string
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT * FROM ts_stat('SELECT set_config(''a'', ''b'', false)::tsvector')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT ts_rewrite('a'::tsquery, 'SELECT 1')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT query_to_xml('select * from users', true, true, '')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT * FROM dblink('host=evil', 'select 1') AS t(x int)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT xpath('/a', query_to_xml('select 1', true, true, ''))", PG)
                // server and session state
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT current_setting('search_path')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT version()", PG, MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT current_database()", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT database()", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT user()", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT connection_id()", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT inet_server_addr()", PG)
                // sequences, locks, sleeps, files
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT currval('s')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT lastval()", PG, MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT sleep(10)", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT benchmark(100000000, md5('x'))", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT load_file('/etc/passwd')", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT * FROM orders WHERE id = 1 AND sleep(5) = 0", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT is_free_lock('x')", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT load_extension('/tmp/evil.so')", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT readfile('/etc/passwd')", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT writefile('/tmp/x', 'x')", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT changes()", SL)
                // the catalog, as existence oracles
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT to_regclass('payroll')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT obj_description(16400)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT has_table_privilege('payroll', 'select')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT format_type(23, -1)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT * FROM pragma_table_info('payroll')", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT name FROM pragma_table_list()", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT file FROM pragma_database_list()", SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT * FROM orders PROCEDURE ANALYSE()", MY)
                // casts to what is not a built-in scalar type
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT json_populate_record(NULL::payroll, '{}')", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT 'payroll'::regclass", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT 'payroll'::regclass::oid", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT 'sum(int4)'::regprocedure", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT 1::oid", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT NULL::public.payroll", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT NULL::\"payroll\"", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT CAST(NULL AS payroll)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT CAST('payroll' AS regclass)", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT regclass 'payroll'", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT payroll '(1,2)'", PG)
                // operators that run a function of the database's
                // attribute notation: t.f is f(t), the whole row
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT m.row_to_json FROM members m", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT m.concat FROM members m", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT m.json_agg FROM members m", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT members.quote_literal FROM members", PG)
                // an application's function, and a built-in name in another schema
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT my_discount(qty) FROM orders")
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT public.lower(note) FROM orders", PG)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT app.date(note) FROM orders", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT app.year(note), app.if(1, 2, 3) FROM orders", MY)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT \"lower\"(note) FROM orders", PG, SL)
                .add(Refusal.FORBIDDEN_FUNCTION, "SELECT `lower`(note) FROM orders", MY)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void R7_functionsCastsAndOperatorsOffTheAllowlistAreRefused(Cases.Case c) {
        assertThatThrownBy(() -> check(c.sql(), c.settings(), Set.of()))
                .isInstanceOfSatisfying(RefusedException.class, e -> {
                    assertThat(e.code()).isEqualTo(c.expected());
                    assertThat(e.getMessage()).contains("Nothing ran");
                });
    }

    /**
     * Operators that are not PostgreSQL's own, and OPERATOR(schema.op): JSqlParser 5.4 cannot read them
     * (PARSE) or the schema is the catalog's, so they are refused before the allowlist is asked; the
     * allowlist refuses them on its own as well, should the parser learn them.
     */
    @Test
    void R7_operatorsThatAreNotBuiltInAreRefused() throws RefusedException {
        for (String sql : List.of("SELECT 1 OPERATOR(public.===) 1", "SELECT 1 OPERATOR(pg_catalog.+) 1",
                "SELECT id FROM orders WHERE id === 1", "SELECT id FROM orders WHERE note <~> 'x'",
                "SELECT id FROM orders WHERE note !! 'x'", "SELECT id FROM orders WHERE id =+= 1")) {
            assertThat(ReadFunctions.uses(sql, PG)).as(sql).isNotEmpty();
            assertThatThrownBy(() -> check(sql, PG, Set.of())).as(sql).isInstanceOfSatisfying(RefusedException.class,
                    e -> assertThat(e.code()).isIn(Refusal.PARSE, Refusal.SYSTEM_CATALOG, Refusal.FORBIDDEN_FUNCTION));
        }
        // PostgreSQL's own splitting: =- is = and -, while @- stays one operator
        assertThat(ReadFunctions.uses("SELECT 1 FROM orders WHERE qty=-1 AND qty<-1 AND qty*-1 > 0", PG)).isEmpty();
        assertThat(ReadFunctions.uses("SELECT 1 @- 1", PG)).isNotEmpty();
    }

    /** Server variables: the system catalog (R1), or refused before any function is looked at. */
    static Stream<Cases.Case> serverVariables() {
        return Cases.of()
                .add(Refusal.SYSTEM_CATALOG, "SELECT @@version", MY)
                .add(Refusal.SYSTEM_CATALOG, "SELECT @@session.sql_mode", MY)
                .add(Refusal.SYSTEM_CATALOG, "SELECT @@GLOBAL.secure_file_priv", MY)
                .add(Refusal.SYSTEM_CATALOG, "SELECT setting FROM pg_settings WHERE name = 'data_directory'", PG)
                .add(Refusal.SYSTEM_CATALOG, "SELECT pg_read_file('/etc/passwd')", PG)
                .add(Refusal.SYSTEM_CATALOG, "SELECT pg_advisory_lock(1)", PG)
                .add(Refusal.SYSTEM_CATALOG, "SELECT pg_sleep(10)", PG)
                .add(Refusal.SYSTEM_CATALOG, "SELECT sqlite_version()", SL)
                .add(Refusal.MIXED, "SELECT set_config('default_transaction_read_only', 'off', false)", PG)
                .add(Refusal.MIXED, "SELECT setval('s', 1)", PG)
                .add(Refusal.MIXED, "SELECT nextval('s')", PG, MY)
                .add(Refusal.MIXED, "SELECT lo_export(16400, '/tmp/x')", PG)
                .add(Refusal.MIXED, "SELECT get_lock('x', 1)", MY)
                .add(Refusal.UNSUPPORTED_STATEMENT, "SHOW search_path", PG)
                .add(Refusal.UNSUPPORTED_STATEMENT, "SHOW VARIABLES", MY)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverVariables")
    void R7_serverVariablesAreTheSystemCatalogOrRefusedEarlier(Cases.Case c) {
        assertThatThrownBy(() -> check(c.sql(), c.settings(), Set.of()))
                .isInstanceOfSatisfying(RefusedException.class, e -> assertThat(e.code()).isEqualTo(c.expected()));
    }

    /** What ordinary reads use keeps working. */
    static Stream<Cases.Case> legitimate() {
        return Cases.of()
                .add(Analysis.Kind.READ, "SELECT 1")
                .add(Analysis.Kind.READ, "SELECT count(*), sum(qty), avg(qty), min(note), max(note) FROM orders")
                .add(Analysis.Kind.READ, "SELECT lower(note), upper(note), length(note), replace(note, 'a', 'b') FROM orders")
                .add(Analysis.Kind.READ, "SELECT coalesce(note, 'x'), nullif(qty, 0), abs(qty), round(qty, 2) FROM orders")
                .add(Analysis.Kind.READ, "SELECT CASE WHEN qty > 1 THEN 'many' ELSE 'one' END FROM orders")
                .add(Analysis.Kind.READ, "SELECT id, row_number() OVER (PARTITION BY note ORDER BY id), lag(qty) OVER w"
                        + " FROM orders WINDOW w AS (ORDER BY id)")
                .add(Analysis.Kind.READ, "WITH x(a, b) AS (SELECT id, qty FROM orders) SELECT a, b FROM x")
                .add(Analysis.Kind.READ, "SELECT m.a FROM orders AS m(a, b)", PG)
                .add(Analysis.Kind.READ, "SELECT o.id, o.note, o.qty FROM public.orders o WHERE o.id = 1")
                .add(Analysis.Kind.READ, "SELECT CAST(qty AS text), qty::numeric(10, 2), qty::double precision,"
                        + " now()::timestamp with time zone, '2024-01-01'::date, '{}'::jsonb, note::varchar(5),"
                        + " ARRAY[1, 2]::int[], DATE '2024-01-01', INTERVAL '1 day', TIMESTAMP '2024-01-01 10:00'"
                        + " FROM orders", PG)
                .add(Analysis.Kind.READ, "SELECT * FROM generate_series(1, 3) AS g(n)", PG)
                .add(Analysis.Kind.READ, "SELECT * FROM json_each('{\"a\": 1}')", PG, SL)
                .add(Analysis.Kind.READ, "SELECT unnest(ARRAY[1, 2]), string_agg(note, ',' ORDER BY id),"
                        + " jsonb_build_object('a', qty) -> 'a', '{\"a\":1}'::jsonb @> '{\"a\":1}', note || 'x',"
                        + " note ~* 'a', note LIKE 'a%' ESCAPE '!', 2 ^ 3, 7 % 2, -qty, qty*-1, qty<>-1, qty>=-1"
                        + " FROM orders GROUP BY id, note, qty", PG)
                .add(Analysis.Kind.READ, "SELECT make_interval(days => 1), to_char(now(), 'YYYY'), date_trunc('day', now()),"
                        + " extract(year FROM now()), substring('abc' FROM 2 FOR 1), trim(both 'x' FROM 'xax'),"
                        + " position('b' IN 'abc'), overlay('abc' PLACING 'x' FROM 2), now() AT TIME ZONE 'UTC'", PG)
                .add(Analysis.Kind.READ, "SELECT id FROM orders GROUP BY GROUPING SETS ((id), ()) ", PG)
                .add(Analysis.Kind.READ, "SELECT id FROM orders TABLESAMPLE SYSTEM (50) REPEATABLE (1)", PG)
                .add(Analysis.Kind.READ, "WITH x AS MATERIALIZED (SELECT 1 AS a) SELECT a FROM x", PG)
                .add(Analysis.Kind.READ, "SELECT if(qty > 1, 'a', 'b'), ifnull(note, ''), concat(note, 'x'), hex(note),"
                        + " repeat('x', 3), date_format(now(), '%Y'), json_extract('{\"a\":1}', '$.a'), group_concat(note"
                        + " SEPARATOR ','), CAST(qty AS CHAR), CONVERT(note USING utf8mb4), DATE(now()), insert(note, 1, 2, 'x')"
                        + " FROM orders GROUP BY id, note, qty", MY)
                .add(Analysis.Kind.READ, "SELECT * FROM JSON_TABLE('[1,2]', '$[*]' COLUMNS (x INT PATH '$')) AS j", MY)
                .add(Analysis.Kind.READ, "SELECT id FROM orders USE INDEX (PRIMARY) WHERE id = 1", MY)
                .add(Analysis.Kind.READ, "SELECT hex(zeroblob(4)), typeof(qty), printf('%d', qty), iif(qty, 1, 0),"
                        + " date('now'), strftime('%Y', 'now'), json_extract('{\"a\":1}', '$.a'), group_concat(note),"
                        + " substr(note, 1, 2), instr(note, 'a'), CAST(qty AS TEXT) FROM orders GROUP BY id, note, qty", SL)
                .add(Analysis.Kind.READ, "SELECT value FROM json_each('[1,2]')", SL)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legitimate")
    void R7_ordinaryFunctionsCastsAndOperatorsStillWork(Cases.Case c) {
        assertThatCode(() -> check(c.sql(), c.settings(), Set.of())).doesNotThrowAnyException();
    }

    @Test
    void R7_thePolicyAddsFunctionsByName() throws RefusedException {
        assertThatCode(() -> check("SELECT my_discount(qty) FROM orders", PG, Set.of("my_discount")))
                .doesNotThrowAnyException();
        assertThatCode(() -> check("SELECT app.my_discount(qty) FROM orders", PG, Set.of("app.my_discount")))
                .doesNotThrowAnyException();
        assertThatCode(() -> check("SELECT app.my_discount(qty) FROM orders", PG, Set.of("my_discount")))
                .doesNotThrowAnyException();
        assertThatCode(() -> check("SELECT NULL::money_range", PG, Set.of("money_range"))).doesNotThrowAnyException();
        // a qualified name allows that schema's function only; the unqualified call may resolve elsewhere
        assertThatThrownBy(() -> check("SELECT my_discount(qty) FROM orders", PG, Set.of("app.my_discount")))
                .isInstanceOfSatisfying(RefusedException.class, e -> {
                    assertThat(e.code()).isEqualTo(Refusal.FORBIDDEN_FUNCTION);
                    assertThat(e.getMessage()).contains("policy.read.allowFunctions").contains("\"my_discount\"");
                });
        // a function the database defines, named as an attribute, is a call of it with the whole row
        assertThatThrownBy(() -> ReadFunctions.check(ANALYZER.analyze("SELECT o.leak FROM orders o", PG), Set.of(),
                Set.of(), Set.of("leak"))).isInstanceOfSatisfying(RefusedException.class,
                        e -> assertThat(e.code()).isEqualTo(Refusal.FORBIDDEN_FUNCTION));
        // operators cannot be added: the catalog's user-defined ones are refused whatever the policy says
        assertThatThrownBy(() -> ReadFunctions.check(ANALYZER.analyze("SELECT 1 + 1", PG), Set.of("+"), Set.of("+")))
                .isInstanceOfSatisfying(RefusedException.class, e -> assertThat(e.code()).isEqualTo(Refusal.FORBIDDEN_FUNCTION));
    }

    /** The ordinary syntax corpus of S10 (every read of it) uses nothing the allowlist refuses. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void R7_theOrdinarySyntaxCorpusPassesTheAllowlist(Engine engine) throws Exception {
        LexSettings settings = switch (engine) {
            case POSTGRES -> PG;
            case MYSQL -> MY;
            case SQLITE -> SL;
        };
        List<String> refused = new ArrayList<>();
        int reads = 0;
        for (String sql : OrdinarySyntaxTest.corpus(engine)) {
            Analysis a;
            try {
                a = ANALYZER.analyze(sql, settings);
            } catch (RefusedException e) {
                continue; // S10's own test reports these
            }
            if (a.isWrite()) {
                continue;
            }
            reads++;
            try {
                ReadFunctions.check(a, Set.of(), Set.of());
            } catch (RefusedException e) {
                refused.add(sql + "\n    -> " + e.detail());
            }
        }
        assertThat(reads).isGreaterThan(100);
        assertThat(refused).as("%d of %d ordinary reads refused:\n%s", refused.size(), reads, String.join("\n", refused))
                .isEmpty();
    }
}
