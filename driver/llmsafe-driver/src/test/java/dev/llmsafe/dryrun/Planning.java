package dev.llmsafe.dryrun;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.plan.Parameter;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.Analysis;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.TestRole;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A planner on a scratch database, as the engine builds one: its own small pool, the live dialect. Public
 * for the tests of what a plan becomes (the card, the JSON) in {@code plan}.
 */
public final class Planning implements AutoCloseable {

    public final ScratchDatabase db;
    public final HikariDataSource pool;
    public final Dialect dialect;
    public final LexSettings lex;
    private final StatementAnalyzer analyzer = new StatementAnalyzer(20_000);

    public Planning(ScratchDatabase db) throws SQLException {
        this(db, null);
    }

    public Planning(ScratchDatabase db, TestRole role) throws SQLException {
        this.db = db;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(role == null ? db.user() : role.name());
        config.setPassword(role == null ? db.password() : role.password());
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        config.setPoolName("test-planner-" + db.engine().key());
        this.pool = new HikariDataSource(config);
        try (Connection c = pool.getConnection()) {
            this.dialect = Dialects.of(c, db.engine() == Engine.POSTGRES ? Identifier.of(db.name()) : null);
            dialect.initConnection(c);
            this.lex = dialect.lexSettings(c);
        }
    }

    public Planner planner(Policy policy) {
        return planner(policy, Bounds.DEFAULT);
    }

    public Planner planner(Policy policy, Bounds bounds) {
        return planner(pool, policy, bounds);
    }

    public Planner planner(DataSource source, Policy policy, Bounds bounds) {
        return new Planner(source, dialect, policy, bounds, null, Clock.systemUTC());
    }

    public Analysis analyze(String sql) throws SQLException {
        return analyzer.analyze(sql, lex);
    }

    public Plan plan(Policy policy, String sql, Object... params) throws SQLException {
        return plan(planner(policy), sql, params);
    }

    public Plan plan(Planner planner, String sql, Object... params) throws SQLException {
        return planner.plan(List.of(proposal(sql, params)), "assistant");
    }

    public Proposal proposal(String sql, Object... params) throws SQLException {
        List<Parameter> ps = new ArrayList<>();
        for (Object p : params) {
            ps.add(Parameter.of(p));
        }
        return new Proposal(analyze(sql), ps);
    }

    public List<String> snapshot(String table) throws SQLException {
        return db.snapshot(table);
    }

    @Override
    public void close() {
        pool.close();
    }
}
