package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * R7: a read may use only the functions, casts and operators that compute from their arguments alone:
 * the dialect's built-in ones ({@link BuiltInFunctions}) and those the policy adds
 * ({@code policy.read.allowFunctions}). Everything else is FORBIDDEN_FUNCTION, whose message says how
 * to allow it. An allowlist, because the functions that reach past their arguments (SQL run from a
 * string, large objects, files, sequences, session settings, the catalog) are many, grow with every
 * server version and extension, and one missed is a write from inside a read.
 *
 * <p>Judged on the lexer's tokens (S4), like the other word rules: a name followed by a parenthesis is
 * a call, unless it is a CTE's or an alias's column list ({@code WITH x(a) AS (...)}, {@code AS m(a)});
 * on PostgreSQL also {@code ::type}, {@code CAST(... AS type)}, a type literal ({@code type 'text'}) and
 * every operator. MySQL, MariaDB and SQLite have no user-defined types or operators, and their casts
 * name only built-in types. What a statement uses does not depend on the policy and is cached per
 * (settings, text); the policy's names are applied on each check.
 */
public final class ReadFunctions {

    /** What a use is. */
    enum Kind { CALL, CAST, OPERATOR, OPERATOR_SYNTAX }

    /**
     * One function, cast or operator a read uses that is not built in.
     *
     * @param kind what it is
     * @param shown as written, for the message
     * @param name the name the policy may add, in lower case (schema.name when qualified); null when the
     *     policy cannot allow it
     */
    record Use(Kind kind, String shown, String name) {
    }

    /** PostgreSQL words that may stand right before a string literal without making it a type literal. */
    private static final Set<String> BEFORE_STRING = Set.of("select", "where", "and", "or", "not", "like", "ilike", "similar", "to", "escape", "then", "else",
            "when", "case", "in", "is", "distinct", "from", "by", "on", "having", "between", "symmetric",
            "asymmetric", "all", "any", "some", "at", "zone", "for", "placing", "using", "default", "returning",
            "union", "except", "intersect", "limit", "offset", "values", "leading", "trailing", "both", "uescape",
            "collate", "as", "with", "over", "filter", "group", "order", "exists", "array", "row", "overlaps",
            "value", "format", "encoding", "nulls", "first", "last", "asc", "desc", "end", "fetch", "next", "only",
            "rows", "precision", "varying", "without", "second", "minute", "hour", "day", "month", "year", "name",
            "content", "document", "standalone", "version", "passing", "xmlnamespaces", "path", "isnull", "notnull",
            "unknown", "true", "false", "null", "key", "empty", "error");

    private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`";
    private static final String ENDS_ANY_OPERATOR = "~!@#%^&|`";

    private static final int CACHE_SIZE = 2048;
    private static final ConcurrentHashMap<VerdictCache.Key, Scanned> CACHE = new ConcurrentHashMap<>();

    private ReadFunctions() {
    }

    /**
     * Refuses a read that uses a function, cast or operator outside the allowlist.
     *
     * @param allowed the policy's additions, in lower case (names, or schema.name)
     * @param userOperators PostgreSQL operator names that an application or extension defined, which a
     *     read may not use even where a built-in operator has the same name
     * @throws RefusedException FORBIDDEN_FUNCTION
     */
    public static void check(Analysis a, Set<String> allowed, Set<String> userOperators) throws RefusedException {
        check(a, allowed, userOperators, Set.of());
    }

    /**
     * As {@link #check(Analysis, Set, Set)}, and refuses a name after a dot that PostgreSQL may read as a
     * call of the function of that name (attribute notation: {@code m.row_to_json} is
     * {@code row_to_json(m)}, the whole row): a built-in function that takes a row, or one of
     * {@code userFunctions}, the functions of one argument or more the database defines.
     */
    public static void check(Analysis a, Set<String> allowed, Set<String> userOperators, Set<String> userFunctions)
            throws RefusedException {
        Scanned scanned = scanned(a);
        if (a.settings().dialect() == SqlDialect.POSTGRESQL) {
            for (String attribute : scanned.attributes()) {
                if (BuiltInFunctions.POSTGRESQL_ROW_FUNCTIONS.contains(attribute) || userFunctions.contains(attribute)) {
                    throw new RefusedException(Refusal.FORBIDDEN_FUNCTION, "." + attribute + " names a function of"
                            + " that name, which PostgreSQL calls with the whole row when the table has no such column"
                            + " (attribute notation: t." + attribute + " is " + attribute + "(t)), and a whole row"
                            + " carries every column. Nothing ran. Name the columns you need, or call the function"
                            + " with parentheses on those columns.");
                }
            }
        }
        for (Use u : scanned.uses()) {
            if (u.name() != null && allowedByPolicy(u.name(), allowed)) {
                continue;
            }
            throw refusal(u, a.settings().dialect());
        }
        if (!userOperators.isEmpty()) {
            for (String op : scanned.operators()) {
                if (userOperators.contains(op)) {
                    throw new RefusedException(Refusal.FORBIDDEN_FUNCTION, "the operator " + op + " is also defined by"
                            + " an application or extension in this database, so it may run a function that is not"
                            + " on the allowlist of functions that compute from their arguments alone. Nothing ran."
                            + " Write the expression with a built-in function instead.");
                }
            }
        }
    }

    /**
     * Whether the policy names a function a statement calls (R7): by its name, or by schema.name when
     * it is called so qualified. The stored-routine check (R1) leaves such a function alone too.
     */
    public static boolean allowedByPolicy(dev.llmsafe.policy.QualifiedName f, Set<String> allowed) {
        if (allowed.isEmpty()) {
            return false;
        }
        StringBuilder sb = new StringBuilder();
        for (dev.llmsafe.policy.Identifier part : f.parts()) {
            sb.append(sb.length() == 0 ? "" : ".").append(part.text().toLowerCase(Locale.ROOT));
        }
        return allowedByPolicy(sb.toString(), allowed);
    }

    private static boolean allowedByPolicy(String name, Set<String> allowed) {
        if (allowed.contains(name)) {
            return true;
        }
        int dot = name.lastIndexOf('.');
        return dot >= 0 && allowed.contains(name.substring(dot + 1));
    }

    private static RefusedException refusal(Use u, SqlDialect dialect) {
        String db = switch (dialect) {
            case POSTGRESQL -> "PostgreSQL";
            case MYSQL -> "MySQL and MariaDB";
            case SQLITE -> "SQLite";
        };
        String how = u.name() == null ? "" : " If it is your application's own and only computes from its"
                + " arguments, add \"" + u.name() + "\" to policy.read.allowFunctions.";
        String detail = switch (u.kind()) {
            case CALL -> u.shown() + "() is not one of the built-in functions of " + db + " that a read may call"
                    + " (those that compute from their arguments alone): a function off that list may run SQL"
                    + " given as text, change the session, read files, the catalog or tables the policy does not"
                    + " allow, or write. Nothing ran." + how;
            case CAST -> "the cast to " + u.shown() + " is not a cast to a built-in scalar type: a cast to a"
                    + " table's row type, to a reg* or oid type, or to a type defined in the database tells what"
                    + " exists in the catalog, and may run a function. Nothing ran. Cast to a built-in type"
                    + " (text, integer, numeric, date, timestamp, json, ...)." + how;
            case OPERATOR -> "the operator " + u.shown() + " is not a built-in operator of " + db + ", so it runs"
                    + " a function defined in the database. Nothing ran. Write the expression with built-in"
                    + " operators and functions.";
            case OPERATOR_SYNTAX -> "OPERATOR(...) names an operator by its schema, which may be one defined in"
                    + " the database. Nothing ran. Write the built-in operator itself.";
        };
        return new RefusedException(Refusal.FORBIDDEN_FUNCTION, detail);
    }

    /**
     * What the allowlist judges of one read: its uses that are not built in, and (PostgreSQL) its
     * operators and the names after a dot, which the database's own definitions may make calls.
     */
    record Scanned(List<Use> uses, List<String> operators, List<String> attributes) {
        Scanned {
            uses = List.copyOf(uses);
            operators = List.copyOf(operators);
            attributes = List.copyOf(attributes);
        }
    }

    /** The scan of a read, from the cache when this text was seen before. */
    static Scanned scanned(Analysis a) throws RefusedException {
        VerdictCache.Key key = new VerdictCache.Key(a.settings(), a.text());
        Scanned cached = CACHE.get(key);
        if (cached != null) {
            return cached;
        }
        Scan scan = new Scan(Lexer.lex(a.text(), a.settings()).tokens(), a.settings().dialect());
        Scanned out = new Scanned(scan.uses(), scan.operators, scan.attributes());
        if (CACHE.size() >= CACHE_SIZE) {
            CACHE.clear();
        }
        CACHE.put(key, out);
        return out;
    }

    /** The uses of a text that are not built in, without the analysis (for tests of what the parser refuses first). */
    static List<Use> uses(String text, LexSettings settings) throws RefusedException {
        return new Scan(Lexer.lex(text, settings).tokens(), settings.dialect()).uses();
    }

    /** One pass over the tokens of a statement. */
    private static final class Scan {
        private final List<Token> tokens;
        private final SqlDialect dialect;
        private final List<Use> uses = new ArrayList<>();
        private final List<String> operators = new ArrayList<>();

        Scan(List<Token> tokens, SqlDialect dialect) {
            this.tokens = tokens;
            this.dialect = dialect;
        }

        List<Use> uses() {
            for (int k = 0; k < tokens.size(); k++) {
                Token t = tokens.get(k);
                Token next = at(k + 1);
                boolean name = t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENTIFIER;
                if (name && next != null && next.kind() == Token.Kind.OPEN) {
                    call(k);
                }
                if (dialect != SqlDialect.POSTGRESQL) {
                    continue;
                }
                if (t.isSymbol(':') && next != null && next.isSymbol(':') && next.start() == t.end()) {
                    castTo(k + 2, "::");
                    k++;
                } else if (t.kind() == Token.Kind.SYMBOL && OPERATOR_CHARS.indexOf(t.text().charAt(0)) >= 0) {
                    k = operator(k);
                } else if (t.kind() == Token.Kind.WORD && next != null && next.kind() == Token.Kind.STRING
                        && !BEFORE_STRING.contains(lower(t))) {
                    castTo(k, "");
                } else if (t.isWord("cast") && next != null && next.kind() == Token.Kind.OPEN) {
                    int as = castAs(k + 1);
                    if (as > 0) {
                        castTo(as + 1, "AS ");
                    }
                }
            }
            return uses;
        }

        private void call(int k) {
            Token t = tokens.get(k);
            String word = lower(t);
            // A qualified name is a call whatever its last word: app.date(x) may be a stored function.
            boolean afterDot = k > 0 && at(k - 1).isSymbol('.');
            if (t.kind() == Token.Kind.WORD && !afterDot
                    && (Words.NOT_FUNCTIONS.contains(word) || keywordBeforeParenthesis(k))) {
                return;
            }
            if (t.isWord("operator") && dialect == SqlDialect.POSTGRESQL) {
                uses.add(new Use(Kind.OPERATOR_SYNTAX, "OPERATOR(...)", null));
                return;
            }
            Token before = at(k - 1);
            if (before != null && before.isWord("as")) {
                return; // an alias's column list: AS m(a, b)
            }
            int close = matching(k + 1);
            Token after = at(close + 1);
            Token afterAs = at(close + 2);
            if (after != null && after.isWord("as") && afterAs != null && (afterAs.kind() == Token.Kind.OPEN
                    || afterAs.isWord("materialized") || afterAs.isWord("not"))) {
                return; // a CTE's column list: WITH x(a, b) AS (...)
            }
            String qualified = qualifiedName(k);
            boolean plain = qualified.indexOf('.') < 0 && t.kind() == Token.Kind.WORD;
            if (plain && BuiltInFunctions.functions(dialect).contains(word)) {
                return;
            }
            uses.add(new Use(Kind.CALL, qualified, qualified));
        }

        /** A keyword that a parenthesis follows where it stands, outside {@link Words#NOT_FUNCTIONS}. */
        private boolean keywordBeforeParenthesis(int k) {
            Token b = at(k - 1);
            if (b == null) {
                return false;
            }
            return switch (lower(tokens.get(k))) {
                case "bernoulli", "system" -> b.isWord("tablesample");
                case "repeatable", "overlaps" -> b.kind() == Token.Kind.CLOSE;
                case "materialized" -> b.isWord("as") || b.isWord("not");
                case "index" -> b.isWord("use") || b.isWord("ignore") || b.isWord("force");
                case "columns" -> b.kind() == Token.Kind.STRING;
                default -> false;
            };
        }

        /** The type at token {@code k}, after {@code ::}, {@code AS} of a CAST, or before a literal. */
        private void castTo(int k, String how) {
            Token t = at(k);
            if (t == null || (t.kind() != Token.Kind.WORD && t.kind() != Token.Kind.QUOTED_IDENTIFIER)) {
                return; // not a type name: the parser decides what it is
            }
            String qualified = qualifiedName(k);
            int end = k;
            while (at(end + 1) != null && at(end + 1).isSymbol('.') && at(end + 2) != null) {
                end += 2;
                qualified = qualifiedName(end);
            }
            boolean plain = qualified.indexOf('.') < 0 && t.kind() == Token.Kind.WORD;
            if (plain && BuiltInFunctions.POSTGRESQL_CAST_TYPES.contains(lower(t))) {
                return;
            }
            uses.add(new Use(Kind.CAST, how + qualified, qualified));
        }

        /** The AS at depth 1 of CAST( ... ), or -1. */
        private int castAs(int open) {
            int depth = 0;
            int as = -1;
            for (int j = open; j < tokens.size(); j++) {
                Token t = tokens.get(j);
                if (t.kind() == Token.Kind.OPEN) {
                    depth++;
                } else if (t.kind() == Token.Kind.CLOSE) {
                    if (--depth == 0) {
                        return as;
                    }
                } else if (depth == 1 && t.isWord("as")) {
                    as = j;
                }
            }
            return as;
        }

        /**
         * A run of adjacent operator characters, split as PostgreSQL's lexer splits it: a name of several
         * characters does not end in + or - unless it holds one of ~ ! @ # % ^ &amp; | ` (PostgreSQL 15
         * manual, 4.1.3). Returns the index of the run's last token.
         */
        private int operator(int k) {
            int j = k;
            StringBuilder run = new StringBuilder(tokens.get(k).text());
            while (at(j + 1) != null && at(j + 1).kind() == Token.Kind.SYMBOL && at(j + 1).start() == at(j).end()
                    && OPERATOR_CHARS.indexOf(at(j + 1).text().charAt(0)) >= 0) {
                j++;
                run.append(at(j).text());
            }
            String op = run.toString();
            List<String> tail = new ArrayList<>();
            while (op.length() > 1 && (op.endsWith("+") || op.endsWith("-"))
                    && op.chars().noneMatch(c -> ENDS_ANY_OPERATOR.indexOf(c) >= 0)) {
                tail.add(0, op.substring(op.length() - 1));
                op = op.substring(0, op.length() - 1);
            }
            List<String> ops = new ArrayList<>();
            ops.add(op);
            ops.addAll(tail);
            for (String o : ops) {
                operators.add(o);
                if (!o.equals("=>") && !BuiltInFunctions.POSTGRESQL_OPERATOR_NAMES.contains(o)) {
                    uses.add(new Use(Kind.OPERATOR, o, null));
                }
            }
            return j;
        }

        /** The names after a dot that are neither called nor qualified further: columns, or attribute calls. */
        List<String> attributes() {
            List<String> out = new ArrayList<>();
            if (dialect != SqlDialect.POSTGRESQL) {
                return out;
            }
            for (int k = 2; k < tokens.size(); k++) {
                Token t = tokens.get(k);
                Token next = at(k + 1);
                if ((t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENTIFIER) && at(k - 1).isSymbol('.')
                        && (next == null || (next.kind() != Token.Kind.OPEN && !next.isSymbol('.')))) {
                    out.add(name(t));
                }
            }
            return out;
        }

        private String qualifiedName(int k) {
            StringBuilder sb = new StringBuilder(name(tokens.get(k)));
            int j = k;
            while (j >= 2 && at(j - 1).isSymbol('.') && (at(j - 2).kind() == Token.Kind.WORD
                    || at(j - 2).kind() == Token.Kind.QUOTED_IDENTIFIER)) {
                sb.insert(0, name(at(j - 2)) + ".");
                j -= 2;
            }
            return sb.toString();
        }

        private int matching(int open) {
            int depth = 0;
            for (int j = open; j < tokens.size(); j++) {
                Token t = tokens.get(j);
                if (t.kind() == Token.Kind.OPEN) {
                    depth++;
                } else if (t.kind() == Token.Kind.CLOSE && --depth == 0) {
                    return j;
                }
            }
            return tokens.size();
        }

        private Token at(int k) {
            return k >= 0 && k < tokens.size() ? tokens.get(k) : null;
        }

        private static String name(Token t) {
            return t.kind() == Token.Kind.WORD ? t.text().toLowerCase(Locale.ROOT) : t.identifierText();
        }

        private static String lower(Token t) {
            return t.identifierText().toLowerCase(Locale.ROOT);
        }
    }
}
