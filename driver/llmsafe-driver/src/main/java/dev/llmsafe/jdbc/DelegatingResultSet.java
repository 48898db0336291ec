package dev.llmsafe.jdbc;

import dev.llmsafe.RefusedException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * The part of a result set that passes straight through: getters of plain values (numbers, text,
 * dates, bytes, streams; text, bytes and streams counted against the read's byte bound, R12) and
 * cursor facts. None writes, runs SQL or returns a JDBC object. What does
 * is in {@link ReadOnlyResultSet} (refused) and {@link GuardedResultSet} (wrapped, capped);
 * {@code WrapperTest} checks the split method by method. Once closed, every method throws instead of
 * reaching the vendor result set, and a value getter past the row cap throws instead of reading the
 * one extra row fetched to detect truncation.
 */
// JDBC's deprecated methods are still methods of the interface, and must be wrapped like the rest.
@SuppressWarnings("deprecation")
abstract class DelegatingResultSet extends JdbcWrapper<ResultSet> implements ResultSet {

    private volatile RefusedException endedWith;
    private boolean pastCap;
    private ReadBytes bytes;

    DelegatingResultSet(ResultSet delegate) {
        super(delegate);
    }

    /** Closed by the caller, or by llmsafe (R11), which then says why. */
    @Override
    final SQLException closedError() {
        RefusedException why = endedWith;
        return why != null ? new RefusedException(why.code(), why.detail()) : Wrappers.closed("result set");
    }

    /** R11: from now on every method says why llmsafe closed this result set. */
    final void endWith(RefusedException why) {
        endedWith = why;
    }

    /** Why llmsafe closed it, or null. */
    final RefusedException endedWith() {
        return endedWith;
    }

    /**
     * The vendor result set for reading a value of the current row. Past the row cap the vendor result
     * set stands on the one extra row fetched to detect truncation (R4), which is never handed out.
     */
    final ResultSet v() throws SQLException {
        if (pastCap) {
            throw new SQLException("there is no current row: the result ended at the row cap", "24000");
        }
        return d();
    }

    /** From now on there is no current row (the cap was reached). */
    final void endAtCap() {
        pastCap = true;
    }

    /** R12: counts the values handed out against the read's byte bound; none for metadata and arrays. */
    final void countWith(ReadBytes budget) {
        this.bytes = budget;
    }

    /** The byte bound of this result, or null. */
    final ReadBytes bytes() {
        return bytes;
    }

    private String t(String v) throws SQLException {
        return bytes == null ? v : bytes.text(v);
    }

    private byte[] b(byte[] v) throws SQLException {
        return bytes == null ? v : bytes.bytes(v);
    }

    private InputStream in(InputStream v) {
        return bytes == null ? v : bytes.stream(v);
    }

    private Reader r(Reader v) {
        return bytes == null ? v : bytes.reader(v);
    }

    // @formatter:off
    @Override public boolean wasNull() throws SQLException { return v().wasNull(); }
    @Override public String getString(int columnIndex) throws SQLException { return t(v().getString(columnIndex)); }
    @Override public boolean getBoolean(int columnIndex) throws SQLException { return v().getBoolean(columnIndex); }
    @Override public byte getByte(int columnIndex) throws SQLException { return v().getByte(columnIndex); }
    @Override public short getShort(int columnIndex) throws SQLException { return v().getShort(columnIndex); }
    @Override public int getInt(int columnIndex) throws SQLException { return v().getInt(columnIndex); }
    @Override public long getLong(int columnIndex) throws SQLException { return v().getLong(columnIndex); }
    @Override public float getFloat(int columnIndex) throws SQLException { return v().getFloat(columnIndex); }
    @Override public double getDouble(int columnIndex) throws SQLException { return v().getDouble(columnIndex); }
    @Override public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException { return v().getBigDecimal(columnIndex, scale); }
    @Override public byte[] getBytes(int columnIndex) throws SQLException { return b(v().getBytes(columnIndex)); }
    @Override public Date getDate(int columnIndex) throws SQLException { return v().getDate(columnIndex); }
    @Override public Time getTime(int columnIndex) throws SQLException { return v().getTime(columnIndex); }
    @Override public Timestamp getTimestamp(int columnIndex) throws SQLException { return v().getTimestamp(columnIndex); }
    @Override public InputStream getAsciiStream(int columnIndex) throws SQLException { return in(v().getAsciiStream(columnIndex)); }
    @Override public InputStream getUnicodeStream(int columnIndex) throws SQLException { return in(v().getUnicodeStream(columnIndex)); }
    @Override public InputStream getBinaryStream(int columnIndex) throws SQLException { return in(v().getBinaryStream(columnIndex)); }
    @Override public String getString(String columnLabel) throws SQLException { return t(v().getString(columnLabel)); }
    @Override public boolean getBoolean(String columnLabel) throws SQLException { return v().getBoolean(columnLabel); }
    @Override public byte getByte(String columnLabel) throws SQLException { return v().getByte(columnLabel); }
    @Override public short getShort(String columnLabel) throws SQLException { return v().getShort(columnLabel); }
    @Override public int getInt(String columnLabel) throws SQLException { return v().getInt(columnLabel); }
    @Override public long getLong(String columnLabel) throws SQLException { return v().getLong(columnLabel); }
    @Override public float getFloat(String columnLabel) throws SQLException { return v().getFloat(columnLabel); }
    @Override public double getDouble(String columnLabel) throws SQLException { return v().getDouble(columnLabel); }
    @Override public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException { return v().getBigDecimal(columnLabel, scale); }
    @Override public byte[] getBytes(String columnLabel) throws SQLException { return b(v().getBytes(columnLabel)); }
    @Override public Date getDate(String columnLabel) throws SQLException { return v().getDate(columnLabel); }
    @Override public Time getTime(String columnLabel) throws SQLException { return v().getTime(columnLabel); }
    @Override public Timestamp getTimestamp(String columnLabel) throws SQLException { return v().getTimestamp(columnLabel); }
    @Override public InputStream getAsciiStream(String columnLabel) throws SQLException { return in(v().getAsciiStream(columnLabel)); }
    @Override public InputStream getUnicodeStream(String columnLabel) throws SQLException { return in(v().getUnicodeStream(columnLabel)); }
    @Override public InputStream getBinaryStream(String columnLabel) throws SQLException { return in(v().getBinaryStream(columnLabel)); }
    @Override public String getCursorName() throws SQLException { return d().getCursorName(); }
    @Override public int findColumn(String columnLabel) throws SQLException { return d().findColumn(columnLabel); }
    @Override public Reader getCharacterStream(int columnIndex) throws SQLException { return r(v().getCharacterStream(columnIndex)); }
    @Override public Reader getCharacterStream(String columnLabel) throws SQLException { return r(v().getCharacterStream(columnLabel)); }
    @Override public BigDecimal getBigDecimal(int columnIndex) throws SQLException { return v().getBigDecimal(columnIndex); }
    @Override public BigDecimal getBigDecimal(String columnLabel) throws SQLException { return v().getBigDecimal(columnLabel); }
    @Override public boolean isBeforeFirst() throws SQLException { return d().isBeforeFirst(); }
    @Override public boolean isFirst() throws SQLException { return d().isFirst(); }
    @Override public int getRow() throws SQLException { return d().getRow(); }
    @Override public void setFetchDirection(int direction) throws SQLException { d().setFetchDirection(direction); }
    @Override public int getFetchDirection() throws SQLException { return d().getFetchDirection(); }
    @Override public void setFetchSize(int rows) throws SQLException { d().setFetchSize(rows); }
    @Override public int getFetchSize() throws SQLException { return d().getFetchSize(); }
    @Override public int getType() throws SQLException { return d().getType(); }
    @Override public boolean rowUpdated() throws SQLException { return d().rowUpdated(); }
    @Override public boolean rowInserted() throws SQLException { return d().rowInserted(); }
    @Override public boolean rowDeleted() throws SQLException { return d().rowDeleted(); }
    @Override public Date getDate(int columnIndex, Calendar cal) throws SQLException { return v().getDate(columnIndex, cal); }
    @Override public Date getDate(String columnLabel, Calendar cal) throws SQLException { return v().getDate(columnLabel, cal); }
    @Override public Time getTime(int columnIndex, Calendar cal) throws SQLException { return v().getTime(columnIndex, cal); }
    @Override public Time getTime(String columnLabel, Calendar cal) throws SQLException { return v().getTime(columnLabel, cal); }
    @Override public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException { return v().getTimestamp(columnIndex, cal); }
    @Override public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException { return v().getTimestamp(columnLabel, cal); }
    @Override public URL getURL(int columnIndex) throws SQLException { return v().getURL(columnIndex); }
    @Override public URL getURL(String columnLabel) throws SQLException { return v().getURL(columnLabel); }
    @Override public RowId getRowId(int columnIndex) throws SQLException { return v().getRowId(columnIndex); }
    @Override public RowId getRowId(String columnLabel) throws SQLException { return v().getRowId(columnLabel); }
    @Override public int getHoldability() throws SQLException { return d().getHoldability(); }
    @Override public SQLXML getSQLXML(int columnIndex) throws SQLException { return v().getSQLXML(columnIndex); }
    @Override public SQLXML getSQLXML(String columnLabel) throws SQLException { return v().getSQLXML(columnLabel); }
    @Override public String getNString(int columnIndex) throws SQLException { return t(v().getNString(columnIndex)); }
    @Override public String getNString(String columnLabel) throws SQLException { return t(v().getNString(columnLabel)); }
    @Override public Reader getNCharacterStream(int columnIndex) throws SQLException { return r(v().getNCharacterStream(columnIndex)); }
    @Override public Reader getNCharacterStream(String columnLabel) throws SQLException { return r(v().getNCharacterStream(columnLabel)); }
    // @formatter:on
}
