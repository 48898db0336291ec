package dev.llmsafe;

/**
 * Why llmsafe refused something. One code per reason; {@link RefusedException} carries it. The codes
 * are public: tools and people match on them, so a code is never renamed. The rule ids (S1, W4, ...)
 * refer to SPEC.md.
 */
public enum Refusal {
    // S: accepting a statement
    /** S1: empty input, or nothing left after comments. */
    EMPTY("42601"),
    /** S1: longer than the configured maximum. */
    TOO_LONG("54000"),
    /** S9: nested or chained deeper than the analysis can follow (parentheses, CASE, operators). */
    TOO_COMPLEX("54001"),
    /** S2: the text cannot be read (an unterminated string, comment, quoted identifier or dollar quote). */
    LEX("42601"),
    /** S3: more than one statement. */
    MULTIPLE_STATEMENTS("42601"),
    /** S5: INSERT, REPLACE, MERGE and upserts have no before-image to show. */
    UNSUPPORTED_INSERT("42501"),
    /** S5: anything that is neither a plain read nor an UPDATE or DELETE. */
    UNSUPPORTED_STATEMENT("42501"),
    /** S6: MySQL executable comments and optimizer hints. */
    FORBIDDEN_DIALECT("42501"),
    /** S7: transaction control and session state in SQL text. */
    FORBIDDEN("42501"),
    /** The parser cannot read the statement. */
    PARSE("42601"),
    /** The lexer and the parser read the statement differently, so neither reading can be trusted. */
    PARSE_DISAGREEMENT("42601"),

    // W: the shape of a write
    /** W1: more than one table in a write. */
    MULTI_TABLE("42501"),
    /** W2: ORDER BY or LIMIT on a write. */
    ORDER_OR_LIMIT("42501"),
    /** W3: a write without WHERE. */
    NO_WHERE("42501"),
    /** W4, R1: a table the policy does not allow. */
    TABLE_NOT_ALLOWED("42501"),
    /** W5: the library's own plan and audit tables. */
    ENGINE_TABLE("42501"),
    /** W6: a table without a primary key. */
    NO_PRIMARY_KEY("42501"),
    /** W7: a SET column that does not exist or may not be written. */
    DENIED_WRITE_COLUMN("42501"),
    /** W8: an aliased target table. */
    ALIASED_TARGET("42501"),
    /** W10: a function whose value at apply time would not be the value shown. */
    VOLATILE("42501"),
    /** W11: a table with no declared business consequence. */
    IMPACT_UNDECLARED("42501"),
    /** W12: schema changes. */
    DDL("42501"),
    /** W13: the statement sets a column the database maintains itself (a trigger, ON UPDATE). */
    MAINTAINED_COLUMN("42501"),

    // R: reads
    /** R1: system catalogs. */
    SYSTEM_CATALOG("42501"),
    /** R2: a secret identifier, by reference or by result column. */
    DENIED_IDENTIFIER("42501"),
    /** R3: a read that writes or locks. */
    MIXED("25006"),
    /**
     * R7: a function, cast or operator that is not on the read allowlist (it may reach files, the
     * network, other sessions, the catalog or run queries given as text).
     */
    FORBIDDEN_FUNCTION("42501"),
    /**
     * The database refused the read connection's credential a table the policy allows: a grant is
     * missing (samples/roles); {@code llmsafe check} names the tables.
     */
    NOT_GRANTED("42501"),
    /** R8: the read-only session of the model's connection was found changed before a read; it was set again. */
    READ_SESSION_CHANGED("25006"),
    /** R5: a read whose estimated cost is above the bound. */
    COST_TOO_HIGH("54000"),
    /** R12: a value larger than the bytes a read may return, or a result the driver refused to buffer. */
    TOO_LARGE("54000"),
    /** R11: the model's connection held a transaction or a result set longer than the bound; llmsafe ended it. */
    HOLD_EXPIRED("25L02"),
    /** R13: a tool result larger than the bound on one result's bytes, with no row to cut. */
    RESULT_TOO_LARGE("54000"),

    // J: the JDBC surface
    /**
     * J1, J3, J4, J6: a JDBC method that could write around the guard, leave the read-only session or
     * hand out the vendor driver's own objects.
     */
    FORBIDDEN_JDBC("42501"),
    /** J11: a primary key value that cannot be bound back into a query exactly (a long binary key). */
    KEY_NOT_BINDABLE("42501"),
    /** J11, D13: a value the database holds that cannot be read exactly in this session. */
    UNREADABLE_VALUE("22000"),
    /** J11: an argument of a public entry point is missing or malformed (a blank actor, no plan id). */
    INVALID_ARGUMENT("22023"),
    /** J11: llmsafe itself failed unexpectedly; nothing was changed or committed. A defect: report it. */
    INTERNAL_ERROR("XX000"),

    // W4, W6, W7, W11 need the catalog; D: the dry run
    /** W7 as well: the statement would change a primary key column, which the plan tracks rows by. */
    KEY_CHANGE("42501"),
    /** D1, D3: more matching rows than the ceiling. */
    TOO_MANY_ROWS("54000"),
    /** D2: no row matches. */
    NO_ROWS("02000"),
    /** D4: the dry run was asked to run inside a transaction it does not own. */
    NESTING_REFUSED("25001"),
    /**
     * D4, J8: the connection the dry run plans on cannot write (a read-only SQLite handle, a read-only
     * session or server), and a dry run runs the statement for real.
     */
    PLANNING_READ_ONLY("25006"),
    /** D5: the rows matched do not have distinct keys. */
    KEY_NOT_UNIQUE("42501"),
    /** D6: a row the dry run needs is locked by another session for longer than the lock bound. */
    LOCK_TIMEOUT("55P03"),
    /** D6: the statement ran longer than the statement bound. */
    STATEMENT_TIMEOUT("57014"),
    /** D7: after ROLLBACK the rows are not what they were before. */
    ROLLBACK_FAILED("XX000"),
    /** D7: the rows changed while the dry run ran (another session committed); nothing to approve yet. */
    CONCURRENT_CHANGE("40001"),
    /** D8, D15: a column the database changes by itself (a trigger) cannot be known. */
    AUTO_COLUMNS_UNKNOWN("42501"),
    /** D9: the database's count of affected rows is not the number of rows shown. */
    ROW_COUNT_MISMATCH("21000"),
    /** D10: no value would change. */
    NO_CHANGE("02000"),
    /** D14: the statement writes more than the rows shown (a trigger, a cascade, a rule). */
    SIDE_EFFECTS("42501"),
    /** D14: what the statement writes besides the rows shown cannot be measured, or told apart from them. */
    SIDE_EFFECTS_UNKNOWN("42501"),
    /** D15: a table whose writes a ROLLBACK cannot undo. */
    NOT_TRANSACTIONAL("42501"),
    /** D15: a foreign key that would cascade the write into another table. */
    CASCADE_SIDE_EFFECTS("42501"),
    /** D15: foreign keys or triggers that the credential cannot see. */
    CASCADES_UNKNOWN("42501"),
    /**
     * D16: a parameter whose binding cannot be kept and sent again exactly (a stream, a LOB, an array,
     * a value of an unknown class), or cannot be sent again here (another JVM time zone).
     */
    PARAMETER_NOT_REPLAYABLE("42501"),
    /**
     * D17: a session setting that changes what the statement means (a time zone, an SQL mode, a search
     * path) cannot be made the application's on the dry-run or apply connection.
     */
    SESSION_NOT_REPRODUCIBLE("42501"),

    // A: approving and applying; T: the store
    /** A1: the proposer may not approve or apply its own plan unless self-approval is allowed. */
    SELF_APPROVAL("42501"),
    /** A1: the plan is not approved yet, so it cannot be applied. */
    NOT_APPROVED("55000"),
    /** A3: the rows the condition matches are no longer the rows the card showed. */
    ROWS_MOVED("40001"),
    /** A4: a value the plan depends on changed since the dry run. */
    ROW_CHANGED("40001"),
    /** A5, A6: what the statement did at apply is not what the card showed; everything was rolled back. */
    RESULT_MISMATCH("40001"),
    /** A7: the "attempting" audit record could not be written, so nothing was applied. */
    AUDIT_FAILED("58000"),
    /** A1: the plan was approved already. */
    ALREADY_APPROVED("55000"),
    /** A8: the plan is being applied or was applied already. */
    ALREADY_APPLIED("55000"),
    /** A11: the plan failed, was rejected or expired; only a new plan can go on. */
    PLAN_CLOSED("55000"),
    /** A11: the plan is older than the configured age. */
    PLAN_EXPIRED("55000"),
    /** T1: no plan with this id. */
    PLAN_NOT_FOUND("02000"),
    /** T1: the plan store does not exist, or is older than this version; run migrate. */
    STORE_MISSING("55000"),
    /** T2: a seal key is set on one side only. */
    PLAN_UNSEALED("42501"),
    /** T2: the stored plan or its approval was changed after it was written. */
    PLAN_TAMPERED("42501");

    private final String sqlState;

    Refusal(String sqlState) {
        this.sqlState = sqlState;
    }

    /**
     * The SQLState a {@link RefusedException} with this code carries. None is in class 08 or another
     * class that connection pools treat as a dead connection: a refusal never costs a connection.
     */
    public String sqlState() {
        return sqlState;
    }
}
