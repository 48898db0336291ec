package dev.llmsafe.sql;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.QualifiedName;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * R9 and R10 on the parser's tree: the relations a statement reads, resolved by SQL's scoping rules,
 * and the tables whose every column a {@code *} (or a positional renaming) carries.
 *
 * <p>A CTE name is in scope only inside the WITH that defines it: in the later siblings, in the body it
 * qualifies, and in its own body when the WITH is RECURSIVE (SQLite needs no keyword). A CTE of a
 * subquery or of another CTE is visible only there, and a qualified name is never a CTE. Names are
 * compared as the server will compare them, stricter where in doubt: PostgreSQL folds unquoted names
 * and truncates to 63 bytes; elsewhere the name must be spelled exactly as the CTE's. A name read as a
 * table that the server reads as a CTE is at worst a false refusal; the reverse would read a table whole.
 *
 * <p>The walk is reflective over every field of every JSqlParser node, so no expression form (SUBSTRING
 * FROM/FOR, POSITION IN, OVERLAY PLACING, XMLTABLE PASSING, window and aggregate ORDER BY, array and
 * LATERAL subqueries, ...) can hold a subquery it does not reach, whatever JSqlParser's visitors cover.
 * Only the qualifier of a column ({@code t.c}, {@code t.*}) is not a relation.
 */
final class Relations {

    /**
     * What the walk found.
     *
     * @param tables every relation read by name that is not a CTE in scope, as written
     * @param starTables the tables whose every column a {@code *}, {@code t.*}, a column alias list
     *     ({@code FROM t AS x(a, b)}), a NATURAL join or {@code TABLE t} carries, by position rather than
     *     by name; only a {@code *} of the query right under EXISTS carries nothing
     */
    record Found(Set<QualifiedName> tables, Set<QualifiedName> starTables) {
    }

    /** SQLite's eponymous virtual tables that describe the database (pragma_* are caught by their prefix). */
    private static final Set<String> SQLITE_CATALOG_TABLES = Set.of("dbstat", "sqlite_dbpage", "sqlite_stmt");

    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> out = new ArrayList<>();
            for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()
                            && !f.getName().equals("resolvedTable")) {
                        f.setAccessible(true);
                        out.add(f);
                    }
                }
            }
            return List.copyOf(out);
        }
    };

    /** The CTE names in scope at a point, innermost WITH first. */
    private record Ctes(Set<String> names, Ctes outer) {
        boolean has(String name) {
            for (Ctes c = this; c != null; c = c.outer) {
                if (c.names.contains(name)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The FROM items of the queries around a point, innermost first: name to table, or null when derived. */
    private record Items(Map<String, QualifiedName> byName, Items outer) {
    }

    private final SqlDialect dialect;
    private final Set<QualifiedName> tables = new LinkedHashSet<>();
    private final Set<QualifiedName> starTables = new LinkedHashSet<>();
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    private Relations(SqlDialect dialect) {
        this.dialect = dialect;
    }

    static Found of(Statement statement, SqlDialect dialect) throws RefusedException {
        Relations r = new Relations(dialect);
        try {
            r.walk(statement, null, null);
        } catch (Walk e) {
            throw e.refusal;
        } catch (IllegalAccessException | RuntimeException e) {
            throw Parsing.disagreement("the parser's tree could not be walked (" + e + ")");
        }
        return new Found(Set.copyOf(r.tables), Set.copyOf(r.starTables));
    }

    /** A refusal thrown from inside the walk. */
    private static final class Walk extends RuntimeException {
        final RefusedException refusal;

        Walk(RefusedException refusal) {
            super(null, null, false, false);
            this.refusal = refusal;
        }
    }

    private void walk(Object node, Ctes ctes, Items items) throws IllegalAccessException {
        if (node == null || node instanceof CharSequence || node instanceof Number || node instanceof Boolean
                || node instanceof Character || node instanceof Enum<?> || !seen.add(node)) {
            return;
        }
        if (node instanceof Collection<?> c) {
            for (Object o : new ArrayList<>(c)) {
                walk(o, ctes, items);
            }
        } else if (node instanceof Map<?, ?> m) {
            for (Object o : new ArrayList<>(m.values())) {
                walk(o, ctes, items);
            }
        } else if (node.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(node); i++) {
                walk(Array.get(node, i), ctes, items);
            }
        } else if (!isTreeNode(node)) {
            return;
        } else if (node instanceof Select s) {
            select(s, ctes, items, false);
        } else if (node instanceof ExistsExpression e && e.getRightExpression() instanceof ParenthesedSelect ps
                && ps.getSelect() instanceof PlainSelect) {
            seen.add(ps);
            fields(ps, ctes, items, "select");
            select(ps.getSelect(), ctes, items, true);
            fields(e, ctes, items, "rightExpression");
        } else if (node instanceof Table t) {
            relation(t, ctes);
            fields(t, ctes, items);
        } else if (node instanceof Column c) {
            fields(c, ctes, items, "table");
        } else if (node instanceof AllTableColumns a) {
            fields(a, ctes, items, "table");
        } else {
            fields(node, ctes, items);
        }
    }

    private static boolean isTreeNode(Object node) {
        String name = node.getClass().getName();
        return name.startsWith("net.sf.jsqlparser.") && !name.startsWith("net.sf.jsqlparser.parser.");
    }

    private void fields(Object node, Ctes ctes, Items items, String... skip) throws IllegalAccessException {
        next:
        for (Field f : FIELDS.get(node.getClass())) {
            for (String s : skip) {
                if (f.getName().equals(s)) {
                    continue next;
                }
            }
            walk(f.get(node), ctes, items);
        }
    }

    private void select(Select s, Ctes outerCtes, Items items, boolean underExists) throws IllegalAccessException {
        seen.add(s);
        Ctes ctes = withItems(s.getWithItemsList(), outerCtes, items);
        if (s instanceof PlainSelect p) {
            plainSelect(p, ctes, items, underExists);
        } else if (s instanceof SetOperationList list) {
            for (Select branch : list.getSelects()) {
                select(branch, ctes, items, false);
            }
            fields(list, ctes, items, "selects", "withItemsList");
        } else if (s instanceof ParenthesedSelect ps) {
            if (ps.getSelect() != null) {
                select(ps.getSelect(), ctes, items, underExists);
            }
            fields(ps, ctes, items, "select", "withItemsList");
        } else if (s instanceof TableStatement ts) {
            relation(ts.getTable(), ctes);
            if (isRealTable(ts.getTable(), ctes)) {
                starTables.add(name(ts.getTable()));
            }
            fields(ts, ctes, items, "table", "withItemsList");
        } else {
            fields(s, ctes, items, "withItemsList");
        }
    }

    private Ctes withItems(List<WithItem<?>> with, Ctes outer, Items items) throws IllegalAccessException {
        if (with == null || with.isEmpty()) {
            return outer;
        }
        boolean recursive = dialect == SqlDialect.SQLITE || with.stream().anyMatch(WithItem::isRecursive);
        Set<String> names = new LinkedHashSet<>();
        Ctes scope = new Ctes(names, outer);
        for (WithItem<?> w : with) {
            seen.add(w);
            String name = w.getAlias() == null ? null : cteName(w.getAlias().getName());
            if (recursive && name != null) {
                names.add(name);
            }
            fields(w, scope, items);
            if (name != null) {
                names.add(name);
            }
        }
        return scope;
    }

    private void plainSelect(PlainSelect p, Ctes ctes, Items outer, boolean underExists) throws IllegalAccessException {
        Map<String, QualifiedName> byName = new HashMap<>();
        List<FromItem> from = new ArrayList<>();
        boolean natural = false;
        if (p.getFromItem() != null) {
            from.add(p.getFromItem());
        }
        if (p.getJoins() != null) {
            for (Join j : p.getJoins()) {
                from.add(j.getFromItem());
                natural |= j.isNatural();
            }
        }
        for (FromItem f : from) {
            natural |= register(f, ctes, byName);
        }
        Items items = new Items(byName, outer);
        if (natural) {
            starOver(byName);
        }
        if (p.getSelectItems() != null) {
            for (SelectItem<?> item : p.getSelectItems()) {
                if (underExists) {
                    continue;
                }
                if (item.getExpression() instanceof AllTableColumns a) {
                    starOf(a.getTable(), items);
                } else if (item.getExpression() instanceof AllColumns) {
                    starOver(byName);
                }
            }
        }
        fields(p, ctes, items, "withItemsList");
    }

    /** Names a FROM item in its query; whether it joins naturally (nested joins included). */
    private boolean register(FromItem f, Ctes ctes, Map<String, QualifiedName> byName) {
        boolean natural = false;
        if (f instanceof Table t) {
            boolean real = isRealTable(t, ctes);
            QualifiedName n = real ? name(t) : null;
            String key = t.getAlias() != null ? key(t.getAlias().getName()) : key(t.getName());
            byName.put(key, n);
            if (real && t.getAlias() != null && t.getAlias().getAliasColumns() != null
                    && !t.getAlias().getAliasColumns().isEmpty()) {
                starTables.add(n);
            }
        } else if (f instanceof ParenthesedFromItem pf) {
            if (pf.getFromItem() != null) {
                natural |= register(pf.getFromItem(), ctes, byName);
            }
            if (pf.getJoins() != null) {
                for (Join j : pf.getJoins()) {
                    natural |= j.isNatural();
                    natural |= register(j.getFromItem(), ctes, byName);
                }
            }
            if (pf.getAlias() != null) {
                byName.put(key(pf.getAlias().getName()), null);
            }
        } else if (f != null && f.getAlias() != null) {
            byName.put(key(f.getAlias().getName()), null);
        }
        return natural;
    }

    private void starOver(Map<String, QualifiedName> byName) {
        for (QualifiedName n : byName.values()) {
            if (n != null) {
                starTables.add(n);
            }
        }
    }

    /** {@code t.*}: the FROM item named t in this query or an enclosing one; a name found nowhere is a table. */
    private void starOf(Table qualifier, Items items) {
        if (qualifier == null || qualifier.getName() == null) {
            return;
        }
        String key = key(qualifier.getName());
        for (Items i = items; i != null; i = i.outer) {
            if (i.byName.containsKey(key)) {
                QualifiedName n = i.byName.get(key);
                if (n != null) {
                    starTables.add(n);
                }
                return;
            }
        }
        starTables.add(name(qualifier));
    }

    private void relation(Table t, Ctes ctes) {
        if (t == null || t.getName() == null) {
            return;
        }
        if (isRealTable(t, ctes)) {
            QualifiedName n = name(t);
            String last = n.last().text().toLowerCase(Locale.ROOT);
            if (dialect == SqlDialect.SQLITE && (last.startsWith("pragma_") || SQLITE_CATALOG_TABLES.contains(last))) {
                throw new Walk(systemCatalog(t.getFullyQualifiedName()));
            }
            tables.add(n);
        }
    }

    private boolean isRealTable(Table t, Ctes ctes) {
        QualifiedName n = name(t);
        return n.parts().size() > 1 || ctes == null || !ctes.has(cteName(t.getName()));
    }

    private QualifiedName name(Table t) {
        try {
            return Names.of(t.getFullyQualifiedName(), dialect, 3);
        } catch (RefusedException e) {
            throw new Walk(e);
        }
    }

    /** A CTE's name as the server compares it: see the class comment. */
    private String cteName(String raw) {
        boolean quoted = raw.length() > 1 && (raw.charAt(0) == '"' || raw.charAt(0) == '`' || raw.charAt(0) == '[');
        String text = quoted ? raw.substring(1, raw.length() - 1) : raw;
        if (dialect == SqlDialect.POSTGRESQL) {
            if (quoted) {
                text = text.replace("\"\"", "\"");
            } else {
                text = text.toLowerCase(Locale.ROOT);
            }
            return Identifiers.truncated(text, dialect);
        }
        return text;
    }

    /** A FROM item's name, loosely (lower case, unquoted): only for finding what {@code t.*} names. */
    private static String key(String raw) {
        String n = raw;
        if (n.length() > 1 && (n.charAt(0) == '"' || n.charAt(0) == '`' || n.charAt(0) == '[')) {
            n = n.substring(1, n.length() - 1);
        }
        return n.toLowerCase(Locale.ROOT);
    }

    static RefusedException systemCatalog(String name) {
        return new RefusedException(Refusal.SYSTEM_CATALOG, name + " is part of the database's system catalog,"
                + " which is never readable through this connection. Ask for the schema context (llmsafe schema)"
                + " instead.");
    }
}
