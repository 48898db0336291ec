package dev.llmsafe.jdbc;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.sql.Clob;
import java.sql.SQLException;

/** A Clob that can be read and not written (J1, J3), as {@link ReadOnlyBlob}. */
class ReadOnlyClob implements Clob {

    private final Clob d;

    ReadOnlyClob(Clob delegate) {
        this.d = delegate;
    }

    Clob delegate() {
        return d;
    }

    private static SQLException refused(String method) {
        return Guard.forbidden("Clob." + method, "a Clob read through llmsafe cannot be written; with some drivers it"
                + " is an object in the database. Send an UPDATE to propose a change.");
    }

    // @formatter:off
    @Override public long length() throws SQLException { return d.length(); }
    @Override public String getSubString(long pos, int length) throws SQLException { return d.getSubString(pos, length); }
    @Override public Reader getCharacterStream() throws SQLException { return d.getCharacterStream(); }
    @Override public Reader getCharacterStream(long pos, long length) throws SQLException { return d.getCharacterStream(pos, length); }
    @Override public InputStream getAsciiStream() throws SQLException { return d.getAsciiStream(); }
    @Override public long position(String searchstr, long start) throws SQLException { return d.position(searchstr, start); }
    @Override public long position(Clob searchstr, long start) throws SQLException { return d.position(Values.parameter(searchstr), start); }
    @Override public int setString(long pos, String str) throws SQLException { throw refused("setString"); }
    @Override public int setString(long pos, String str, int offset, int len) throws SQLException { throw refused("setString"); }
    @Override public OutputStream setAsciiStream(long pos) throws SQLException { throw refused("setAsciiStream"); }
    @Override public Writer setCharacterStream(long pos) throws SQLException { throw refused("setCharacterStream"); }
    @Override public void truncate(long len) throws SQLException { throw refused("truncate"); }
    @Override public void free() throws SQLException { d.free(); }
    // @formatter:on
}
