package dev.llmsafe.dialect;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Reads the values of a database's result sets exactly, as {@link dev.llmsafe.value.Value}s (D13).
 * One implementation per dialect, because each driver loses different values through its ordinary
 * getters; the measured facts behind each choice are noted in the implementations.
 *
 * <p>Use: select every column through {@link #selectExpression}, then build a {@link RowReader} from
 * the result's metadata once and read each row with it.
 *
 * <pre>{@code
 * ValueReader reader = ValueReader.detect(connection);
 * String select = "SELECT " + reader.selectExpression("`price`", "float") + ", ... FROM t WHERE ...";
 * try (ResultSet rs = statement.executeQuery(select)) {
 *     RowReader row = reader.rowReader(connection, rs.getMetaData());
 *     while (rs.next()) {
 *         List<Value> values = row.read(rs);
 *     }
 * }
 * }</pre>
 */
public interface ValueReader {

    /** PostgreSQL through pgjdbc. */
    static ValueReader postgres() {
        return new PostgresValueReader();
    }

    /** MySQL through Connector/J: JSON is MySQL's parsed JSON type, compared canonically. */
    static ValueReader mysql() {
        return new MySqlValueReader(false);
    }

    /**
     * MariaDB through Connector/J: JSON is a LONGTEXT with a {@code json_valid} check, compared as
     * text; UUID and INET6 are types of their own.
     */
    static ValueReader mariadb() {
        return new MySqlValueReader(true);
    }

    /** SQLite through sqlite-jdbc: values are read by the storage class each one has. */
    static ValueReader sqlite() {
        return new SqliteValueReader();
    }

    /**
     * The reader for the database a connection talks to. Connector/J reports MariaDB as product
     * "MySQL" with a version such as {@code 5.5.5-10.11.19-MariaDB} (measured), hence the version check.
     *
     * @throws UnreadableValueException for a database no reader knows
     */
    static ValueReader detect(Connection connection) throws SQLException {
        DatabaseMetaData md = connection.getMetaData();
        String product = md.getDatabaseProductName().toLowerCase(Locale.ROOT);
        String version = md.getDatabaseProductVersion().toLowerCase(Locale.ROOT);
        if (product.contains("postgresql")) {
            return postgres();
        }
        if (product.contains("mariadb") || (product.contains("mysql") && version.contains("mariadb"))) {
            return mariadb();
        }
        if (product.contains("mysql")) {
            return mysql();
        }
        if (product.contains("sqlite")) {
            return sqlite();
        }
        throw new UnreadableValueException("no value reader for " + md.getDatabaseProductName());
    }

    /** The dialect's name: postgresql, mysql, mariadb or sqlite. */
    String name();

    /**
     * What to write in a SELECT list for a column so that its value arrives whole: the quoted column
     * itself, or an expression aliased to it (MySQL/MariaDB FLOAT becomes {@code CAST(f AS DOUBLE)}).
     *
     * @param quotedColumn the column name, quoted for the dialect
     * @param dataType the column's type as the catalog names it (information_schema DATA_TYPE, PostgreSQL
     *     type name, SQLite declared type); case does not matter
     */
    String selectExpression(String quotedColumn, String dataType);

    /**
     * A reader for rows of this shape. It may ask the session what it needs (MySQL/MariaDB: the
     * session time zone when there is a TIMESTAMP column, the catalog types of character columns), so
     * call it on the connection the result came from, outside any pending result streaming.
     *
     * @throws UnreadableValueException when some column cannot be read exactly in this session (a
     *     MySQL TIMESTAMP in a time zone with daylight saving time, a FLOAT not selected through
     *     {@link #selectExpression})
     */
    RowReader rowReader(Connection session, ResultSetMetaData metadata) throws SQLException;

    /**
     * A reader for rows of one table whose catalog description the caller already holds: a reader that
     * would ask the catalog for the column types (MySQL/MariaDB) takes them from {@code table} instead,
     * a round trip fewer, and asks only for what it does not describe.
     */
    default RowReader rowReader(Connection session, ResultSetMetaData metadata, TableInfo table) throws SQLException {
        return rowReader(session, metadata);
    }
}
