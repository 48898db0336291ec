package dev.llmsafe.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.dryrun.Planner;
import dev.llmsafe.dryrun.Proposal;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The type matrix through the whole dry run (D13): for every column of every type, an UPDATE that
 * changes it by the smallest possible step shows exactly that change on the plan, from NULL too,
 * and a same-value UPDATE is NO_CHANGE. The columns are the value readers' own matrix.
 */
class PlannerTypeMatrixTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void D13_eachSmallestStepIsExactlyOneChangeOnThePlan(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        TypeMatrix m = TypeMatrix.on(engine, db);
        m.table();
        String snapshot = snapshot(db, m);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        config.setConnectionInitSql(engine == Engine.MYSQL ? "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'" : null);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            Dialect dialect;
            LexSettings lex;
            try (Connection c = pool.getConnection()) {
                dialect = Dialects.of(c, engine == Engine.POSTGRES ? Identifier.of(db.name()) : null);
                dialect.initConnection(c);
                lex = dialect.lexSettings(c);
            }
            Planner planner = new Planner(pool, dialect, Policy.define(p -> p.table("matrix", t -> t.impact("x"))),
                    Bounds.DEFAULT, null, Clock.systemUTC());
            StatementAnalyzer analyzer = new StatementAnalyzer(50_000);
            List<String> refusedByAnalysis = new ArrayList<>();
            for (TypeMatrix.Col col : m.columns()) {
                String step = "UPDATE matrix SET " + col.name() + " = " + col.step() + " WHERE id = 1";
                Plan plan;
                try {
                    plan = planner.plan(List.of(new Proposal(analyzer.analyze(step, lex), List.of())), "t");
                } catch (RefusedException e) {
                    if (e.code() == Refusal.PARSE_DISAGREEMENT || e.code() == Refusal.PARSE) {
                        // A literal the two readers disagree on is refused before any run; listed below.
                        refusedByAnalysis.add(col.name() + ": " + e.code());
                        continue;
                    }
                    throw new AssertionError(col + ": " + e.getMessage(), e);
                }
                List<ColumnChange> changes = plan.statements().get(0).rows().get(0).columns();
                assertThat(changes).as(col.toString()).extracting(ColumnChange::column).containsExactly(col.name());
                assertThat(changes.get(0).before()).as(col.toString()).isNotEqualTo(changes.get(0).after());

                String same = "UPDATE matrix SET " + col.name() + " = " + col.base() + " WHERE id = 1";
                assertThatThrownBy(() -> planner.plan(List.of(new Proposal(analyzer.analyze(same, lex), List.of())), "t"))
                        .as(col.toString()).isInstanceOf(RefusedException.class)
                        .satisfies(e -> assertThat(((RefusedException) e).code()).as(e.getMessage()).isEqualTo(Refusal.NO_CHANGE));

                String fromNull = "UPDATE matrix SET " + col.name() + " = " + col.base() + " WHERE id = 2";
                Plan set = planner.plan(List.of(new Proposal(analyzer.analyze(fromNull, lex), List.of())), "t");
                assertThat(set.statements().get(0).rows().get(0).columns().get(0).before().isNull()).as(col.toString()).isTrue();
            }
            System.out.println(engine.key() + ": " + m.columns().size() + " types planned; refused by the analysis: "
                    + refusedByAnalysis);
            assertThat(refusedByAnalysis.size()).as("most types are planned, not refused").isLessThan(m.columns().size() / 4);
        }
        assertThat(snapshot(db, m)).isEqualTo(snapshot);
    }

    private static String snapshot(ScratchDatabase db, TypeMatrix m) throws SQLException {
        List<String> rows = new ArrayList<>();
        for (int id = 1; id <= 2; id++) {
            rows.add(m.readPlain(db.admin(), id).stream().map(Object::toString).collect(Collectors.joining("|")));
        }
        return String.join("\n", rows);
    }
}
