package dev.llmsafe.sql;

import java.util.HashSet;
import java.util.Set;

/**
 * R7: per dialect, the built-in functions a read may call, the types it may cast to and (PostgreSQL)
 * the operators it may use: those that compute their value from their arguments alone (arithmetic,
 * text, date and time, JSON, arrays, aggregates, window functions, conditional expressions, and table
 * functions that only compute, such as generate_series, json_each or unnest). An allowlist: a function
 * that is not here is refused, whatever it does, so a function added by a new server version, an
 * extension or an application is refused until the policy names it ({@code policy.read.allowFunctions}).
 *
 * <p>Left out on purpose, because they reach past their arguments: functions that run SQL given as text
 * (ts_stat, ts_rewrite, query_to_xml, ...), read or change the session or the server (current_setting,
 * set_config, version, current_database, setseed, connection_id, ...), sequences (nextval, setval, ...),
 * large objects (lo_*, lowrite), files (pg_read_file, load_file, readfile), locks and sleeps
 * (pg_advisory_lock, get_lock, sleep, benchmark), the catalog (to_regclass, obj_description,
 * format_type, has_*_privilege, SQLite's pragma_* and sqlite_*), and MariaDB's PROCEDURE ANALYSE().
 * Names beginning with pg_ or sqlite_ are refused earlier, as the system catalog (R1).
 */
final class BuiltInFunctions {

    private BuiltInFunctions() {
    }

    /** Aggregates, window functions and conditional expressions every dialect has. */
    private static final String COMMON = """
            abs avg coalesce count max min nullif sum round lower upper length replace trim ltrim rtrim substr
            row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
            grouping sets rollup cube exp floor ceil ceiling ln log log10 mod power pow sqrt sign pi degrees
            radians sin cos tan asin acos atan atan2 cot
            """;

    private static final String POSTGRESQL = """
            cbrt div factorial gcd lcm min_scale scale trim_scale trunc width_bucket acosd asind atand atan2d
            cosd cotd sind tand sinh cosh tanh asinh acosh atanh random random_normal
            ascii bit_length btrim char_length character_length chr concat concat_ws format initcap left lpad
            md5 normalize octet_length parse_ident quote_ident quote_literal quote_nullable regexp_count
            regexp_instr regexp_like regexp_match regexp_matches regexp_replace regexp_split_to_array
            regexp_split_to_table regexp_substr repeat reverse right rpad split_part starts_with
            string_to_array string_to_table strpos substring to_ascii to_hex translate unistr encode decode
            convert convert_from convert_to get_bit get_byte set_bit set_byte sha224 sha256 sha384 sha512
            bit_count to_char to_date to_number to_timestamp
            age date_bin date_part date_trunc isfinite justify_days justify_hours justify_interval make_date
            make_interval make_time make_timestamp make_timestamptz now clock_timestamp statement_timestamp
            transaction_timestamp timeofday timezone date_add date_subtract current_time current_timestamp
            localtime localtimestamp
            greatest least num_nulls num_nonnulls
            array_agg string_agg bool_and bool_or every bit_and bit_or bit_xor json_agg jsonb_agg
            json_object_agg jsonb_object_agg stddev stddev_pop stddev_samp variance var_pop var_samp corr
            covar_pop covar_samp regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx
            regr_sxy regr_syy mode percentile_cont percentile_disc xmlagg range_agg range_intersect_agg
            any_value
            to_json to_jsonb array_to_json row_to_json json_build_array jsonb_build_array json_build_object
            jsonb_build_object json_object jsonb_object json_array_length jsonb_array_length json_each
            jsonb_each json_each_text jsonb_each_text json_extract_path jsonb_extract_path
            json_extract_path_text jsonb_extract_path_text json_object_keys jsonb_object_keys
            json_populate_record jsonb_populate_record json_populate_recordset jsonb_populate_recordset
            json_to_record jsonb_to_record json_to_recordset jsonb_to_recordset json_array_elements
            jsonb_array_elements json_array_elements_text jsonb_array_elements_text json_typeof jsonb_typeof
            json_strip_nulls jsonb_strip_nulls jsonb_set jsonb_set_lax jsonb_insert jsonb_pretty
            jsonb_path_exists jsonb_path_match jsonb_path_query jsonb_path_query_array jsonb_path_query_first
            jsonb_path_exists_tz jsonb_path_match_tz jsonb_path_query_tz jsonb_path_query_array_tz
            jsonb_path_query_first_tz
            array_append array_cat array_dims array_fill array_length array_lower array_ndims array_position
            array_positions array_prepend array_remove array_replace array_to_string array_upper cardinality
            trim_array unnest generate_series generate_subscripts
            isempty lower_inc upper_inc lower_inf upper_inf range_merge int4range int8range numrange tsrange
            tstzrange daterange int4multirange int8multirange nummultirange tsmultirange tstzmultirange
            datemultirange multirange
            to_tsvector to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery ts_rank ts_rank_cd
            ts_headline setweight strip tsvector_to_array array_to_tsvector numnode querytree
            gen_random_uuid
            host hostmask masklen netmask network broadcast family abbrev set_masklen inet_same_family
            inet_merge
            text int2 int4 int8 float4 float8 bool
            xmlelement xmlforest xmlconcat xmlparse xmlserialize xmlroot xmlpi xmlcomment xpath xpath_exists
            xml_is_well_formed xml_is_well_formed_document xml_is_well_formed_content xmlexists xmltable
            json_array json_arrayagg json_objectagg json_scalar json_serialize json
            area center diameter height width radius point box circle line lseg path polygon npoints
            isclosed isopen pclose popen bound_box
            """;

    private static final String MYSQL = """
            conv crc32 log2 rand truncate
            ascii bin bit_length char char_length character_length chr concat concat_ws elt export_set field
            find_in_set format from_base64 hex insert instr lcase left locate lpad make_set mid
            natural_sort_key oct octet_length ord position quote regexp_instr regexp_like regexp_replace
            regexp_substr repeat reverse right rpad soundex space strcmp substring substring_index to_base64
            to_char ucase unhex weight_string sformat lengthb match against
            md5 sha sha1 sha2 aes_encrypt aes_decrypt compress uncompress uncompressed_length random_bytes
            adddate addtime convert_tz curdate current_date current_time current_timestamp curtime date
            date_add date_format date_sub datediff day dayname dayofmonth dayofweek dayofyear extract
            from_days from_unixtime get_format hour last_day localtime localtimestamp makedate maketime
            microsecond minute month monthname now period_add period_diff quarter sec_to_time second
            str_to_date subdate subtime sysdate time time_format time_to_sec timediff timestamp timestampadd
            timestampdiff to_days to_seconds unix_timestamp utc_date utc_time utc_timestamp week weekday
            weekofyear year yearweek
            if ifnull isnull interval nvl nvl2 greatest least
            bit_and bit_or bit_xor group_concat json_arrayagg json_objectagg std stddev stddev_pop stddev_samp
            var_pop var_samp variance median percentile_cont percentile_disc
            json_array json_array_append json_array_insert json_contains json_contains_path json_depth
            json_extract json_insert json_keys json_length json_merge json_merge_patch json_merge_preserve
            json_object json_overlaps json_pretty json_quote json_remove json_replace json_search json_set
            json_type json_unquote json_valid json_value json_query json_exists json_compact json_detailed
            json_loose json_normalize json_equals json_table json_array_intersect json_object_filter_keys
            json_object_to_array json_key_value columns
            uuid inet_aton inet_ntoa inet6_aton inet6_ntoa is_ipv4 is_ipv6 is_ipv4_compat is_ipv4_mapped
            bit_count charset collation coercibility current_user
            column_create column_get column_json column_list column_exists column_check column_add
            column_delete
            point st_astext st_aswkt st_geomfromtext st_x st_y st_distance st_distance_sphere st_contains
            st_within st_intersects st_buffer st_area st_length st_srid
            """;

    private static final String SQLITE = """
            char concat concat_ws format glob hex ifnull iif instr like likelihood likely octet_length printf
            quote random randomblob soundex substring typeof subtype unhex unicode unlikely zeroblob
            date time datetime julianday unixepoch strftime timediff
            group_concat string_agg total json_group_array json_group_object jsonb_group_array
            jsonb_group_object
            acosh asinh atanh cosh sinh tanh log2 trunc
            json jsonb json_array jsonb_array json_array_length json_error_position json_extract
            jsonb_extract json_insert jsonb_insert json_object jsonb_object json_patch jsonb_patch json_pretty
            json_remove jsonb_remove json_replace jsonb_replace json_set jsonb_set json_type json_valid
            json_quote json_each json_tree jsonb_each jsonb_tree
            generate_series highlight snippet bm25 offsets matchinfo
            """;

    /**
     * PostgreSQL's built-in scalar types a read may cast to, as the first word of the type's name
     * ({@code double precision}, {@code character varying}, {@code timestamp with time zone}). Not
     * here: a table's row type, which tells whether the table exists and what its columns are; the
     * reg* and oid alias types, which read the catalog; any type an application or extension defined.
     */
    private static final String POSTGRESQL_TYPES = """
            smallint integer int bigint int2 int4 int8 numeric decimal real double float float4 float8
            money text varchar char character bpchar boolean bool date time timestamp timestamptz timetz
            interval json jsonb uuid bytea inet cidr macaddr macaddr8 bit varbit tsvector tsquery xml point
            line lseg box path polygon circle int4range int8range numrange tsrange tstzrange daterange
            int4multirange int8multirange nummultirange tsmultirange tstzmultirange datemultirange
            serial bigserial smallserial name
            """;

    /**
     * PostgreSQL's built-in operators, as its lexer reads them. An operator of these names that an
     * application or extension also defined (for its own argument types) is refused by the catalog's
     * answer ({@code Dialect#userOperators}).
     */
    private static final String POSTGRESQL_OPERATORS = """
            + - * / % ^ |/ ||/ @ & | # ~ << >> = <> != < > <= >= || ~~ ~~* !~~ !~~* ~* !~ !~* @> <@ && -> ->>
            #> #>> ^@ ? ?| ?& @? @@ @@@ #- <-> &< &> <<| |>> &<| |&> <^ >^ ?# ?- ?-| ?|| ## -|- <<= >>=
            """;

    /**
     * PostgreSQL's allowlisted functions that take a row (an argument of type record, anyelement,
     * anycompatible or "any", or an aggregate over one), which attribute notation calls with a whole
     * row: {@code m.concat}, {@code m.json_agg} (measured on PostgreSQL 15.20: each returns every column).
     */
    static final Set<String> POSTGRESQL_ROW_FUNCTIONS = words("""
            to_json to_jsonb row_to_json quote_literal quote_nullable concat concat_ws format num_nulls
            num_nonnulls json_build_array jsonb_build_array json_build_object jsonb_build_object array_agg
            json_agg jsonb_agg count any_value min max mode json_object_agg jsonb_object_agg array_to_json
            json_populate_record jsonb_populate_record to_tsvector xmlagg string_agg
            """);

    static final Set<String> POSTGRESQL_FUNCTIONS = words(COMMON, POSTGRESQL);
    static final Set<String> MYSQL_FUNCTIONS = words(COMMON, MYSQL);
    static final Set<String> SQLITE_FUNCTIONS = words(COMMON, SQLITE);
    static final Set<String> POSTGRESQL_CAST_TYPES = words(POSTGRESQL_TYPES);
    static final Set<String> POSTGRESQL_OPERATOR_NAMES = words(POSTGRESQL_OPERATORS);

    /** The functions of a dialect. */
    static Set<String> functions(SqlDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> POSTGRESQL_FUNCTIONS;
            case MYSQL -> MYSQL_FUNCTIONS;
            case SQLITE -> SQLITE_FUNCTIONS;
        };
    }

    private static Set<String> words(String... lists) {
        Set<String> out = new HashSet<>();
        for (String list : lists) {
            for (String w : list.strip().split("\\s+")) {
                out.add(w);
            }
        }
        return Set.copyOf(out);
    }
}
