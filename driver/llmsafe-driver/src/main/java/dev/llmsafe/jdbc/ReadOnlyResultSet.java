package dev.llmsafe.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * J3: a result set cannot write. With an updatable result set the vendor driver writes the row itself,
 * with its own UPDATE, INSERT or DELETE on the connection, which no statement-level guard ever sees:
 * every method that changes a row, or moves to the insert row, is refused here. Statements are also
 * created read-only, so the vendor driver would refuse too; this does not depend on it.
 */
// JDBC's deprecated methods are still methods of the interface, and must be wrapped like the rest.
@SuppressWarnings("deprecation")
abstract class ReadOnlyResultSet extends DelegatingResultSet {

    ReadOnlyResultSet(ResultSet delegate) {
        super(delegate);
    }

    private static SQLException refused(String method) {
        return Guard.forbidden("ResultSet." + method, "result sets through llmsafe are read-only (J3), because the"
                + " vendor driver would write the row itself, around the guard. Send an UPDATE or DELETE to propose"
                + " the change.");
    }

    // @formatter:off
    @Override public void updateNull(int columnIndex) throws SQLException { throw refused("updateNull"); }
    @Override public void updateBoolean(int columnIndex, boolean x) throws SQLException { throw refused("updateBoolean"); }
    @Override public void updateByte(int columnIndex, byte x) throws SQLException { throw refused("updateByte"); }
    @Override public void updateShort(int columnIndex, short x) throws SQLException { throw refused("updateShort"); }
    @Override public void updateInt(int columnIndex, int x) throws SQLException { throw refused("updateInt"); }
    @Override public void updateLong(int columnIndex, long x) throws SQLException { throw refused("updateLong"); }
    @Override public void updateFloat(int columnIndex, float x) throws SQLException { throw refused("updateFloat"); }
    @Override public void updateDouble(int columnIndex, double x) throws SQLException { throw refused("updateDouble"); }
    @Override public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException { throw refused("updateBigDecimal"); }
    @Override public void updateString(int columnIndex, String x) throws SQLException { throw refused("updateString"); }
    @Override public void updateBytes(int columnIndex, byte[] x) throws SQLException { throw refused("updateBytes"); }
    @Override public void updateDate(int columnIndex, Date x) throws SQLException { throw refused("updateDate"); }
    @Override public void updateTime(int columnIndex, Time x) throws SQLException { throw refused("updateTime"); }
    @Override public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException { throw refused("updateTimestamp"); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException { throw refused("updateObject"); }
    @Override public void updateObject(int columnIndex, Object x) throws SQLException { throw refused("updateObject"); }
    @Override public void updateNull(String columnLabel) throws SQLException { throw refused("updateNull"); }
    @Override public void updateBoolean(String columnLabel, boolean x) throws SQLException { throw refused("updateBoolean"); }
    @Override public void updateByte(String columnLabel, byte x) throws SQLException { throw refused("updateByte"); }
    @Override public void updateShort(String columnLabel, short x) throws SQLException { throw refused("updateShort"); }
    @Override public void updateInt(String columnLabel, int x) throws SQLException { throw refused("updateInt"); }
    @Override public void updateLong(String columnLabel, long x) throws SQLException { throw refused("updateLong"); }
    @Override public void updateFloat(String columnLabel, float x) throws SQLException { throw refused("updateFloat"); }
    @Override public void updateDouble(String columnLabel, double x) throws SQLException { throw refused("updateDouble"); }
    @Override public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException { throw refused("updateBigDecimal"); }
    @Override public void updateString(String columnLabel, String x) throws SQLException { throw refused("updateString"); }
    @Override public void updateBytes(String columnLabel, byte[] x) throws SQLException { throw refused("updateBytes"); }
    @Override public void updateDate(String columnLabel, Date x) throws SQLException { throw refused("updateDate"); }
    @Override public void updateTime(String columnLabel, Time x) throws SQLException { throw refused("updateTime"); }
    @Override public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException { throw refused("updateTimestamp"); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader, int length) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException { throw refused("updateObject"); }
    @Override public void updateObject(String columnLabel, Object x) throws SQLException { throw refused("updateObject"); }
    @Override public void insertRow() throws SQLException { throw refused("insertRow"); }
    @Override public void updateRow() throws SQLException { throw refused("updateRow"); }
    @Override public void deleteRow() throws SQLException { throw refused("deleteRow"); }
    @Override public void refreshRow() throws SQLException { throw refused("refreshRow"); }
    @Override public void cancelRowUpdates() throws SQLException { throw refused("cancelRowUpdates"); }
    @Override public void moveToInsertRow() throws SQLException { throw refused("moveToInsertRow"); }
    @Override public void moveToCurrentRow() throws SQLException { throw refused("moveToCurrentRow"); }
    @Override public void updateRef(int columnIndex, Ref x) throws SQLException { throw refused("updateRef"); }
    @Override public void updateRef(String columnLabel, Ref x) throws SQLException { throw refused("updateRef"); }
    @Override public void updateBlob(int columnIndex, Blob x) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateBlob(String columnLabel, Blob x) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateClob(int columnIndex, Clob x) throws SQLException { throw refused("updateClob"); }
    @Override public void updateClob(String columnLabel, Clob x) throws SQLException { throw refused("updateClob"); }
    @Override public void updateArray(int columnIndex, Array x) throws SQLException { throw refused("updateArray"); }
    @Override public void updateArray(String columnLabel, Array x) throws SQLException { throw refused("updateArray"); }
    @Override public void updateRowId(int columnIndex, RowId x) throws SQLException { throw refused("updateRowId"); }
    @Override public void updateRowId(String columnLabel, RowId x) throws SQLException { throw refused("updateRowId"); }
    @Override public void updateNString(int columnIndex, String nString) throws SQLException { throw refused("updateNString"); }
    @Override public void updateNString(String columnLabel, String nString) throws SQLException { throw refused("updateNString"); }
    @Override public void updateNClob(int columnIndex, NClob nClob) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateNClob(String columnLabel, NClob nClob) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException { throw refused("updateSQLXML"); }
    @Override public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException { throw refused("updateSQLXML"); }
    @Override public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException { throw refused("updateNCharacterStream"); }
    @Override public void updateNCharacterStream(String columnLabel, Reader reader, long length) throws SQLException { throw refused("updateNCharacterStream"); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader, long length) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateBlob(int columnIndex, InputStream inputStream, long length) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateBlob(String columnLabel, InputStream inputStream, long length) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateClob(int columnIndex, Reader reader, long length) throws SQLException { throw refused("updateClob"); }
    @Override public void updateClob(String columnLabel, Reader reader, long length) throws SQLException { throw refused("updateClob"); }
    @Override public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException { throw refused("updateNCharacterStream"); }
    @Override public void updateNCharacterStream(String columnLabel, Reader reader) throws SQLException { throw refused("updateNCharacterStream"); }
    @Override public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(int columnIndex, Reader x) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException { throw refused("updateAsciiStream"); }
    @Override public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException { throw refused("updateBinaryStream"); }
    @Override public void updateCharacterStream(String columnLabel, Reader reader) throws SQLException { throw refused("updateCharacterStream"); }
    @Override public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException { throw refused("updateBlob"); }
    @Override public void updateClob(int columnIndex, Reader reader) throws SQLException { throw refused("updateClob"); }
    @Override public void updateClob(String columnLabel, Reader reader) throws SQLException { throw refused("updateClob"); }
    @Override public void updateNClob(int columnIndex, Reader reader) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateNClob(String columnLabel, Reader reader) throws SQLException { throw refused("updateNClob"); }
    @Override public void updateObject(int columnIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException { throw refused("updateObject"); }
    @Override public void updateObject(String columnLabel, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException { throw refused("updateObject"); }
    @Override public void updateObject(int columnIndex, Object x, SQLType targetSqlType) throws SQLException { throw refused("updateObject"); }
    @Override public void updateObject(String columnLabel, Object x, SQLType targetSqlType) throws SQLException { throw refused("updateObject"); }
    // @formatter:on
}
