package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlanSink;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * A scratch database reached through {@code jdbc:llmsafe:}, as an application reaches it: a config
 * file with the policy, the URL with {@code llmsafe.config}, and an in-memory plan sink in place of
 * the store. Asserts what the database holds through its administrator connection.
 */
final class Guarded {

    /** Where plans go in tests: a list, in the order they were saved. */
    static final class MemorySink implements PlanSink {
        final List<Plan> plans = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void save(Plan plan) {
            plans.add(plan);
        }
    }

    static final MemorySink SINK = new MemorySink();
    private static PlanSinkFactory previous;

    /** Sends the plans of engines made from now on to {@link #SINK}; call from @BeforeAll. */
    static void useMemorySink() {
        previous = Engines.shared().useSinks((config, pool, dialect) -> SINK);
    }

    /** Puts back the default sink; call from @AfterAll. */
    static void restoreSink() {
        if (previous != null) {
            Engines.shared().useSinks(previous);
        }
    }

    final ScratchDatabase db;
    final Path config;

    private Guarded(ScratchDatabase db, Path config) {
        this.db = db;
        this.config = config;
    }

    /** The scratch database guarded by a policy; the config file lives next to it. */
    static Guarded of(ScratchDatabase db, Policy policy) {
        return of(db, policy, b -> { });
    }

    static Guarded of(ScratchDatabase db, Policy policy, Consumer<LlmSafeConfig.Builder> more) {
        try {
            LlmSafeConfig.Builder b = LlmSafeConfig.builder().connection(ConnectionSettings.of(db.url())).policy(policy);
            more.accept(b);
            Path file = Files.createTempFile("llmsafe-test-", ".json");
            file.toFile().deleteOnExit();
            Files.writeString(file, b.build().toJson());
            return new Guarded(db, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Engine engine() {
        return db.engine();
    }

    /** The application's URL: jdbc:llmsafe: in front of the scratch URL, with the config path. */
    String url() {
        return url("");
    }

    /** The URL with more parameters, each {@code name=value}. */
    String url(String extra) {
        String real = db.url();
        String params = "llmsafe.config=" + URLEncoder.encode(config.toString(), StandardCharsets.UTF_8)
                + (extra.isEmpty() ? "" : "&" + extra);
        return DriverUrl.PREFIX + real.substring("jdbc:".length()) + (real.contains("?") ? "&" : "?") + params;
    }

    Properties credentials() {
        Properties p = new Properties();
        if (db.user() != null) {
            p.setProperty("user", db.user());
        }
        if (db.password() != null) {
            p.setProperty("password", db.password());
        }
        return p;
    }

    /** A guarded connection through DriverManager; the caller closes it. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), credentials());
    }

    /** Runs statements as the administrator, around the guard. */
    void admin(String... sql) throws SQLException {
        db.execute(sql);
    }

    long count(String sql) throws SQLException {
        try (Statement s = db.admin().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Every table of the scratch database and every row of each, as text: asserting it equal before and
     * after an attempt shows that nothing in the database changed (no row, and no new table).
     */
    Map<String, List<String>> checksum() throws SQLException {
        Connection c = db.admin();
        DatabaseMetaData md = c.getMetaData();
        Map<String, List<String>> out = new TreeMap<>();
        String catalog = engine() == Engine.MYSQL ? db.name() : null;
        String schema = engine() == Engine.POSTGRES ? db.name() : null;
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME"));
            }
        }
        for (String t : tables) {
            String q = engine() == Engine.MYSQL ? "`" + t + "`" : "\"" + t + "\"";
            List<String> rows = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + q)) {
                ResultSetMetaData m = rs.getMetaData();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= m.getColumnCount(); i++) {
                        row.append(i == 1 ? "" : "|").append(rs.getString(i));
                    }
                    rows.add(row.toString());
                }
            }
            Collections.sort(rows);
            out.put(t, rows);
        }
        return out;
    }

    /** Asserts that an attempt fails with the refusal code and that the database is exactly as it was. */
    void refusedUnchanged(Refusal code, ThrowingCallable attempt) throws SQLException {
        Map<String, List<String>> before = checksum();
        assertThatThrownBy(attempt).isInstanceOf(RefusedException.class)
                .satisfies(e -> assertThat(((RefusedException) e).code()).as(e.getMessage()).isEqualTo(code));
        assertThat(checksum()).isEqualTo(before);
    }

    /** Asserts that an attempt became a pending plan and that the database is exactly as it was. */
    PlanPendingException plannedUnchanged(ThrowingCallable attempt) throws SQLException {
        Map<String, List<String>> before = checksum();
        int saved = SINK.plans.size();
        PlanPendingException[] caught = new PlanPendingException[1];
        assertThatThrownBy(attempt).isInstanceOf(PlanPendingException.class)
                .satisfies(e -> caught[0] = (PlanPendingException) e);
        assertThat(checksum()).isEqualTo(before);
        assertThat(SINK.plans).hasSize(saved + 1);
        assertThat(SINK.plans.get(saved).id()).isEqualTo(caught[0].planId());
        return caught[0];
    }
}
