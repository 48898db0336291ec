package dev.llmsafe.samples.quickstart;

import dev.llmsafe.cli.Main;
import dev.llmsafe.jdbc.PlanPendingException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The quickstart, told step by step: a SQLite database with three orders, a configuration, the plan
 * store, an "assistant" that sends an UPDATE through {@code jdbc:llmsafe:sqlite:} with plain JDBC and
 * gets the card back instead of a change, the rows still as they were, an approval by a different
 * person, the apply, and the rows changed.
 */
public final class Quickstart {

    private final Path dir;
    private final PrintStream out;

    Quickstart(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
    }

    /** Runs the quickstart in the directory given (default: ./quickstart). */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "quickstart").toAbsolutePath();
        new Quickstart(dir, System.out).run();
    }

    /** The story; returns the plan id. */
    UUID run() throws IOException, SQLException {
        Files.createDirectories(dir);
        Path db = dir.resolve("app.db");
        Files.deleteIfExists(db);
        Path config = dir.resolve("llmsafe.json");

        step("1. A database: app.db, with three orders");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, ref TEXT NOT NULL, status TEXT NOT NULL)");
            s.execute("INSERT INTO orders VALUES (1, 'R-1', 'packed'), (2, 'R-2', 'packed'), (3, 'R-3', 'shipped')");
        }
        printOrders(db);

        step("2. A configuration: only orders may be touched, and changing it has a stated consequence");
        Files.writeString(config, """
                {
                  "connection": { "url": "jdbc:sqlite:%s" },
                  "policy": {
                    "allow": ["orders"],
                    "impact": { "orders": "Marking an order shipped emails the customer." }
                  }
                }
                """.formatted(db.toString().replace("\\", "\\\\")));
        indented(Files.readString(config), "   ");

        step("3. llmsafe migrate: the plan store");
        cli("migrate", "--config", config.toString());
        step("4. llmsafe check");
        cli("check", "--config", config.toString());

        step("5. The assistant sends an UPDATE through jdbc:llmsafe:sqlite: with plain JDBC");
        String url = "jdbc:llmsafe:sqlite:" + db + "?llmsafe.config=" + config;
        out.println("   " + url);
        out.println("   UPDATE orders SET status = 'shipped' WHERE status = 'packed'");
        UUID planId;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE orders SET status = 'shipped' WHERE status = 'packed'");
            throw new IllegalStateException("the UPDATE went through; it must come back as a plan");
        } catch (PlanPendingException pending) {
            out.println();
            out.println("   It gets PlanPendingException, whose message is the card:");
            out.println();
            indented(pending.getMessage(), "   ");
            planId = pending.planId();
        }

        step("6. The rows are still as they were: the statement ran, and was rolled back");
        printOrders(db);

        step("7. A different person approves, and an applier applies");
        cli("approve", planId.toString(), "--as", "alice@example.com", "--config", config.toString());
        cli("apply", planId.toString(), "--as", "bob@example.com", "--config", config.toString());

        step("8. Now the rows have changed, exactly as the card showed");
        printOrders(db);

        step("Where this is, and what to run next");
        out.println("   The steps above ran the command line in this process. Its files are in " + dir + ":");
        out.println("   app.db (the database and, beside its tables, the plan store) and llmsafe.json.");
        out.println("   On your own database, with the llmsafe command (driver/llmsafe-cli/bin/llmsafe, see the README):");
        out.println();
        out.println("   $ llmsafe init --url jdbc:postgresql://127.0.0.1:5432/app --user app > llmsafe.json");
        out.println("     (then allow the tables the model may read, and give each it may write an impact sentence)");
        out.println("   $ llmsafe migrate");
        out.println("   $ llmsafe check");
        return planId;
    }

    private void step(String title) {
        out.println();
        out.println("== " + title);
    }

    /**
     * Runs the command line in this process, as a person would type it, and prints what it printed under
     * the command; the line says it ran here, so that nobody takes it for a shell they should have.
     */
    private void cli(String... args) {
        out.println("   llmsafe " + String.join(" ", args).replace(dir.toString() + "/", "") + "   (run in this process)");
        StringWriter printed = new StringWriter();
        PrintWriter w = new PrintWriter(printed, true);
        int status = Main.run(new Main(), w, w, args);
        indented(printed.toString(), "     ");
        if (status != Main.OK && !(args[0].equals("check") && status == Main.NOT_READY)) {
            throw new IllegalStateException("llmsafe " + args[0] + " ended with status " + status);
        }
    }

    /** Prints text under a step, each line indented; blank lines stay blank. */
    private void indented(String text, String indent) {
        text.lines().forEach(l -> out.println(l.isBlank() ? "" : indent + l));
    }

    /** The orders, read with a plain connection to the file. */
    List<String> orders(Path db) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, ref, status FROM orders ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        return rows;
    }

    private void printOrders(Path db) throws SQLException {
        orders(db).forEach(r -> out.println("   " + r));
    }
}
