package dev.llmsafe.spring;

import com.zaxxer.hikari.HikariDataSource;
import dev.llmsafe.jdbc.LlmSafeDataSource;
import dev.llmsafe.policy.LlmSafeConfig;
import dev.llmsafe.tools.DatabaseTools;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;

/**
 * Adds the guarded data source beside the application's own: a bean {@code llmsafeDataSource} of type
 * {@link LlmSafeDataSource}, never primary and not a default candidate for injection by type, so the
 * application's primary DataSource stays the one its repositories, migrations and {@code JdbcTemplate} get.
 * The guard wraps the primary DataSource (the dry run borrows from it, with its database and credential) or,
 * when {@code llmsafe.datasource.url} is set, a HikariCP pool of its own. Only with {@code llmsafe.config};
 * a missing or broken configuration fails the start with the config reader's located message.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnProperty(prefix = "llmsafe", name = "config")
@EnableConfigurationProperties(LlmSafeProperties.class)
public class LlmSafeAutoConfiguration {

    /** The bean name of the guarded data source. */
    public static final String DATA_SOURCE_BEAN = "llmsafeDataSource";

    /** The configuration llmsafe.config locates. */
    @Bean
    @ConditionalOnMissingBean
    LlmSafeConfig llmsafeConfig(LlmSafeProperties properties, ResourceLoader loader) {
        return LlmSafeConfigs.load(loader, properties.getConfig());
    }

    /** The tools and the guarded data source, over the primary DataSource or the guard's own pool. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LlmSafeDatabase llmsafeDatabase(LlmSafeProperties properties, LlmSafeConfig config,
            ObjectProvider<DataSource> dataSources) {
        LlmSafeProperties.Datasource own = properties.getDatasource();
        if (own.getUrl() != null && !own.getUrl().isBlank()) {
            HikariDataSource pool = new HikariDataSource();
            pool.setPoolName("llmsafe");
            pool.setJdbcUrl(own.getUrl());
            pool.setUsername(own.getUsername());
            pool.setPassword(own.getPassword());
            try {
                return new LlmSafeDatabase(DatabaseTools.over(pool, config), pool);
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
        }
        DataSource primary = dataSources.getIfUnique();
        if (primary == null) {
            throw new IllegalStateException(dataSources.stream().findAny().isPresent()
                    ? "llmsafe cannot tell which DataSource to guard: the application has several and none is"
                            + " @Primary; mark the one the model's tools should read @Primary, or give the guard its own"
                            + " with llmsafe.datasource.url"
                    : "llmsafe has no database to guard: the application has no primary DataSource; set"
                            + " spring.datasource.url or llmsafe.datasource.url");
        }
        return new LlmSafeDatabase(DatabaseTools.over(primary, config), null);
    }

    /**
     * The model's data source: reads guarded, UPDATE and DELETE made plans, proposed as {@code llmsafe.proposer}.
     * Closed with {@link LlmSafeDatabase}.
     */
    @Bean(name = DATA_SOURCE_BEAN, destroyMethod = "", defaultCandidate = false)
    LlmSafeDataSource llmsafeDataSource(LlmSafeDatabase database, LlmSafeProperties properties) {
        LlmSafeDataSource guarded = database.guarded();
        // The application's own JDBC tools propose under the same name as the starter's.
        guarded.setProposer(properties.getProposer());
        return guarded;
    }
}
