package dev.llmsafe.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.CheckReport.State;
import dev.llmsafe.check.CheckReport.TableStatus;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code check} on real databases: each table's state from the catalog and a real dry run, and the guards. */
class CheckTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    static final Policy POLICY = Policy.define(p -> p
            .table("ok_t", t -> t.impact("x"))
            .table("nokey_t", t -> t.impact("x"))
            .table("parent_t", t -> t.impact("x"))
            .table("trig_t", t -> t.impact("x"))
            .table("ro_t")
            .table("missing_t", t -> t.impact("x")));

    static ScratchDatabase schema(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.fresh(engine);
        db.execute("CREATE TABLE ok_t (id INT PRIMARY KEY, v INT)", "INSERT INTO ok_t VALUES (1, 1)",
                "CREATE TABLE nokey_t (id INT, v INT)",
                "CREATE TABLE parent_t (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE child_t (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES parent_t (id) ON DELETE CASCADE)",
                "CREATE TABLE trig_t (id INT PRIMARY KEY, v INT, note VARCHAR(10))",
                "CREATE TABLE ro_t (id INT PRIMARY KEY)");
        switch (engine) {
            case POSTGRES -> db.execute("CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN NEW.note := 'x'; RETURN NEW; END $$",
                    "CREATE TRIGGER touch BEFORE UPDATE ON trig_t FOR EACH ROW EXECUTE FUNCTION touch()");
            case MYSQL -> db.execute("CREATE TRIGGER touch BEFORE UPDATE ON trig_t FOR EACH ROW SET NEW.note = 'x'");
            case SQLITE -> db.execute("CREATE TRIGGER touch AFTER UPDATE ON trig_t BEGIN"
                    + " UPDATE trig_t SET note = 'x' WHERE id = NEW.id; END");
        }
        return db;
    }

    static LlmSafeConfig.Builder config(ScratchDatabase db) {
        LlmSafeConfig.Builder b = LlmSafeConfig.builder()
                .connection(ConnectionSettings.of(db.url(), db.user(), db.password())).policy(POLICY);
        if (db.engine() == Engine.POSTGRES) {
            b.schema(db.name());
        }
        return b;
    }

    static TableStatus table(CheckReport r, String name) {
        return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E6_E1_T1_eachTableSaysWhetherADryRunIsPossibleAndWhyNot(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        try (Deployment d = new Deployment(config(db).build(), Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            assertThat(r.ready()).isFalse();
            assertThat(r.store().exists()).isFalse();
            assertThat(r.store().message()).contains("run `llmsafe migrate`");
            assertThat(table(r, "ok_t").state()).isEqualTo(State.READY);
            assertThat(table(r, "ok_t").measured()).startsWith("a dry run on one real row ran, was rolled back, and the"
                    + " rollback was proven");
            assertThat(table(r, "nokey_t").state()).isEqualTo(State.NOT_READY);
            assertThat(table(r, "nokey_t").problems()).singleElement().satisfies(p -> assertThat(p).contains("no primary key"));
            assertThat(table(r, "parent_t").problems()).anySatisfy(p -> assertThat(p).contains("child_t (pid) is ON DELETE CASCADE"));
            assertThat(table(r, "trig_t").problems()).anySatisfy(p -> assertThat(p).contains("UPDATE triggers (touch)")
                    .contains("policy.autoColumns"));
            assertThat(table(r, "ro_t").state()).isEqualTo(State.READ_ONLY);
            assertThat(table(r, "missing_t").problems()).singleElement().satisfies(p -> assertThat(p)
                    .contains("cannot see a table by this name"));
            String text = CheckText.render(r);
            assertThat(text).contains("ok_t: ready").contains("nokey_t: NOT READY").contains("Ready: no");
            d.store().migrate();
            assertThat(new EnvironmentCheck(d).run().store().exists()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void E8_T3_theReportSaysWhereEachGuardSitsAndWhatIsTakenOnTrust(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        try (Deployment d = new Deployment(config(db).build(), Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            assertThat(r.guards()).extracting(CheckReport.Guard::role).containsExactly("read", "plan", "apply", "store");
            CheckReport.Guard apply = r.guards().get(2);
            assertThat(apply.own()).isFalse();
            assertThat(apply.sharesWith()).contains("plan");
            assertThat(apply.finding()).contains("the SAME credential as plan");
            assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("No seal key is set here"));
            assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("Actor names (--as) are taken at their word")
                    .contains("not an authorisation boundary"));
            assertThat(CheckText.render(r)).contains("Where the guards actually sit");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E7_aReadConnectionIsProvenReadOnlyByAWriteThatCannotTouchARow(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        TestRole reader = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON ALL TABLES IN SCHEMA {db} TO {role}")
                : db.createRole("GRANT SELECT ON {db}.* TO {role}");
        LlmSafeConfig separate = config(db).readConnection(ConnectionSettings.of(db.url(), reader.name(), reader.password()))
                .build();
        try (Deployment d = new Deployment(separate, Clock.systemUTC())) {
            CheckReport.Guard read = new EnvironmentCheck(d).run().guards().get(0);
            assertThat(read.own()).isTrue();
            assertThat(read.finding()).startsWith("a credential the database itself refuses writes from (probed on ");
        }
        try (Deployment d = new Deployment(config(db).build(), Clock.systemUTC())) {
            CheckReport.Guard read = new EnvironmentCheck(d).run().guards().get(0);
            assertThat(read.own()).isFalse();
            assertThat(read.finding()).contains("this credential CAN write");
        }
        assertThat(db.admin().createStatement().executeQuery("SELECT COUNT(*) FROM ok_t")).satisfies(rs -> {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        });
    }

    /** E1: an allowlisted table the planning credential was not granted is that table's finding; check goes on. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E1_aTableThePlanningCredentialMayNotUseIsNotReadyAndTheOthersAreStillChecked(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        db.execute("CREATE TABLE ungranted_t (id INT PRIMARY KEY, v INT)", "INSERT INTO ungranted_t VALUES (1, 1)");
        // MySQL and MariaDB show the table to a credential with a database-level privilege (as samples/roles grants).
        TestRole planner = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT, UPDATE, DELETE ON {db}.ok_t TO {role}")
                : db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.ok_t TO {role}",
                        "GRANT " + db.catalogPrivilege() + " ON {db}.* TO {role}");
        LlmSafeConfig.Builder b = LlmSafeConfig.builder()
                .connection(ConnectionSettings.of(db.url(), planner.name(), planner.password()))
                .policy(Policy.define(p -> p.table("ok_t", t -> t.impact("x")).table("ungranted_t", t -> t.impact("x"))));
        if (engine == Engine.POSTGRES) {
            b.schema(db.name());
        }
        try (Deployment d = new Deployment(b.build(), Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            assertThat(table(r, "ok_t").state()).isEqualTo(State.READY);
            assertThat(table(r, "ungranted_t").state()).isEqualTo(State.NOT_READY);
            // Reads use the planning credential here (no readConnection), so they cannot read it either (E10),
            // except on MySQL, where the catalog grant (SELECT on the database) lets it read.
            List<String> problems = table(r, "ungranted_t").problems();
            assertThat(problems).hasSize(db.isMysql() ? 1 : 2).first().satisfies(p -> assertThat(p)
                    .startsWith("the probe failed: ").contains("ungranted_t").endsWith("A dry run needs SELECT, UPDATE and DELETE"
                            + " on it for the planning credential (samples/roles)"));
            if (!db.isMysql()) {
                assertThat(problems.get(1)).contains("the read connection (").contains("cannot read it");
            }
            assertThat(r.ready()).isFalse();
        }
    }

    /**
     * E1: a table the planning role sees only through TRIGGER (MySQL and MariaDB list it, without its columns;
     * MySQL without its key either: measured on 8.0.31, 10.11.19 and 11.4.5) is not ready because the
     * credential cannot read it, not because it would have no primary key.
     */
    @Test
    void E1_aTableSeenOnlyThroughATriggerGrantIsReportedAsUnreadableNotKeyless() throws SQLException {
        ScratchDatabase db = schema(Engine.MYSQL);
        db.execute("CREATE TABLE trig_only_t (id INT PRIMARY KEY, v INT)", "INSERT INTO trig_only_t VALUES (1, 1)");
        TestRole planner = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.ok_t TO {role}",
                "GRANT TRIGGER ON {db}.* TO {role}");
        LlmSafeConfig config = LlmSafeConfig.builder()
                .connection(ConnectionSettings.of(db.url(), planner.name(), planner.password()))
                .policy(Policy.define(p -> p.table("trig_only_t", t -> t.impact("x")))).build();
        try (Deployment d = new Deployment(config, Clock.systemUTC())) {
            TableStatus t = table(new EnvironmentCheck(d).run(), "trig_only_t");
            assertThat(t.state()).isEqualTo(State.NOT_READY);
            assertThat(t.problems()).noneSatisfy(p -> assertThat(p).contains("primary key"))
                    .anySatisfy(p -> assertThat(p).startsWith("this credential sees the table but none of its columns")
                            .contains("SELECT, UPDATE and DELETE on it"));
        }
    }

    /**
     * E1, D15: a planning role whose database-level privilege comes from a grant on a pattern
     * ({@code app%}) sees what a grant on the name shows, and check says the table is ready; one
     * whose pattern does not match the database is told which grant is missing.
     */
    @Test
    void E1_aPlanningRoleGrantedOnADatabasePatternIsReady() throws SQLException {
        ScratchDatabase db = schema(Engine.MYSQL);
        String escaped = db.name().replace("_", "\\_");
        String pattern = escaped.substring(0, escaped.length() - 2) + "%";
        String hint = "GRANT " + db.catalogPrivilege();
        for (String grant : List.of(pattern, pattern.toUpperCase(java.util.Locale.ROOT))) {
            TestRole planner = db.createRole("GRANT SELECT, UPDATE, DELETE ON {db}.ok_t TO {role}",
                    "GRANT " + db.catalogPrivilege() + " ON `" + grant + "`.* TO {role}");
            LlmSafeConfig config = LlmSafeConfig.builder()
                    .connection(ConnectionSettings.of(db.url(), planner.name(), planner.password()))
                    .policy(Policy.define(p -> p.table("ok_t", t -> t.impact("x")))).build();
            try (Deployment d = new Deployment(config, Clock.systemUTC())) {
                TableStatus ok = table(new EnvironmentCheck(d).run(), "ok_t");
                if (grant.equals(pattern)) {
                    assertThat(ok.state()).as(ok.problems().toString()).isEqualTo(State.READY);
                } else {
                    assertThat(ok.state()).isEqualTo(State.NOT_READY);
                    assertThat(ok.problems()).anySatisfy(p -> assertThat(p).contains("cannot see all")
                            .contains(hint + " ON `" + db.name() + "`.*"));
                }
            }
        }
    }

    /** A credential refused a write on the first table probed may still write another: it is one that can write. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E7_aReadConnectionThatCanWriteAnyAllowlistedTableIsReportedAsAbleToWrite(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        TestRole reader = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON ALL TABLES IN SCHEMA {db} TO {role}",
                        "GRANT DELETE ON {db}.trig_t TO {role}")
                : db.createRole("GRANT SELECT ON {db}.* TO {role}", "GRANT DELETE ON {db}.trig_t TO {role}");
        LlmSafeConfig config = config(db).readConnection(ConnectionSettings.of(db.url(), reader.name(), reader.password()))
                .build();
        try (Deployment d = new Deployment(config, Clock.systemUTC())) {
            CheckReport.Guard read = new EnvironmentCheck(d).run().guards().get(0);
            assertThat(read.finding()).startsWith("this credential CAN write (a DELETE ... WHERE 1 = 0 on trig_t was"
                    + " accepted)");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"SQLITE"})
    void E7_aSqliteFileOpenedReadOnlyIsProvenReadOnly(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        LlmSafeConfig separate = config(db).readConnection(ConnectionSettings.of(db.url() + "?open_mode=1")).build();
        try (Deployment d = new Deployment(separate, Clock.systemUTC())) {
            CheckReport.Guard read = new EnvironmentCheck(d).run().guards().get(0);
            assertThat(read.finding()).startsWith("a credential the database itself refuses writes from");
        }
    }

    /**
     * E2, D9: a planning URL with useAffectedRows=true (which counts rows changed: 0 for a same-value UPDATE)
     * does not reach the engine's connections, which pin it to false as the driver does: the tables are
     * ready, and the probe says rows affected are rows matched.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL"})
    void E2_aPlanningUrlAskingForRowsChangedIsPinnedToRowsMatched(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "useAffectedRows=true";
        LlmSafeConfig config = LlmSafeConfig.builder().connection(ConnectionSettings.of(url, db.user(), db.password()))
                .policy(POLICY).build();
        try (Deployment d = new Deployment(config, Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            assertThat(table(r, "ok_t").state()).as(table(r, "ok_t").problems().toString()).isEqualTo(State.READY);
            assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("Rows affected are rows matched on the"
                    + " engine's connections (probed: a same-value UPDATE reports 1, and 0 with useAffectedRows=true)"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MYSQL"})
    void E2_rowsAffectedIsProbedBothWays(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        try (Deployment d = new Deployment(config(db).build(), Clock.systemUTC())) {
            List<String> notes = new EnvironmentCheck(d).run().notes();
            assertThat(notes).anySatisfy(n -> assertThat(n).startsWith("Rows affected are rows matched on the engine's"
                    + " connections (probed: a same-value UPDATE reports 1, and 0 with useAffectedRows=true)"));
        }
    }

    /** E9: on SQLite without a rollback journal on disk, no table is probed, so none is called proven. */
    @org.junit.jupiter.api.Test
    void E9_checkNeverCallsARollbackProvenWithoutARollbackJournal() throws SQLException {
        for (String mode : List.of("off", "memory", "wal")) {
            ScratchDatabase db = schema(Engine.SQLITE);
            LlmSafeConfig config = LlmSafeConfig.builder()
                    .connection(ConnectionSettings.of(db.url() + "?journal_mode=" + mode, null, null)).policy(POLICY).build();
            try (Deployment d = new Deployment(config, Clock.systemUTC())) {
                TableStatus ok = table(new EnvironmentCheck(d).run(), "ok_t");
                if (mode.equals("wal")) {
                    assertThat(ok.state()).as(mode).isEqualTo(State.READY);
                    assertThat(ok.measured()).as(mode).contains("the rollback was proven");
                } else {
                    assertThat(ok.state()).as(mode).isEqualTo(State.NOT_READY);
                    assertThat(ok.measured()).as(mode).isEqualTo("not probed").doesNotContain("proven");
                    assertThat(ok.problems()).as(mode).anySatisfy(p -> assertThat(p).contains("journal_mode")
                            .contains("Open it with journal_mode DELETE"));
                }
            }
        }
    }

    /**
     * E10: check proves the read connection can read every allowlisted table; one it cannot is not ready
     * and says which grant is missing, and a read of it through the guard is NOT_GRANTED on every
     * database (PostgreSQL's "permission denied", MariaDB's 1142 or its catalog hiding the table), never
     * an unexpected error or a wrong TABLE_NOT_ALLOWED.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E10_checkProvesTheReadConnectionCanReadEveryAllowlistedTable(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        // The read role may read ok_t and nothing else.
        TestRole reader = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON {db}.ok_t TO {role}")
                : db.createRole("GRANT SELECT ON {db}.ok_t TO {role}");
        LlmSafeConfig config = config(db).readConnection(ConnectionSettings.of(db.url(), reader.name(), reader.password()))
                .build();
        try (Deployment d = new Deployment(config, Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            assertThat(table(r, "ok_t").problems()).noneMatch(p -> p.contains("read connection"));
            TableStatus ro = table(r, "ro_t");
            assertThat(ro.state()).isEqualTo(State.NOT_READY);
            assertThat(ro.problems()).anySatisfy(p -> assertThat(p).contains("the read connection (")
                    .contains("cannot read it").contains("Grant it SELECT"));
            assertThat(r.ready()).isFalse();
        }
        try (com.zaxxer.hikari.HikariDataSource pool = readSource(db, reader);
             java.sql.Connection c = new dev.llmsafe.jdbc.LlmSafeDataSource(pool, config.policy()).getConnection();
             java.sql.Statement st = c.createStatement()) {
            assertThat(st.executeQuery("SELECT id FROM ok_t").next()).isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeQuery("SELECT id FROM ro_t"))
                    .isInstanceOf(dev.llmsafe.RefusedException.class)
                    .satisfies(e -> assertThat(((dev.llmsafe.RefusedException) e).code()).isEqualTo(dev.llmsafe.Refusal.NOT_GRANTED))
                    .hasMessageContaining("SELECT");
        }
    }

    /** E10: an apply connection that may not write a table ready for a dry run makes it not ready. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MYSQL"})
    void E10_checkProvesTheApplyConnectionCanWriteEveryTableReadyForADryRun(Engine engine) throws SQLException {
        ScratchDatabase db = schema(engine);
        TestRole applier = engine == Engine.POSTGRES
                ? db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON ALL TABLES IN SCHEMA {db} TO {role}")
                : db.createRole("GRANT SELECT ON {db}.* TO {role}");
        LlmSafeConfig config = config(db).applyConnection(ConnectionSettings.of(db.url(), applier.name(), applier.password()))
                .build();
        List<String> before = db.snapshot("ok_t");
        try (Deployment d = new Deployment(config, Clock.systemUTC())) {
            CheckReport r = new EnvironmentCheck(d).run();
            TableStatus ok = table(r, "ok_t");
            assertThat(ok.state()).isEqualTo(State.NOT_READY);
            assertThat(ok.problems()).singleElement().satisfies(p -> assertThat(p).startsWith("the apply connection (")
                    .contains("cannot write it").contains("every approved plan on it fails at apply"));
            assertThat(table(r, "ro_t").problems()).isEmpty();
        }
        try (Deployment d = new Deployment(config(db).build(), Clock.systemUTC())) {
            assertThat(table(new EnvironmentCheck(d).run(), "ok_t").state()).isEqualTo(State.READY);
        }
        assertThat(db.snapshot("ok_t")).isEqualTo(before);
    }

    private static com.zaxxer.hikari.HikariDataSource readSource(ScratchDatabase db, TestRole role) {
        com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
        hc.setJdbcUrl(db.url());
        hc.setUsername(role.name());
        hc.setPassword(role.password());
        hc.setMaximumPoolSize(1);
        return new com.zaxxer.hikari.HikariDataSource(hc);
    }
}
