package dev.llmsafe.conformance;

import dev.llmsafe.conformance.ServerId.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * D14: the dry run asks the database how many rows its transaction wrote, and compares that with the
 * rows it displays. Each fact runs one statement inside a transaction, reads the measure before and
 * after it, and rolls back; as an administrator, as the planning role with table grants only, and as
 * the least-privilege role of samples/roles.
 */
final class SideEffectFacts {

    /** InnoDB refreshes its INNODB_TRX snapshot only when nobody read it for 0.1 s (F27). */
    private static final long INNODB_TRX_CACHE_MS = 100;

    private SideEffectFacts() {
    }

    static String triggerWrite(Scratch db, ServerId server) throws SQLException {
        Ddl.tableWithAuditTrigger(db, server.flavor(), "f22_accounts", "f22_audit");
        return asRoles(db, server, "f22_accounts", "f22_audit", "UPDATE f22_accounts SET v = v + 1 WHERE id = 1");
    }

    static String deleteCascade(Scratch db, ServerId server) throws SQLException {
        Ddl.parentAndChild(db, "f23_parent", "f23_child", "id", "ON DELETE CASCADE");
        return asRoles(db, server, "f23_parent", null, "DELETE FROM f23_parent WHERE id = 1");
    }

    static String updateCascade(Scratch db, ServerId server) throws SQLException {
        Ddl.parentAndChild(db, "f24_parent", "f24_child", "code", "ON UPDATE CASCADE");
        return asRoles(db, server, "f24_parent", null, "UPDATE f24_parent SET code = 'z' WHERE id = 1");
    }

    static String primaryKeyUpdate(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f25_accounts (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO f25_accounts VALUES (1, 0)");
        try (Connection c = connect(db, server, null)) {
            return measure(c, server, "UPDATE f25_accounts SET id = 10 WHERE id = 1");
        }
    }

    /**
     * At the start of a transaction, right after the same connection committed one update: does the
     * measure already count something? PostgreSQL's answer depends on when the session last flushed
     * its statistics (at most once a second, when idle), so the probe tries three times and reports
     * a count if any attempt saw one: one sighting is enough to make a single read wrong.
     */
    static String measureScope(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f26 (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f26 VALUES (1, 0)");
        String answer = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Connection c = connect(db, server, null)) {
                Sql.exec(c, "UPDATE f26 SET v = v + 1 WHERE id = 1");
                c.setAutoCommit(false);
                try {
                    answer = switch (server.flavor()) {
                        case POSTGRES -> Sql.one(c, "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'f26'")
                                + " update counted at BEGIN";
                        case MARIADB, MYSQL -> {
                            Long rows = innodbRowsModified(c);
                            yield rows == null ? "no row for the transaction until it touches InnoDB"
                                    : plural(rows, "row") + " at BEGIN";
                        }
                        case SQLITE -> Sql.one(c, "SELECT total_changes()") + " change counted at BEGIN";
                    };
                } finally {
                    c.rollback();
                }
            }
            if (!answer.startsWith("0 ")) {
                break;
            }
        }
        return answer;
    }

    /**
     * Is the measure read right after the statement up to date? InnoDB serves INNODB_TRX from a
     * snapshot that it refreshes only when nobody read it for 0.1 s; a stale snapshot shows in
     * trx_query, which names the reading query only in a snapshot taken by that query. A pause of the
     * JVM, or another session reading INNODB_TRX, can change one attempt's outcome, so the probe tries
     * up to three times to see a stale read, and waits for a fresh one after it.
     */
    static String measureFreshness(Scratch db, ServerId server) throws Exception {
        db.execute("CREATE TABLE f27 (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO f27 VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
        try (Connection c = connect(db, server, null)) {
            c.setAutoCommit(false);
            try {
                Sql.exec(c, "UPDATE f27 SET v = 1 WHERE id = 1");
                if (server.flavor() != Flavor.MARIADB && server.flavor() != Flavor.MYSQL) {
                    String measure = server.flavor() == Flavor.POSTGRES
                            ? "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'f27'"
                            : "SELECT total_changes()";
                    long before = Sql.count(c, measure);
                    Sql.exec(c, "UPDATE f27 SET v = 1 WHERE id = 2");
                    return "read at once: " + (Sql.count(c, measure) == before + 1 ? "up to date" : "behind");
                }
                String atOnce = "up to date";
                for (int id = 2; id <= 4; id++) {
                    long before = freshRows(c);
                    Sql.exec(c, "UPDATE f27 SET v = 1 WHERE id = " + id);
                    Snapshot s = innodbSnapshot(c);
                    if (!s.fresh()) {
                        atOnce = (s.rows() != null && s.rows() == before ? "behind" : "changed")
                                + ", stale snapshot (trx_query is not the reading query)";
                        break;
                    }
                }
                long expected = Sql.count(c, "SELECT count(*) FROM f27 WHERE v = 1");
                return new Answer.Parts()
                        .put("read at once", atOnce)
                        .put("read 0.12 s after the last read", freshRows(c) == expected ? "up to date" : "wrong")
                        .toString();
            } finally {
                c.rollback();
            }
        }
    }

    /** This transaction's trx_rows_modified from a snapshot taken by the reading query itself. */
    private static long freshRows(Connection c) throws SQLException {
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                Thread.sleep(INNODB_TRX_CACHE_MS + 20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            Snapshot s = innodbSnapshot(c);
            if (s.fresh()) {
                return s.rows() == null ? 0 : s.rows();
            }
        }
        throw new SQLException("INNODB_TRX stayed stale for ten reads 0.12 s apart");
    }

    static String sqliteForeignKeysByDefault(Scratch db, ServerId server) throws SQLException {
        Ddl.parentAndChild(db, "f28_parent", "f28_child", "id", "ON DELETE CASCADE");
        try (Connection c = db.connect()) { // the driver's defaults, no PRAGMA
            String setting = switch (server.flavor()) {
                case POSTGRES -> "always on";
                case MARIADB, MYSQL -> "foreign_key_checks " + Sql.one(c, "SELECT @@foreign_key_checks");
                case SQLITE -> "foreign_keys " + Sql.one(c, "PRAGMA foreign_keys");
            };
            c.setAutoCommit(false);
            try {
                Sql.exec(c, "DELETE FROM f28_parent WHERE id = 1");
                long children = Sql.count(c, "SELECT count(*) FROM f28_child");
                return setting + ", DELETE of the parent " + (children == 0 ? "cascades" : "leaves the children");
            } finally {
                c.rollback();
            }
        }
    }

    /**
     * An UPDATE of one row whose AFTER UPDATE trigger writes a column of the same row again, and one whose
     * trigger writes another row of the same table: what the measure counts, and on SQLite which rowids the
     * update hook reports (how llmsafe tells the two apart there, D14).
     */
    static String sameRowTrigger(Scratch db, ServerId server) throws SQLException {
        for (String t : List.of("f32_same", "f32_other")) {
            String where = t.equals("f32_same") ? "id = NEW.id" : "id <> NEW.id";
            db.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT NOT NULL, note VARCHAR(20))",
                    "INSERT INTO " + t + " VALUES (1, 1, 'a'), (2, 2, 'b')");
            switch (server.flavor()) {
                case POSTGRES -> db.execute("CREATE FUNCTION " + t + "_touch() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$ BEGIN UPDATE " + t + " SET note = 'touched' WHERE " + where + "; RETURN NEW; END $$",
                        "CREATE TRIGGER " + t + "_touch AFTER UPDATE OF v ON " + t + " FOR EACH ROW EXECUTE FUNCTION "
                                + t + "_touch()");
                case MARIADB, MYSQL -> db.execute("CREATE TRIGGER " + t + "_touch AFTER UPDATE ON " + t
                        + " FOR EACH ROW UPDATE " + t + " SET note = 'touched' WHERE " + where);
                case SQLITE -> db.execute("CREATE TRIGGER " + t + "_touch AFTER UPDATE OF v ON " + t + " BEGIN UPDATE "
                        + t + " SET note = 'touched' WHERE " + where + "; END");
            }
        }
        Answer.Parts parts = new Answer.Parts();
        for (String t : List.of("f32_same", "f32_other")) {
            try (Connection c = connect(db, server, null)) {
                String sql = "UPDATE " + t + " SET v = 5 WHERE id = 1";
                String label = t.equals("f32_same") ? "same row" : "another row";
                parts.put(label, server.flavor() == Flavor.SQLITE ? SqliteHook.measure(c, server, sql)
                        : measure(c, server, sql));
            }
        }
        return parts.toString();
    }

    /** SQLite's update hook around the measure: every row written, with its rowid. */
    private static final class SqliteHook {
        static String measure(Connection c, ServerId server, String sql) throws SQLException {
            List<Long> rowids = new ArrayList<>();
            org.sqlite.SQLiteUpdateListener hook = (type, database, table, rowId) -> rowids.add(rowId);
            org.sqlite.SQLiteConnection sqlite = c.unwrap(org.sqlite.SQLiteConnection.class);
            sqlite.addUpdateListener(hook);
            try {
                return SideEffectFacts.measure(c, server, sql) + ", update hook: rowids " + rowids.stream()
                        .map(String::valueOf).collect(java.util.stream.Collectors.joining(" and "));
            } finally {
                sqlite.removeUpdateListener(hook);
            }
        }
    }

    // ---- measuring ----------------------------------------------------------------------------

    private static String asRoles(Scratch db, ServerId server, String table, String triggerTable, String sql)
            throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            try (Connection c = connect(db, server, null)) {
                return measure(c, server, sql); // no roles
            }
        }
        Answer.Parts parts = new Answer.Parts();
        try (Connection c = connect(db, server, null)) {
            parts.put(CatalogFacts.ADMIN, measure(c, server, sql));
        }
        ScratchRole planning = PlanningRole.tableGrantsOnly(db, server, table);
        try (Connection c = connect(db, server, planning)) {
            parts.put(CatalogFacts.PLANNING, measure(c, server, sql));
        }
        ScratchRole least = PlanningRole.leastPrivilege(db, server, table, triggerTable);
        try (Connection c = connect(db, server, least)) {
            parts.put(CatalogFacts.LEAST, measure(c, server, sql));
        }
        return parts.toString();
    }

    private static Connection connect(Scratch db, ServerId server, ScratchRole role) throws SQLException {
        Connection c = role == null ? db.connect() : db.connect(role);
        if (server.flavor() == Flavor.SQLITE) {
            // Off by default in sqlite-jdbc (F28); an application that declares cascades turns it on.
            Sql.exec(c, "PRAGMA foreign_keys = ON");
        }
        return c;
    }

    /**
     * Runs one statement in a transaction, reads the side-effect measure before and after it, and
     * rolls back. The "before" read is inside the transaction, because neither PostgreSQL's nor
     * SQLite's counter starts at zero there (F26); InnoDB's does.
     */
    static String measure(Connection c, ServerId server, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            Object before;
            try {
                // InnoDB counts per transaction, and has no row for one that has not written yet (F26).
                boolean innodb = server.flavor() == Flavor.MARIADB || server.flavor() == Flavor.MYSQL;
                before = innodb ? (Object) 0L : read(c, server);
            } catch (SQLException e) {
                return "measure unreadable: " + Sql.error(e);
            }
            String reported;
            try {
                reported = String.valueOf(s.executeUpdate(sql));
            } catch (SQLException e) {
                return "statement failed: " + Sql.error(e);
            }
            if (server.flavor() == Flavor.SQLITE) {
                // sqlite-jdbc's update count includes what triggers and cascades changed; changes() does not.
                reported += " (changes() " + Sql.one(c, "SELECT changes()") + ")";
            }
            Object after;
            try {
                after = read(c, server);
            } catch (SQLException e) {
                return "reported " + reported + ", measure unreadable: " + Sql.error(e);
            }
            return "reported " + reported + ", measured " + difference(server, before, after);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    private static Object read(Connection c, ServerId server) throws SQLException {
        switch (server.flavor()) {
            case POSTGRES -> {
                Map<String, long[]> counts = new TreeMap<>();
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_xact_user_tables"
                                + " WHERE schemaname = current_schema()")) {
                    while (rs.next()) {
                        counts.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)});
                    }
                }
                return counts;
            }
            case MARIADB, MYSQL -> {
                return freshRows(c);
            }
            case SQLITE -> {
                return Sql.count(c, "SELECT total_changes()");
            }
        }
        throw new IllegalStateException();
    }

    @SuppressWarnings("unchecked")
    private static String difference(ServerId server, Object before, Object after) {
        if (server.flavor() != Flavor.POSTGRES) {
            long d = (Long) after - (Long) before;
            return server.flavor() == Flavor.SQLITE ? plural(d, "change") : plural(d, "row") + " modified";
        }
        Map<String, long[]> b = (Map<String, long[]>) before;
        List<String> out = new ArrayList<>();
        String[] what = {"inserted", "updated", "deleted"};
        for (var e : ((Map<String, long[]>) after).entrySet()) {
            long[] was = b.getOrDefault(e.getKey(), new long[3]);
            for (int i = 0; i < 3; i++) {
                long d = e.getValue()[i] - was[i];
                if (d != 0) {
                    out.add(e.getKey().replaceFirst("^f\\d\\d_", "") + " " + d + " " + what[i]);
                }
            }
        }
        return out.isEmpty() ? "nothing" : String.join(" + ", out);
    }

    static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** One read of this transaction's INNODB_TRX row; fresh when the snapshot was taken by this read. */
    record Snapshot(Long rows, boolean fresh) {
    }

    private static Snapshot innodbSnapshot(Connection c) throws SQLException {
        String nonce = "n" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT trx_rows_modified, trx_query FROM information_schema.INNODB_TRX"
                        + " WHERE trx_mysql_thread_id = CONNECTION_ID() AND '" + nonce + "' <> ''")) {
            if (!rs.next()) {
                // No row: either the transaction has not touched InnoDB yet, or the snapshot predates it.
                return new Snapshot(null, false);
            }
            String query = rs.getString(2);
            return new Snapshot(rs.getLong(1), query != null && query.contains(nonce));
        }
    }

    private static Long innodbRowsModified(Connection c) throws SQLException {
        String v = Sql.one(c, "SELECT trx_rows_modified FROM information_schema.INNODB_TRX"
                + " WHERE trx_mysql_thread_id = CONNECTION_ID()");
        return v == null ? null : Long.valueOf(v);
    }

}
