package dev.llmsafe.sql;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The word lists the analysis judges by. Every list is matched against tokens (S4), never against raw
 * text, and in lower case.
 */
final class Words {

    private Words() {
    }

    /** S7: transaction control, session state and procedural statements. */
    static final Set<String> FORBIDDEN_FIRST = Set.of(
            "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release", "set", "reset",
            "discard", "pragma", "attach", "detach", "use", "lock", "unlock", "grant", "revoke", "copy", "load",
            "call", "do", "execute", "exec", "prepare", "deallocate", "handler", "listen", "notify", "unlisten",
            "checkpoint", "kill", "flush", "shutdown", "purge", "install", "uninstall", "security", "xa",
            "change", "signal", "resignal", "declare", "fetch", "close", "move", "open", "import");

    /** W12: schema changes and maintenance that changes storage. */
    static final Set<String> DDL_FIRST = Set.of(
            "create", "alter", "drop", "truncate", "rename", "comment", "reindex", "cluster", "vacuum",
            "analyze", "optimize", "repair", "refresh");

    /** S5: statements that add rows. */
    static final Set<String> INSERT_FIRST = Set.of("insert", "replace", "merge", "upsert");

    /** Words that write when they appear inside a statement (a data-modifying CTE or subquery). */
    static final Set<String> WRITING_WORDS = Set.of("insert", "update", "delete", "merge", "upsert", "replace");

    /**
     * W10: functions whose value when the plan is applied would not be the value the card showed:
     * clocks, random numbers, sequences, session and connection state.
     */
    static final Set<String> VOLATILE_FUNCTIONS = Set.of(
            "now", "current_timestamp", "current_date", "current_time", "localtime", "localtimestamp",
            "clock_timestamp", "statement_timestamp", "transaction_timestamp", "timeofday", "sysdate",
            "utc_timestamp", "utc_date", "utc_time", "curdate", "curtime",
            "random", "rand", "random_bytes", "setseed", "uuid", "uuid_short", "gen_random_uuid",
            "uuid_generate_v1", "uuid_generate_v1mc", "uuid_generate_v4", "uuidv4", "uuidv7", "sys_guid",
            "randomblob", "nextval", "setval", "currval", "lastval", "last_insert_id", "last_insert_rowid",
            "changes", "total_changes", "row_count", "found_rows", "connection_id", "pg_backend_pid",
            "current_user", "session_user", "user", "system_user", "current_role", "txid_current",
            "pg_current_xact_id", "inet_client_addr", "inet_client_port", "get_lock", "release_lock",
            "sleep", "pg_sleep", "benchmark");

    /**
     * W10: functions that read the clock when called with at most this many arguments, and convert a
     * value they are given otherwise. MySQL's UNIX_TIMESTAMP() is now, UNIX_TIMESTAMP(ts) a conversion
     * in the session's time zone; SQLite's date and time functions take 'now' when the time value is
     * left out (date(), strftime('%s'); measured on SQLite 3.40 and sqlite-jdbc 3.54). RAND(seed) is not
     * one of them: it gives each row the next number of a sequence, in the order the server visits rows.
     */
    static final Map<String, Integer> CLOCK_WITHOUT_VALUE = Map.of("unix_timestamp", 0, "unixepoch", 0,
            "date", 0, "time", 0, "datetime", 0, "julianday", 0, "strftime", 1);

    /** W10: SQL keywords that read the clock without parentheses. */
    static final Set<String> VOLATILE_WORDS = Set.of(
            "current_timestamp", "current_date", "current_time", "localtime", "localtimestamp",
            "current_user", "session_user", "current_role", "utc_timestamp", "utc_date", "utc_time");

    /** W10: PostgreSQL's further parameterless keywords that depend on the session. */
    static final Set<String> POSTGRES_VOLATILE_WORDS = Set.of("user", "system_user", "current_schema",
            "current_catalog");

    /**
     * W10: the contents of string literals that PostgreSQL and SQLite turn into the current time when
     * cast to a date or passed to a date function. PostgreSQL ignores case and surrounding spaces in
     * them ({@code ' NoW '} is now), and SQLite reads a double-quoted word that names no column as a
     * string ({@code datetime("now")}), so both are compared by {@link #literalWord}.
     */
    static final Set<String> VOLATILE_LITERALS = Set.of("now", "today", "tomorrow", "yesterday");

    /**
     * The contents of a string literal or quoted identifier, without its prefix ({@code E}, {@code N},
     * {@code _utf8mb4}), its quotes or dollar tags and surrounding spaces, in lower case.
     */
    static String literalWord(String token) {
        if (UnicodeEscapes.isUnicode(token)) {
            // U&'\006eow' is 'now'; the lexer reads no U& token that does not decode.
            return UnicodeEscapes.value(token).strip().toLowerCase(Locale.ROOT);
        }
        int open = 0;
        while (open < token.length() && "'\"`[$".indexOf(token.charAt(open)) < 0) {
            open++;
        }
        if (open == token.length()) {
            return "";
        }
        String body = token.substring(open);
        if (body.charAt(0) == '$') {
            int tag = body.indexOf('$', 1);
            body = tag < 0 || body.length() < 2 * (tag + 1) ? "" : body.substring(tag + 1, body.length() - tag - 1);
        } else if (body.length() >= 2) {
            body = body.substring(1, body.length() - 1);
        }
        return body.strip().toLowerCase(Locale.ROOT);
    }

    /** R3: functions that write or take locks, refused in reads. */
    static final Set<String> WRITING_FUNCTIONS = Set.of(
            "nextval", "setval", "lo_import", "lo_export", "lo_unlink", "lo_create", "lo_creat",
            "lo_from_bytea", "lo_put", "lo_truncate", "set_config", "setseed", "txid_current",
            "pg_current_xact_id", "get_lock", "release_lock", "release_all_locks", "last_insert_id");

    /**
     * Functions that reach files, the network, other sessions or run a query given as text, refused in
     * writes. Reads are judged by an allowlist instead ({@link ReadFunctions}, R7). (Names beginning with
     * pg_ are refused as system objects anyway.)
     */
    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
            "dblink", "dblink_exec", "dblink_connect", "dblink_send_query", "dblink_open", "dblink_fetch",
            "query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema", "cursor_to_xml",
            "cursor_to_xmlschema", "table_to_xml", "table_to_xml_and_xmlschema", "table_to_xmlschema",
            "schema_to_xml", "schema_to_xml_and_xmlschema", "schema_to_xmlschema", "database_to_xml",
            "database_to_xml_and_xmlschema", "database_to_xmlschema", "load_file", "load_extension",
            "sys_exec", "sys_eval", "sleep", "benchmark", "master_pos_wait", "source_pos_wait",
            "wait_for_executed_gtid_set", "readfile", "writefile", "edit", "fts3_tokenizer", "sqlite_compileoption_get",
            "get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock");

    /** Words that are followed by a parenthesis without being a function call. */
    static final Set<String> NOT_FUNCTIONS = Set.of(
            "in", "exists", "any", "all", "some", "values", "cast", "convert", "extract", "position",
            "substring", "trim", "overlay", "over", "filter", "within", "using", "on", "as", "and", "or", "not",
            "array", "row", "where", "select", "from", "join", "set", "returning", "when", "then", "else", "key",
            "references", "check", "primary", "unique", "default", "lateral", "table", "into", "by", "with",
            "is", "like", "ilike", "between", "case", "distinct", "union", "intersect", "except", "recursive",
            "decimal", "numeric", "varchar", "char", "character", "varying", "timestamp", "time", "float",
            "double", "precision", "interval", "bit", "int", "integer", "bigint", "smallint", "tinyint",
            "mediumint", "binary", "varbinary", "datetime", "date", "year", "enum", "signed", "unsigned",
            "nchar", "nvarchar", "limit", "offset", "group", "order", "having", "window", "partition", "range",
            "rows", "groups", "tablesample", "only", "escape", "to", "of", "for", "zone", "at", "collate",
            "similar", "do", "update", "delete", "insert", "if", "elseif",
            // Reserved words of OVERLAY and TRIM's forms, never a function's name without quotes.
            "placing", "leading", "trailing", "both");

    /** R1: schemas of the system catalogs, refused wherever they qualify a name. */
    static final Set<String> SYSTEM_SCHEMAS = Set.of(
            "pg_catalog", "information_schema", "pg_toast", "mysql", "performance_schema", "sys",
            "sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema", "temp");

    /** W5: the prefix of the library's own tables. */
    static final String ENGINE_TABLE_PREFIX = "llmsafe_";
}
