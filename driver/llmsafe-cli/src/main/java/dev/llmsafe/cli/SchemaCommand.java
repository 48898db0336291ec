package dev.llmsafe.cli;

import dev.llmsafe.assembly.Deployment;
import dev.llmsafe.check.SchemaContext;
import java.sql.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The schema context for prompts. */
@Command(name = "schema", description = {"Print the schema context for a model's prompt.",
        "Allowlisted tables, columns, types, nullability, comments, keys, relationships and impact sentences;",
        "secret columns left out."})
final class SchemaCommand extends Base {

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
    String format;

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
