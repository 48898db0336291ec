package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A10: a plan holding a value of every type the dialect has comes back out of the store equal, and the
 * apply of a DELETE, which compares every column of the row with what came back out of the store (A4),
 * commits.
 */
class StoreRoundTripTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void A10_everyValueTypeRoundTripsThroughTheStoreAndTheApplyComparesAgainstIt(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        TypeMatrix m = TypeMatrix.on(engine, db);
        m.table();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            Dialect dialect;
            LexSettings lex;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, engine == Engine.POSTGRES ? Identifier.of(db.name()) : null);
                dialect.initConnection(c);
                lex = dialect.lexSettings(c);
            }
            Policy policy = Policy.define(p -> p.table("matrix", t -> t.impact("x")));
            PlanStore store = new PlanStore(pool, null, Duration.ofHours(1), Clock.systemUTC());
            store.migrate();
            Planner planner = new Planner(pool, dialect, policy, Bounds.DEFAULT, null, Clock.systemUTC());
            Plan plan = planner.plan(List.of(new Proposal(new StatementAnalyzer(10_000)
                    .analyze("DELETE FROM matrix WHERE id IN (1, 2)", lex), List.of())), "assistant");
            assertThat(plan.statements().get(0).rows().get(0).columns()).hasSize(m.columns().size() + 1);
            store.save(plan);
            assertThat(store.load(plan.id()).plan()).isEqualTo(plan);
            new Approver(store, false).approve(plan.id(), "alice");
            new Applier(store, pool, dialect, policy, Bounds.DEFAULT, false, null).apply(plan.id(), "bob");
            try (var s = db.admin().createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM matrix")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }
}
