package dev.llmsafe.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * SQLite's native library, kept in the launcher's cache instead of unpacked on every run. sqlite-jdbc copies
 * its library out of the jar into the temporary directory each time a JVM first opens a database, and reads
 * both copies back to compare them: about 0.1 s of a command on SQLite (measured, class-load timestamps,
 * 2-core machine under load). Here it is copied once, whole (written under a name of its own, then moved into
 * place), into a directory only the user can read, and sqlite-jdbc is pointed at it with its own properties
 * {@code org.sqlite.lib.path} and {@code org.sqlite.lib.name}. Nothing is done when those are set already, or
 * when the jar has no library for this machine (sqlite-jdbc then looks as it always does).
 */
final class SqliteLibrary {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteLibrary.class);

    private SqliteLibrary() {
    }

    /** Points sqlite-jdbc at its library in {@code cache}, copying it there first when it is not there yet. */
    static void useCached(Path cache) {
        if (System.getProperty("org.sqlite.lib.path") != null || System.getProperty("org.sqlite.lib.name") != null) {
            return;
        }
        String folder = LibraryLoaderUtil.getNativeLibResourcePath();
        String name = LibraryLoaderUtil.getNativeLibName();
        // One directory per sqlite-jdbc version and platform: another version never loads this one's library.
        Path dir = cache.resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + folder.replace('/', '-'));
        Path lib = dir.resolve(name);
        try {
            if (!Files.isRegularFile(lib)) {
                try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(folder + "/" + name)) {
                    if (in == null) {
                        return;
                    }
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                    Path tmp = Files.createTempFile(dir, name, ".tmp");
                    try {
                        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                        Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE);
                    } finally {
                        Files.deleteIfExists(tmp);
                    }
                }
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            LOG.debug("SQLite's library is not kept in {}: {}", dir, e.toString());
            return;
        }
        System.setProperty("org.sqlite.lib.path", dir.toString());
        System.setProperty("org.sqlite.lib.name", name);
    }
}
