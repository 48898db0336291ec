package dev.llmsafe.sql;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * R2: the relations a statement reads as whole rows. PostgreSQL lets a table or its alias stand for its
 * entire row ({@code SELECT m FROM members m}, {@code row_to_json(m)}, {@code to_jsonb(m.*)}), which
 * carries every column, secret ones included, under a name that is not the secret's: neither the
 * reference check nor the result-column check would see it. A bare name that is also the name of a
 * FROM item counts as one (a column named like its own table is a false refusal, only where the policy
 * has secrets), and so does {@code t.*} anywhere but as a column of a select list, where the result's
 * own column names show what it holds.
 *
 * <p>The walk is JSqlParser's table finder, so it reaches every place the table list comes from.
 */
final class WholeRows extends TablesNamesFinder<Void> {

    private final Set<String> sources = new LinkedHashSet<>();
    private final Set<String> bareNames = new LinkedHashSet<>();
    private final Set<String> starsInExpressions = new LinkedHashSet<>();
    private final Set<Object> selectItemStars = Collections.newSetFromMap(new IdentityHashMap<>());

    private WholeRows() {
    }

    /** The names the statement reads as whole rows, in lower case; empty for nearly every statement. */
    static Set<String> of(Statement statement) {
        WholeRows w = new WholeRows();
        w.getTables(statement);
        Set<String> out = new LinkedHashSet<>(w.starsInExpressions);
        for (String name : w.bareNames) {
            if (w.sources.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    private static String lower(String name) {
        String n = name;
        if (n.length() > 1 && (n.charAt(0) == '"' || n.charAt(0) == '`' || n.charAt(0) == '[')) {
            n = n.substring(1, n.length() - 1);
        }
        return n.toLowerCase(Locale.ROOT);
    }

    @Override
    public <S> Void visit(Table table, S context) {
        if (table.getName() != null) {
            sources.add(lower(table.getName()));
        }
        if (table.getAlias() != null) {
            sources.add(lower(table.getAlias().getName()));
        }
        return super.visit(table, context);
    }

    @Override
    public <S> Void visit(ParenthesedSelect select, S context) {
        if (select.getAlias() != null) {
            sources.add(lower(select.getAlias().getName()));
        }
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(WithItem<?> item, S context) {
        if (item.getAlias() != null) {
            sources.add(lower(item.getAlias().getName()));
        }
        return super.visit(item, context);
    }

    @Override
    public <S> Void visit(PlainSelect select, S context) {
        if (select.getSelectItems() != null) {
            for (SelectItem<?> item : select.getSelectItems()) {
                if (item.getExpression() instanceof AllTableColumns star) {
                    selectItemStars.add(star);
                }
            }
        }
        return super.visit(select, context);
    }

    @Override
    public <S> Void visit(Column column, S context) {
        if (column.getTable() == null || column.getTable().getName() == null) {
            bareNames.add(lower(column.getColumnName()));
        }
        return super.visit(column, context);
    }

    @Override
    public <S> Void visit(AllTableColumns columns, S context) {
        if (!selectItemStars.contains(columns)) {
            starsInExpressions.add(columns.toString().toLowerCase(Locale.ROOT));
        }
        return super.visit(columns, context);
    }
}
