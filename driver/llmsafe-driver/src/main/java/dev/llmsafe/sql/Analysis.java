package dev.llmsafe.sql;

import dev.llmsafe.policy.Identifier;
import dev.llmsafe.policy.QualifiedName;
import java.util.List;
import java.util.Set;

/**
 * What one statement is, as both the lexer and the parser read it. Immutable; the analyzer caches
 * it per text and settings.
 *
 * @param kind READ, UPDATE or DELETE (everything else was refused)
 * @param settings the lexing settings it was read under
 * @param text the comment-free text: exactly what is executed and displayed
 * @param parameterCount the number of JDBC {@code ?} parameters
 * @param target the table written (UPDATE and DELETE), as written; null for a read
 * @param where the text of the WHERE condition, without RETURNING or anything after it (W9); null
 *     for a read
 * @param whereFirstParameter the 0-based index of the first {@code ?} inside {@link #where}
 * @param whereParameterCount the number of {@code ?} inside {@link #where}
 * @param setColumns the columns an UPDATE assigns, in order; empty otherwise
 * @param returning whether a write has a RETURNING clause
 * @param tables every table named anywhere in the statement (subqueries included, CTE names excluded)
 * @param identifiers every identifier token, unquoted, in lower case: what secret and engine-table
 *     checks match against, so that an alias or an unusual position cannot hide a name
 * @param functions every function called, as written
 * @param wholeRows the tables and aliases the statement reads as whole rows ({@code row_to_json(t)},
 *     {@code t.*} inside an expression), in lower case: they carry every column, secret ones too (R2)
 * @param starTables the tables whose every column the statement reads by position rather than by name
 *     (a {@code *} or {@code t.*} over them, a column alias list, a NATURAL join, {@code TABLE t}), as
 *     written: a secret column among them is refused (R10)
 */
public record Analysis(
        Kind kind,
        LexSettings settings,
        String text,
        int parameterCount,
        QualifiedName target,
        String where,
        int whereFirstParameter,
        int whereParameterCount,
        List<Identifier> setColumns,
        boolean returning,
        Set<QualifiedName> tables,
        Set<String> identifiers,
        Set<QualifiedName> functions,
        Set<String> wholeRows,
        Set<QualifiedName> starTables) {

    /** What a statement does. */
    public enum Kind {
        /** A plain read: SELECT, or WITH ... SELECT that only reads. */
        READ,
        /** An UPDATE of one table. */
        UPDATE,
        /** A DELETE from one table. */
        DELETE
    }

    /** Copies the collections. */
    public Analysis {
        setColumns = List.copyOf(setColumns);
        tables = Set.copyOf(tables);
        identifiers = Set.copyOf(identifiers);
        functions = Set.copyOf(functions);
        wholeRows = Set.copyOf(wholeRows);
        starTables = Set.copyOf(starTables);
    }

    /** Whether this is an UPDATE or a DELETE. */
    public boolean isWrite() {
        return kind != Kind.READ;
    }
}
