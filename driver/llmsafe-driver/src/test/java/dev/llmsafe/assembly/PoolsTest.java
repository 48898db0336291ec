package dev.llmsafe.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.policy.ConnectionSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The engine's pools over configured settings open every connection through a method of llmsafe's own,
 * also in HikariCP's connection-adder thread, where nothing of llmsafe's calls it: that frame is how the
 * javaagent tells llmsafe's own connections (the store's, the dry run's) from the application's, and never
 * guards them.
 */
class PoolsTest {

    /** A driver for jdbc:probe:FILE that opens SQLite and records who was on the stack. */
    static final class Probe implements Driver {
        final List<List<String>> stacks = new CopyOnWriteArrayList<>();

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            if (!acceptsURL(url)) {
                return null;
            }
            stacks.add(StackWalker.getInstance().walk(s -> s.map(StackWalker.StackFrame::getClassName).toList()));
            return new org.sqlite.JDBC().connect("jdbc:sqlite:" + url.substring("jdbc:probe:".length()), info);
        }

        @Override
        public boolean acceptsURL(String url) {
            return url.startsWith("jdbc:probe:");
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }
    }

    @Test
    void everyConnectionOfAConfiguredPoolIsOpenedThroughAMethodOfLlmsafes() throws Exception {
        Probe probe = new Probe();
        DriverManager.registerDriver(probe);
        Path file = Files.createTempDirectory("llmsafe-pools").resolve("p.db");
        try (HikariDataSource pool = Pools.open("store", new ConnectionSettings("jdbc:probe:" + file, Optional.empty(),
                Optional.empty()), 1, Pools.Start.ON_FIRST_USE); Connection c = pool.getConnection()) {
            assertThat(c.isValid(1)).isTrue();
        } finally {
            DriverManager.deregisterDriver(probe);
        }
        assertThat(probe.stacks).isNotEmpty().allSatisfy(stack -> assertThat(stack)
                .doesNotContain(PoolsTest.class.getName())
                .anyMatch(name -> name.startsWith("dev.llmsafe.assembly.Pools$")));
    }
}
