package dev.llmsafe.check;

import dev.llmsafe.dialect.ColumnInfo;
import dev.llmsafe.dialect.Dialect;
import dev.llmsafe.dialect.TableInfo;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.policy.TablePolicy;
import dev.llmsafe.sql.Secrets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schema context a model is given in its prompt (R6): allowlisted tables only, their columns with
 * types, nullability and comments, keys, relationships and impact sentences, secret columns left out.
 * From the live catalog, as text and as data (for JSON).
 *
 * @param database the server
 * @param tables the allowlisted tables the planning connection can see
 */
public record SchemaContext(String database, List<Table> tables) {

    /** Copies the list. */
    public SchemaContext {
        tables = List.copyOf(tables);
    }

    /**
     * One table.
     *
     * @param name the name as the policy writes it (the name a statement should use)
     * @param comment the table's comment, or null
     * @param impact what changing it means, or null when it may only be read
     * @param writable whether UPDATE and DELETE may be proposed
     * @param columns its columns, secrets left out
     * @param primaryKey its key columns
     * @param references its foreign keys: {@code column -> table.column}
     */
    public record Table(String name, String comment, String impact, boolean writable, List<Column> columns,
            List<String> primaryKey, List<String> references) {
    }

    /**
     * One column.
     *
     * @param name its name
     * @param type its type as the database prints it
     * @param nullable whether it may be NULL
     * @param comment its comment, or null
     */
    public record Column(String name, String type, boolean nullable, String comment) {
    }

    /** Reads the context from the catalog on {@code c}. */
    public static SchemaContext read(Connection c, Dialect dialect, Policy policy) throws SQLException {
        List<Table> tables = new ArrayList<>();
        Secrets secrets = Secrets.of(policy, dialect.sqlDialect());
        for (TablePolicy tp : policy.tables().values()) {
            Optional<TableInfo> found = dialect.table(c, tp.name());
            if (found.isEmpty()) {
                continue;
            }
            TableInfo info = found.get();
            List<Column> columns = new ArrayList<>();
            for (ColumnInfo col : info.columns()) {
                if (!secrets.isSecret(col.name())) {
                    columns.add(new Column(col.name(), col.type(), col.nullable(), col.comment().orElse(null)));
                }
            }
            List<String> refs = new ArrayList<>();
            for (TableInfo.ForeignKey fk : dialect.outboundForeignKeys(c, info.ref())) {
                for (int i = 0; i < fk.childColumns().size(); i++) {
                    refs.add(fk.childColumns().get(i) + " -> " + fk.parent().name() + "." + fk.parentColumns().get(i));
                }
            }
            tables.add(new Table(tp.name().toString(), info.comment().orElse(null), tp.impact().orElse(null),
                    tp.impact().isPresent(), columns, info.primaryKey(), refs));
        }
        return new SchemaContext(dialect.product(), tables);
    }

    /** The context as prompt text. */
    public String text() {
        StringBuilder sb = new StringBuilder("Database: ").append(database).append('\n');
        for (Table t : tables) {
            sb.append("\nTable: ").append(t.name());
            if (t.comment() != null) {
                sb.append(" -- ").append(t.comment());
            }
            sb.append('\n');
            sb.append(t.writable() ? "  Changing it: " + t.impact() : "  Read only: changes cannot be proposed").append('\n');
            sb.append("  Columns:\n");
            for (Column col : t.columns()) {
                sb.append("    ").append(col.name()).append(": ").append(col.type());
                if (t.primaryKey().contains(col.name())) {
                    sb.append(" (primary key)");
                } else if (col.nullable()) {
                    sb.append(" (nullable)");
                }
                if (col.comment() != null) {
                    sb.append(" -- ").append(col.comment());
                }
                sb.append('\n');
            }
            if (!t.references().isEmpty()) {
                sb.append("  Relationships:\n");
                t.references().forEach(r -> sb.append("    ").append(t.name()).append('.').append(r).append('\n'));
            }
        }
        return sb.toString();
    }
}
