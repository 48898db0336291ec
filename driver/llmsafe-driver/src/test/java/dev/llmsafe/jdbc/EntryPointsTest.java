package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * J11: a table of failure inputs sent through every public entry point (the driver's execute methods,
 * Planner, Approver, Applier): each fails as a SQLException that carries a refusal code, never as an
 * unchecked exception that a JDBC caller's catch blocks would miss, and leaves the database as it was.
 * The inputs that used to throw unchecked exceptions from inside the dry run (a SQLite NULL or REAL in a
 * composite key, a MariaDB zero date key, a PostgreSQL timetz 24:00:00 row past pgjdbc's switch to
 * binary transfer) are planned instead.
 */
class EntryPointsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    private static final Policy POLICY = Policy.define(p -> p
            .table("j11", t -> t.impact("Rows of j11."))
            .table("j11bin", t -> t.impact("Rows of j11bin."))
            .table("j11iv", t -> t.impact("Rows of j11iv.")));

    /** An input that must fail, and the code it must fail with. */
    @FunctionalInterface
    interface Attempt {
        void run() throws Exception;
    }

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J11_noUncheckedExceptionEscapesThePublicEntryPoints(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        String bin = switch (engine) {
            case POSTGRES -> "bytea";
            case MYSQL -> "VARBINARY(64)";
            case SQLITE -> "BLOB";
        };
        String interval = engine == Engine.POSTGRES ? "interval" : "VARCHAR(20)";
        db.execute("CREATE TABLE j11 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO j11 VALUES (1, 1)",
                "CREATE TABLE j11bin (k " + bin + " NOT NULL PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE j11iv (id INT PRIMARY KEY, d " + interval + ", v INT NOT NULL)",
                "INSERT INTO j11iv VALUES (1, '1 day', 1)");
        try (Connection admin = db.connect(); PreparedStatement ps = admin.prepareStatement("INSERT INTO j11bin VALUES (?, 1)")) {
            ps.setBytes(1, new byte[32]);
            ps.executeUpdate();
        }
        Guarded g = Guarded.of(db, POLICY);
        try (HikariDataSource pool = pool(db)) {
            Dialect dialect;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, engine == Engine.POSTGRES ? Identifier.of(db.name()) : null);
                dialect.initConnection(c);
            }
            Planner planner = new Planner(pool, dialect, POLICY, Bounds.DEFAULT, null, Clock.systemUTC());
            PlanStore store = new PlanStore(pool, null, Duration.ofHours(1), Clock.systemUTC());
            store.migrate();
            Approver approver = new Approver(store, false);
            Applier applier = new Applier(store, pool, dialect, POLICY, Bounds.DEFAULT, false, null);
            StatementAnalyzer analyzer = new StatementAnalyzer(10_000);
            Proposal update = new Proposal(analyzer.analyze("UPDATE j11 SET v = 2 WHERE id = 1",
                    dialect.lexSettings(db.admin())), List.of());
            Plan garbledStatus = planner.plan(List.of(update), "assistant");
            store.save(garbledStatus);
            Plan garbledDate = planner.plan(List.of(update), "assistant");
            store.save(garbledDate);
            approver.approve(garbledDate.id(), "alice");
            db.execute("UPDATE llmsafe_plans SET status = 'bogus' WHERE id = '" + garbledStatus.id() + "'",
                    "UPDATE llmsafe_plans SET approved_at = 'yesterday' WHERE id = '" + garbledDate.id() + "'");
            UUID nowhere = UUID.randomUUID();

            Map<String, Map.Entry<Refusal, Attempt>> cases = new LinkedHashMap<>();
            try (Connection c = g.connect()) {
                Statement s = c.createStatement();
                cases.put("executeUpdate(null)", Map.entry(Refusal.EMPTY, () -> s.executeUpdate(null)));
                cases.put("execute(null)", Map.entry(Refusal.EMPTY, () -> s.execute(null)));
                cases.put("executeQuery(null)", Map.entry(Refusal.EMPTY, () -> s.executeQuery(null)));
                cases.put("a batch with an empty statement", Map.entry(Refusal.EMPTY, () -> {
                    s.addBatch("UPDATE j11 SET v = 3 WHERE id = 1");
                    s.addBatch("");
                    s.executeBatch();
                }));
                cases.put("a 32-byte binary key", Map.entry(Refusal.KEY_NOT_BINDABLE,
                        () -> s.executeUpdate("UPDATE j11bin SET v = 2 WHERE v = 1")));
                if (engine == Engine.POSTGRES) {
                    // A session whose IntervalStyle the reader cannot read exactly (pgjdbc's options).
                    cases.put("an interval in IntervalStyle sql_standard", Map.entry(Refusal.UNREADABLE_VALUE, () -> {
                        try (Connection odd = java.sql.DriverManager.getConnection(g.url("options=-c%20IntervalStyle%3Dsql_standard"),
                                g.credentials())) {
                            odd.createStatement().executeUpdate("UPDATE j11iv SET v = 2 WHERE id = 1");
                        }
                    }));
                }
                cases.put("Planner.plan of no statement", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> planner.plan(List.of(), "assistant")));
                cases.put("Planner.plan(null, ...)", Map.entry(Refusal.INVALID_ARGUMENT, () -> planner.plan(null, "assistant")));
                cases.put("Planner.plan without a proposer", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> planner.plan(List.of(update), " ")));
                cases.put("Approver.approve(null, ...)", Map.entry(Refusal.INVALID_ARGUMENT, () -> approver.approve(null, "alice")));
                cases.put("Approver.approve without an actor", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> approver.approve(garbledStatus.id(), null)));
                cases.put("Approver.approve of no such plan", Map.entry(Refusal.PLAN_NOT_FOUND,
                        () -> approver.approve(nowhere, "alice")));
                cases.put("Approver.approve of a garbled status", Map.entry(Refusal.PLAN_TAMPERED,
                        () -> approver.approve(garbledStatus.id(), "alice")));
                cases.put("Approver.reject(null, ...)", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> approver.reject(null, "alice", "no")));
                cases.put("Approver.reject with a 201-character actor", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> approver.reject(garbledStatus.id(), "a".repeat(201), "no")));
                cases.put("Applier.apply(null, ...)", Map.entry(Refusal.INVALID_ARGUMENT, () -> applier.apply(null, "bob")));
                cases.put("Applier.apply without an actor", Map.entry(Refusal.INVALID_ARGUMENT,
                        () -> applier.apply(garbledDate.id(), "")));
                cases.put("Applier.apply of no such plan", Map.entry(Refusal.PLAN_NOT_FOUND, () -> applier.apply(nowhere, "bob")));
                cases.put("Applier.apply of a garbled approval date", Map.entry(Refusal.PLAN_TAMPERED,
                        () -> applier.apply(garbledDate.id(), "bob")));

                Map<String, List<String>> before = g.checksum();
                List<String> wrong = new ArrayList<>();
                for (Map.Entry<String, Map.Entry<Refusal, Attempt>> e : cases.entrySet()) {
                    try {
                        e.getValue().getValue().run();
                        wrong.add(e.getKey() + ": no failure");
                    } catch (RefusedException r) {
                        if (r.code() != e.getValue().getKey()) {
                            wrong.add(e.getKey() + ": " + r.code() + " (" + r.getMessage() + "), expected "
                                    + e.getValue().getKey());
                        }
                    } catch (SQLException x) {
                        wrong.add(e.getKey() + ": a SQLException without a refusal code: " + x);
                    } catch (RuntimeException x) {
                        wrong.add(e.getKey() + ": an unchecked exception escaped: " + x);
                    }
                }
                assertThat(wrong).isEmpty();
                assertThat(g.checksum()).as("no failure input changed the database").isEqualTo(before);
            }
        }
    }

    /**
     * The case: a row holding timetz 24:00:00 in a column the statement never touches planned
     * four times, then failed once pgjdbc switched the repeated queries to binary transfer, and an approved
     * plan failed at apply. One pooled connection: the last dry run and the apply are past the switch.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "POSTGRES")
    void J11_aRowHoldingTimetzMidnightIsPlannedAndAppliedPastTheSwitchToBinaryTransfer(Engine engine) throws Exception {
        ScratchDatabase db = dbs.get(engine);
        db.execute("CREATE TABLE j11tz (id INT PRIMARY KEY, t timetz, v INT NOT NULL)",
                "INSERT INTO j11tz VALUES (1, '24:00:00-15:59', 1)");
        Policy policy = Policy.define(p -> p.table("j11tz", t -> t.impact("Rows of j11tz.")));
        try (HikariDataSource pool = pool(db, 1); HikariDataSource storePool = pool(db, 1)) {
            Dialect dialect;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, Identifier.of(db.name()));
                dialect.initConnection(c);
            }
            Planner planner = new Planner(pool, dialect, policy, Bounds.DEFAULT, null, Clock.systemUTC());
            PlanStore store = new PlanStore(storePool, null, Duration.ofHours(1), Clock.systemUTC());
            store.migrate();
            Proposal update = new Proposal(new StatementAnalyzer(10_000).analyze("UPDATE j11tz SET v = v + 1 WHERE id = 1",
                    dialect.lexSettings(db.admin())), List.of());
            Plan plan = null;
            for (int run = 0; run < 6; run++) {
                plan = planner.plan(List.of(update), "assistant");
                assertThat(plan.card()).contains("v: 1 -> 2");
            }
            store.save(plan);
            new Approver(store, false).approve(plan.id(), "alice");
            new Applier(store, pool, dialect, policy, Bounds.DEFAULT, false, null).apply(plan.id(), "bob");
            assertThat(db.snapshot("j11tz")).containsExactly("[1, 24:00:00-15:59, 2]");
        }
    }

    private static HikariDataSource pool(ScratchDatabase db) {
        return pool(db, 3);
    }

    private static HikariDataSource pool(ScratchDatabase db, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }
}
