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

/**
 * D14: the dry run asks the database how many rows its transaction wrote, and compares that with the
 * rows it displays. Each fact runs one statement inside a transaction, reads the measure before and
 * after it, and rolls back; as an administrator, as the planning role with table grants only, and as
 * the least-privilege role of samples/roles.
 */
final class SideEffectFacts {

    /** The session status counters MySQL and MariaDB's measure reads; the Handler_tmp_* ones are shown apart. */
    private static final List<String> HANDLER = List.of("Handler_write", "Handler_update", "Handler_delete");
    private static final List<String> HANDLER_TMP = List.of("Handler_tmp_write", "Handler_tmp_update",
            "Handler_tmp_delete");

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
                        case MARIADB, MYSQL -> handler(c).get("Handler_update") + " update counted at BEGIN";
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
     * Is the measure read right after the statement up to date? (InnoDB's INNODB_TRX, the measure
     * before, was a snapshot refreshed only after 0.1 s without readers, and was behind.)
     */
    static String measureFreshness(Scratch db, ServerId server) throws Exception {
        db.execute("CREATE TABLE f27 (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO f27 VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
        try (Connection c = connect(db, server, null)) {
            c.setAutoCommit(false);
            try {
                Sql.exec(c, "UPDATE f27 SET v = 1 WHERE id = 1");
                String atOnce = "up to date";
                for (int id = 2; id <= 4; id++) {
                    long before = updates(c, server);
                    Sql.exec(c, "UPDATE f27 SET v = 1 WHERE id = " + id);
                    if (updates(c, server) != before + 1) {
                        atOnce = "behind";
                    }
                }
                return "read at once: " + atOnce;
            } finally {
                c.rollback();
            }
        }
    }

    private static long updates(Connection c, ServerId server) throws SQLException {
        return switch (server.flavor()) {
            case POSTGRES -> Sql.count(c, "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'f27'");
            case MARIADB, MYSQL -> handler(c).get("Handler_update");
            case SQLITE -> Sql.count(c, "SELECT total_changes()");
        };
    }

    /**
     * Plain statements on 3 of 4 rows: an UPDATE that changes them, the same UPDATE again (the values
     * already set), {@code SET v = v}, a DELETE, and an UPDATE matching no row; each in a transaction
     * of its own, rolled back. What the measure counts for the statement's own rows (D14).
     */
    static String plainStatements(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f39_plain (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO f39_plain VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
        Answer.Parts parts = new Answer.Parts();
        try (Connection c = connect(db, server, null)) {
            parts.put("UPDATE of 3", measure(c, server, "UPDATE f39_plain SET v = 5 WHERE id <= 3"));
            Sql.exec(c, "UPDATE f39_plain SET v = 5 WHERE id <= 3");
            parts.put("the same UPDATE again", measure(c, server, "UPDATE f39_plain SET v = 5 WHERE id <= 3"));
            parts.put("SET v = v", measure(c, server, "UPDATE f39_plain SET v = v WHERE id <= 3"));
            parts.put("DELETE of 3", measure(c, server, "DELETE FROM f39_plain WHERE id <= 3"));
            parts.put("no row", measure(c, server, "UPDATE f39_plain SET v = 6 WHERE id > 100"));
        }
        return parts.toString();
    }

    /** A parent with 2 children referencing it ON UPDATE SET NULL and ON DELETE SET NULL (D14, D15). */
    static String setNull(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f40_parent (id INT PRIMARY KEY, code VARCHAR(10) NOT NULL UNIQUE)",
                "INSERT INTO f40_parent VALUES (1, 'a'), (2, 'b')",
                "CREATE TABLE f40_child (id INT PRIMARY KEY, parent_id INT, parent_code VARCHAR(10),"
                        + " FOREIGN KEY (parent_id) REFERENCES f40_parent (id) ON DELETE SET NULL,"
                        + " FOREIGN KEY (parent_code) REFERENCES f40_parent (code) ON UPDATE SET NULL ON DELETE SET NULL)",
                "INSERT INTO f40_child VALUES (1, 1, 'a'), (2, 1, 'a')");
        Answer.Parts parts = new Answer.Parts();
        try (Connection c = connect(db, server, null)) {
            parts.put("ON UPDATE SET NULL", measure(c, server, "UPDATE f40_parent SET code = 'z' WHERE id = 1"));
            parts.put("ON DELETE SET NULL", measure(c, server, "DELETE FROM f40_parent WHERE id = 1"));
        }
        return parts.toString();
    }

    /**
     * Stored routines that write, 1 row updated each time: an AFTER UPDATE trigger that calls a
     * procedure inserting a row, a function inserting a row called in SET, and the same function in
     * WHERE. SQLite has no stored routines.
     */
    static String writingRoutines(Scratch db, ServerId server) throws SQLException {
        if (server.flavor() == Flavor.SQLITE) {
            return "n/a (no stored procedures or functions)";
        }
        db.execute("CREATE TABLE f41_t (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f41_t VALUES (1, 0), (2, 0)",
                "CREATE TABLE f41_fired (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO f41_fired VALUES (1, 0)",
                "CREATE TABLE f41_log (v INT)");
        if (server.flavor() == Flavor.POSTGRES) {
            db.execute("CREATE PROCEDURE f41_write(x INT) LANGUAGE plpgsql AS $$ BEGIN INSERT INTO f41_log VALUES (x);"
                            + " END $$",
                    "CREATE FUNCTION f41_fire() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN CALL f41_write(NEW.v);"
                            + " RETURN NEW; END $$",
                    "CREATE TRIGGER f41_fire AFTER UPDATE ON f41_fired FOR EACH ROW EXECUTE FUNCTION f41_fire()",
                    "CREATE FUNCTION f41_logged(x INT) RETURNS INT LANGUAGE plpgsql AS $$ BEGIN"
                            + " INSERT INTO f41_log VALUES (x); RETURN x; END $$");
        } else {
            db.execute("CREATE PROCEDURE f41_write(x INT) INSERT INTO f41_log VALUES (x)",
                    "CREATE TRIGGER f41_fire AFTER UPDATE ON f41_fired FOR EACH ROW CALL f41_write(NEW.v)",
                    "CREATE FUNCTION f41_logged(x INT) RETURNS INT DETERMINISTIC BEGIN INSERT INTO f41_log VALUES (x);"
                            + " RETURN x; END");
        }
        Answer.Parts parts = new Answer.Parts();
        try (Connection c = connect(db, server, null)) {
            parts.put("trigger calling a procedure", measure(c, server, "UPDATE f41_fired SET v = 1 WHERE id = 1"));
            parts.put("function in SET", measure(c, server, "UPDATE f41_t SET v = f41_logged(1) WHERE id = 1"));
            parts.put("function in WHERE", measure(c, server, "UPDATE f41_t SET v = 1 WHERE id = f41_logged(1)"));
        }
        return parts.toString();
    }

    /**
     * An UPDATE of 3 rows whose WHERE reads a derived table (a GROUP BY subquery), which MariaDB
     * materialises in an internal temporary table: does the measure count those rows?
     */
    static String internalTemporaryTable(Scratch db, ServerId server) throws SQLException {
        db.execute("CREATE TABLE f42_t (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO f42_t VALUES (1, 0), (2, 0), (3, 0), (4, 0)",
                "CREATE TABLE f42_keys (k INT NOT NULL, n INT NOT NULL)",
                "INSERT INTO f42_keys VALUES (1, 1), (1, 2), (2, 3), (3, 4)");
        try (Connection c = connect(db, server, null)) {
            return measure(c, server, "UPDATE f42_t SET v = v + 1 WHERE id IN (SELECT k FROM"
                    + " (SELECT k FROM f42_keys GROUP BY k) d)");
        }
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
     * rolls back. The "before" read is inside the transaction, because no counter starts at zero
     * there (F26): MySQL and MariaDB's session counters count since the connection opened.
     */
    static String measure(Connection c, ServerId server, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            Object before;
            try {
                before = read(c, server);
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
                return handler(c);
            }
            case SQLITE -> {
                return Sql.count(c, "SELECT total_changes()");
            }
        }
        throw new IllegalStateException();
    }

    @SuppressWarnings("unchecked")
    private static String difference(ServerId server, Object before, Object after) {
        if (server.flavor() == Flavor.SQLITE) {
            return plural((Long) after - (Long) before, "change");
        }
        if (server.flavor() != Flavor.POSTGRES) {
            Map<String, Long> b = (Map<String, Long>) before;
            Map<String, Long> a = (Map<String, Long>) after;
            List<String> counted = new ArrayList<>();
            List<String> apart = new ArrayList<>();
            for (String name : a.keySet()) {
                long d = a.get(name) - b.getOrDefault(name, 0L);
                if (d != 0) {
                    (HANDLER.contains(name) ? counted : apart).add(name + " " + d);
                }
            }
            return (counted.isEmpty() ? "nothing" : String.join(" + ", counted))
                    + (apart.isEmpty() ? "" : " (apart: " + String.join(" + ", apart) + ")");
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

    /**
     * The session's Handler counters that count rows written, in {@link #HANDLER} order, then MariaDB's
     * internal temporary tables' (MySQL has none of those).
     */
    private static Map<String, Long> handler(Connection c) throws SQLException {
        Map<String, Long> all = new java.util.HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Handler%'")) {
            while (rs.next()) {
                all.put(rs.getString(1), rs.getLong(2));
            }
        }
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (String name : HANDLER) {
            out.put(name, all.getOrDefault(name, 0L));
        }
        for (String name : HANDLER_TMP) {
            if (all.containsKey(name)) {
                out.put(name, all.get(name));
            }
        }
        return out;
    }

}
