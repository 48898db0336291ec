package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.RefusedException;
import dev.llmsafe.assembly.BorrowedConnections;
import dev.llmsafe.assembly.DelegatingDataSource;
import dev.llmsafe.assembly.Pools;
import dev.llmsafe.dialect.Dialects;
import dev.llmsafe.policy.ConnectionSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * The three data sources of llmsafe's (the model's {@link LlmSafeDataSource}, the dry run's borrowed connections,
 * the engine pools' own connections) share one plumbing: what they wrap gets the log writer and login timeout,
 * and none of them unwraps to what it wraps (J1), whose connections would reach the database around the guard.
 */
class DataSourcesTest {

    @TempDir
    Path dir;

    @Test
    void J1_everyDataSourceOfLlmsafePassesItsPlumbingOnAndUnwrapsToItselfOnly() throws Exception {
        SQLiteDataSource model = sqlite("model.db");
        SQLiteDataSource lent = sqlite("lent.db");
        BorrowedConnections borrowed;
        try (Connection c = lent.getConnection()) {
            borrowed = new BorrowedConnections(lent, Dialects.of(c, null).sessionReset(), null);
        }
        try (LlmSafeDataSource guarded = new LlmSafeDataSource(model, LlmSafeDataSourceTest.POLICY);
                HikariDataSource pool = Pools.open("test", ConnectionSettings.of("jdbc:sqlite:" + dir.resolve("own.db")),
                        1, Pools.Start.ON_FIRST_USE)) {
            DataSource own = pool.getDataSource();
            for (DataSource ds : List.of(guarded, borrowed, own)) {
                assertThat(ds).isInstanceOf(DelegatingDataSource.class);
                assertThat(ds.unwrap(DataSource.class)).isSameAs(ds);
                assertThat(ds.isWrapperFor(SQLiteDataSource.class)).isFalse();
                assertThatThrownBy(() -> ds.unwrap(SQLiteDataSource.class)).isInstanceOf(RefusedException.class)
                        .hasMessageContaining("FORBIDDEN_JDBC");
                assertThatThrownBy(ds::createConnectionBuilder).isInstanceOf(SQLFeatureNotSupportedException.class);
                assertThatThrownBy(ds::createShardingKeyBuilder).isInstanceOf(SQLFeatureNotSupportedException.class);
            }
            for (var e : List.of(java.util.Map.entry(guarded, model), java.util.Map.entry(borrowed, lent))) {
                PrintWriter log = new PrintWriter(new StringWriter());
                e.getKey().setLoginTimeout(7);
                e.getKey().setLogWriter(log);
                assertThat(e.getValue().getLoginTimeout()).isEqualTo(7);
                assertThat(e.getValue().getLogWriter()).isSameAs(log);
                assertThat(e.getKey().getLoginTimeout()).isEqualTo(7);
                assertThat(e.getKey().getLogWriter()).isSameAs(log);
            }
            try (Connection c = own.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }

    private SQLiteDataSource sqlite(String file) {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + dir.resolve(file));
        return ds;
    }
}
