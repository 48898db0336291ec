package dev.llmsafe.jdbc;

import java.sql.NClob;

/** An NClob that can be read and not written (J1, J3). */
final class ReadOnlyNClob extends ReadOnlyClob implements NClob {

    ReadOnlyNClob(NClob delegate) {
        super(delegate);
    }
}
