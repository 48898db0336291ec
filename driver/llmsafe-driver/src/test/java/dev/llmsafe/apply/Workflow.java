package dev.llmsafe.apply;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.MovableClock;
import dev.llmsafe.testing.ScratchDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Propose, approve and apply on a scratch database, wired as the engine wires them. */
final class Workflow implements AutoCloseable {

    final ScratchDatabase db;
    final HikariDataSource pool;
    final Dialect dialect;
    final LexSettings lex;
    final MovableClock clock = new MovableClock();
    final StatementAnalyzer analyzer = new StatementAnalyzer(20_000);

    Workflow(ScratchDatabase db) throws SQLException {
        this.db = db;
        this.pool = pool(db);
        try (Connection c = pool.getConnection()) {
            dialect = Dialects.of(c, db.engine() == Engine.POSTGRES ? Identifier.of(db.name()) : null);
            dialect.initConnection(c);
            lex = dialect.lexSettings(c);
        }
    }

    static HikariDataSource pool(ScratchDatabase db) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        return new HikariDataSource(config);
    }

    PlanStore store(byte[] key) throws SQLException {
        PlanStore store = new PlanStore(pool, key, Duration.ofHours(24), clock);
        store.migrate();
        return store;
    }

    Plan propose(PlanStore store, Policy policy, String proposer, String sql, Object... params) throws SQLException {
        return propose(store, policy, null, proposer, sql, params);
    }

    Plan propose(PlanStore store, Policy policy, byte[] key, String proposer, String sql, Object... params)
            throws SQLException {
        List<Parameter> ps = new ArrayList<>();
        for (Object p : params) {
            ps.add(Parameter.of(p));
        }
        Planner planner = new Planner(pool, dialect, policy, Bounds.DEFAULT, key, clock);
        Plan plan = planner.plan(List.of(new Proposal(analyzer.analyze(sql, lex), ps)), proposer);
        store.save(plan);
        return plan;
    }

    Applier applier(PlanStore store, Policy policy) {
        return applier(store, policy, null, false, Bounds.DEFAULT);
    }

    Applier applier(PlanStore store, Policy policy, byte[] key, boolean allowSelf, Bounds bounds) {
        return new Applier(store, pool, dialect, policy, bounds, allowSelf, key);
    }

    List<String> snapshot(String table) throws SQLException {
        return db.snapshot(table);
    }

    @Override
    public void close() {
        pool.close();
    }
}
