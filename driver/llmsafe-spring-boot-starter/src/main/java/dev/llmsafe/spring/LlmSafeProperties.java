package dev.llmsafe.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code llmsafe.*} properties of the starter. {@code llmsafe.config} is required: without it the
 * starter adds no bean.
 */
@ConfigurationProperties("llmsafe")
public class LlmSafeProperties {

    /**
     * Where the llmsafe.json is: a Spring resource location such as classpath:llmsafe.json or
     * file:/etc/app/llmsafe.json. Required for the starter to add its beans.
     */
    private String config;

    /** Who proposes the plans the tools make, as their cards name them (recorded as given, not an authorisation). */
    private String proposer = "assistant";

    /** A database of the guard's own; when its url is unset, the guard wraps the application's primary DataSource. */
    private final Datasource datasource = new Datasource();

    /** @return the location of llmsafe.json, or null */
    public String getConfig() {
        return config;
    }

    /** @param config the location of llmsafe.json */
    public void setConfig(String config) {
        this.config = config;
    }

    /** @return the proposer name */
    public String getProposer() {
        return proposer;
    }

    /** @param proposer the proposer name */
    public void setProposer(String proposer) {
        this.proposer = proposer;
    }

    /** @return the guard's own database */
    public Datasource getDatasource() {
        return datasource;
    }

    /** The guard's own database, pooled with HikariCP; the dry run borrows from it with this credential. */
    public static class Datasource {

        /** JDBC URL of the database the model works on (the plain URL, not jdbc:llmsafe:). Unset: the primary DataSource. */
        private String url;

        /** User of the guard's own pool. */
        private String username;

        /** Password of the guard's own pool. */
        private String password;

        /** @return the JDBC URL, or null */
        public String getUrl() {
            return url;
        }

        /** @param url the JDBC URL */
        public void setUrl(String url) {
            this.url = url;
        }

        /** @return the user, or null */
        public String getUsername() {
            return username;
        }

        /** @param username the user */
        public void setUsername(String username) {
            this.username = username;
        }

        /** @return the password, or null */
        public String getPassword() {
            return password;
        }

        /** @param password the password */
        public void setPassword(String password) {
            this.password = password;
        }
    }
}
