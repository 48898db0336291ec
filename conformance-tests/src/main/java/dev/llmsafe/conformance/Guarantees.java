package dev.llmsafe.conformance;

import static dev.llmsafe.conformance.Verdict.fails;
import static dev.llmsafe.conformance.Verdict.holds;
import static dev.llmsafe.conformance.Verdict.limit;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.conformance.Verdict.Status;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What each measured answer means for the guarantees, per kind of server: the answer the code was
 * built on holds; a known limit that every card declares, or that the code does not rely on, is a
 * limit; anything else fails, an answer nobody has seen before included, because code built on one
 * measurement is not known to be right on another (fail closed).
 */
final class Guarantees {

    private static final Pattern AT_BEGIN = Pattern.compile("\\d+ (update|change|row)s? (counted )?at BEGIN");
    private static final Instant INSTANT = Instant.parse("2024-02-29T13:45:56.123456Z");
    private static final DateTimeFormatter TEXT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS[XXX][X]");

    private Guarantees() {
    }

    /** The verdict on one answer. */
    static Verdict judge(Answer a) {
        Flavor f = a.flavor();
        String t = a.text();
        boolean innodb = f == Flavor.MARIADB || f == Flavor.MYSQL;
        if (t.startsWith("n/a")) {
            return notApplicable(a);
        }
        Verdict v = switch (a.fact()) {
            case F01 -> serverTimeoutOnWrites(f, t);
            case F02 -> t.startsWith("stopped with") ? holds("A statement the server's timeout cuts short fails with an"
                    + " error: a bounded statement is never mistaken for a complete one.")
                    : f == Flavor.MYSQL && t.startsWith("cut short without an error") ? limit("max_execution_time can cut"
                            + " a statement short and report success (as MySQL documents for SLEEP): llmsafe relies on"
                            + " no server timeout on MySQL (F01).")
                    : f == Flavor.SQLITE && t.equals("no such setting") ? limit("SQLite has no server statement timeout.")
                    : t.startsWith("cut short without an error") ? fails("A statement cut short by the server's timeout"
                            + " reports success here: a statement past its bound cannot be told from a complete one.")
                    : null;
            case F03, F04 -> t.startsWith("stopped with") && (a.fact() == Fact.F04 || t.endsWith("row unchanged"))
                    ? holds("Statement.setQueryTimeout stops a long statement here; llmsafe bounds time with the"
                            + " server's settings and its own cancel (F05), not with this.")
                    : limit("Statement.setQueryTimeout does not stop a running statement here"
                            + (f == Flavor.SQLITE ? " (sqlite-jdbc makes it a lock wait bound)" : "")
                            + ": llmsafe does not rely on it; it cancels from a watchdog (F05).");
            case F05 -> t.startsWith("stopped with") && t.endsWith("row unchanged")
                    ? holds("Statement.cancel() from another thread stops a write and leaves the row alone: the"
                            + " watchdog llmsafe runs past every time bound works here"
                            + (f == Flavor.SQLITE ? ", and on SQLite it is the only time bound (D6)." : " (D6)."))
                    : fails("Statement.cancel() does not stop a running write here: a statement past its bound runs on"
                            + (f == Flavor.SQLITE ? ", and nothing else bounds it on SQLite (D6)." : " (D6)."));
            case F06 -> t.startsWith("kept:") ? holds("Row locks taken after a savepoint outlive ROLLBACK TO SAVEPOINT"
                    + " here: a dry run nested in a caller's transaction would hold rows it only pretended to touch,"
                    + " so llmsafe runs each one on a connection and in a transaction of its own (D4).")
                    : t.startsWith("released:") ? holds("ROLLBACK TO SAVEPOINT gives the row locks back here; llmsafe"
                            + " still never nests a dry run in a caller's transaction (D4).") : null;
            case F07 -> t.startsWith("kept:") ? holds("The write lock outlives ROLLBACK TO SAVEPOINT in this shape too;"
                    + " llmsafe never nests a dry run (D4).")
                    : t.startsWith("released:") ? holds("With the savepoint first, the locks come back: the comfortable"
                            + " shape; F06 is the one a caller's transaction has (D4).") : null;
            case F08 -> t.equals("INSERT before it: committed · CREATE TABLE: committed")
                    ? holds("DDL commits the transaction around it, the writes before it included: DDL never reaches a"
                            + " dry run, it is refused (W12).")
                    : t.equals("INSERT before it: rolled back · CREATE TABLE: rolled back")
                            ? holds("DDL is transactional here; llmsafe refuses it all the same (W12).") : null;
            case F09 -> t.equals("1 (rows matched)") ? holds("A same-value UPDATE counts its row as affected with these"
                    + " URL settings: the dry run compares rows matched with the rows it shows (D9) and finds the"
                    + " unchanged ones itself (D10).")
                    : t.equals("0 (rows changed)") ? fails("With these URL settings the count is rows changed"
                            + " (useAffectedRows=true?): a plan that leaves a matched row unchanged is refused"
                            + " ROW_COUNT_MISMATCH. Remove useAffectedRows from llmsafe's URLs (E2).") : null;
            case F10 -> innodb && t.equals("0 (rows changed)") ? holds("useAffectedRows=true turns the count into rows"
                            + " changed: llmsafe must know which one is in force, and check probes it (E2).") : null;
            case F11 -> exact(a, "getString") ? holds("64-bit integers arrive exact, as the text llmsafe reads (D13).")
                    : fails(lostValue());
            case F12 -> exact(a, "getString") && exact(a, "getBigDecimal") ? holds("BIGINT UNSIGNED arrives exact as text"
                            + " and as BigDecimal; getLong refuses it rather than wrapping (D13).")
                    : f == Flavor.SQLITE ? limit("SQLite stores an integer above 2^63-1 as a REAL: the value is lost"
                            + " when it is written, before llmsafe sees it; the card shows what was stored.")
                    : fails(lostValue());
            case F13 -> exact(a, "getString") && exact(a, "getBigDecimal") ? holds("DECIMAL(38,10) arrives exact (D13).")
                    : f == Flavor.SQLITE ? limit("SQLite stores a 38-digit decimal as a REAL: the value is lost when it"
                            + " is written; the card shows what was stored.")
                    : fails(lostValue());
            case F14 -> exact(a, "getString") ? holds("A microsecond timestamp arrives exact as text, the form llmsafe"
                    + " reads it in" + (f == Flavor.SQLITE ? "; sqlite-jdbc's LocalDateTime getter misreads the"
                            + " microseconds, and llmsafe does not use it" : "") + " (D13).")
                    : fails(lostValue());
            case F15 -> sameInstant(a.find("getString"), f) ? holds("A timestamp with time zone arrives as the same"
                    + " instant as text" + (innodb ? " in the session zone llmsafe pins; Connector/J's Timestamp and"
                            + " OffsetDateTime shift it by the JVM's zone, and llmsafe does not use them" : "") + " (D13).")
                    : fails(lostValue());
            case F16 -> exact(a, "getString") ? holds("A zero date arrives as what it is through getString, which llmsafe"
                            + " reads; getObject refuses it (D13).") : fails(lostValue());
            case F17 -> exact(a, "getString") ? holds("JSON arrives as the text stored (D13).")
                    : f == Flavor.MYSQL && a.find("getString").orElse("").equals("'{\"role\": \"admin\"}'")
                            ? holds("MySQL returns JSON normalised; llmsafe compares JSON by content (D13).")
                            : fails(lostValue());
            case F18 -> exact(a, "getString") || a.find("getString").orElse("").equals("'{\"role\": \"admin\"}'")
                            ? holds("JSONB is normalised on the way in; llmsafe compares it by content (D13).")
                            : fails(lostValue());
            case F19 -> exact(a, "getBytes") ? holds("Binary arrives exact through getBytes, which llmsafe uses;"
                    + " getString is not a way to read it (D13).") : fails(lostValue());
            case F20 -> catalog(a, f, f == Flavor.POSTGRES ? "pg_trigger 1" : "1", "the table's trigger",
                    "a plan could miss the columns a trigger sets (D8)");
            case F21 -> catalog(a, f, f == Flavor.POSTGRES ? "pg_constraint CASCADE" : "CASCADE",
                    "an inbound ON DELETE CASCADE and its rule", "a DELETE could remove rows in another table that the"
                            + " card does not show (D15)");
            case F22 -> measure(a, f, "accounts 1 updated + audit 1 inserted", "Handler_write 1 + Handler_update 1",
                    "2 (changes() 1), measured 2 changes", "a trigger's write");
            case F23 -> innodb ? cascadeUncounted(a, "Handler_delete 1", "Handler_delete 3", "ON DELETE CASCADE")
                    : measure(a, f, "child 2 deleted + parent 1 deleted", null,
                    "3 (changes() 1), measured 3 changes", "the rows an ON DELETE CASCADE deletes");
            case F24 -> innodb ? cascadeUncounted(a, "Handler_update 1", "Handler_update 3", "ON UPDATE CASCADE")
                    : measure(a, f, "child 2 updated + parent 1 updated", null,
                    "3 (changes() 1), measured 3 changes", "the rows an ON UPDATE CASCADE changes");
            case F25 -> t.equals(switch (f) {
                case POSTGRES -> "reported 1, measured accounts 1 updated";
                case MARIADB, MYSQL -> "reported 1, measured Handler_update 1";
                case SQLITE -> "reported 1 (changes() 1), measured 1 change";
            }) ? holds("An UPDATE of the primary key counts once (D14).")
                    : fails("An UPDATE of the primary key is counted differently from what llmsafe allows for: plans"
                            + " that change a key would be refused, or a side effect mistaken for the key change (D14).");
            case F26 -> AT_BEGIN.matcher(t).matches()
                    ? holds("The side-effect measure is taken as a difference of two reads inside the dry run's"
                            + " transaction, whatever it shows at BEGIN (D14).") : null;
            case F27 -> t.equals("read at once: up to date") ? holds("The side-effect measure is live (D14).")
                    : fails("The side-effect measure lags behind the statement here: a side effect could be missed (D14).");
            case F39 -> plain(a, f);
            case F40 -> innodb ? (a.find("ON UPDATE SET NULL").orElse("").equals("reported 1, measured Handler_update 1")
                    && a.find("ON DELETE SET NULL").orElse("").equals("reported 1, measured Handler_delete 1")
                    // MySQL 9 counts the children's rows too (9.7.4); the catalog refusal stays.
                    || a.find("ON UPDATE SET NULL").orElse("").equals("reported 1, measured Handler_update 3")
                    && a.find("ON DELETE SET NULL").orElse("").equals("reported 1, measured Handler_update 4 + Handler_delete 1")
                    ? limit("The session's counters do not count what ON UPDATE / ON DELETE SET NULL writes: llmsafe"
                            + " refuses a statement that could fire one from the catalog (CASCADE_SIDE_EFFECTS, D15).")
                    : fails("The session's counters count SET NULL actions differently from what llmsafe was built"
                            + " on (D14, D15)."))
                    : t.contains("child 2 updated") || t.contains("measured 3 changes")
                            ? holds("The side-effect measure counts the rows a SET NULL action writes (D14).")
                            : fails("The side-effect measure does not count what a SET NULL action writes (D14).");
            case F41 -> a.find("trigger calling a procedure").orElse("").matches("reported 1, measured .*(log 1 inserted"
                    + "|Handler_write 1).*") && !a.find("function in SET").orElse("measured nothing").endsWith("nothing")
                    && !a.find("function in WHERE").orElse("measured nothing").endsWith("nothing")
                    ? holds("The side-effect measure counts what a trigger's procedure and a function in SET or WHERE"
                            + " write (D14).")
                    : fails("The side-effect measure misses a write of a stored routine here (D14).");
            case F42 -> t.startsWith("reported 3") && (t.endsWith("t 3 updated") || t.endsWith("measured 3 changes")
                    || t.contains("measured Handler_update 3"))
                    && !t.contains("inserted") && !t.contains("Handler_write")
                    ? holds("The rows of an internal temporary table are not counted as writes (D14).")
                    : t.matches("reported 3, measured Handler_write [1-9][0-9]* \\+ Handler_update 3")
                    ? limit("An internal temporary table's rows count as writes here (MySQL has no Handler_tmp_*):"
                            + " an UPDATE or DELETE whose plan materialises a subquery is refused as SIDE_EFFECTS,"
                            + " never planned wrongly, and every card says so (D14, E5).")
                    : fails("The side-effect measure of an UPDATE reading a derived table is not one llmsafe was"
                            + " built on (D14).");
            case F28 -> t.endsWith("DELETE of the parent cascades") ? holds("Foreign key actions happen with the"
                    + " driver's defaults: a dry run sees the cascades (D15).")
                    : f == Flavor.SQLITE ? limit("sqlite-jdbc leaves foreign keys off by default: llmsafe turns them on"
                            + " for its dry runs and applies, so a cascade is measured; the application's own"
                            + " connections cascade only with foreign_keys=true.")
                    : limit("Foreign key actions are off by default here: no cascade happens on llmsafe's connections,"
                            + " nor on the application's with the same settings.");
            case F29 -> t.startsWith("stopped with") && t.endsWith(", 0 rows written") ? holds("A read-only session"
                    + " stops a write hidden in a function a SELECT calls: the server guards reads too (R3).")
                    : fails("A read-only session does not stop a writing function here: the server-side guard of"
                            + " reads is missing (R3).");
            case F30 -> t.startsWith("stopped with") && t.endsWith(", 0 rows written") ? holds("A read-only transaction"
                            + " stops a write hidden in a function a SELECT calls (R3).")
                    : fails("A read-only transaction does not stop a writing function here (R3).");
            case F31 -> t.startsWith("not stopped") ? limit("Connection.setReadOnly is no guard with this driver and"
                    + " server: llmsafe sets the session read-only in SQL, and check proves the read connection"
                    + " cannot write (R3, E7).")
                    : t.startsWith("stopped with") ? holds("setReadOnly stops the write here; llmsafe sets the session"
                            + " read-only in SQL all the same (R3).")
                    : t.startsWith("setReadOnly refused") ? holds("sqlite-jdbc refuses setReadOnly on an open"
                            + " connection; llmsafe uses PRAGMA query_only (R3).") : null;
            case F32 -> t.contains("ALTER TABLE: waited") ? holds("A read's open transaction makes schema changes wait,"
                    + " and every session queued behind them: llmsafe ends the model's transactions at"
                    + " policy.read.holdMs (R11).")
                    : holds("A read's open transaction does not make schema changes wait here; llmsafe bounds it at"
                            + " policy.read.holdMs all the same (R11).");
            case F33 -> t.contains("UPDATE of the row read: waited") ? (innodb ? holds("SERIALIZABLE makes a read lock"
                    + " the rows it reads, in a read-only transaction too: llmsafe runs the model's reads at REPEATABLE"
                    + " READ instead (R11).")
                    : fails("SERIALIZABLE makes a read lock the rows it reads here, and llmsafe keeps that level on"
                            + " this database (R11)."))
                    : holds("SERIALIZABLE takes no row locks that make another session's UPDATE wait here (R11).");
            case F34 -> f == Flavor.POSTGRES ? (t.startsWith("next statement: error 25P03")
                    && t.endsWith("connection: closed") ? holds("The server ends an idle transaction at the bound"
                            + " llmsafe sets on the read session, by closing the connection; llmsafe tells the caller why"
                            + " with SQLState 08006, which makes pools drop the connection (R11).")
                    : fails("idle_in_transaction_session_timeout does not end an idle transaction as llmsafe expects:"
                            + " a model's transaction could hold locks past policy.read.holdMs (R11)."))
                    : limit("llmsafe does not rely on the server's idle timeout here: its own timer rolls the model's"
                            + " transaction back at policy.read.holdMs (R11).");
            case F35 -> f == Flavor.SQLITE ? (t.endsWith("waited, SQLITE_BUSY") ? holds("An open result set keeps"
                    + " SQLite's read lock, and writers wait: llmsafe closes it at policy.read.holdMs (R11).")
                    : holds("An open result set does not hold SQLite's lock here; llmsafe bounds it all the same (R11)."))
                    : t.endsWith("UPDATE ran") ? holds("The driver read the result whole: an open result set in"
                            + " auto-commit mode holds nothing here (R11).")
                    : fails("An open result set in auto-commit mode holds a lock here, which llmsafe does not bound on"
                            + " this database (R11).");
            case F36 -> t.startsWith("NULL, warning 1301") ? holds("The server bounds every value by"
                    + " max_allowed_packet: a value past it comes back NULL with warning 1301 (R12).")
                    : t.equals("20000000 characters") ? limit("The server hands out a value this large: only"
                            + " policy.read.maxBytes and the driver's or the database's own limit (F37) keep it out of"
                            + " the application's memory (R12).") : null;
            case F37 -> t.startsWith("stopped with") ? holds(f == Flavor.POSTGRES ? "pgjdbc stops at its"
                    + " maxResultBuffer before buffering more" + (t.endsWith("closed") ? ", and closes the connection:"
                            + " llmsafe sets it at twice policy.read.maxBytes where it opens the connection, and says why"
                            + " with SQLState 08006 (R12)." : " (R12).")
                    : "SQLite refuses a value longer than its length limit" + (t.endsWith("open") ? ", and the"
                            + " connection goes on" : "") + ": llmsafe sets it at policy.read.maxBytes (R12).")
                    : fails("The limit llmsafe sets does not stop a result past it here: a read could fill the"
                            + " application's memory (R12).");
            case F38 -> f == Flavor.SQLITE
                    ? a.find("same row").orElse("").endsWith("update hook: rowids 1 and 1")
                            && a.find("another row").orElse("").endsWith("update hook: rowids 1 and 2")
                            ? holds("total_changes() counts a trigger's second write of the row just updated as a change"
                                    + " of its own; the update hook reports the same rowid, so llmsafe counts that row once,"
                                    + " while a trigger writing another row of the table is still a side effect (D14).")
                            : fails("The update hook does not tell a trigger's second write of the same row from a write"
                                    + " of another row here: a side effect could go unseen (D14).")
                    : limit("A trigger writing its own table again counts as a second write, or the server refuses it:"
                            + " such an UPDATE is refused as SIDE_EFFECTS. A BEFORE UPDATE trigger that sets the row's"
                            + " own column (NEW) is how to maintain one here (D8, D14).");
        };
        return v != null ? v : fails("llmsafe was not built on this answer (" + a.fact().title() + "): what it"
                + " relies on here is unknown. Report it with this output.");
    }

    /** An answer "n/a (why)": the fact does not apply to this kind of database. */
    private static Verdict notApplicable(Answer a) {
        String why = a.text().replaceFirst("^n/a \\((.*)\\)$", "$1");
        String meaning = switch (a.fact()) {
            case F20, F21 -> "SQLite has no roles: whoever opens the file reads the whole schema, and the file's"
                    + " permissions are the only guard of its data.";
            case F30 -> "SQLite has no read-only transactions; PRAGMA query_only (F29) is the guard of reads.";
            case F33 -> "SQLite has one isolation level, whose database lock F32 measures.";
            case F34 -> "SQLite has no server to end an idle transaction: llmsafe's own timer does (R11).";
            case F37 -> "Connector/J has no limit on what it buffers: the server's max_allowed_packet bounds each value"
                    + " (F36), and policy.read.maxBytes what is handed out (R12).";
            default -> "Does not apply here: " + why + ".";
        };
        return new Verdict(Status.NOT_APPLICABLE, meaning);
    }

    private static Verdict serverTimeoutOnWrites(Flavor f, String t) {
        boolean stopped = t.startsWith("stopped with") && t.endsWith("row unchanged");
        return switch (f) {
            case POSTGRES, MARIADB -> stopped ? holds("The server stops a write at the statement bound llmsafe sets"
                    + " on dry runs and applies, and leaves the row alone (D6, A9).")
                    : fails("The server's statement bound (" + (f == Flavor.POSTGRES ? "statement_timeout"
                            : "max_statement_time") + ") does not stop a write here, and the cards do not say so (D6, E3).");
            case MYSQL -> stopped ? holds("max_execution_time stops a write here: more than llmsafe assumes of MySQL.")
                    : limit("No statement timeout on writes here: the row ceiling, the lock wait bound and the"
                            + " client-side cancel (F05) are the only bounds, and every card says so (E3).");
            case SQLITE -> t.equals("no such setting") ? limit("No statement timeout on SQLite: the client cancels a"
                    + " statement that runs past its bound (F05), and every card says so (E3).") : null;
        };
    }

    /** A catalog fact: the least-privilege role of samples/roles must see what the dialect asks about. */
    private static Verdict catalog(Answer a, Flavor f, String seen, String what, String otherwise) {
        Optional<String> least = a.find(CatalogFacts.LEAST);
        if (least.isPresent() && (least.get().equals(seen) || least.get().startsWith(seen + ","))) {
            return holds("The planning role of samples/roles sees " + what + " where llmsafe asks.");
        }
        return fails("The planning role of samples/roles does not see " + what + " where llmsafe asks: " + otherwise
                + ". The grants in samples/roles are not enough on this server.");
    }

    /** A side-effect fact: the measure must count what the statement wrote elsewhere, as the planning role. */
    /** MySQL and MariaDB's measure does not count InnoDB's foreign key actions: llmsafe refuses them from the catalog. */
    private static Verdict cascadeUncounted(Answer a, String uncounted, String counted, String action) {
        String least = a.find(CatalogFacts.LEAST).orElse("");
        return least.equals("reported 1, measured " + uncounted)
                ? limit("The session's counters do not count the rows an " + action + " writes: llmsafe refuses a"
                        + " statement that could fire one from the catalog (CASCADE_SIDE_EFFECTS, D15).")
                : least.equals("reported 1, measured " + counted)
                ? limit("The session's counters count the rows an " + action + " writes (MySQL 9), and llmsafe"
                        + " still refuses a statement that could fire one from the catalog (CASCADE_SIDE_EFFECTS, D15).")
                : fails("The session's counters count an " + action + " differently from what llmsafe was built on"
                        + " (D14, D15).");
    }

    /** F39: the statement's own rows, as D14 allows for them. */
    private static Verdict plain(Answer a, Flavor f) {
        boolean innodb = f == Flavor.MARIADB || f == Flavor.MYSQL;
        String update = a.find("UPDATE of 3").orElse("");
        String again = a.find("the same UPDATE again").orElse("");
        boolean ok = switch (f) {
            case POSTGRES -> update.endsWith("plain 3 updated") && a.find("DELETE of 3").orElse("").endsWith("plain 3 deleted");
            case MARIADB, MYSQL -> update.endsWith("measured Handler_update 3")
                    && a.find("DELETE of 3").orElse("").endsWith("measured Handler_delete 3")
                    && (again.endsWith("measured nothing") || again.endsWith("measured Handler_update 3"));
            case SQLITE -> update.endsWith("measured 3 changes") && a.find("DELETE of 3").orElse("").endsWith("3 changes");
        };
        return ok ? holds("The measure counts a plain statement's own rows as llmsafe allows for them" + (innodb
                ? "; an UPDATE's rows left as they were may count or not, which llmsafe believes only where no trigger"
                        + " fires" : "") + " (D14).")
                : fails("The measure counts a plain statement's own rows differently from what llmsafe allows for (D14).");
    }

    private static Verdict measure(Answer a, Flavor f, String postgres, String innodb, String sqlite, String what) {
        boolean ok = switch (f) {
            case POSTGRES -> a.find(CatalogFacts.LEAST).orElse("").equals("reported 1, measured " + postgres);
            case MARIADB, MYSQL -> a.find(CatalogFacts.LEAST).orElse("").equals("reported 1, measured " + innodb);
            case SQLITE -> a.text().equals("reported " + sqlite);
        };
        return ok ? holds("The side-effect measure counts " + what + (f == Flavor.SQLITE ? "" : ", read as the planning"
                + " role of samples/roles") + " (D14).")
                : fails("The side-effect measure does not count " + what + (f == Flavor.SQLITE ? "" : " as the planning"
                        + " role of samples/roles") + ": a side effect could go unseen, or every plan is refused (D14).");
    }

    private static boolean exact(Answer a, String getter) {
        return a.find(getter).map(v -> v.equals("exact") || v.endsWith(" exact")).orElse(false);
    }

    /** Whether a getString answer, quoted, is 2024-02-29 13:45:56.123456 UTC (no offset: the session's UTC). */
    private static boolean sameInstant(Optional<String> quoted, Flavor f) {
        if (quoted.isEmpty() || !quoted.get().startsWith("'") || !quoted.get().endsWith("'")) {
            return false;
        }
        String text = quoted.get().substring(1, quoted.get().length() - 1);
        try {
            var parsed = TEXT_TIME.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
            Instant i = parsed instanceof OffsetDateTime o ? o.toInstant()
                    : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
            return i.equals(INSTANT);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static String lostValue() {
        return "The getter llmsafe reads this type with does not return the stored value exactly here: a card could"
                + " show a wrong value, or miss a change (D13). Report it with this output.";
    }
}
