package dev.llmsafe.sql;

import static dev.llmsafe.Refusal.*;
import static dev.llmsafe.sql.Cases.ALL;
import static dev.llmsafe.sql.Cases.MY;
import static dev.llmsafe.sql.Cases.MY_ANSI;
import static dev.llmsafe.sql.Cases.PG;
import static dev.llmsafe.sql.Cases.PG_NON_STANDARD;
import static dev.llmsafe.sql.Cases.SL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.sql.Analysis.Kind;
import dev.llmsafe.sql.Cases.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The statement suite: each rule's cases in every dialect where they mean something, legitimate
 * statements included (a false refusal is a defect too).
 */
class StatementAnalyzerTest {

    static final StatementAnalyzer ANALYZER = new StatementAnalyzer(2000);
    static final Kind READ = Kind.READ;
    static final Kind UPDATE = Kind.UPDATE;
    static final Kind DELETE = Kind.DELETE;

    static void check(Case c) {
        if (c.expected() instanceof Refusal code) {
            assertThatThrownBy(() -> ANALYZER.analyze(c.sql(), c.settings()))
                    .isInstanceOf(RefusedException.class)
                    .satisfies(e -> assertThat(((RefusedException) e).code()).as(e.getMessage()).isEqualTo(code));
        } else {
            try {
                assertThat(ANALYZER.analyze(c.sql(), c.settings()).kind()).isEqualTo(c.expected());
            } catch (RefusedException e) {
                throw new AssertionError("expected " + c.expected() + " but was refused: " + e.getMessage(), e);
            }
        }
    }

    // ---- S1 ----

    static Stream<Case> s1() {
        return Cases.of()
                .add(EMPTY, "")
                .add(EMPTY, "   \n\t ")
                .add(EMPTY, "-- nothing but a comment")
                .add(EMPTY, "/* nothing */")
                .add(EMPTY, ";")
                .add(TOO_LONG, "SELECT '" + "x".repeat(2000) + "' FROM orders")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s1")
    void S1_emptyAndOverlongInputIsRefusedFirst(Case c) {
        check(c);
    }

    // ---- S2 ----

    static Stream<Case> s2() {
        return Cases.of()
                .add(LEX, "SELECT 'unterminated FROM orders")
                .add(LEX, "SELECT id FROM orders /* unterminated comment")
                .add(LEX, "SELECT \"unterminated FROM orders", PG, SL, MY_ANSI)
                .add(LEX, "SELECT `unterminated FROM orders", MY, SL)
                .add(LEX, "SELECT [unterminated FROM orders", SL)
                .add(LEX, "SELECT $$unterminated FROM orders", PG)
                .add(LEX, "SELECT $tag$body$other$ FROM orders", PG)
                .add(LEX, "SELECT \"\" FROM orders", PG, SL)
                .add(LEX, "SELECT id FROM orders WHERE note = 'a\0b'")
                .add(DELETE, "DELETE/**/FROM orders/**/WHERE id = 1")
                .add(DELETE, "/* leading */ DELETE FROM orders WHERE id = 1")
                .add(DELETE, "-- leading\nDELETE FROM orders WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'x' WHERE id = 1 -- trailing")
                .add(UPDATE, "UPDATE orders SET note = 'x' /* inside */ WHERE id = 1")
                .add(READ, "SELECT id FROM orders -- WHERE id = 1")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s2")
    void S2_commentsAreRemovedByADialectAwareLexer(Case c) {
        check(c);
    }

    // ---- S3 ----

    static Stream<Case> s3() {
        return Cases.of()
                .add(MULTIPLE_STATEMENTS, "SELECT id FROM orders; DELETE FROM orders")
                .add(MULTIPLE_STATEMENTS, "SELECT 1;DELETE FROM orders;")
                .add(MULTIPLE_STATEMENTS, "COMMIT; DELETE FROM orders WHERE id = 1")
                .add(MULTIPLE_STATEMENTS, "COMMIT; DROP SCHEMA public CASCADE;")
                .add(MULTIPLE_STATEMENTS, "SELECT 1;; SELECT 2")
                .add(MULTIPLE_STATEMENTS, "; SELECT 1")
                .add(MULTIPLE_STATEMENTS, "UPDATE orders SET note = 'a' WHERE id = 1;; DELETE FROM orders")
                .add(MULTIPLE_STATEMENTS, "UPDATE orders SET note = 'a' WHERE id = 1; SELECT 1")
                .add(MULTIPLE_STATEMENTS, "SELECT id FROM orders /* ; */ ; SET TRANSACTION READ WRITE")
                .add(UPDATE, "UPDATE orders SET note = 'a;b' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'x' WHERE id = 1;")
                .add(UPDATE, "UPDATE orders SET note = 'x' WHERE id = 1 ;  \n")
                .add(UPDATE, "UPDATE orders SET note = 'x' WHERE id = 1;;  ")
                .add(UPDATE, "UPDATE orders SET note = 'x' WHERE id = 1 ; ; -- done\n ;")
                .add(DELETE, "DELETE FROM orders WHERE id = 1;/* c */;")
                .add(READ, "SELECT 1;;")
                .add(EMPTY, ";;  ;")
                .add(READ, "SELECT \"semi;colon\" FROM orders", PG, SL)
                .add(READ, "SELECT `semi;colon` FROM orders", MY)
                .add(READ, "SELECT [semi;colon] FROM orders", SL)
                .add(READ, "SELECT $$a;b$$ FROM orders", PG)
                .add(READ, "SELECT id FROM orders -- ; DELETE FROM orders")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s3")
    void S3_oneStatementOnly(Case c) {
        check(c);
    }

    // ---- S4 ----

    static Stream<Case> s4() {
        return Cases.of()
                .add(UPDATE, "UPDATE orders SET note = 'please call me' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'COMMIT; DROP TABLE orders' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'delete this later' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'INSERT INTO x' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET update_count = update_count + 1 WHERE id = 1")
                .add(READ, "SELECT deleted_at, insert_batch, call_count FROM orders")
                .add(READ, "SELECT id FROM orders WHERE note = 'SELECT * FROM pg_catalog.pg_user'")
                .add(READ, "SELECT id FROM orders WHERE note = 'set search_path'")
                .add(READ, "SELECT id FROM orders WHERE note LIKE '%grant%'")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s4")
    void S4_wordsAreJudgedAsTokens(Case c) {
        check(c);
    }

    // ---- S5 ----

    static Stream<Case> s5() {
        return Cases.of()
                .add(UNSUPPORTED_INSERT, "INSERT INTO orders (id) VALUES (1)")
                .add(UNSUPPORTED_INSERT, "insert into orders select * from orders")
                .add(UNSUPPORTED_INSERT, "REPLACE INTO orders (id) VALUES (1)", MY, SL)
                .add(UNSUPPORTED_INSERT, "MERGE INTO orders USING items ON orders.id = items.id WHEN MATCHED THEN DELETE", PG)
                .add(UNSUPPORTED_INSERT, "INSERT INTO orders (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET note = 'x'", PG, SL)
                .add(UNSUPPORTED_INSERT, "INSERT INTO orders (id) VALUES (1) ON DUPLICATE KEY UPDATE note = 'x'", MY)
                .add(UNSUPPORTED_INSERT, "UPSERT INTO orders (id) VALUES (1)")
                .add(UNSUPPORTED_STATEMENT, "EXPLAIN ANALYZE DELETE FROM orders")
                .add(UNSUPPORTED_STATEMENT, "SHOW TABLES")
                .add(UNSUPPORTED_STATEMENT, "DESCRIBE orders")
                .add(UNSUPPORTED_STATEMENT, "VALUES (1)")
                .add(UNSUPPORTED_STATEMENT, "TABLE orders")
                .add(UNSUPPORTED_STATEMENT, "{call myproc(?)}")
                .add(UNSUPPORTED_STATEMENT, "SELECT {fn NOW()} FROM orders")
                .add(UNSUPPORTED_STATEMENT, "SELECT id FROM orders WHERE id = $1", PG)
                .add(UNSUPPORTED_STATEMENT, "SELECT id FROM orders WHERE id = :id", SL)
                .add(UNSUPPORTED_STATEMENT, "SELECT id FROM orders WHERE id = @id", SL)
                .add(UNSUPPORTED_STATEMENT, "SELECT id FROM orders WHERE id = ?1", SL)
                .add(UNSUPPORTED_STATEMENT, "UPDATE OR REPLACE orders SET note = 'x' WHERE id = 1", SL)
                .add(UNSUPPORTED_STATEMENT, "UPDATE IGNORE orders SET note = 'x' WHERE id = 1", MY)
                .add(UNSUPPORTED_STATEMENT, "UPDATE LOW_PRIORITY orders SET note = 'x' WHERE id = 1", MY)
                .add(UNSUPPORTED_STATEMENT, "DELETE QUICK FROM orders WHERE id = 1", MY)
                .add(UNSUPPORTED_STATEMENT, "WITH x AS (SELECT 1 AS id) UPDATE orders SET note = 'x' WHERE id IN (SELECT id FROM x)", PG)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s5")
    void S5_onlyReadsUpdatesAndDeletesAreAccepted(Case c) {
        check(c);
    }

    // ---- S6 ----

    static Stream<Case> s6() {
        return Cases.of()
                .add(FORBIDDEN_DIALECT, "/*!50000 DELETE FROM orders */ SELECT 1", MY, MY_ANSI)
                .add(FORBIDDEN_DIALECT, "SELECT 1 /*! , password_hash */ FROM users", MY)
                .add(FORBIDDEN_DIALECT, "/*M!100000 DELETE FROM orders WHERE 1=1 OR */ (SELECT 1)", MY)
                .add(FORBIDDEN_DIALECT, "DELETE FROM orders /*! WHERE 1=0 */", MY)
                .add(FORBIDDEN_DIALECT, "SELECT /*+ MAX_EXECUTION_TIME(1) */ id FROM orders", MY)
                .add(FORBIDDEN_DIALECT, "UPDATE /*+ NO_INDEX(orders) */ orders SET note = 'x' WHERE id = 1", MY)
                .add(READ, "/*!50000 DELETE FROM orders */ SELECT 1", PG, SL)
                .add(READ, "/*M!100000 DELETE FROM orders */ SELECT 1", PG, SL)
                .add(READ, "SELECT /*+ hint */ id FROM orders", PG, SL)
                .add(NO_WHERE, "DELETE FROM orders /*! WHERE 1=0 */", PG, SL)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s6")
    void S6_mysqlExecutableCommentsAndHintsAreRefused(Case c) {
        check(c);
    }

    // ---- S7 ----

    static Stream<Case> s7() {
        Cases cases = Cases.of();
        for (String sql : new String[] {"BEGIN", "START TRANSACTION", "COMMIT", "END", "ROLLBACK",
                "SAVEPOINT s1", "RELEASE SAVEPOINT s1", "SET search_path = evil", "SET TRANSACTION READ WRITE",
                "SET ROLE admin", "RESET ALL", "DISCARD ALL", "PRAGMA query_only = 0",
                "ATTACH DATABASE '/tmp/x.db' AS x", "USE mysql", "LOCK TABLE orders IN EXCLUSIVE MODE",
                "GRANT ALL ON orders TO public", "REVOKE SELECT ON orders FROM public", "COPY orders TO STDOUT",
                "COPY orders FROM PROGRAM 'id'", "LOAD DATA INFILE '/etc/passwd' INTO TABLE orders",
                "CALL p()", "DO $$ BEGIN RAISE NOTICE 'x' END $$", "DO 1", "EXECUTE stmt", "PREPARE stmt FROM 'x'",
                "DEALLOCATE PREPARE stmt", "HANDLER orders OPEN", "LISTEN ch", "NOTIFY ch"}) {
            cases.add(FORBIDDEN, sql);
        }
        cases.add(SYSTEM_CATALOG, "SELECT @@version", MY);
        cases.add(FORBIDDEN, "UPDATE orders SET note = @x WHERE id = 1", MY);
        cases.add(FORBIDDEN, "SELECT @x := 1", MY);
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s7")
    void S7_transactionControlAndSessionStateAreForbidden(Case c) {
        check(c);
    }

    // ---- S8 ----

    static Stream<Case> s8() {
        return Cases.of()
                // PostgreSQL: E'' reads backslash escapes, so WHERE is inside the string.
                // The lexer reads the E-string to its last quote, and so does the parser given E''' ... '.
                .add(NO_WHERE, "UPDATE orders SET note = E'\\' WHERE id = 1 -- '", PG)
                .add(NO_WHERE, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", PG_NON_STANDARD)
                .add(UPDATE, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", PG, SL)
                .add(UPDATE, "UPDATE orders SET note = $$it's -- x$$ WHERE id = 1", PG)
                .add(UPDATE, "UPDATE orders SET note = $t$it's $$ -- x$t$ WHERE id = 1", PG)
                .add(READ, "/* outer /* nested */ DELETE FROM orders */ SELECT id FROM orders", PG)
                .add(PARSE, "/* outer /* nested */ DELETE FROM orders */ SELECT id FROM orders", MY, SL)
                .add(READ, "SELECT 1 # 2 FROM orders", PG)
                // MySQL: backslash escapes unless NO_BACKSLASH_ESCAPES.
                .add(NO_WHERE, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", MY)
                .add(UPDATE, "UPDATE orders SET note = '\\' WHERE id = 1 -- '", MY_ANSI)
                .add(UPDATE, "UPDATE orders SET note = 'a\\'b' WHERE id = 1", MY)
                .add(UPDATE, "UPDATE orders SET note = '\\\\' WHERE id = 1", MY, MY_ANSI)
                .add(NO_WHERE, "UPDATE orders SET note = \"\\\" WHERE id = 1 -- \"", MY)
                .add(UPDATE, "UPDATE orders SET note = \"x\" WHERE id = 1", MY)
                // MySQL: # comments, and -- only before white space.
                .add(UPDATE, "UPDATE orders SET note = 'x' # WHERE id = 1\n WHERE id = 2", MY)
                .add(READ, "SELECT 1--1 FROM orders", MY)
                .add(READ, "SELECT 1-- 1 FROM orders\n", MY)
                // SQLite: three forms of quoted identifiers.
                .add(UPDATE, "UPDATE \"orders\" SET \"note\" = 'x' WHERE \"id\" = 1", SL, PG)
                .add(UPDATE, "UPDATE `orders` SET `note` = 'x' WHERE `id` = 1", SL, MY)
                .add(UPDATE, "UPDATE [orders] SET [note] = 'x' WHERE [id] = 1", SL)
                .add(READ, "SELECT [a;b] FROM orders", SL)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s8")
    void S8_lexingFollowsEachServerExactly(Case c) {
        check(c);
    }

    // ---- W1, W2, W3 ----

    static Stream<Case> w1() {
        return Cases.of()
                .add(MULTI_TABLE, "UPDATE orders SET qty = 1 FROM items WHERE items.order_id = orders.id", PG, SL)
                .add(MULTI_TABLE, "DELETE FROM orders USING items WHERE items.order_id = orders.id", PG)
                .add(MULTI_TABLE, "UPDATE orders, items SET orders.qty = 1 WHERE items.order_id = orders.id", MY)
                .add(MULTI_TABLE, "UPDATE orders JOIN items ON items.order_id = orders.id SET orders.qty = 1 WHERE items.id = 1", MY)
                .add(MULTI_TABLE, "DELETE orders FROM orders JOIN items ON orders.id = items.order_id WHERE items.id = 1", MY)
                .add(MULTI_TABLE, "DELETE orders, items FROM orders, items WHERE orders.id = items.order_id", MY)
                .add(MULTI_TABLE, "UPDATE orders SET items.qty = 1 WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET qty = 1 WHERE id IN (SELECT order_id FROM items WHERE sku = 'a')")
                .add(UPDATE, "UPDATE orders SET total = (SELECT sum(price) FROM items WHERE items.order_id = orders.id) WHERE id = 1")
                .add(DELETE, "DELETE FROM orders WHERE EXISTS (SELECT 1 FROM items WHERE items.order_id = orders.id)")
                .add(UPDATE, "UPDATE orders SET orders.qty = 1 WHERE orders.id = 1")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w1")
    void W1_oneTablePerWrite(Case c) {
        check(c);
    }

    static Stream<Case> w2() {
        return Cases.of()
                .add(ORDER_OR_LIMIT, "UPDATE orders SET qty = 1 WHERE qty > 1 ORDER BY id LIMIT 5", MY, SL)
                .add(ORDER_OR_LIMIT, "UPDATE orders SET qty = 1 WHERE qty > 1 LIMIT 5", MY, SL)
                .add(ORDER_OR_LIMIT, "DELETE FROM orders WHERE qty > 1 ORDER BY id LIMIT 1", MY, SL)
                .add(ORDER_OR_LIMIT, "DELETE FROM orders WHERE qty > 1 LIMIT 1", MY)
                .add(UPDATE, "UPDATE orders SET qty = 1 WHERE id IN (SELECT id FROM orders ORDER BY id LIMIT 5)", PG, SL)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w2")
    void W2_noOrderByOrLimitOnAWrite(Case c) {
        check(c);
    }

    static Stream<Case> w3() {
        return Cases.of()
                .add(NO_WHERE, "UPDATE orders SET status = 'shipped'")
                .add(NO_WHERE, "DELETE FROM orders")
                .add(NO_WHERE, "DELETE FROM orders -- WHERE id = 1")
                .add(NO_WHERE, "UPDATE orders SET note = (SELECT note FROM items WHERE id = 1)")
                .add(NO_WHERE, "DELETE FROM orders RETURNING id", PG, SL)
                .add(NO_WHERE, "UPDATE orders SET x = 1 WHERE")
                .add(NO_WHERE, "UPDATE orders SET x = 1 WHERE ;")
                .add(NO_WHERE, "DELETE FROM orders WHERE -- nothing")
                .add(NO_WHERE, "DELETE FROM orders WHERE /* id = 1 */ ;;")
                .add(NO_WHERE, "UPDATE orders SET x = 1 WHERE RETURNING id", PG, SL)
                .add(NO_WHERE, "DELETE FROM orders WHERE LIMIT 1", MY)
                .add(UPDATE, "UPDATE orders SET x = (SELECT 1 FROM items WHERE id = 2) WHERE id = 1")
                .add(DELETE, "DELETE FROM orders WHERE id = ?")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w3")
    void W3_aWriteNeedsAWhereClause(Case c) {
        check(c);
    }

    // ---- W5, W8, W10, W12 ----

    static Stream<Case> w5() {
        return Cases.of()
                .add(ENGINE_TABLE, "SELECT * FROM llmsafe_plans")
                .add(ENGINE_TABLE, "UPDATE llmsafe_plans SET status = 'approved' WHERE id = 'x'")
                .add(ENGINE_TABLE, "DELETE FROM LLMSAFE_AUDIT WHERE 1 = 1")
                .add(ENGINE_TABLE, "SELECT id FROM orders WHERE id IN (SELECT plan_id FROM llmsafe_plans)")
                .add(ENGINE_TABLE, "SELECT * FROM \"llmsafe_plans\"", PG, SL)
                .add(ENGINE_TABLE, "SELECT * FROM `llmsafe_plans`", MY)
                .add(ENGINE_TABLE, "SELECT * FROM app.llmsafe_plans")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w5")
    void W5_theEngineTablesAreRefusedAlways(Case c) {
        check(c);
    }

    static Stream<Case> w8() {
        return Cases.of()
                .add(ALIASED_TARGET, "UPDATE orders o SET qty = 1 WHERE o.id = 1")
                .add(ALIASED_TARGET, "UPDATE orders AS o SET qty = 1 WHERE o.id = 1", PG, SL)
                .add(ALIASED_TARGET, "DELETE FROM orders o WHERE o.id = 1", PG, MY)
                .add(ALIASED_TARGET, "DELETE FROM orders AS o WHERE o.id = 1", PG, SL)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w8")
    void W8_anAliasedTargetIsRefused(Case c) {
        check(c);
    }

    static Stream<Case> w10() {
        Cases cases = Cases.of();
        for (String f : new String[] {"now()", "random()", "rand()", "uuid()", "gen_random_uuid()",
                "nextval('s')", "clock_timestamp()", "sysdate()", "utc_timestamp()", "unix_timestamp()",
                "last_insert_id()", "current_timestamp(3)", "randomblob(4)", "datetime('now')"}) {
            cases.add(VOLATILE, "UPDATE orders SET touched = " + f + " WHERE id = 1");
        }
        cases.add(VOLATILE, "UPDATE orders SET touched = CURRENT_TIMESTAMP WHERE id = 1")
                .add(VOLATILE, "UPDATE orders SET touched = CURRENT_DATE WHERE id = 1")
                .add(VOLATILE, "UPDATE orders SET owner = CURRENT_USER WHERE id = 1")
                .add(VOLATILE, "UPDATE orders SET owner = user WHERE id = 1", PG)
                .add(VOLATILE, "UPDATE orders SET touched = 'now' WHERE id = 1", PG, SL)
                .add(VOLATILE, "UPDATE orders SET touched = 'NOW'::timestamptz WHERE id = 1", PG)
                // PostgreSQL ignores case and spaces around the word; E'' and dollar quotes are strings too.
                .add(VOLATILE, "UPDATE orders SET touched = CAST(' NoW ' AS timestamptz)::text WHERE id = 1", PG)
                .add(VOLATILE, "UPDATE orders SET touched = E' today'::date WHERE id = 1", PG)
                .add(VOLATILE, "UPDATE orders SET touched = $$tomorrow$$::date WHERE id = 1", PG)
                // SQLite reads a double-quoted word that names no column as a string.
                .add(VOLATILE, "UPDATE orders SET touched = datetime(\"now\") WHERE id = 6", SL)
                .add(UPDATE, "UPDATE orders SET touched = [yesterday] WHERE id = 6", SL)
                .add(VOLATILE, "DELETE FROM orders WHERE created < now() - interval '1 day'", PG)
                .add(VOLATILE, "UPDATE orders SET touched = DEFAULT WHERE id = 1")
                .add(VOLATILE, "UPDATE orders SET n = nextval('seq') WHERE id = 1", PG)
                .add(VOLATILE, "UPDATE orders SET n = NEXT VALUE FOR seq WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET n = 1 WHERE id = previous value for seq", MY)
                .add(UPDATE, "UPDATE orders SET next = 2 WHERE id = 1", MY)
                .add(READ, "SELECT now(), random() FROM orders")
                .add(UPDATE, "UPDATE orders SET note = 'now and then' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = lower(note) WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET owner = user_name WHERE id = 1");
        // A function that converts the value it is given is no clock; called without one, it reads the clock.
        cases.add(VOLATILE, "UPDATE orders SET n = UNIX_TIMESTAMP() WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET n = 1 WHERE id = 1 AND ts < UNIX_TIMESTAMP( )", MY)
                .add(VOLATILE, "UPDATE orders SET n = UNIX_TIMESTAMP(ts) + UNIX_TIMESTAMP() WHERE id = 1", MY)
                .add(UPDATE, "UPDATE orders SET n = UNIX_TIMESTAMP(ts) WHERE id = 1", MY)
                .add(UPDATE, "UPDATE orders SET n = unix_timestamp('2024-01-01 00:00:00') WHERE id = 1", MY)
                .add(UPDATE, "UPDATE orders SET ts = FROM_UNIXTIME(n) WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET n = RAND(3) WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET d = CURDATE() WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET ts = NOW(6) WHERE id = 1", MY)
                .add(VOLATILE, "UPDATE orders SET n = unixepoch() WHERE id = 1", SL)
                .add(UPDATE, "UPDATE orders SET n = unixepoch(ts) WHERE id = 1", SL)
                .add(UPDATE, "UPDATE orders SET n = unixepoch('2024-01-01', '+1 day') WHERE id = 1", SL);
        for (String f : new String[] {"date()", "time()", "datetime()", "julianday()", "strftime('%s')"}) {
            cases.add(VOLATILE, "UPDATE orders SET ts = " + f + " WHERE id = 1", SL);
        }
        for (String f : new String[] {"date(ts)", "time(ts, '+1 hour')", "datetime(ts, 'start of day')",
                "julianday('2024-01-01')", "strftime('%s', ts)"}) {
            cases.add(UPDATE, "UPDATE orders SET ts = " + f + " WHERE id = 1", SL);
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w10")
    void W10_volatileFunctionsInAWriteAreRefused(Case c) {
        check(c);
    }

    static Stream<Case> w12() {
        Cases cases = Cases.of();
        for (String sql : new String[] {"CREATE TABLE x (id int)", "ALTER TABLE orders ADD COLUMN x int",
                "DROP TABLE orders", "DROP SCHEMA public CASCADE", "TRUNCATE orders", "TRUNCATE TABLE orders",
                "CREATE INDEX i ON orders (id)", "COMMENT ON TABLE orders IS 'x'", "VACUUM", "ANALYZE orders",
                "RENAME TABLE orders TO o2", "CREATE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql"}) {
            cases.add(DDL, sql);
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("w12")
    void W12_ddlIsRefused(Case c) {
        check(c);
    }

    // ---- R1, R3 ----

    static Stream<Case> r1() {
        return Cases.of()
                .add(SYSTEM_CATALOG, "SELECT * FROM information_schema.tables")
                .add(SYSTEM_CATALOG, "SELECT * FROM INFORMATION_SCHEMA.COLUMNS WHERE table_name = 'users'")
                .add(SYSTEM_CATALOG, "SELECT * FROM pg_catalog.pg_user", PG)
                .add(SYSTEM_CATALOG, "SELECT usename, passwd FROM pg_shadow", PG)
                .add(SYSTEM_CATALOG, "SELECT * FROM pg_stat_activity", PG)
                .add(SYSTEM_CATALOG, "SELECT pg_read_file('/etc/passwd')", PG)
                .add(SYSTEM_CATALOG, "SELECT * FROM pg_read_file('/etc/passwd')", PG)
                .add(SYSTEM_CATALOG, "SELECT pg_terminate_backend(1)", PG)
                .add(SYSTEM_CATALOG, "SELECT user, authentication_string FROM mysql.user", MY)
                .add(SYSTEM_CATALOG, "SELECT * FROM performance_schema.threads", MY)
                .add(SYSTEM_CATALOG, "SELECT * FROM sys.session", MY)
                .add(SYSTEM_CATALOG, "SELECT sql FROM sqlite_master", SL)
                .add(SYSTEM_CATALOG, "SELECT * FROM sqlite_schema", SL)
                .add(SYSTEM_CATALOG, "SELECT id FROM orders WHERE id IN (SELECT oid FROM pg_class)", PG)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("r1")
    void R1_systemCatalogsAreRefused(Case c) {
        check(c);
    }

    static Stream<Case> r3() {
        return Cases.of()
                .add(MIXED, "WITH d AS (DELETE FROM orders WHERE id = 1 RETURNING *) SELECT * FROM d", PG, SL)
                .add(MIXED, "WITH i AS (INSERT INTO orders (id) VALUES (9) RETURNING 1) SELECT 1", PG)
                .add(MIXED, "WITH u AS (UPDATE orders SET qty = 0 RETURNING id) SELECT id FROM u", PG)
                .add(MIXED, "SELECT * INTO newtab FROM orders")
                .add(MIXED, "SELECT id INTO @x FROM orders", PG, SL)
                .add(MIXED, "SELECT * FROM orders INTO OUTFILE '/tmp/x'", MY)
                .add(MIXED, "SELECT * INTO DUMPFILE '/tmp/x' FROM orders", MY)
                .add(MIXED, "SELECT * FROM orders WHERE id = 1 FOR UPDATE")
                .add(MIXED, "SELECT * FROM orders FOR SHARE", PG, MY)
                .add(MIXED, "SELECT * FROM orders FOR NO KEY UPDATE", PG)
                .add(MIXED, "SELECT * FROM orders FOR KEY SHARE", PG)
                .add(MIXED, "SELECT * FROM orders LOCK IN SHARE MODE", MY)
                .add(MIXED, "SELECT nextval('seq')", PG, MY)
                .add(MIXED, "SELECT setval('seq', 1)", PG)
                .add(MIXED, "SELECT lo_import('/etc/passwd')", PG)
                .add(MIXED, "SELECT set_config('role', 'admin', false)", PG)
                // R7: in reads these are refused by the allowlist of ReadFunctions (ReadFunctionsTest); the
                // analysis alone refuses them in writes.
                .add(FORBIDDEN_FUNCTION, "UPDATE orders SET note = query_to_xml('select 1', true, true, '') WHERE id = 1", PG)
                .add(FORBIDDEN_FUNCTION, "DELETE FROM orders WHERE id IN (SELECT x FROM dblink('host=evil', 'select 1') AS t(x int))", PG)
                .add(FORBIDDEN_FUNCTION, "SELECT (amount).pg_sleep FROM orders", PG)
                .add(FORBIDDEN_FUNCTION, "UPDATE orders SET note = load_file('/etc/passwd') WHERE id = 1", MY)
                .add(FORBIDDEN_FUNCTION, "DELETE FROM orders WHERE id = 1 AND sleep(10) = 0", MY)
                .add(FORBIDDEN_FUNCTION, "DELETE FROM orders WHERE id = benchmark(100000000, md5('x'))", MY)
                .add(FORBIDDEN_FUNCTION, "UPDATE orders SET note = load_extension('/tmp/evil.so') WHERE id = 1", SL)
                .add(READ, "SELECT replace(note, 'a', 'b') FROM orders")
                .add(READ, "SELECT insert(note, 1, 2, 'x') FROM orders", MY)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("r3")
    void R3_readsThatWriteAreRefused(Case c) {
        check(c);
    }

    // ---- bypasses seen in the wild (shared/research/agent-db-anchors.md section 4) ----

    static Stream<Case> bypasses() {
        return Cases.of()
                .add(MULTIPLE_STATEMENTS, "COMMIT; DROP SCHEMA public CASCADE;")
                .add(MULTIPLE_STATEMENTS, "COMMIT; UPDATE orders SET note = 'x'; SELECT 1")
                .add(FORBIDDEN, "/* harmless */ SET TRANSACTION READ WRITE")
                .add(FORBIDDEN, "-- note\nSET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")
                .add(FORBIDDEN, "EXEC('DELETE FROM orders WHERE 1=1')")
                .add(NO_WHERE, "-- comment first\nDELETE FROM orders")
                .add(NO_WHERE, "/* comment first */ DELETE FROM orders")
                .add(MIXED, "SELECT * INTO/**/OUTFILE '/tmp/x' FROM orders", MY)
                .add(FORBIDDEN, "LOAD/**/DATA INFILE '/etc/passwd' INTO TABLE orders")
                .add(MIXED, "WITH ins AS (INSERT INTO orders (id) VALUES (1) RETURNING 1) SELECT 1", PG)
                .add(SYSTEM_CATALOG, "SELECT pg_sleep(10)", PG)
                .add(SYSTEM_CATALOG, "SELECT pg_import_system_collations('pg_catalog')", PG)
                .add(SYSTEM_CATALOG, "SELECT lo_export(pg_read_binary_file('/x'), '/tmp/y')", PG)
                .add(FORBIDDEN, "COPY (SELECT 1) TO PROGRAM 'id'", PG)
                .add(READ, "SELECT id FROM orders -- ; COMMIT")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bypasses")
    void S7_bypassesSeenInTheWildAreRefused(Case c) {
        check(c);
    }

    // ---- parsing ----

    static Stream<Case> parsing() {
        return Cases.of()
                .add(PARSE, "SELECT FROM WHERE")
                .add(PARSE, "UPDATE orders SET WHERE id = 1")
                .add(PARSE, "SELECT id FROM orders WHERE (id = 1")
                .add(PARSE_DISAGREEMENT, "SELECT 4 // 2 FROM orders")
                .add(TOO_COMPLEX, "SELECT " + "(".repeat(40) + "1" + ")".repeat(40) + " FROM orders")
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsing")
    void S2_whatTheParserCannotReadOrReadsDifferentlyIsRefused(Case c) {
        check(c);
    }

    // ---- S10: ordinary syntax JSqlParser cannot follow is read as the lexer reads it ----

    static Stream<Case> s10() {
        return Cases.of()
                .add(UPDATE, "UPDATE t SET a = 2 WHERE id = 1;;  ")
                .add(UPDATE, "UPDATE t SET a = 5--3 WHERE id = 1", MY)
                .add(UPDATE, "UPDATE t SET a = v MOD 7 WHERE id MOD 2 = 0", MY)
                .add(UPDATE, "UPDATE t SET a = 'it''s \\'x\\'' WHERE id = 1", MY)
                .add(UPDATE, "UPDATE t SET a = \"it's \\\"x\\\"\" WHERE id = 1", MY)
                .add(UPDATE, "UPDATE t SET a = E'it\\'s' WHERE id = 1", PG, PG_NON_STANDARD)
                .add(UPDATE, "UPDATE t SET a = U&'\\00e9' WHERE id = 1", PG, PG_NON_STANDARD)
                .add(UPDATE, "UPDATE t SET a = U&'!00e9' UESCAPE '!' WHERE U&\"i\\0064\" = 1", PG)
                .add(READ, "SELECT U&\"!0061\"  uescape  '!' FROM t", PG)
                .add(UPDATE, "UPDATE t SET a = 1 WHERE x IS 5", SL)
                .add(UPDATE, "UPDATE t SET a = 1 WHERE x IS NOT 'a'", SL)
                .add(UPDATE, "UPDATE t SET a = 1 WHERE x IS ?", SL)
                .add(UPDATE, "UPDATE t SET a = 1 WHERE w GLOB 'y*'", SL)
                .add(UPDATE, "UPDATE t SET a = 'x\\' WHERE id = 1", SL, PG, MY_ANSI)
                .add(UPDATE, "UPDATE t SET a = 'y\\''' WHERE id = 1", SL, PG, MY_ANSI)
                .add(UPDATE, "UPDATE t SET a = - -3 WHERE id = - -1")
                // The rewriting moves no boundary: what the lexer reads as one literal stays one.
                .add(NO_WHERE, "UPDATE t SET a = U&'\\0027 WHERE id = 1 --'", PG)
                .add(NO_WHERE, "UPDATE t SET a = U&'!0027 WHERE id = 1 --' UESCAPE '!'", PG)
                .add(NO_WHERE, "UPDATE t SET a = 'it''s \\' WHERE id = 1 -- '", MY)
                .add(NO_WHERE, "UPDATE t SET a = E'it''s \\' WHERE id = 1 -- '", PG, PG_NON_STANDARD)
                .add(NO_WHERE, "UPDATE t SET a = \"it''s \\\" WHERE id = 1 -- \"", MY)
                .add(NO_WHERE, "UPDATE t SET a = 5--3 -- WHERE id = 1", MY)
                .add(NO_WHERE, "UPDATE t SET a = 'x\\''' -- ' WHERE id = 1", SL)
                .add(UPDATE, "UPDATE t SET a = 'x\\''' WHERE id = 1 -- ' WHERE id = 2", SL)
                // A U& literal means what it decodes to, for every check made on names and literals.
                .add(LEX, "SELECT U&'!00e9' /* c */ UESCAPE '!'", PG)
                .add(LEX, "SELECT U&'\\0000'", PG)
                .add(LEX, "SELECT U&'\\D83D'", PG)
                .add(LEX, "SELECT U&'\\zz'", PG)
                .add(LEX, "SELECT U&'x' UESCAPE '+'", PG)
                .add(LEX, "SELECT U&'x' UESCAPE", PG)
                .add(ENGINE_TABLE, "SELECT * FROM U&\"llm\\0073afe_plans\"", PG)
                .add(SYSTEM_CATALOG, "SELECT * FROM U&\"pg_\\0063atalog\".pg_user", PG)
                .add(SYSTEM_CATALOG, "SELECT * FROM U&\"!0070g_roles\" UESCAPE '!'", PG)
                .add(VOLATILE, "UPDATE t SET ts = U&'n\\006fw' WHERE id = 1", PG)
                .add(VOLATILE, "UPDATE t SET ts = U&'t!006fday' UESCAPE '!' WHERE id = 1", PG)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("s10")
    void S10_ordinarySyntaxIsReadAsTheLexerReadsItAndNoBoundaryMoves(Case c) {
        check(c);
    }

    // ---- legitimate statements: a false refusal is a defect ----

    static Stream<Case> legitimate() {
        return Cases.of()
                .add(UPDATE, "UPDATE orders SET status = 'shipped' WHERE id = 42")
                .add(UPDATE, "update orders set status = ? where id = ?")
                .add(UPDATE, "UPDATE orders SET note = 'please call me', qty = qty + 1 WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'has -- dashes' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'has /* stars */' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = 'it''s' WHERE id = 1")
                .add(UPDATE, "UPDATE orders SET note = NULL WHERE id = 1 AND note IS NOT NULL")
                .add(UPDATE, "UPDATE public.orders SET status = 'x' WHERE id = 1", PG)
                .add(UPDATE, "UPDATE shop.orders SET status = 'x' WHERE id = 1", MY)
                .add(UPDATE, "UPDATE orders SET status = 'x' WHERE id = 1 RETURNING id, status", PG, SL)
                .add(UPDATE, "UPDATE members SET quota = quota + 10, profile = '{\"role\":\"admin\"}' WHERE id = 7")
                .add(UPDATE, "UPDATE orders SET qty = CASE WHEN qty > 10 THEN 10 ELSE qty END WHERE id BETWEEN 1 AND 5")
                .add(UPDATE, "UPDATE orders SET total = price * 1.1 WHERE status IN ('open', 'packed')")
                .add(DELETE, "DELETE FROM orders WHERE id = 42")
                .add(DELETE, "DELETE FROM orders WHERE id = ? AND status = ?")
                .add(DELETE, "DELETE FROM orders WHERE status = 'cancelled' AND id NOT IN (SELECT order_id FROM items)")
                .add(READ, "SELECT * FROM orders")
                .add(READ, "SELECT id, status FROM orders WHERE status = ? ORDER BY id LIMIT 10")
                .add(READ, "SELECT o.id, i.sku FROM orders o JOIN items i ON i.order_id = o.id")
                .add(READ, "SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) > 1")
                .add(READ, "SELECT id, row_number() OVER (PARTITION BY status ORDER BY id) FROM orders")
                .add(READ, "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) FROM orders", PG)
                .add(READ, "WITH recent AS (SELECT * FROM orders WHERE id > 10) SELECT count(*) FROM recent")
                .add(READ, "SELECT * FROM orders WHERE id IN (SELECT order_id FROM items WHERE qty > 2)")
                .add(READ, "SELECT id FROM orders UNION SELECT order_id FROM items")
                .add(READ, "(SELECT id FROM orders)")
                .add(READ, "SELECT id FROM orders;")
                .add(READ, "SELECT * FROM public.orders", PG)
                .add(READ, "SELECT note FROM orders WHERE note = 'call me -- maybe'")
                .add(READ, "SELECT id FROM orders WHERE note ILIKE '%update%'", PG)
                .add(READ, "SELECT profile->>'role' FROM members WHERE profile @> '{\"role\":\"admin\"}'", PG)
                .add(READ, "SELECT coalesce(note, '') || '!' FROM orders", PG, SL)
                .add(READ, "SELECT concat(note, '!') FROM orders", MY, PG)
                .add(READ, "SELECT id FROM orders WHERE created > '2024-01-01'")
                .add(READ, "SELECT CAST(qty AS DECIMAL(10,2)) FROM orders")
                .add(READ, "SELECT \"Order Id\" FROM \"Orders\"", PG, SL)
                .add(READ, "SELECT `Order Id` FROM `Orders`", MY)
                .stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legitimate")
    void S5_legitimateStatementsPass(Case c) {
        check(c);
    }
}
