package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.SchemaContext;
import java.sql.Connection;

/** The schema context for prompts. */
final class SchemaCommand extends Base {

    String format = "text";

    SchemaCommand() {
        super("schema", "Print the schema context for a model's prompt.",
                "Allowlisted tables, columns, types, nullability, comments, keys, relationships and impact sentences;",
                "secret columns left out.");
        option("--format", "FORMAT", v -> format = v, "text or json (default: " + format + ").");
    }

    @Override
    int execute() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("--format is text or json, not " + format);
        }
        try (Deployment d = deployment(); Connection c = d.pool(Deployment.Role.PLAN).getConnection()) {
            d.dialect().initConnection(c);
            SchemaContext s = SchemaContext.read(c, d.dialect(), d.config().policy());
            out().print(common.json || format.equals("json") ? Json.write(s) + "\n" : s.text());
            out().flush();
            return Main.OK;
        }
    }
}
