package dev.llmsafe.check;

import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.Deployment.Role;
import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.CheckReport.Guard;
import dev.llmsafe.check.CheckReport.State;
import dev.llmsafe.check.CheckReport.StoreStatus;
import dev.llmsafe.check.CheckReport.TableStatus;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.QualifiedName;
import dev.llmsafe.policy.TablePolicy;
import dev.llmsafe.store.PlanStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code llmsafe check}: per allowlisted table whether a dry run is possible there, and a real one on a
 * real row (E1, E6); whether the store exists (T1); where each guard sits, which connections share a
 * credential, and whether the read connection can write, proven by a write that cannot touch a row
 * inside a rolled-back transaction (E7, E8); how "rows affected" counts on MySQL/MariaDB (E2); what is
 * taken on trust (T3). Every finding is from the database, or says that it could not be established.
 */
public final class EnvironmentCheck {

    private final Deployment deployment;

    /** @param deployment the connections to check */
    public EnvironmentCheck(Deployment deployment) {
        this.deployment = deployment;
    }

    /**
     * Issue 19: every allowlisted table is read once by the read connection, so that a table the read
     * credential has no grant on is this report's finding and not a read's surprise (PostgreSQL's
     * "permission denied", MySQL's and MariaDB's catalog hiding the table). A table it cannot read is not
     * ready, whatever the planning connection can do there.
     */
    private List<TableStatus> readable(Dialect dialect, List<TableStatus> tables) throws SQLException {
        List<TablePolicy> policies = List.copyOf(deployment.config().policy().tables().values());
        List<TableStatus> out = new ArrayList<>(tables.size());
        try (Connection c = deployment.pool(Role.READ).getConnection()) {
            dialect.initConnection(c);
            for (int i = 0; i < tables.size(); i++) {
                TableStatus t = tables.get(i);
                Optional<String> denied = t.resolved() == null ? Optional.empty() : unreadable(dialect, c,
                        policies.get(i).name());
                if (denied.isEmpty()) {
                    out.add(t);
                    continue;
                }
                List<String> problems = new ArrayList<>(t.problems());
                problems.add("the read connection (" + deployment.settings(Role.READ).describe() + ") cannot read it: "
                        + denied.get() + ". Grant it SELECT, as samples/roles does for the read role; until then every"
                        + " read of it is refused (NOT_GRANTED)");
                out.add(new TableStatus(t.name(), t.resolved(), State.NOT_READY, problems, t.measured()));
            }
        }
        return out;
    }

    /**
     * Issue 19: the apply connection may UPDATE and DELETE every table ready for a dry run, proven by
     * both statements matching no row in a transaction rolled back; a table it may not write is not
     * ready, because every plan on it would be approved and then fail at apply.
     */
    private List<TableStatus> appliable(Dialect dialect, List<TableStatus> tables) throws SQLException {
        if (tables.stream().noneMatch(t -> t.state() == State.READY)) {
            return tables;
        }
        List<TablePolicy> policies = List.copyOf(deployment.config().policy().tables().values());
        List<TableStatus> out = new ArrayList<>(tables.size());
        try (Connection c = deployment.pool(Role.APPLY).getConnection()) {
            dialect.initConnection(c);
            for (int i = 0; i < tables.size(); i++) {
                TableStatus t = tables.get(i);
                Optional<String> denied = t.state() == State.READY ? unwritable(dialect, c, policies.get(i).name())
                        : Optional.empty();
                if (denied.isEmpty()) {
                    out.add(t);
                    continue;
                }
                List<String> problems = new ArrayList<>(t.problems());
                problems.add("the apply connection (" + deployment.settings(Role.APPLY).describe() + ") cannot write it: "
                        + denied.get() + ". Grant it what the planning connection has there, as samples/roles does for"
                        + " the apply role; until then every approved plan on it fails at apply");
                out.add(new TableStatus(t.name(), t.resolved(), State.NOT_READY, problems, t.measured()));
            }
        }
        return out;
    }

    /** Why the connection may not UPDATE or DELETE the table, or nothing when it may; nothing is changed. */
    private static Optional<String> unwritable(Dialect dialect, Connection c, QualifiedName name) throws SQLException {
        Optional<TableInfo> info = dialect.table(c, name);
        if (info.isEmpty() || info.get().primaryKey().isEmpty()) {
            return info.isEmpty() ? Optional.of("its catalog does not show it") : Optional.empty();
        }
        String key = dialect.quote(info.get().primaryKey().get(0));
        String table = dialect.renderAsWritten(name);
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE " + table + " SET " + key + " = " + key + " WHERE 1 = 0");
            st.executeUpdate("DELETE FROM " + table + " WHERE 1 = 0");
            return Optional.empty();
        } catch (SQLException e) {
            if (dialect.isPrivilegeDenied(e) || dialect.isReadOnlyViolation(e)) {
                return Optional.of(e.getMessage());
            }
            throw e;
        } finally {
            c.rollback();
            c.setAutoCommit(auto);
        }
    }

    /** Why the read connection cannot read the table, or nothing when it can. */
    private static Optional<String> unreadable(Dialect dialect, Connection c, QualifiedName name) throws SQLException {
        try (Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT * FROM " + dialect.renderAsWritten(name) + " WHERE 1 = 0")) {
            return Optional.empty();
        } catch (SQLException e) {
            if (dialect.isPrivilegeDenied(e)) {
                return Optional.of(e.getMessage());
            }
            if (dialect.table(c, name).isEmpty()) {
                return Optional.of("its catalog does not show it (" + e.getMessage() + ")");
            }
            throw e;
        }
    }

    /** Runs every check. */
    public CheckReport run() throws SQLException {
        Dialect dialect = deployment.dialect();
        List<TableStatus> tables = new ArrayList<>();
        TableProbe probe = new TableProbe(deployment);
        try (Connection c = deployment.pool(Role.PLAN).getConnection()) {
            dialect.initConnection(c);
            for (TablePolicy tp : deployment.config().policy().tables().values()) {
                tables.add(probe.probe(c, tp));
            }
        }
        tables = readable(dialect, tables);
        tables = appliable(dialect, tables);
        StoreStatus store = store();
        List<Guard> guards = guards(tables);
        List<String> notes = new ArrayList<>();
        notes.add(deployment.sealKey() == null
                ? "No seal key is set here: whoever can write the store can change a plan, recompute its checksum"
                        + " and mark it approved. Set sealKey on the planning and the applying side."
                : "A seal key is set here. The planning and the applying side must both set the same one, or every"
                        + " plan is refused (PLAN_UNSEALED).");
        notes.add("Actor names (--as) are taken at their word: they are recorded, and the proposer is refused as"
                + " approver, but they are not an authorisation boundary. The boundary is the apply credential.");
        Optional<String> rowsChanged = dialect.rowsChangedOption();
        if (rowsChanged.isPresent()) {
            notes.add(rowsAffected(tables, rowsChanged.get()));
        }
        boolean ready = store.exists() && tables.stream().noneMatch(t -> t.state() == State.NOT_READY);
        return new CheckReport(dialect.product(), tables, store, guards, notes, ready);
    }

    private StoreStatus store() {
        try {
            Optional<Integer> v = deployment.store().version();
            if (v.isEmpty()) {
                return new StoreStatus(false, "missing: run `llmsafe migrate` to create it");
            }
            return v.get() >= PlanStore.VERSION ? new StoreStatus(true, "version " + v.get() + ", at "
                    + deployment.settings(Role.STORE).describe())
                    : new StoreStatus(false, "version " + v.get() + ": run `llmsafe migrate` to upgrade it");
        } catch (SQLException e) {
            return new StoreStatus(false, "cannot be reached: " + e.getMessage());
        }
    }

    private List<Guard> guards(List<TableStatus> tables) {
        List<Guard> out = new ArrayList<>();
        for (Role role : Role.values()) {
            ConnectionSettings s = deployment.settings(role);
            List<String> shares = new ArrayList<>();
            for (Role other : Role.values()) {
                if (other != role && credential(deployment.settings(other)).equals(credential(s))) {
                    shares.add(other.name().toLowerCase(Locale.ROOT));
                }
            }
            String finding = switch (role) {
                case READ -> readOnly(tables);
                case PLAN -> "writes for real, always rolled back";
                case APPLY -> shares.contains("plan") ? "the SAME credential as plan: the separation between proposing"
                        + " and committing then rests entirely on this library being correct" : "commits approved plans";
                case STORE -> shares.contains("apply") ? "the same credential as apply: whatever commits a change can"
                        + " also edit the record of its approval" : "holds plans and the audit trail";
            };
            out.add(new Guard(role.name().toLowerCase(Locale.ROOT), s.describe(), deployment.configured(role), shares,
                    finding));
        }
        return out;
    }

    private static String credential(ConnectionSettings s) {
        int q = s.url().indexOf('?');
        return (q < 0 ? s.url() : s.url().substring(0, q)) + "\u0000" + s.user().orElse("");
    }

    /**
     * E7: a write that cannot touch a row (WHERE 1 = 0), inside a transaction that is rolled back; the
     * database checks the privilege before it matches a row, so nothing is touched either way. Every
     * allowlisted table is probed: a credential refused on one table (a read-only one) may still write
     * another, and that is a credential that can write.
     */
    private String readOnly(List<TableStatus> tables) {
        List<TablePolicy> probed = deployment.config().policy().tables().values().stream()
                .filter(tp -> tables.stream().anyMatch(t -> t.resolved() != null && t.name().equals(tp.name().toString())))
                .toList();
        if (probed.isEmpty()) {
            return "could not be established: no allowlisted table to probe";
        }
        String prefix = deployment.configured(Role.READ) ? "" : "not set, so reads use the caller's connection (the"
                + " planning credential for the command line); ";
        try (Connection c = deployment.pool(Role.READ).getConnection()) {
            // The configured schema is pinned on this connection too, so the probe resolves the name as reads do.
            deployment.dialect(Role.READ).initConnection(c);
            List<String> names = new ArrayList<>();
            for (TablePolicy tp : probed) {
                names.add(deployment.dialect().renderAsWritten(tp.name()));
            }
            String failure = null;
            for (String name : names) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("DELETE FROM " + name + " WHERE 1 = 0");
                    return prefix + "this credential CAN write (a DELETE ... WHERE 1 = 0 on " + name + " was accepted):"
                            + " the allowlist in this library is the only thing stopping a write through reads. Point"
                            + " readConnection at a role with SELECT only.";
                } catch (SQLException e) {
                    if (!refusedForPrivilege(e) && failure == null) {
                        failure = e.getMessage();
                    }
                } finally {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            }
            if (failure != null) {
                return prefix + "could not be established: the probe failed for another reason (" + failure + ")";
            }
            return prefix + "a credential the database itself refuses writes from (probed on " + String.join(", ", names)
                    + ")";
        } catch (SQLException e) {
            return prefix + "could not be established: " + e.getMessage();
        }
    }

    /** E7: the write was refused for want of a privilege, or by a read-only session or file. */
    static boolean refusedForPrivilege(SQLException e) {
        String state = String.valueOf(e.getSQLState());
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return Dialects.isPrivilegeDenied(e) || state.equals("25006") || e.getErrorCode() == 1792
                || m.contains("readonly") || m.contains("read-only") || m.contains("permission denied");
    }

    /** E2: on MySQL and MariaDB, "rows affected" means rows matched only with the driver's default. */
    private String rowsAffected(List<TableStatus> tables, String rowsChanged) {
        try {
            Dialect dialect = deployment.dialect();
            TablePolicy tp = deployment.config().policy().tables().values().stream()
                    .filter(t -> tables.stream().anyMatch(s -> s.name().equals(t.name().toString())
                            && (s.state() == State.READY || s.problems().stream()
                                    .anyMatch(p -> p.startsWith(TableProbe.PROBE_REFUSED)))))
                    .findFirst().orElse(null);
            if (tp == null) {
                return "Rows affected: could not be established (no table ready for a dry run to probe).";
            }
            ConnectionSettings s = deployment.settings(Role.PLAN);
            long matched;
            long changed;
            boolean hasRow;
            try (Connection c = deployment.pool(Role.PLAN).getConnection()) {
                TableInfo info = dialect.table(c, tp.name()).orElseThrow();
                String col = dialect.quote(info.primaryKey().isEmpty() ? info.columns().get(0).name() : info.primaryKey().get(0));
                String sql = "UPDATE " + dialect.renderAsWritten(tp.name()) + " SET " + col + " = " + col
                        + " WHERE " + col + " = (SELECT m FROM (SELECT MIN(" + col + ") AS m FROM "
                        + dialect.renderAsWritten(tp.name()) + ") x)";
                matched = sameValueUpdate(c, sql);
                // A connection that counts rows changed reports 0 for a table that has rows, too.
                try (Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT 1 FROM "
                        + dialect.renderAsWritten(tp.name()) + " LIMIT 1")) {
                    hasRow = rs.next();
                }
                Properties p = new Properties();
                s.user().ifPresent(u -> p.setProperty("user", u));
                s.password().ifPresent(pw -> p.setProperty("password", pw.reveal()));
                String url = s.url() + (s.url().contains("?") ? "&" : "?") + rowsChanged;
                try (Connection other = DriverManager.getConnection(url, p)) {
                    changed = sameValueUpdate(other, sql);
                }
            }
            if (!hasRow) {
                return "Rows affected: could not be established (the probed table has no row).";
            }
            if (matched == 1 && changed == 0) {
                return "Rows affected are rows matched on the engine's connections (probed: a same-value UPDATE reports"
                        + " 1, and 0 with " + rowsChanged + "), which is what the dry run compares (D9).";
            }
            return "Rows affected: a same-value UPDATE reported " + matched + " (and " + changed + " with "
                    + rowsChanged + "); the dry run expects 1. Check the URL's useAffectedRows setting.";
        } catch (SQLException | RuntimeException e) {
            return "Rows affected: could not be established (" + e.getMessage() + ").";
        }
    }

    private static long sameValueUpdate(Connection c, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }
}
