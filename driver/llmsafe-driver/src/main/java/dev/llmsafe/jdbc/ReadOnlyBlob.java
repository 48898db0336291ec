package dev.llmsafe.jdbc;

import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;

/**
 * A Blob that can be read and not written (J1, J3): pgjdbc's Blob is a large object in the database,
 * and {@code setBytes}, {@code setBinaryStream} and {@code truncate} write it directly.
 */
final class ReadOnlyBlob implements Blob {

    private final Blob d;

    ReadOnlyBlob(Blob delegate) {
        this.d = delegate;
    }

    Blob delegate() {
        return d;
    }

    private static SQLException refused(String method) {
        return Guard.forbidden("Blob." + method, "a Blob read through llmsafe cannot be written; with pgjdbc it is a"
                + " large object in the database. Send an UPDATE to propose a change.");
    }

    // @formatter:off
    @Override public long length() throws SQLException { return d.length(); }
    @Override public byte[] getBytes(long pos, int length) throws SQLException { return d.getBytes(pos, length); }
    @Override public InputStream getBinaryStream() throws SQLException { return d.getBinaryStream(); }
    @Override public InputStream getBinaryStream(long pos, long length) throws SQLException { return d.getBinaryStream(pos, length); }
    @Override public long position(byte[] pattern, long start) throws SQLException { return d.position(pattern, start); }
    @Override public long position(Blob pattern, long start) throws SQLException { return d.position(Values.parameter(pattern), start); }
    @Override public int setBytes(long pos, byte[] bytes) throws SQLException { throw refused("setBytes"); }
    @Override public int setBytes(long pos, byte[] bytes, int offset, int len) throws SQLException { throw refused("setBytes"); }
    @Override public OutputStream setBinaryStream(long pos) throws SQLException { throw refused("setBinaryStream"); }
    @Override public void truncate(long len) throws SQLException { throw refused("truncate"); }
    @Override public void free() throws SQLException { d.free(); }
    // @formatter:on
}
