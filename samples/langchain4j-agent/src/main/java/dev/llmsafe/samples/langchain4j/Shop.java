package dev.llmsafe.samples.langchain4j;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.model.chat.ChatModel;
import dev.llmsafe.langchain4j.LlmSafeTools;
import dev.llmsafe.policy.LlmSafeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The application: one pool on its database ({@link #dataSource()}), used two ways. The application's
 * own code writes through it as always ({@link #placeOrder}: a plain JDBC INSERT that commits); the agent
 * is given llmsafe's tools over the same pool ({@link #agent}), which read under the policy and turn every
 * UPDATE or DELETE into a plan a person approves. The model never holds a connection of the pool.
 */
public final class Shop implements AutoCloseable {

    /** Who proposes the agent's plans, as their cards name it. */
    public static final String PROPOSER = "order-agent";

    private final HikariDataSource dataSource;
    private final LlmSafeTools tools;

    /**
     * The application on a database.
     *
     * @param jdbcUrl the application's own, plain JDBC URL (here {@code jdbc:sqlite:target/orders.db})
     */
    public Shop(String jdbcUrl) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(jdbcUrl);
        c.setMaximumPoolSize(4);
        this.dataSource = new HikariDataSource(c);
        this.tools = new LlmSafeTools(dataSource, config(), PROPOSER);
    }

    /** The policy, {@code llmsafe.json} on the class path. */
    static LlmSafeConfig config() {
        try (InputStream in = Shop.class.getResourceAsStream("/llmsafe.json")) {
            if (in == null) {
                throw new IllegalStateException("llmsafe.json is not on the class path");
            }
            return LlmSafeConfig.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "classpath:llmsafe.json",
                    Path.of(""), System::getenv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The application's own data source: unguarded, as the rest of the application uses it. */
    public HikariDataSource dataSource() {
        return dataSource;
    }

    /**
     * The application's own write, not the model's: a new packed order, committed.
     *
     * @param customer who ordered
     * @return the new order's id
     */
    public long placeOrder(String customer) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO orders (customer, status) VALUES (?, 'packed')",
                        Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, customer);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /**
     * The agent, with llmsafe's guarded tools over the application's pool.
     *
     * @param model any LangChain4j chat model
     */
    public OrderAgent agent(ChatModel model) {
        return OrderAgent.create(model, tools);
    }

    /** Closes the tools and the pool. */
    @Override
    public void close() throws Exception {
        tools.close();
        dataSource.close();
    }
}
