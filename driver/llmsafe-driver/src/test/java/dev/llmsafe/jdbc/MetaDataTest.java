package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.DatabaseMetaData;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * J9 on every database: every question of DatabaseMetaData that answers with rows, asked by reflection
 * with a table of arguments (a hidden table, an allowlisted one, patterns, a same-named table in another
 * schema or database, no table), answers nothing about what the policy hides, and the legitimate
 * answers (allowlisted tables, their columns, keys and indexes) still come back.
 */
class MetaDataTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Fixture> FIXTURES = new EnumMap<>(Engine.class);

    static final Policy POLICY = Policy.define(p -> p.table("parent").table("members").table("tokens").table("a_b")
            .secret("password_hash", "a stored credential"));

    /** How GuardedMetaData answers each question with rows; a new JDBC question fails the test until decided. */
    static final Map<String, String> ANSWERS = new TreeMap<>(Map.ofEntries(
            Map.entry("getTables", "filtered"), Map.entry("getColumns", "filtered"),
            Map.entry("getPseudoColumns", "filtered"), Map.entry("getPrimaryKeys", "filtered"),
            Map.entry("getIndexInfo", "filtered"), Map.entry("getImportedKeys", "filtered"),
            Map.entry("getExportedKeys", "filtered"), Map.entry("getCrossReference", "filtered"),
            Map.entry("getBestRowIdentifier", "filtered"), Map.entry("getVersionColumns", "filtered"),
            Map.entry("getSchemas", "filtered"), Map.entry("getCatalogs", "filtered"),
            Map.entry("getTypeInfo", "filtered"), Map.entry("getTablePrivileges", "none"),
            Map.entry("getColumnPrivileges", "none"), Map.entry("getProcedures", "none"),
            Map.entry("getProcedureColumns", "none"), Map.entry("getFunctions", "none"),
            Map.entry("getFunctionColumns", "none"), Map.entry("getUDTs", "none"), Map.entry("getAttributes", "none"),
            Map.entry("getSuperTypes", "none"), Map.entry("getSuperTables", "none"),
            Map.entry("getTableTypes", "facts"), Map.entry("getClientInfoProperties", "facts")));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    /**
     * The guarded database, its names as the metadata gives them, and what must never appear in an answer.
     *
     * @param catalog the scratch database as a metadata catalog (MySQL), else null
     * @param schema the scratch schema (PostgreSQL), else null
     * @param other the other database or schema, with a same-named members table (none on SQLite)
     * @param hidden what no answer may contain
     * @param user the administrator the connection logs in as, which privileges would name (a word)
     */
    record Fixture(Guarded g, String catalog, String schema, String other, List<String> hidden, String user) {
    }

    static Fixture fixture(Engine engine) throws SQLException {
        Fixture f = FIXTURES.get(engine);
        if (f != null) {
            return f;
        }
        ScratchDatabase db = dbs.get(engine);
        String other = null;
        if (engine != Engine.SQLITE) {
            ScratchDatabase o = dbs.fresh(engine);
            other = o.name();
            o.execute(engine == Engine.MYSQL
                    ? "CREATE TABLE members (other_only_col INT PRIMARY KEY, upd_other TIMESTAMP DEFAULT CURRENT_TIMESTAMP"
                            + " ON UPDATE CURRENT_TIMESTAMP)"
                    : "CREATE TABLE members (other_only_col INT PRIMARY KEY)");
        }
        List<String> sql = new ArrayList<>();
        if (engine == Engine.POSTGRES) {
            sql.addAll(List.of("CREATE TYPE mood_hidden AS ENUM ('a', 'b')", "CREATE DOMAIN band_hidden AS INT",
                    "CREATE TYPE addr_hidden AS (street TEXT, zip INT)", "CREATE TYPE mood_shown AS ENUM ('calm', 'cross')"));
        }
        sql.add("CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(40))");
        sql.add("CREATE TABLE members (id INT PRIMARY KEY, name VARCHAR(40), password_hash VARCHAR(80) UNIQUE,"
                + " parent_id INT" + switch (engine) {
                    case POSTGRES -> ", mood mood_shown";
                    case MYSQL -> ", changed_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP";
                    case SQLITE -> "";
                    // A table-level key: MySQL 8.0 parses a column's REFERENCES and ignores it.
                } + ", FOREIGN KEY (parent_id) REFERENCES parent (id))");
        sql.addAll(List.of("CREATE INDEX members_name_idx ON members (name)",
                "CREATE INDEX members_mixed ON members (name, password_hash)",
                "CREATE TABLE tokens (password_hash VARCHAR(80) PRIMARY KEY, member_ref VARCHAR(80), note VARCHAR(20),"
                        + " FOREIGN KEY (member_ref) REFERENCES members (password_hash))",
                "CREATE TABLE a_b (id INT PRIMARY KEY)", "CREATE TABLE aXb (zz_hidden_col INT PRIMARY KEY)",
                "CREATE TABLE payroll (id INT PRIMARY KEY, member_id INT, salary INT, FOREIGN KEY (member_id)"
                        + " REFERENCES members (id))"));
        switch (engine) {
            case POSTGRES -> sql.addAll(List.of("CREATE INDEX members_lower_secret ON members (lower(password_hash))",
                    "CREATE INDEX members_partial_secret ON members (id) WHERE password_hash IS NOT NULL",
                    "CREATE FUNCTION peek_hidden() RETURNS text LANGUAGE sql AS $$ SELECT 'x' $$"));
            case MYSQL -> sql.addAll(List.of("CREATE FUNCTION peek_hidden() RETURNS TEXT DETERMINISTIC RETURN 'x'",
                    "CREATE PROCEDURE proc_hidden() SELECT 1"));
            case SQLITE -> sql.add("CREATE INDEX members_lower_secret ON members (lower(password_hash))");
        }
        db.execute(sql.toArray(String[]::new));
        List<String> hidden = new ArrayList<>(List.of("payroll", "salary", "password_hash", "axb", "zz_hidden_col",
                "members_mixed", "members_lower_secret", "members_partial_secret", "peek_hidden", "proc_hidden",
                "mood_hidden", "band_hidden", "addr_hidden", "other_only_col", "upd_other"));
        if (other != null) {
            hidden.add(other.toLowerCase(Locale.ROOT));
        }
        f = new Fixture(Guarded.of(db, POLICY), engine == Engine.MYSQL ? db.name() : null,
                engine == Engine.POSTGRES ? db.name() : null, other, hidden, db.user());
        FIXTURES.put(engine, f);
        return f;
    }

    /** The outcome of one question: its rows as text, or the error. */
    record Answer(List<String> rows, String error) {
        int count() {
            return rows.size();
        }

        /** What an existence oracle could compare: the number of rows, or the error's state. */
        String shape() {
            return error != null ? "error " + error.split(":")[0] : rows.size() + " rows";
        }
    }

    static Answer ask(DatabaseMetaData md, Method m, Object[] args) throws Exception {
        ResultSet rs;
        try {
            rs = (ResultSet) m.invoke(md, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            assertThat(cause).as(m.getName() + Arrays.toString(args)).isInstanceOf(SQLException.class);
            SQLException s = (SQLException) cause;
            return new Answer(List.of(), s.getClass().getSimpleName() + "/" + s.getSQLState() + ": " + s.getMessage());
        }
        List<String> rows = new ArrayList<>();
        if (rs == null) {
            return new Answer(rows, null);
        }
        try (rs) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.append(meta.getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
                }
                rows.add(row.toString());
            }
        }
        return new Answer(rows, null);
    }

    /** The argument vectors of a question: names in the scratch place, without schema, in the other one. */
    static List<Object[]> arguments(Method m, Fixture f) {
        Class<?>[] types = m.getParameterTypes();
        long strings = Stream.of(types).filter(t -> t == String.class).count();
        List<String[]> tables = new ArrayList<>();
        for (String name : Arrays.asList("payroll", "no_such_table", "members", "tokens", "a_b", "aXb", "%", null)) {
            tables.add(new String[] {null, null, name});
            tables.add(new String[] {f.catalog(), f.schema(), name});
        }
        if (f.other() != null) {
            tables.add(f.catalog() != null ? new String[] {f.other(), null, "members"}
                    : new String[] {null, f.other(), "members"});
        }
        List<String[]> vectors = new ArrayList<>();
        if (strings == 0) {
            vectors.add(new String[0]);
        } else if (strings == 2) {
            vectors.add(new String[] {null, null});
            vectors.add(new String[] {f.catalog(), f.schema() == null ? "%" : f.schema()});
            vectors.add(new String[] {f.catalog() == null ? f.other() : f.other(), "%"});
        } else if (strings == 6) {
            for (String[] pair : new String[][] {{"parent", "members"}, {"members", "payroll"}, {"payroll", "members"},
                    {"members", "tokens"}, {"members", "members"}}) {
                vectors.add(new String[] {null, null, pair[0], null, null, pair[1]});
                vectors.add(new String[] {f.catalog(), f.schema(), pair[0], f.catalog(), f.schema(), pair[1]});
            }
        } else {
            for (String[] t : tables) {
                String[] v = new String[(int) strings];
                System.arraycopy(t, 0, v, 0, 3);
                for (int i = 3; i < v.length; i++) {
                    v[i] = "%";
                }
                vectors.add(v);
            }
        }
        List<Object[]> out = new ArrayList<>();
        for (String[] v : vectors) {
            Object[] args = new Object[types.length];
            int s = 0;
            for (int i = 0; i < types.length; i++) {
                if (types[i] == String.class) {
                    args[i] = v[s++];
                } else if (types[i] == int.class) {
                    args[i] = DatabaseMetaData.bestRowSession;
                } else if (types[i] == boolean.class) {
                    args[i] = Boolean.TRUE;
                } else if (types[i] == String[].class || types[i] == int[].class) {
                    args[i] = null;
                } else {
                    throw new AssertionError(m + " takes a " + types[i] + ": add it to the argument table");
                }
            }
            out.add(args);
        }
        return out;
    }

    static List<Method> questions() {
        return Stream.of(DatabaseMetaData.class.getMethods()).filter(m -> m.getReturnType() == ResultSet.class)
                .sorted((a, b) -> (a.getName() + a.getParameterCount()).compareTo(b.getName() + b.getParameterCount()))
                .toList();
    }

    @Test
    void J9_everyQuestionThatAnswersWithRowsHasADecidedAnswer() throws NoSuchMethodException {
        Set<String> names = questions().stream().map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(names).isEqualTo(ANSWERS.keySet());
        for (Method m : questions()) {
            assertThat(GuardedMetaData.class.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass())
                    .as(m.getName()).isEqualTo(GuardedMetaData.class);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J9_noMetadataAnswerNamesAHiddenTableASecretColumnOrAnotherSchema(Engine engine) throws Exception {
        Fixture f = fixture(engine);
        List<String> leaks = new ArrayList<>();
        try (Connection c = f.g().connect()) {
            DatabaseMetaData md = c.getMetaData();
            for (Method m : questions()) {
                for (Object[] args : arguments(m, f)) {
                    Answer a = ask(md, m, args);
                    String call = m.getName() + Arrays.toString(args);
                    String text = (String.join("\n", a.rows()) + (a.error() == null ? "" : a.error()))
                            .toLowerCase(Locale.ROOT);
                    for (String h : f.hidden()) {
                        if (text.contains(h)) {
                            leaks.add(call + " named " + h + ": " + text);
                        }
                    }
                    // (pgjdbc's class names in its errors contain "postgres" as part of a word.)
                    if (f.user() != null && java.util.regex.Pattern.compile("\\b" + f.user() + "\\b",
                            java.util.regex.Pattern.CASE_INSENSITIVE).matcher(text).find()) {
                        leaks.add(call + " named the user: " + text);
                    }
                    if (ANSWERS.get(m.getName()).equals("none")) {
                        assertThat(a.rows()).as(call).isEmpty();
                    }
                    // A hidden table is answered as a table that does not exist: no existence oracle.
                    int hidden = Arrays.asList(args).indexOf("payroll");
                    if (hidden >= 0) {
                        Object[] none = args.clone();
                        none[hidden] = "no_such_table";
                        assertThat(a.shape()).as(call).isEqualTo(ask(md, m, none).shape());
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J9_allowlistedTablesTheirColumnsKeysAndIndexesStillComeBack(Engine engine) throws Exception {
        Fixture f = fixture(engine);
        String cat = f.catalog();
        String sch = f.schema();
        try (Connection c = f.g().connect()) {
            DatabaseMetaData md = c.getMetaData();
            Map<String, List<String>> expected = new LinkedHashMap<>();
            Map<String, List<String>> actual = new LinkedHashMap<>();
            for (String[] where : new String[][] {{cat, sch}, {null, null}}) {
                String at = " in " + where[0] + "." + where[1];
                actual.put("tables" + at, names(md.getTables(where[0], where[1], "%", null), "TABLE_NAME", true));
                expected.put("tables" + at, List.of("a_b", "members", "parent", "tokens"));
                actual.put("columns of members" + at, names(md.getColumns(where[0], where[1], "members", "%"),
                        "COLUMN_NAME", false));
                expected.put("columns of members" + at, switch (engine) {
                    case POSTGRES -> List.of("id", "name", "parent_id", "mood");
                    case MYSQL -> List.of("id", "name", "parent_id", "changed_at");
                    case SQLITE -> List.of("id", "name", "parent_id");
                });
                actual.put("columns of tokens" + at, names(md.getColumns(where[0], where[1], "tokens", "%"),
                        "COLUMN_NAME", false));
                expected.put("columns of tokens" + at, List.of("member_ref", "note"));
                actual.put("primary key of members" + at, names(md.getPrimaryKeys(where[0], where[1], "members"),
                        "COLUMN_NAME", false));
                expected.put("primary key of members" + at, List.of("id"));
                // A key on a secret column is left out whole, as a key that names one.
                actual.put("primary key of tokens" + at, names(md.getPrimaryKeys(where[0], where[1], "tokens"),
                        "COLUMN_NAME", false));
                expected.put("primary key of tokens" + at, List.of());
                actual.put("indexed columns of members" + at, names(md.getIndexInfo(where[0], where[1], "members", false,
                        true), "COLUMN_NAME", true));
                expected.put("indexed columns of members" + at, engine == Engine.MYSQL
                        ? List.of("id", "name", "parent_id") : List.of("id", "name"));
                actual.put("imported keys of members" + at, names(md.getImportedKeys(where[0], where[1], "members"),
                        "PKTABLE_NAME", false));
                expected.put("imported keys of members" + at, List.of("parent"));
                actual.put("exported keys of parent" + at, names(md.getExportedKeys(where[0], where[1], "parent"),
                        "FKTABLE_NAME", false));
                expected.put("exported keys of parent" + at, List.of("members"));
                // payroll is hidden, and the key of tokens references a secret column.
                actual.put("exported keys of members" + at, names(md.getExportedKeys(where[0], where[1], "members"),
                        "FKTABLE_NAME", false));
                expected.put("exported keys of members" + at, List.of());
                actual.put("imported keys of tokens" + at, names(md.getImportedKeys(where[0], where[1], "tokens"),
                        "PKTABLE_NAME", false));
                expected.put("imported keys of tokens" + at, List.of());
                actual.put("parent to members" + at, names(md.getCrossReference(where[0], where[1], "parent", where[0],
                        where[1], "members"), "FKCOLUMN_NAME", false));
                // sqlite-jdbc answers getCrossReference with no rows, even unguarded (measured, 3.54.1.0).
                expected.put("parent to members" + at, engine == Engine.SQLITE ? List.of() : List.of("parent_id"));
                // The same-named members of the other schema or database is not answered for (two rows before).
                actual.put("best row of members" + at, names(md.getBestRowIdentifier(where[0], where[1], "members",
                        DatabaseMetaData.bestRowSession, true), "COLUMN_NAME", false));
                // sqlite-jdbc answers getBestRowIdentifier with no rows for any table (measured, 3.54.1.0).
                expected.put("best row of members" + at, engine == Engine.SQLITE ? List.of() : List.of("id"));
                actual.put("best row of tokens" + at, names(md.getBestRowIdentifier(where[0], where[1], "tokens",
                        DatabaseMetaData.bestRowSession, true), "COLUMN_NAME", false));
                expected.put("best row of tokens" + at, List.of());
                actual.put("version columns of members" + at, names(md.getVersionColumns(where[0], where[1], "members"),
                        "COLUMN_NAME", false));
                expected.put("version columns of members" + at, switch (engine) {
                    case POSTGRES -> List.of("ctid");
                    case MYSQL -> List.of("changed_at");
                    case SQLITE -> List.of();
                });
            }
            actual.put("schemas", names(md.getSchemas(), "TABLE_SCHEM", true));
            expected.put("schemas", sch == null ? List.of() : List.of(sch));
            actual.put("catalogs", names(md.getCatalogs(), "TABLE_CAT", true));
            expected.put("catalogs", switch (engine) {
                case POSTGRES -> List.of(c.getCatalog());
                case MYSQL -> List.of(cat);
                case SQLITE -> List.of();
            });
            assertThat(actual).isEqualTo(expected);
            List<String> types = names(md.getTypeInfo(), "TYPE_NAME", false);
            assertThat(types).contains(switch (engine) {
                case POSTGRES -> "int4";
                case MYSQL -> "INT";
                case SQLITE -> "INTEGER";
            });
            if (engine == Engine.POSTGRES) {
                // The type of a visible column is listed; the row types of tables and the hidden types are not.
                assertThat(types).contains("mood_shown", "varchar", "_int4").doesNotContain("_payroll", "_members",
                        "mood_hidden");
            }
            assertThat(names(md.getTableTypes(), "TABLE_TYPE", false)).isNotEmpty();
            // An answer with no row still has JDBC's columns, as the vendor's would.
            try (ResultSet rs = md.getTablePrivileges(cat, sch, "members")) {
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(7);
                assertThat(rs.getMetaData().getColumnLabel(5)).isEqualToIgnoringCase("GRANTEE");
                assertThat(rs.next()).isFalse();
            }
        }
    }

    /** The application's URL, with the credential written into it in each way the vendor reads one. */
    static Map<String, List<String>> urlsWithCredentials(Guarded g) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        switch (g.engine()) {
            case POSTGRES -> out.put(g.url("user=" + g.db.user() + "&password=url-secret-1&sslpassword=url-secret-2"
                    + "&ApplicationName=app-label-3"), List.of("url-secret-1", "url-secret-2", "app-label-3"));
            case MYSQL -> {
                String user = g.db.user();
                String password = g.db.password();
                out.put(g.url("user=" + user + "&password=" + password), List.of("=" + password, "=" + user));
                String url = g.url();
                int slashes = url.indexOf("//") + 2;
                out.put(url.substring(0, slashes) + user + ":" + password + "@" + url.substring(slashes),
                        List.of(user + ":", password + "@"));
            }
            case SQLITE -> out.put(g.url("password=url-secret-1"), List.of("url-secret-1"));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J9_noCredentialIsHandedBackByTheUrlTheUserTheClientInfoOrThePropertyInfo(Engine engine) throws Exception {
        Guarded g = fixture(engine).g();
        for (Map.Entry<String, List<String>> u : urlsWithCredentials(g).entrySet()) {
            List<String> secrets = u.getValue();
            java.util.Properties none = new java.util.Properties();
            if (engine == Engine.POSTGRES) {
                none.setProperty("password", "property-secret-4");
            }
            try (Connection c = java.sql.DriverManager.getConnection(u.getKey(), none)) {
                DatabaseMetaData md = c.getMetaData();
                String real = g.db.url();
                // Where the database is, as the vendor says it, without parameters or user information.
                assertThat(md.getURL()).as(u.getKey()).isEqualTo(real.contains("?") ? real.substring(0, real.indexOf('?'))
                        : real);
                assertThat(md.getUserName()).isNull();
                // The vendor's client info (pgjdbc's ApplicationName from the URL) is not read; what the caller
                // sets through this connection is read back.
                assertThat(c.getClientInfo()).isEmpty();
                assertThat(c.getClientInfo("ApplicationName")).isNull();
                if (engine != Engine.SQLITE) {
                    c.setClientInfo("ApplicationName", "the-tool");
                    assertThat(c.getClientInfo("ApplicationName")).isEqualTo("the-tool");
                    assertThat(c.getClientInfo()).containsEntry("ApplicationName", "the-tool").hasSize(1);
                    c.setClientInfo(new java.util.Properties());
                    assertThat(c.getClientInfo()).isEmpty();
                }
                java.util.Properties asked = new java.util.Properties();
                asked.setProperty("password", "property-secret-4");
                List<String> values = new ArrayList<>();
                for (java.sql.DriverPropertyInfo p : java.sql.DriverManager.getDriver(u.getKey())
                        .getPropertyInfo(u.getKey(), asked)) {
                    values.add(p.name + "=" + p.value);
                }
                List<String> shown = new ArrayList<>(values);
                shown.addAll(List.of(md.getURL(), c.toString(), md.toString()));
                for (String secret : concat(secrets, "property-secret-4")) {
                    assertThat(shown).as(u.getKey()).noneMatch(v -> v != null && v.contains(secret));
                }
                assertThat(values).as("llmsafe's own properties are still described").contains("llmsafe.proposer="
                        + "assistant");
            }
        }
        // A URL no driver takes: the message names the URL without its credential.
        String bad = "jdbc:llmsafe:nosuchdb://someone:url-secret-5@db/app?password=url-secret-6";
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> java.sql.DriverManager.getConnection(bad));
        assertThat(e).isInstanceOf(SQLException.class).hasMessageNotContaining("url-secret-5")
                .hasMessageNotContaining("url-secret-6").hasMessageContaining("jdbc:nosuchdb://db/app");
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new ArrayList<>(a);
        out.add(b);
        return out;
    }

    private static List<String> names(ResultSet rs, String column, boolean sorted) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(column));
            }
        }
        if (sorted) {
            out.sort(null);
        }
        return out;
    }
}
