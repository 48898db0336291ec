package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * J11: every value of the type matrix as a primary key, in every position (a key of its own, the first
 * and the second column of a composite key, and on SQLite NULL beside it), planned and applied. Each
 * statement is planned {@value #DRY_RUNS} times before the plan that is applied, on a pool of one
 * connection, so that pgjdbc has switched the engine's repeated queries to binary transfer (it does so
 * from a query's fifth run) by the last dry run and the apply. After every apply the rows in the database
 * are compared with the card. A key the database cannot hold (json, point, LONGTEXT) is listed, and the
 * list is pinned; a key that cannot be bound back is KEY_NOT_BINDABLE, never an unchecked exception.
 */
class PlannerKeyMatrixTest {

    private static final int DRY_RUNS = 5;

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J11_everyMatrixValueIsAKeyInEveryPositionPlannedAndAppliedAcrossBinaryTransfer(Engine engine)
            throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        TypeMatrix m = TypeMatrix.on(engine, db);
        m.table();
        ValueReader reader = m.reader();
        Map<String, String> notKeys = new TreeMap<>();
        List<String> tables = new ArrayList<>();
        Map<String, String> dataTypes = new LinkedHashMap<>();
        for (TypeMatrix.Col col : m.columns()) {
            String type = keyType(engine, col);
            List<String> ddl = new ArrayList<>(List.of(
                    "CREATE TABLE ks_" + col.name() + " (k " + type + " PRIMARY KEY, v INT NOT NULL)",
                    "CREATE TABLE kc_" + col.name() + " (a " + type + ", b " + type + ", v INT NOT NULL,"
                            + " PRIMARY KEY (a, b))"));
            try {
                db.execute(ddl.toArray(String[]::new));
            } catch (SQLException e) {
                notKeys.put(col.name(), "cannot be a primary key");
                db.execute("DROP TABLE IF EXISTS ks_" + col.name(), "DROP TABLE IF EXISTS kc_" + col.name());
                continue;
            }
            try {
                db.execute("INSERT INTO ks_" + col.name() + " VALUES (" + col.base() + ", 0)",
                        "INSERT INTO kc_" + col.name() + " VALUES (" + col.base() + ", " + col.step() + ", 0)");
            } catch (SQLException e) {
                notKeys.put(col.name(), "its value cannot be a key");
                db.execute("DROP TABLE ks_" + col.name(), "DROP TABLE kc_" + col.name());
                continue;
            }
            // The smallest step beside the base value, and the base value in the second position.
            insertUnlessEqualAsKey(db, "INSERT INTO ks_" + col.name() + " VALUES (" + col.step() + ", 0)");
            insertUnlessEqualAsKey(db, "INSERT INTO kc_" + col.name() + " VALUES (" + col.step() + ", " + col.base()
                    + ", 0)");
            if (engine == Engine.SQLITE) {
                // SQLite lets a primary key column that is not the rowid hold NULL, once per key.
                insertUnlessEqualAsKey(db, "INSERT INTO ks_" + col.name() + " VALUES (NULL, 0)");
                db.execute("INSERT INTO kc_" + col.name() + " VALUES (NULL, " + col.base() + ", 0)",
                        "INSERT INTO kc_" + col.name() + " VALUES (" + col.base() + ", NULL, 0)");
            }
            tables.add("ks_" + col.name());
            tables.add("kc_" + col.name());
            dataTypes.put("ks_" + col.name(), col.dataType());
            dataTypes.put("kc_" + col.name(), col.dataType());
        }

        Policy policy = Policy.define(p -> tables.forEach(t -> p.table(t, x -> x.impact("Rows of " + t + "."))));
        try (HikariDataSource pool = pool(db, engine, 1); HikariDataSource storePool = pool(db, engine, 2)) {
            Dialect dialect;
            LexSettings lex;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, engine == Engine.POSTGRES ? Identifier.of(db.name()) : null);
                dialect.initConnection(c);
                lex = dialect.lexSettings(c);
            }
            Planner planner = new Planner(pool, dialect, policy, Bounds.DEFAULT, null, Clock.systemUTC());
            PlanStore store = new PlanStore(storePool, null, Duration.ofHours(1), Clock.systemUTC());
            store.migrate();
            Approver approver = new Approver(store, false);
            Applier applier = new Applier(store, pool, dialect, policy, Bounds.DEFAULT, false, null);
            StatementAnalyzer analyzer = new StatementAnalyzer(10_000);
            Map<String, String> refused = new TreeMap<>();
            List<String> wrong = new ArrayList<>();
            for (String table : tables) {
                Map<List<Value>, Value> before = rows(db, reader, table, dataTypes.get(table));
                List<Proposal> proposal = List.of(new Proposal(analyzer.analyze("UPDATE " + table
                        + " SET v = 1 WHERE v = 0", lex), List.of()));
                Plan plan = null;
                try {
                    // Only pgjdbc changes how a repeated query's values arrive; once is enough elsewhere.
                    for (int run = engine == Engine.POSTGRES ? 0 : DRY_RUNS; run <= DRY_RUNS; run++) {
                        plan = planner.plan(proposal, "assistant");
                        assertThat(keys(plan)).as(table + ", dry run " + run).isEqualTo(before.keySet());
                    }
                } catch (RefusedException e) {
                    refused.put(table, e.code().name());
                    assertThat(rows(db, reader, table, dataTypes.get(table))).as(table + " unchanged").isEqualTo(before);
                    continue;
                }
                for (RowChange r : plan.statements().get(0).rows()) {
                    assertThat(r.columns()).as(table).extracting(ColumnChange::column).containsExactly("v");
                }
                try {
                    store.save(plan);
                    approver.approve(plan.id(), "alice");
                    applier.apply(plan.id(), "bob");
                } catch (RefusedException e) {
                    wrong.add(table + ": the apply was refused: " + e.getMessage());
                    continue;
                }
                // The rows in the database are the card's: the same keys, each with the value shown after.
                Map<List<Value>, Value> after = rows(db, reader, table, dataTypes.get(table));
                Map<List<Value>, Value> card = new LinkedHashMap<>();
                for (RowChange r : plan.statements().get(0).rows()) {
                    card.put(List.copyOf(r.key().values()), r.columns().get(0).after());
                }
                if (!after.equals(card)) {
                    wrong.add(table + ": after the apply " + after + ", the card showed " + card);
                }
            }
            assertThat(wrong).isEmpty();
            if (engine == Engine.POSTGRES) {
                // pgjdbc prepares a query on the server from its fifth run, and then receives its values in
                // binary: the engine's own queries of the one pooled connection were prepared so.
                try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_prepared_statements"
                             + " WHERE statement LIKE 'SELECT %FROM kc_%IN (%'")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("server-prepared re-reads by key").isGreaterThan(tables.size() / 4);
                }
            }
            System.out.println(engine.key() + ": " + tables.size() + " key tables planned and applied; refused "
                    + refused + "; not a key " + notKeys);
            // 100000 bytes of binary data: the plan keeps a hash of them, not the bytes.
            assertThat(refused).as("only a key known by its hash is refused").isEqualTo(expectedRefusals(engine));
            assertThat(notKeys).as("the types the database itself cannot key on").isEqualTo(expectedNotKeys(engine));
        }
    }

    /** MariaDB refuses a NULL-able column in a primary key; the matrix declares its TIMESTAMPs so. */
    private static String keyType(Engine engine, TypeMatrix.Col col) {
        return engine == Engine.MYSQL ? col.type().replace(" NULL DEFAULT NULL", " NOT NULL DEFAULT '2000-01-01 00:00:00'")
                : col.type();
    }

    /** Values a key compares as equal (0 and -0, 1.10 and 1.1, 1 mon and 30 days) are one row, not two. */
    private static void insertUnlessEqualAsKey(ScratchDatabase db, String insert) {
        try {
            db.execute(insert);
        } catch (SQLException e) {
            // a duplicate key: the two values are one key to this database
        }
    }

    private static Map<String, String> expectedRefusals(Engine engine) {
        return switch (engine) {
            case POSTGRES -> Map.of("kc_by", "KEY_NOT_BINDABLE", "ks_by", "KEY_NOT_BINDABLE");
            case MYSQL -> Map.of();
            case SQLITE -> Map.of("kc_b", "KEY_NOT_BINDABLE", "ks_b", "KEY_NOT_BINDABLE");
        };
    }

    private static Map<String, String> expectedNotKeys(Engine engine) {
        return switch (engine) {
            case POSTGRES -> Map.of("j", "cannot be a primary key", "pt", "cannot be a primary key");
            case MYSQL -> Map.of("bl", "cannot be a primary key", "js", "cannot be a primary key",
                    "lt", "cannot be a primary key");
            case SQLITE -> Map.of();
        };
    }

    private static Set<List<Value>> keys(Plan plan) {
        Set<List<Value>> out = new LinkedHashSet<>();
        for (RowChange r : plan.statements().get(0).rows()) {
            out.add(List.copyOf(r.key().values()));
        }
        return out;
    }

    /** Every row of a key table, key to v, read through the dialect's reader. */
    private static Map<List<Value>, Value> rows(ScratchDatabase db, ValueReader reader, String table, String dataType)
            throws SQLException {
        Connection c = db.admin();
        String select = (table.startsWith("ks_") ? List.of("k") : List.of("a", "b")).stream()
                .map(k -> reader.selectExpression(k, dataType) + ", ").reduce("", String::concat) + "v";
        Map<List<Value>, Value> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + select + " FROM " + table)) {
            RowReader row = reader.rowReader(c, rs.getMetaData());
            while (rs.next()) {
                List<Value> values = row.read(rs);
                out.put(List.copyOf(values.subList(0, values.size() - 1)), values.get(values.size() - 1));
            }
        }
        return out;
    }

    private static HikariDataSource pool(ScratchDatabase db, Engine engine, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(size);
        // The matrix holds zero dates, which MariaDB's default sql_mode refuses to store.
        config.setConnectionInitSql(engine == Engine.MYSQL ? "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'" : null);
        return new HikariDataSource(config);
    }
}
