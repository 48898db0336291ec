package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.sql.Analysis.Kind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Decides what one statement is, reading it twice: once with the dialect-exact {@link Lexer}, once
 * with JSqlParser, and refusing whenever the two readings disagree (a statement whose WHERE clause
 * one reader sees and the other does not is exactly the statement that updates every row).
 *
 * <p>Judgements that concern words (forbidden statements, functions, names) are made on the lexer's
 * tokens (S4); judgements that concern structure (joins, ORDER BY, the WHERE clause) on the parser's
 * tree, cross-checked against the tokens. Thread-safe; verdicts are cached per (settings, text).
 */
public final class StatementAnalyzer {

    private final int maxLength;
    private final VerdictCache cache;

    /**
     * @param maxLength the longest statement accepted, in characters (S1)
     * @param cacheSize how many verdicts to keep
     */
    public StatementAnalyzer(int maxLength, int cacheSize) {
        this.maxLength = maxLength;
        this.cache = new VerdictCache(cacheSize);
    }

    /** An analyzer with room for 2048 cached verdicts. */
    public StatementAnalyzer(int maxLength) {
        this(maxLength, 2048);
    }

    /**
     * Analyzes one statement.
     *
     * @return the analysis of a READ, an UPDATE or a DELETE
     * @throws RefusedException for everything else, with the rule's code
     */
    public Analysis analyze(String sql, LexSettings settings) throws RefusedException {
        if (sql == null || sql.isBlank()) {
            throw new RefusedException(Refusal.EMPTY, "the statement is empty. Send one SELECT, UPDATE or DELETE.");
        }
        if (sql.length() > maxLength) {
            throw new RefusedException(Refusal.TOO_LONG, "the statement is " + sql.length() + " characters long;"
                    + " at most " + maxLength + " are accepted. Send a shorter statement.");
        }
        VerdictCache.Key key = new VerdictCache.Key(settings, sql);
        Object cached = cache.get(key);
        if (cached instanceof Analysis a) {
            return a;
        }
        if (cached instanceof VerdictCache.Refused r) {
            throw new RefusedException(r.code(), r.detail());
        }
        try {
            Analysis a;
            try {
                a = read(sql, settings);
            } catch (StackOverflowError small) {
                // S9: the caller's thread has a small stack (the bounds are set for the default one): the
                // same reading on a thread of its own with a stack that the bounds fit in.
                a = onLargeStack(sql, settings, small);
            }
            cache.put(key, a);
            return a;
        } catch (RefusedException e) {
            cache.put(key, new VerdictCache.Refused(e.code(), e.detail()));
            throw e;
        }
    }

    /** The stack of the thread an analysis moves to when the caller's overflows: far above what the bounds need. */
    private static final long LARGE_STACK = 16L << 20;

    private static Analysis read(String sql, LexSettings settings) throws RefusedException {
        Lexed lexed = Lexer.lex(sql, settings);
        Nesting.check(lexed);
        return new Reading(lexed, settings).analysis();
    }

    private static Analysis onLargeStack(String sql, LexSettings settings, StackOverflowError first)
            throws RefusedException {
        Object[] result = new Object[1];
        Thread t = new Thread(null, () -> {
            try {
                result[0] = read(sql, settings);
            } catch (RefusedException | RuntimeException | StackOverflowError e) {
                result[0] = e;
            }
        }, "llmsafe-analysis", LARGE_STACK);
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Nesting.stackExhausted(first);
        }
        if (result[0] instanceof Analysis a) {
            return a;
        }
        if (result[0] instanceof RefusedException r) {
            throw r;
        }
        if (result[0] instanceof RuntimeException e) {
            throw e;
        }
        throw Nesting.stackExhausted(result[0] instanceof StackOverflowError e ? e : first);
    }

    /** One statement being read. */
    private static final class Reading {
        private final Lexed lexed;
        private final String text;
        private final List<Token> tokens;
        private final LexSettings settings;
        private final SqlDialect dialect;
        private Parsing.Parsed parsed;

        Reading(Lexed lexed, LexSettings settings) {
            this.lexed = lexed;
            this.text = lexed.text();
            this.tokens = lexed.tokens();
            this.settings = settings;
            this.dialect = settings.dialect();
        }

        Analysis analysis() throws RefusedException {
            if (tokens.isEmpty()) {
                throw new RefusedException(Refusal.EMPTY, "the statement holds nothing but comments."
                        + " Send one SELECT, UPDATE or DELETE.");
            }
            checkOneStatement();
            Kind kind = classify();
            checkTokens(kind);
            Set<QualifiedName> functions = functions();
            checkFunctions(kind, functions);
            if (kind != Kind.READ) {
                WriteTokens.checkClockCalls(tokens);
                WriteTokens.checkWhereNotEmpty(kind, tokens);
            }
            parsed = Parsing.parse(lexed, settings);
            Parsing.checkAgreement(lexed, parsed.tokens());
            Statement statement = parsed.statement();
            return kind == Kind.READ ? read(statement, functions) : write(kind, statement, functions);
        }

        private void checkOneStatement() throws RefusedException {
            for (Token t : tokens) {
                if (t.kind() == Token.Kind.SEMICOLON) {
                    throw new RefusedException(Refusal.MULTIPLE_STATEMENTS, "the text holds more than one statement"
                            + " (a ';' at character " + (t.start() + 1) + " is followed by more). Send one"
                            + " statement at a time; trailing ';' are fine.");
                }
            }
        }

        private Kind classify() throws RefusedException {
            Token first = tokens.get(0);
            String word = first.kind() == Token.Kind.WORD ? first.text().toLowerCase(Locale.ROOT) : "";
            if (word.equals("with")) {
                checkWithIsARead();
                return Kind.READ;
            }
            if (word.equals("select") || first.kind() == Token.Kind.OPEN) {
                return Kind.READ;
            }
            if (word.equals("update") || word.equals("delete")) {
                Token second = tokens.size() > 1 ? tokens.get(1) : null;
                if (second != null && second.isWord("or")) {
                    throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "UPDATE OR ... changes what happens when"
                            + " a row conflicts (it may delete or skip rows the card would not show). Send a plain"
                            + " UPDATE.");
                }
                return word.equals("update") ? Kind.UPDATE : Kind.DELETE;
            }
            String shown = first.text().toUpperCase(Locale.ROOT);
            if (Words.INSERT_FIRST.contains(word)) {
                throw new RefusedException(Refusal.UNSUPPORTED_INSERT, shown + " adds rows, and a row that does not"
                        + " exist yet has no before-image to show. Only UPDATE and DELETE can be proposed; add rows"
                        + " through the application or a migration.");
            }
            if (Words.FORBIDDEN_FIRST.contains(word)) {
                throw new RefusedException(Refusal.FORBIDDEN, shown + " controls the transaction, the session or"
                        + " runs procedural code, and is never accepted through this connection. Send a SELECT,"
                        + " UPDATE or DELETE on its own.");
            }
            if (Words.DDL_FIRST.contains(word)) {
                throw new RefusedException(Refusal.DDL, shown + " changes the schema or its storage; schema changes"
                        + " are out of scope. Use a migration tool with its own review.");
            }
            throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "'" + first.text() + "' does not begin a"
                    + " SELECT, UPDATE or DELETE. Only plain reads and single-table UPDATE or DELETE statements are"
                    + " accepted.");
        }

        /** WITH ... UPDATE / DELETE / INSERT: the main statement is the first word outside parentheses after the CTEs. */
        private void checkWithIsARead() throws RefusedException {
            int depth = 0;
            for (Token t : tokens) {
                if (t.kind() == Token.Kind.OPEN) {
                    depth++;
                } else if (t.kind() == Token.Kind.CLOSE) {
                    depth--;
                } else if (depth == 0 && t.kind() == Token.Kind.WORD
                        && Words.WRITING_WORDS.contains(t.text().toLowerCase(Locale.ROOT))) {
                    throw withOnWrite();
                }
            }
        }

        private void checkTokens(Kind kind) throws RefusedException {
            for (int k = 0; k < tokens.size(); k++) {
                Token t = tokens.get(k);
                Token next = k + 1 < tokens.size() ? tokens.get(k + 1) : null;
                switch (t.kind()) {
                    case OTHER_PARAMETER -> throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the parameter "
                            + t.text() + " is not a JDBC parameter. Use ? placeholders and bind the values.");
                    case SYMBOL -> checkSymbol(t, next, k);
                    case STRING -> {
                        if (kind != Kind.READ && Words.VOLATILE_LITERALS.contains(Words.literalWord(t.text()))) {
                            throw volatileRefusal(t.text(), "is read as the current time when it becomes a date");
                        }
                    }
                    case QUOTED_IDENTIFIER -> {
                        if (kind != Kind.READ && t.text().startsWith("\"")
                                && Words.VOLATILE_LITERALS.contains(Words.literalWord(t.text()))) {
                            throw volatileRefusal(t.text(), "is read as the string " + Words.literalWord(t.text())
                                    + ", the current time, by SQLite when no column has that name");
                        }
                        checkName(kind, t, next, k);
                    }
                    case WORD -> checkName(kind, t, next, k);
                    default -> { }
                }
            }
        }

        private void checkSymbol(Token t, Token next, int k) throws RefusedException {
            if (t.isSymbol('{') || t.isSymbol('}')) {
                throw new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "JDBC escape syntax ({fn ...}, {call"
                        + " ...}, {d ...}) is rewritten by the driver after the statement is judged, so it is not"
                        + " accepted. Write the SQL of your database directly.");
            }
            if (t.isSymbol('@') && next != null && next.isSymbol('@') && dialect == SqlDialect.MYSQL) {
                throw new RefusedException(Refusal.SYSTEM_CATALOG, "@@variables are the server's and the session's"
                        + " settings, which a statement through this connection may not read or set (R7). Ask for"
                        + " the data with a plain SELECT.");
            }
            if (t.isSymbol('@') && dialect == SqlDialect.MYSQL) {
                throw new RefusedException(Refusal.FORBIDDEN, "@variables are session state, which a statement"
                        + " through this connection may not read or set. Use literals or ? parameters.");
            }
            if (t.isSymbol('.') && dialect == SqlDialect.POSTGRESQL && k > 0
                    && tokens.get(k - 1).kind() == Token.Kind.CLOSE && next != null
                    && (next.kind() == Token.Kind.WORD || next.kind() == Token.Kind.QUOTED_IDENTIFIER)) {
                throw new RefusedException(Refusal.FORBIDDEN_FUNCTION, "(expression)." + next.text()
                        + " is attribute notation, which PostgreSQL may run as a function call. Write the"
                        + " expression without it.");
            }
        }

        private void checkName(Kind kind, Token t, Token next, int k) throws RefusedException {
            String name = t.identifierText().toLowerCase(Locale.ROOT);
            boolean qualifier = next != null && next.isSymbol('.');
            if (name.startsWith(Words.ENGINE_TABLE_PREFIX)) {
                throw new RefusedException(Refusal.ENGINE_TABLE, t.text() + " belongs to llmsafe's own plan and"
                        + " audit store, which no statement through this connection may read or write. Use the"
                        + " llmsafe command line to see plans.");
            }
            boolean system = (qualifier && Words.SYSTEM_SCHEMAS.contains(name))
                    || (dialect == SqlDialect.POSTGRESQL && name.startsWith("pg_"))
                    || (dialect == SqlDialect.SQLITE && name.startsWith("sqlite_"))
                    || (dialect != SqlDialect.MYSQL && name.equals("information_schema"));
            if (system) {
                throw new RefusedException(Refusal.SYSTEM_CATALOG, t.text() + " is part of the database's system"
                        + " catalog, which is never readable through this connection. Ask for the schema"
                        + " context (llmsafe schema) instead.");
            }
            if (t.kind() != Token.Kind.WORD) {
                return;
            }
            boolean call = next != null && next.kind() == Token.Kind.OPEN;
            if (Words.WRITING_WORDS.contains(name) && !call && k > 0) {
                throw new RefusedException(Refusal.MIXED, "the statement contains " + t.text().toUpperCase(Locale.ROOT)
                        + " after its start: a statement that reads or writes one table may not also change"
                        + " another (a data-modifying WITH, or FOR UPDATE). Send one plain statement.");
            }
            if (kind == Kind.READ) {
                if (name.equals("into")) {
                    throw new RefusedException(Refusal.MIXED, "SELECT ... INTO writes (a new table, a file or"
                            + " variables). Send the SELECT without INTO.");
                }
                if ((name.equals("for") && next != null && (next.isWord("share") || next.isWord("no")
                        || next.isWord("key") || next.isWord("update"))) || name.equals("lock")) {
                    throw new RefusedException(Refusal.MIXED, "the read locks rows (FOR UPDATE, FOR SHARE, LOCK IN"
                            + " SHARE MODE), which a read through this connection may not do. Send it without"
                            + " the locking clause.");
                }
            } else if (!call && (Words.VOLATILE_WORDS.contains(name)
                    || (dialect == SqlDialect.POSTGRESQL && Words.POSTGRES_VOLATILE_WORDS.contains(name)))) {
                throw volatileRefusal(t.text(), "has a value that depends on when and where it runs");
            } else if (!call && (name.equals("next") || name.equals("previous")) && next != null
                    && next.isWord("value")) {
                // MariaDB's sequence syntax: NEXT VALUE FOR s advances s outside the transaction (a
                // ROLLBACK keeps the advance), and writes the sequence's row only when its cache runs
                // out, so the side-effect measure sees it only then (measured on MariaDB 10.11).
                throw volatileRefusal(t.text() + " VALUE FOR", "takes a sequence's value, which is another each time");
            } else if (name.equals("default")) {
                throw volatileRefusal("DEFAULT", "is computed when the statement runs (it may be a clock or a"
                        + " sequence)");
            }
        }

        private Set<QualifiedName> functions() throws RefusedException {
            Set<QualifiedName> out = new LinkedHashSet<>();
            for (int k = 0; k + 1 < tokens.size(); k++) {
                Token t = tokens.get(k);
                if (tokens.get(k + 1).kind() != Token.Kind.OPEN
                        || (t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED_IDENTIFIER)
                        || (t.kind() == Token.Kind.WORD && Words.NOT_FUNCTIONS.contains(t.text().toLowerCase(Locale.ROOT)))) {
                    continue;
                }
                List<Identifier> parts = new ArrayList<>();
                parts.add(identifier(t));
                int j = k;
                while (j >= 2 && tokens.get(j - 1).isSymbol('.')
                        && (tokens.get(j - 2).kind() == Token.Kind.WORD
                        || tokens.get(j - 2).kind() == Token.Kind.QUOTED_IDENTIFIER)) {
                    parts.add(0, identifier(tokens.get(j - 2)));
                    j -= 2;
                }
                out.add(new QualifiedName(parts));
            }
            return out;
        }

        private void checkFunctions(Kind kind, Set<QualifiedName> functions) throws RefusedException {
            for (QualifiedName f : functions) {
                String name = f.last().text().toLowerCase(Locale.ROOT);
                // R7: a read may call only what ReadFunctions allows, which the policy's check applies.
                if (kind != Kind.READ && Words.FORBIDDEN_FUNCTIONS.contains(name)) {
                    throw new RefusedException(Refusal.FORBIDDEN_FUNCTION, f + "() reaches files, the network, other"
                            + " sessions or runs a query given as text, and is never accepted. Ask for the data"
                            + " with a plain SELECT.");
                }
                if (kind == Kind.READ && Words.WRITING_FUNCTIONS.contains(name)) {
                    throw new RefusedException(Refusal.MIXED, f + "() writes or takes a lock, so a read may not call"
                            + " it. Send a read without it.");
                }
                if (kind != Kind.READ && Words.VOLATILE_FUNCTIONS.contains(name)) {
                    throw volatileRefusal(f + "()", "returns a different value each time it runs");
                }
            }
        }

        private RefusedException volatileRefusal(String what, String why) {
            return new RefusedException(Refusal.VOLATILE, what + " " + why + ", so the value the card would show is"
                    + " not the value the approved statement would write. Compute the value first and write it as"
                    + " a literal or a ? parameter.");
        }

        // ---- reads ----

        private Analysis read(Statement statement, Set<QualifiedName> functions) throws RefusedException {
            if (!(statement instanceof Select)) {
                throw Parsing.disagreement("the parser read a " + statement.getClass().getSimpleName()
                        + " where the statement begins like a read");
            }
            Relations.Found found = Relations.of(statement, dialect);
            return new Analysis(Kind.READ, settings, text, parameterCount(0, text.length()), null, null, 0, 0,
                    List.of(), false, found.tables(), identifiers(), functions, wholeRows(statement),
                    found.starTables());
        }

        // ---- writes ----

        private Analysis write(Kind kind, Statement statement, Set<QualifiedName> functions) throws RefusedException {
            Table table;
            boolean hasWhere;
            boolean hasReturning;
            List<Identifier> setColumns = new ArrayList<>();
            if (kind == Kind.UPDATE) {
                if (!(statement instanceof Update u)) {
                    throw Parsing.disagreement("the parser read a " + statement.getClass().getSimpleName()
                            + " where the statement begins with UPDATE");
                }
                table = u.getTable();
                checkUpdateShape(u);
                hasWhere = u.getWhere() != null;
                hasReturning = u.getReturningClause() != null;
                for (UpdateSet set : u.getUpdateSets()) {
                    for (Column c : set.getColumns()) {
                        setColumns.add(setColumn(c, table));
                    }
                }
            } else {
                if (!(statement instanceof Delete d)) {
                    throw Parsing.disagreement("the parser read a " + statement.getClass().getSimpleName()
                            + " where the statement begins with DELETE");
                }
                table = d.getTable();
                checkDeleteShape(d);
                hasWhere = d.getWhere() != null;
                hasReturning = d.getReturningClause() != null;
            }
            if (table.getAlias() != null) {
                throw new RefusedException(Refusal.ALIASED_TARGET, "the table written is given an alias ("
                        + table.getAlias().toString().trim() + "). Write the statement without it, naming columns"
                        + " by the table's own name: " + (kind == Kind.UPDATE ? "UPDATE " : "DELETE FROM ")
                        + table.getName() + " ... WHERE " + table.getName() + ".id = ?");
            }
            QualifiedName target = Names.of(table.getFullyQualifiedName(), dialect, 2);
            return whereClause(kind, target, hasWhere, hasReturning, setColumns, statement, functions);
        }

        private void checkUpdateShape(Update u) throws RefusedException {
            if ((u.getStartJoins() != null && !u.getStartJoins().isEmpty())
                    || (u.getJoins() != null && !u.getJoins().isEmpty()) || u.getFromItem() != null) {
                throw multiTable("UPDATE");
            }
            if ((u.getOrderByElements() != null && !u.getOrderByElements().isEmpty()) || u.getLimit() != null) {
                throw orderOrLimit("UPDATE");
            }
            if (u.getWithItemsList() != null && !u.getWithItemsList().isEmpty()) {
                throw withOnWrite();
            }
            if (u.isModifierIgnore() || u.getModifierPriority() != null || u.getOutputClause() != null
                    || u.getForPortionClause() != null || u.getPreferringClause() != null || u.getOption() != null
                    || u.getOracleHint() != null) {
                throw modifiers("UPDATE");
            }
        }

        private void checkDeleteShape(Delete d) throws RefusedException {
            if ((d.getTables() != null && !d.getTables().isEmpty())
                    || (d.getUsingList() != null && !d.getUsingList().isEmpty())
                    || (d.getUsingFromItemList() != null && !d.getUsingFromItemList().isEmpty())
                    || (d.getJoins() != null && !d.getJoins().isEmpty())) {
                throw multiTable("DELETE");
            }
            if ((d.getOrderByElements() != null && !d.getOrderByElements().isEmpty()) || d.getLimit() != null) {
                throw orderOrLimit("DELETE");
            }
            if (d.getWithItemsList() != null && !d.getWithItemsList().isEmpty()) {
                throw withOnWrite();
            }
            if (d.isModifierIgnore() || d.isModifierQuick() || d.getModifierPriority() != null
                    || d.getOutputClause() != null || d.getForPortionClause() != null
                    || d.getPreferringClause() != null || d.getOption() != null || d.getOracleHint() != null) {
                throw modifiers("DELETE");
            }
        }

        private Analysis whereClause(Kind kind, QualifiedName target, boolean hasWhere, boolean hasReturning,
                List<Identifier> setColumns, Statement statement, Set<QualifiedName> functions)
                throws RefusedException {
            int depth = 0;
            Token where = null;
            Token end = null;
            for (Token t : tokens) {
                if (t.kind() == Token.Kind.OPEN) {
                    depth++;
                } else if (t.kind() == Token.Kind.CLOSE) {
                    depth--;
                } else if (depth == 0 && where == null && t.isWord("where")) {
                    where = t;
                } else if (depth == 0 && where != null && end == null
                        && (t.isWord("returning") || t.isWord("order") || t.isWord("limit"))) {
                    end = t;
                }
            }
            if ((where != null) != hasWhere) {
                throw Parsing.disagreement(hasWhere ? "the parser sees a WHERE clause that the lexer does not"
                        : "the lexer sees a WHERE clause that the parser does not");
            }
            if (where == null) {
                throw new RefusedException(Refusal.NO_WHERE, (kind == Kind.UPDATE ? "the UPDATE" : "the DELETE")
                        + " has no WHERE clause, so it would touch every row of " + target + ". Add a WHERE clause"
                        + " that names the rows, for example WHERE id = ?.");
            }
            if ((end != null && end.isWord("returning")) != hasReturning) {
                throw Parsing.disagreement("the lexer and the parser disagree on where the WHERE clause ends");
            }
            Parsing.checkWhereStart(where, parsed.tokens());
            int whereEnd = end == null ? text.length() : end.start();
            String condition = text.substring(where.end(), whereEnd).strip();
            if (condition.isEmpty()) {
                throw new RefusedException(Refusal.NO_WHERE, "the WHERE clause is empty. Name the rows to change.");
            }
            if (condition.regionMatches(true, 0, "current of", 0, 10)) {
                throw new RefusedException(Refusal.FORBIDDEN, "WHERE CURRENT OF works on a cursor, and cursors are"
                        + " not accepted. Name the rows by their key.");
            }
            int before = parameterCount(0, where.start());
            int inside = parameterCount(where.end(), whereEnd);
            Relations.Found found = Relations.of(statement, dialect);
            return new Analysis(kind, settings, text, parameterCount(0, text.length()), target, condition, before,
                    inside, setColumns, hasReturning, found.tables(), identifiers(), functions, wholeRows(statement),
                    found.starTables());
        }

        private Identifier setColumn(Column c, Table target) throws RefusedException {
            Table qualifier = c.getTable();
            if (qualifier != null && qualifier.getName() != null) {
                QualifiedName q = Names.of(qualifier.getFullyQualifiedName(), dialect, 2);
                QualifiedName t = Names.of(target.getFullyQualifiedName(), dialect, 2);
                if (!q.last().text().equalsIgnoreCase(t.last().text())) {
                    throw multiTable("UPDATE");
                }
            }
            return Names.of(c.getColumnName(), dialect, 1).last();
        }

        private int parameterCount(int from, int to) {
            int n = 0;
            for (Token t : tokens) {
                if (t.kind() == Token.Kind.PARAMETER && t.start() >= from && t.start() < to) {
                    n++;
                }
            }
            return n;
        }

        private Set<String> wholeRows(Statement statement) throws RefusedException {
            try {
                return WholeRows.of(statement);
            } catch (RuntimeException e) {
                throw Parsing.disagreement("the parser cannot list what the statement reads (" + e + ")");
            }
        }

        private Set<String> identifiers() {
            Set<String> out = new LinkedHashSet<>();
            for (Token t : tokens) {
                if (t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENTIFIER) {
                    out.add(Identifiers.truncated(t.identifierText().toLowerCase(Locale.ROOT), dialect));
                }
            }
            return out;
        }

        private Identifier identifier(Token t) throws RefusedException {
            return Names.identifier(t.identifierText(), t.kind() == Token.Kind.QUOTED_IDENTIFIER);
        }

        private static RefusedException multiTable(String what) {
            return new RefusedException(Refusal.MULTI_TABLE, "the " + what + " involves more than one table (a join,"
                    + " FROM, USING or a second target), so its rows cannot be shown one by one. Write it against"
                    + " one table and select the rows in WHERE, for example WHERE id IN (SELECT ...).");
        }

        private static RefusedException orderOrLimit(String what) {
            return new RefusedException(Refusal.ORDER_OR_LIMIT, "the " + what + " has ORDER BY or LIMIT, so which"
                    + " rows it changes depends on the moment it runs. Name the rows in WHERE instead.");
        }

        private static RefusedException withOnWrite() {
            return new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "a WITH clause in front of a write is not"
                    + " accepted. Move the subquery into the WHERE clause.");
        }

        private static RefusedException modifiers(String what) {
            return new RefusedException(Refusal.UNSUPPORTED_STATEMENT, "the " + what + " carries modifiers (IGNORE,"
                    + " LOW_PRIORITY, QUICK, hints or options) that change how errors and rows are handled. Send it"
                    + " without them.");
        }
    }
}
