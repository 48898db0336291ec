package dev.llmsafe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/** SQLite's native library kept in the launcher's cache, so that a run does not unpack it again. */
class SqliteLibraryTest {

    @TempDir
    Path cache;

    private String path;
    private String name;

    @BeforeEach
    void keep() {
        path = System.clearProperty("org.sqlite.lib.path");
        name = System.clearProperty("org.sqlite.lib.name");
    }

    @AfterEach
    void restore() {
        restore("org.sqlite.lib.path", path);
        restore("org.sqlite.lib.name", name);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void theLibraryIsCopiedOnceWholeIntoAPrivateDirectoryAndSqliteJdbcIsPointedAtIt() throws Exception {
        SqliteLibrary.useCached(cache);
        Path dir = Path.of(System.getProperty("org.sqlite.lib.path"));
        Path lib = dir.resolve(System.getProperty("org.sqlite.lib.name"));
        assertThat(dir.getParent()).isEqualTo(cache);
        assertThat(dir.getFileName().toString()).startsWith("sqlite-" + SQLiteJDBCLoader.getVersion());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(
                LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName())) {
            assertThat(Files.readAllBytes(lib)).isEqualTo(in.readAllBytes());
        }
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary copy left behind").containsExactly(lib);
        }
        var written = Files.getLastModifiedTime(lib);
        SqliteLibrary.useCached(cache);
        assertThat(Files.getLastModifiedTime(lib)).as("the next run uses it as it is").isEqualTo(written);
    }

    @Test
    void aLibraryTheUserNamedIsLeftAsItIs() {
        System.setProperty("org.sqlite.lib.path", "/opt/mine");
        SqliteLibrary.useCached(cache);
        assertThat(System.getProperty("org.sqlite.lib.path")).isEqualTo("/opt/mine");
        assertThat(System.getProperty("org.sqlite.lib.name")).isNull();
        assertThat(cache).isEmptyDirectory();
    }
}
