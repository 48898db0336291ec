package dev.llmsafe.dryrun;

import static dev.llmsafe.dryrun.PlannerTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.Refusal;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * E9: SQLite without a rollback journal on disk is not planned on, and the measurement that says why.
 * SQLite only: PostgreSQL and InnoDB have no setting that makes ROLLBACK undefined (a non-transactional
 * MySQL engine is D15's NOT_TRANSACTIONAL).
 */
class SqliteJournalTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final Policy POLICY = Policy.define(p -> p.table("accounts", t -> t.impact("An account's balance is money.")));

    /** The measured fact E9 rests on (SPEC.md): ROLLBACK under each journal mode, with the cache spilled. */
    @Test
    void E9_rollbackRestoresALargeUpdateUnderEveryJournalModeButOff() throws SQLException {
        for (String mode : List.of("delete", "truncate", "persist", "memory", "wal", "off")) {
            ScratchDatabase db = dbs.fresh(Engine.SQLITE);
            try (Connection c = DriverManager.getConnection(db.url() + "?journal_mode=" + mode);
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                s.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)"
                        + " INSERT INTO t SELECT i, printf('%0100d', i) FROM n");
                assertThat(string(s, "PRAGMA journal_mode")).isEqualTo(mode);
                s.execute("PRAGMA cache_size = 10");
                c.setAutoCommit(false);
                assertThat(s.executeUpdate("UPDATE t SET v = 'changed'")).isEqualTo(20_000);
                c.rollback();
                c.setAutoCommit(true);
                long changed = Long.parseLong(string(s, "SELECT count(*) FROM t WHERE v = 'changed'"));
                if (mode.equals("off")) {
                    assertThat(changed).as(mode).isGreaterThan(10_000);
                } else {
                    assertThat(changed).as(mode).isZero();
                }
            }
        }
    }

    @Test
    void E9_aDryRunIsRefusedUnlessTheJournalModeGuaranteesTheRollback() throws SQLException {
        for (String mode : List.of("off", "memory", "delete", "truncate", "persist", "wal")) {
            ScratchDatabase db = dbs.fresh(Engine.SQLITE);
            db.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)",
                    "INSERT INTO accounts VALUES (1, 100), (2, 200)");
            try (Planning p = new Planning(db); HikariDataSource pool = pool(db.url() + "?journal_mode=" + mode)) {
                Planner planner = p.planner(pool, POLICY, Bounds.DEFAULT);
                Proposal proposal = p.proposal("UPDATE accounts SET balance = 0 WHERE id = 1");
                if (mode.equals("off") || mode.equals("memory")) {
                    assertRefused(() -> planner.plan(List.of(proposal), "assistant"), Refusal.NOT_TRANSACTIONAL,
                            "journal_mode");
                } else {
                    Plan plan = planner.plan(List.of(proposal), "assistant");
                    assertThat(plan.card()).as(mode).contains("balance: 100 -> 0");
                }
                assertThat(p.snapshot("accounts")).as(mode).containsExactly("[1, 100]", "[2, 200]");
            }
        }
    }

    @Test
    void E9_anInMemoryDatabaseKeepsItsMemoryJournal() throws SQLException {
        try (HikariDataSource pool = pool("jdbc:sqlite:file:e9mem?mode=memory&cache=shared");
                Connection keep = pool.getConnection(); Statement s = keep.createStatement()) {
            s.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)");
            s.execute("INSERT INTO accounts VALUES (1, 100)");
            assertThat(string(s, "PRAGMA journal_mode")).isEqualTo("memory");
            dev.llmsafe.dialect.Dialect dialect = dev.llmsafe.dialect.Dialects.of(keep, null);
            assertThat(dialect.rollbackUndefined(keep, new dev.llmsafe.dialect.TableRef("main", "accounts"))).isEmpty();
            s.executeQuery("PRAGMA journal_mode = off").close();
            assertThat(dialect.rollbackUndefined(keep, new dev.llmsafe.dialect.TableRef("main", "accounts")))
                    .hasValueSatisfying(why -> assertThat(why).contains("journal_mode=off"));
        }
    }

    private static HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(0);
        config.setPoolName("test-journal");
        return new HikariDataSource(config);
    }

    private static String string(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
