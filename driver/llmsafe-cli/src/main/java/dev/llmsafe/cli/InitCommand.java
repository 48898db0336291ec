package dev.llmsafe.cli;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Prints a commented starting configuration for a database. */
final class InitCommand extends Base {

    String url;
    String user;
    String passwordEnv = "LLMSAFE_PASSWORD";

    InitCommand() {
        super("init", "Print a commented starting configuration for a database.",
                "It lists the tables found there. Redirect it to llmsafe.json and edit it: nothing is allowed until you",
                "allow it.");
        option("--url", "JDBC_URL", v -> url = v,
                "The database, e.g. jdbc:postgresql://127.0.0.1:5432/app or jdbc:sqlite:app.db.").required();
        option("--user", "USER", v -> user = v, "The user to connect as, to list the tables.");
        option("--password-env", "VAR", v -> passwordEnv = v,
                "The environment variable holding the password (default: " + passwordEnv + ").");
    }

    @Override
    int execute() throws Exception {
        if (!url.startsWith("jdbc:") || url.startsWith("jdbc:llmsafe:")) {
            throw new IllegalArgumentException("--url is the real database's JDBC URL, for example"
                    + " jdbc:postgresql://127.0.0.1:5432/app, jdbc:mysql://127.0.0.1:3306/app or jdbc:sqlite:app.db");
        }
        url = absoluteSqlite(url);
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        String password = main.env.apply(passwordEnv);
        if (password != null) {
            p.setProperty("password", password);
        }
        List<String> tables = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, p)) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    String t = rs.getString("TABLE_NAME");
                    if (!t.toLowerCase(java.util.Locale.ROOT).startsWith("llmsafe_") && !t.startsWith("sqlite_")) {
                        tables.add(t);
                    }
                }
            }
        }
        String conn = "{ \"url\": " + Json.write(url) + (user == null ? "" : ", \"user\": " + Json.write(user))
                + (password == null ? "" : ", \"password\": \"${" + passwordEnv + "}\"") + " }";
        StringBuilder sb = new StringBuilder();
        sb.append("// llmsafe.json for ").append(url).append(", written by `llmsafe init`. Reference: README.md.\n");
        sb.append("{\n");
        sb.append("  // The dry run's credential: it must be able to write; every dry run is rolled back.\n");
        if (password == null) {
            // What connected is what is written: a ${VAR} nobody set would fail the first command.
            sb.append("  // It connected without a password. When the server needs one, add\n");
            sb.append("  // \"password\": \"${").append(passwordEnv).append("}\" here and set ").append(passwordEnv)
                    .append(" in the environment.\n");
        }
        sb.append("  \"connection\": ").append(conn).append(",\n");
        sb.append("  // Each separate connection moves a guard below this library, where it survives its mistakes:\n");
        sb.append("  // readConnection: a role that can only SELECT (reads otherwise use a connection that can write);\n");
        sb.append("  // applyConnection: the credential that commits approved plans (otherwise the dry run's);\n");
        sb.append("  // storeConnection: where plans and the audit trail live (otherwise this database).\n");
        sb.append("  // \"readConnection\": { \"url\": ").append(Json.write(url)).append(", \"user\": \"llm_read\" },\n");
        sb.append("  // \"applyConnection\": { \"url\": ").append(Json.write(url))
                .append(", \"user\": \"llm_apply\", \"password\": \"${LLMSAFE_APPLY_PASSWORD}\" },\n");
        sb.append("  // \"sealKey\": \"${LLMSAFE_SEAL_KEY}\",   // the same on the planning and the applying side\n");
        sb.append("  \"policy\": {\n");
        sb.append("    // The tables found. Uncomment those the model may read; nothing else can be touched.\n");
        sb.append("    \"allow\": [\n");
        for (int i = 0; i < tables.size(); i++) {
            sb.append("      // ").append(Json.write(tables.get(i))).append(i < tables.size() - 1 ? "," : "").append('\n');
        }
        sb.append("    ],\n");
        sb.append("    // A table can be written only with a sentence saying what changing it means to the business;\n");
        sb.append("    // every card shows it to the person who approves.\n");
        sb.append("    \"impact\": {\n");
        if (!tables.isEmpty()) {
            sb.append("      // ").append(Json.write(tables.get(0))).append(": \"What changing it means.\"\n");
        }
        sb.append("    },\n");
        sb.append("    // Columns never read or written, with the reason: \"password_hash\": \"a stored credential\"\n");
        sb.append("    \"denyIdentifiers\": {},\n");
        sb.append("    \"maxUpdateRows\": 200,\n");
        sb.append("    \"maxDeleteRows\": 50,\n");
        sb.append("    \"read\": { \"maxRows\": 1000, \"timeoutMs\": 5000 }\n");
        sb.append("  }\n");
        sb.append("}\n");
        out().print(sb);
        out().flush();
        return Main.OK;
    }

    /**
     * A relative SQLite path made absolute against the working directory: the configuration names the
     * database init looked at, wherever the file is saved (a configuration file's relative paths are its
     * own directory's, J8).
     */
    private String absoluteSqlite(String given) {
        String prefix = "jdbc:sqlite:";
        if (!given.startsWith(prefix)) {
            return given;
        }
        String rest = given.substring(prefix.length());
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        if (path.isEmpty() || path.startsWith(":") || path.regionMatches(true, 0, "file:", 0, 5)
                || java.nio.file.Path.of(path).isAbsolute()) {
            return given;
        }
        return prefix + main.cwd.resolve(path).toAbsolutePath().normalize() + (q < 0 ? "" : rest.substring(q));
    }
}
