package dev.llmsafe.spring;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.tools.DatabaseTools;
import java.util.Objects;

/**
 * What the starter opened for the guard: the four tools over the wrapped data source, the guarded data
 * source they share, and the guard's own pool when {@code llmsafe.datasource.url} is set. Closing it
 * closes these and never the application's primary DataSource.
 */
public final class LlmSafeDatabase implements AutoCloseable {

    private final DatabaseTools tools;
    private final HikariDataSource ownPool;

    LlmSafeDatabase(DatabaseTools tools, HikariDataSource ownPool) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.ownPool = ownPool;
    }

    /** @return the four model tools (read, plan, plan status, schema), framework-free */
    public DatabaseTools tools() {
        return tools;
    }

    /** @return the guarded data source (the {@code llmsafeDataSource} bean) */
    public LlmSafeDataSource guarded() {
        return tools.guarded();
    }

    /** @return whether the guard has a pool of its own ({@code llmsafe.datasource.url}) */
    public boolean hasOwnPool() {
        return ownPool != null;
    }

    /** Closes the tools, the guarded data source and the guard's own pool. */
    @Override
    public void close() {
        try {
            tools.close();
        } finally {
            if (ownPool != null) {
                ownPool.close();
            }
        }
    }
}
