package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.apply.Applier;
import dev.llmsafe.apply.Approver;
import dev.llmsafe.dialect.Bounds;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dialect.RowReader;
import dev.llmsafe.plan.ColumnChange;
import dev.llmsafe.plan.Plan;
import dev.llmsafe.plan.PlannedStatement;
import dev.llmsafe.plan.RowChange;
import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.store.PlanStore;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.value.Value;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A differential run of one prepared statement (D16, D17): the same text, bound by the same code, run
 * raw on a copy of the table through the vendor driver and committed, and through {@code jdbc:llmsafe:}
 * on the table itself, planned, approved and applied. What the raw run changed is what the card must
 * list, row by row and value by value; the applied table must equal the raw run's; a statement the
 * raw run rejects must be refused. Both tables are reset to the same rows before each run.
 *
 * <p>The statement names its table {@code {t}}; the raw run's copy is {@code raw_<t>}. A later
 * randomized test drives {@link #run} with generated statements and bindings.
 */
final class Differential implements AutoCloseable {

    /** Binds a statement's parameters, as an application does. */
    @FunctionalInterface
    interface Bind {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** What happened: the raw run's error or the rows it changed, and the plan or the refusal. */
    record Outcome(SQLException rawError, int rawCount, Map<Object, Map<String, Value>> rawChanges,
            Optional<Plan> plan, RefusedException refusal) {
    }

    final Guarded g;
    final ScratchDatabase db;
    final String table;
    private final String urlOptions;
    private final List<String> seed;
    private final HikariDataSource pool;
    private final Dialect dialect;
    private final PlanStore store;
    private final Applier applier;

    /**
     * @param ddl the CREATE TABLE of the table, {@code {t}} for its name; the first column is the key
     * @param seed the INSERTs of its rows, {@code {t}} for its name
     * @param urlOptions options of the vendor driver for the application, the raw run and the apply
     *     (Connector/J's connectionTimeZone, say), as {@code a=b&c=d}, or empty
     */
    Differential(ScratchDatabase db, String table, String impact, String ddl, List<String> seed, String urlOptions)
            throws SQLException {
        this.db = db;
        this.table = table;
        this.urlOptions = urlOptions;
        this.seed = List.copyOf(seed);
        db.execute(ddl.replace("{t}", table), ddl.replace("{t}", "raw_" + table));
        Policy policy = Policy.define(p -> p.table(table, t -> t.impact(impact)));
        this.g = Guarded.of(db, policy);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(vendorUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(0);
        this.pool = new HikariDataSource(config);
        try (Connection c = pool.getConnection()) {
            this.dialect = Dialects.of(c, db.engine() == Engine.POSTGRES ? Identifier.of(db.name()) : null);
        }
        this.store = new PlanStore(pool, null, Duration.ofHours(1), Clock.systemUTC());
        store.migrate();
        this.applier = new Applier(store, pool, dialect, policy, Bounds.DEFAULT, false, null);
    }

    /** The plan store the runs are approved and applied from. */
    PlanStore store() {
        return store;
    }

    /** The applier of the runs, on connections with the options. */
    Applier applier() {
        return applier;
    }

    private String vendorUrl() {
        String url = db.url();
        return urlOptions.isEmpty() ? url : url + (url.contains("?") ? "&" : "?") + urlOptions;
    }

    private Connection raw;
    private Connection guarded;

    /**
     * The raw connection of the vendor driver, with the options; opened once (a connection a second, on a
     * machine shared by other test runs, is most of the time a run takes), again after {@link #reconnect}.
     */
    Connection raw() throws SQLException {
        if (raw == null || raw.isClosed()) {
            raw = DriverManager.getConnection(vendorUrl(), g.credentials());
        }
        return raw;
    }

    /** The application's jdbc:llmsafe: connection, with the options; opened once, like {@link #raw}. */
    Connection guarded() throws SQLException {
        if (guarded == null || guarded.isClosed()) {
            guarded = DriverManager.getConnection(g.url(urlOptions), g.credentials());
        }
        return guarded;
    }

    /** Opens new connections from now on: pgjdbc sets the session's TimeZone to the JVM's when it connects. */
    void reconnect() throws SQLException {
        for (Connection c : new Connection[] {raw, guarded}) {
            if (c != null) {
                c.close();
            }
        }
        raw = null;
        guarded = null;
        if (pool.getHikariPoolMXBean() != null) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
    }

    /** Puts the same rows into both tables. */
    void reset() throws SQLException {
        for (String t : List.of(table, "raw_" + table)) {
            db.execute("DELETE FROM " + t);
            for (String s : seed) {
                db.execute(s.replace("{t}", t));
            }
        }
    }

    /**
     * Runs the statement both ways from the same rows and checks the promises; returns what happened so
     * that the caller can check more.
     */
    Outcome run(String sql, Bind bind) throws SQLException {
        return run(sql, bind, bind);
    }

    /**
     * Runs it with one binding for the application and another for the raw run, where llmsafe binds
     * differently on purpose (the SQLType form of setObject, which pgjdbc and sqlite-jdbc do not
     * implement, bound as the int form JDBC defines it as).
     */
    Outcome run(String sql, Bind bind, Bind rawBind) throws SQLException {
        reset();
        Map<Object, List<Value>> seeded = rows("raw_" + table);
        SQLException rawError = null;
        SQLException bindError = null;
        int rawCount = -1;
        try (PreparedStatement ps = raw().prepareStatement(sql.replace("{t}", "raw_" + table))) {
            try {
                rawBind.bind(ps);
            } catch (SQLException e) {
                bindError = e;
            }
            if (bindError == null) {
                rawCount = ps.executeUpdate();
            }
        } catch (SQLException e) {
            rawError = e;
        }
        if (bindError != null) {
            // The vendor driver refused the setter itself (pgjdbc has no setURL): so does the guarded statement.
            SQLException raw = bindError;
            try (PreparedStatement ps = guarded().prepareStatement(sql.replace("{t}", table))) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> bind.bind(ps)).as(sql)
                        .isInstanceOf(SQLException.class).hasMessage(raw.getMessage());
            }
            return new Outcome(raw, -1, Map.of(), Optional.empty(), null);
        }
        Map<Object, List<Value>> rawAfter = rows("raw_" + table);
        Map<Object, Map<String, Value>> rawChanges = changes(seeded, rawAfter);
        PlanPendingException pending = null;
        RefusedException refusal = null;
        try (PreparedStatement ps = guarded().prepareStatement(sql.replace("{t}", table))) {
            bind.bind(ps);
            ps.executeUpdate();
            throw new AssertionError(sql + ": ran through jdbc:llmsafe: instead of becoming a plan or a refusal");
        } catch (PlanPendingException e) {
            pending = e;
        } catch (RefusedException e) {
            refusal = e;
        } catch (SQLException e) {
            // The vendor driver refused it before llmsafe could (SQLite checks function names when it prepares).
            assertThat((Object) rawError).as("%s: failed through jdbc:llmsafe: (%s) but not raw", sql, e).isNotNull();
            assertThat(e.getMessage()).as(sql).isEqualTo(rawError.getMessage().replace("raw_" + table, table));
            return new Outcome(rawError, rawCount, rawChanges, Optional.empty(), null);
        }
        assertThat(rows(table)).as("%s: the dry run changed nothing", sql).isEqualTo(seeded);
        if (rawError != null || rawChanges.isEmpty()) {
            assertThat((Object) pending).as("%s: raw %s, yet it became a plan:%n%s", sql,
                    rawError != null ? "was rejected (" + rawError.getMessage() + ")" : "changed no row",
                    pending == null ? "" : pending.getMessage()).isNull();
            if (rawError != null) {
                // R10: a reason that can carry values is given by its SQLState only.
                assertThat(refusal.getMessage()).as("%s: refused with the database's reason", sql)
                        .contains(dev.llmsafe.DatabaseErrors.mayCarryValues(rawError)
                                ? "SQLState " + rawError.getSQLState()
                                : firstLine(rawError.getMessage()).replace("raw_" + table, table));
            }
            return new Outcome(rawError, rawCount, rawChanges, Optional.empty(), refusal);
        }
        assertThat((Object) refusal).as("%s: raw changed %s, yet it was refused:%n%s", sql, rawChanges,
                refusal == null ? "" : refusal.getMessage()).isNull();
        Plan plan = pending.plan();
        PlannedStatement s = plan.statements().get(0);
        Map<Object, Map<String, Value>> carded = new LinkedHashMap<>();
        for (RowChange r : s.rows()) {
            if (r.columns().isEmpty()) {
                continue;
            }
            Map<String, Value> cols = new LinkedHashMap<>();
            for (ColumnChange ch : r.columns()) {
                cols.put(ch.column().toLowerCase(java.util.Locale.ROOT), ch.after());
            }
            carded.put(key(r.key().values().iterator().next()), cols);
        }
        assertThat(carded).as("%s: the card lists exactly the rows and values the raw run changed%n%s", sql, plan.card())
                .isEqualTo(rawChanges);
        store.save(plan);
        new Approver(store, false).approve(plan.id(), "approver");
        applier.apply(plan.id(), "approver");
        assertThat(rows(table)).as("%s: the applied table equals the raw run's", sql).isEqualTo(rawAfter);
        return new Outcome(null, rawCount, rawChanges, Optional.of(plan), null);
    }

    private static String firstLine(String message) {
        String m = Objects.requireNonNullElse(message, "");
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** Every row of a table by its first column, each value read exactly (D13). */
    Map<Object, List<Value>> rows(String t) throws SQLException {
        Map<Object, List<Value>> out = new LinkedHashMap<>();
        Connection c = raw();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + t + " ORDER BY 1")) {
            RowReader reader = dialect.values().rowReader(c, rs.getMetaData());
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                names.add(rs.getMetaData().getColumnLabel(i).toLowerCase(java.util.Locale.ROOT));
            }
            columns = names;
            while (rs.next()) {
                List<Value> row = reader.read(rs);
                out.put(key(row.get(0)), row);
            }
        }
        return out;
    }

    private List<String> columns = List.of();

    private static Object key(Value v) {
        return v.render();
    }

    private Map<Object, Map<String, Value>> changes(Map<Object, List<Value>> before, Map<Object, List<Value>> after) {
        Map<Object, Map<String, Value>> out = new LinkedHashMap<>();
        for (Map.Entry<Object, List<Value>> e : before.entrySet()) {
            List<Value> a = after.get(e.getKey());
            Map<String, Value> cols = new LinkedHashMap<>();
            for (int i = 0; i < e.getValue().size(); i++) {
                if (a == null) {
                    cols.put(columns.get(i), null);
                } else if (!e.getValue().get(i).equals(a.get(i))) {
                    cols.put(columns.get(i), a.get(i));
                }
            }
            if (!cols.isEmpty()) {
                out.put(e.getKey(), cols);
            }
        }
        return out;
    }

    @Override
    public void close() {
        try {
            reconnect();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        pool.close();
    }
}
