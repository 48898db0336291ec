package dev.llmsafe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.policy.ConnectionSettings;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.sql.SqlDialect;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.testing.TestRole;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** J8: the driver is found from the URL alone, its configuration in a documented order, and the real URL cleaned. */
class DriverTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Guarded> GUARDED = new EnumMap<>(Engine.class);
    static final Policy POLICY = Policy.define(p -> p.table("orders", t -> t.impact("Changing an order moves money.")));

    @BeforeAll
    static void sink() {
        Guarded.useMemorySink();
    }

    @AfterAll
    static void restore() {
        Guarded.restoreSink();
    }

    static Guarded guarded(Engine engine) throws SQLException {
        Guarded g = GUARDED.get(engine);
        if (g == null) {
            ScratchDatabase db = dbs.get(engine);
            db.execute("CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL)",
                    "INSERT INTO orders VALUES (1, 'packed'), (2, 'shipped')");
            g = Guarded.of(db, POLICY);
            GUARDED.put(engine, g);
        }
        return g;
    }

    // ---- finding the driver ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_driverManagerFindsTheDriverFromTheUrlAloneAndLeavesRealUrlsToTheirDrivers(Engine engine)
            throws SQLException {
        Guarded g = guarded(engine);
        assertThat(DriverManager.getDriver(g.url())).isInstanceOf(LlmSafeDriver.class);
        assertThat(DriverManager.getDriver(g.db.url())).isNotInstanceOf(LlmSafeDriver.class);
        assertThat(ServiceLoader.load(Driver.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) LlmSafeDriver.class);
        try (Connection c = DriverManager.getConnection(g.url(), g.credentials())) {
            assertThat(c).isInstanceOf(GuardedConnection.class);
            assertThat(ReadTest.rows(c, "SELECT status FROM orders WHERE id = 2")).containsExactly("shipped");
        }
    }

    @Test
    void J8_acceptsOnlyItsPrefixFollowedByARealUrl() throws SQLException {
        LlmSafeDriver d = new LlmSafeDriver();
        for (String no : new String[] {null, "", "jdbc:llmsafe:", "jdbc:postgresql://h/db", "jdbc:llmsafex:sqlite:a.db",
                "llmsafe:sqlite:a.db"}) {
            assertThat(d.acceptsURL(no)).as(no).isFalse();
            assertThat(d.connect(no, new Properties())).as(no).isNull();
        }
        assertThat(d.acceptsURL("jdbc:llmsafe:postgresql://h/db")).isTrue();
        assertThat(d.jdbcCompliant()).isFalse();
    }

    @Test
    void J8_thePrefixIsRemovedOnceAndTheDriverNeverCallsItself() {
        assertThat(parse("jdbc:llmsafe:sqlite:/tmp/llmsafe:x.db", null).realUrl()).isEqualTo("jdbc:sqlite:/tmp/llmsafe:x.db");
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:llmsafe:sqlite:/tmp/x.db", null))
                .hasMessageContaining("names jdbc:llmsafe: twice");
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:oracle:thin:@db:1521/x", null))
                .hasMessageContaining("PostgreSQL").hasMessageContaining("SQLite");
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:sqlite::memory:", null)).hasMessageContaining("in-memory");
    }

    /**
     * J8: what a MariaDB user types, MariaDB Connector/J's URL, is refused by name with the URL to write
     * instead (MySQL Connector/J, whose options are measured), not left to "no driver accepts", and its
     * password is not repeated.
     */
    @Test
    void J8_aMariadbConnectorUrlIsRefusedWithTheMysqlUrlToUseInstead() {
        for (String real : List.of("jdbc:mariadb://db:3306/app?user=u&password=hunter2", "JDBC:MariaDB://db/app")) {
            assertThatThrownBy(() -> DriverManager.getConnection(DriverUrl.PREFIX + real.substring(5)))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                    .hasMessageContaining("through MySQL Connector/J")
                    .hasMessageContaining("write jdbc:mysql://db")
                    .hasMessageNotContaining("hunter2");
        }
    }

    private static DriverUrl.Parsed parse(String url, Properties p) {
        try {
            return DriverUrl.parse(url, p);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void J8_guardDefeatingOptionsAreRemovedFromTheUrlAndTheProperties() {
        Properties props = new Properties();
        props.setProperty("user", "app");
        props.setProperty("ALLOWLOCALINFILE", "true");
        props.setProperty("rewriteBatchedStatements", "true");
        props.setProperty("llmsafe.proposer", "bot");
        DriverUrl.Parsed my = parse("jdbc:llmsafe:mysql://h:3306/app?allowMultiQueries=true&characterEncoding=utf8"
                + "&allow%4CoadLocalInfile=true&useAffectedRows=true&autoDeserialize=true&queryInterceptors=x.Y"
                + "&llmsafe.config=%2Fetc%2Fllmsafe.json", props);
        assertThat(my.dialect()).isEqualTo(SqlDialect.MYSQL);
        assertThat(my.realUrl()).isEqualTo("jdbc:mysql://h:3306/app?characterEncoding=utf8&useAffectedRows=false");
        assertThat(my.properties()).containsOnlyKeys("user");
        assertThat(my.fromUrl()).containsEntry("llmsafe.config", "/etc/llmsafe.json");
        assertThat(my.fromProperties()).containsEntry("llmsafe.proposer", "bot");
        assertThat(my.removed()).hasSize(7);

        DriverUrl.Parsed pg = parse("jdbc:llmsafe:postgresql://h/app?preferQueryMode=simple&reWriteBatchedInserts=true"
                + "&currentSchema=s", null);
        assertThat(pg.realUrl()).isEqualTo("jdbc:postgresql://h/app?currentSchema=s");
        assertThat(parse("jdbc:llmsafe:postgresql://h/app?preferQueryMode=extendedForPrepared", null).realUrl())
                .isEqualTo("jdbc:postgresql://h/app");
        assertThat(parse("jdbc:llmsafe:postgresql://h/app?preferQueryMode=extendedCacheEverything", null).realUrl())
                .isEqualTo("jdbc:postgresql://h/app?preferQueryMode=extendedCacheEverything");
        assertThat(parse("jdbc:llmsafe:sqlite:/tmp/a.db?enable_load_extension=true&busy_timeout=10", null).realUrl())
                .isEqualTo("jdbc:sqlite:/tmp/a.db?busy_timeout=10");
        // Connector/J also reads options inside the host part: refused rather than parsed twice.
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:mysql://(host=h,allowMultiQueries=true)/app", null))
                .hasMessageContaining("allowmultiqueries");
    }

    @Test
    void J8_aMistypedLlmsafeParameterIsAnErrorNotADefault() {
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:sqlite:/tmp/a.db?llmsafe.confg=/x.json", null))
                .hasMessageContaining("unknown parameter llmsafe.confg").hasMessageContaining("llmsafe.config");
        Properties p = new Properties();
        p.setProperty("llmsafe.config", "/a.json");
        assertThatThrownBy(() -> parse("jdbc:llmsafe:sqlite:/tmp/a.db?llmsafe.config=/b.json", p).own(DriverUrl.CONFIG))
                .hasMessageContaining("give it once");
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:sqlite:/tmp/a.db?llmsafe.config=/a.json&llmsafe.config=/b.json",
                null)).hasMessageContaining("given twice");
        assertThatThrownBy(() -> DriverUrl.parse("jdbc:llmsafe:sqlite:/tmp/a.db?llmsafe.Config=/a.json", null))
                .hasMessageContaining("unknown parameter llmsafe.Config");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = "MYSQL")
    void J8_useAffectedRowsIsPinnedSoRowsAffectedMeansRowsMatched(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        // With useAffectedRows=true a same-value UPDATE would count 0 rows where 1 matched (SPEC.md F09, F10),
        // and the dry run would report ROW_COUNT_MISMATCH: the option never reaches Connector/J.
        try (Connection c = DriverManager.getConnection(g.url("useAffectedRows=true&allowMultiQueries=true"),
                g.credentials()); Statement s = c.createStatement()) {
            g.refusedUnchanged(Refusal.NO_CHANGE, () -> s.executeUpdate("UPDATE orders SET status = status WHERE id = 1"));
            // And allowMultiQueries did not reach it either: the vendor connection refuses two statements itself.
            try (Statement raw = ((GuardedConnection) c).readConnectionForTests().createStatement()) {
                assertThatThrownBy(() -> raw.execute("SELECT 1; SELECT 2")).isInstanceOf(SQLException.class);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_propertyInfoIsTheRealDriversAndLlmsafesOwn(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        DriverPropertyInfo[] info = new LlmSafeDriver().getPropertyInfo(g.url(), g.credentials());
        assertThat(Arrays.stream(info).map(i -> i.name)).contains("llmsafe.config", "llmsafe.proposer");
    }

    /**
     * J8: an application URL that opens the database read-only (SQLite's open_mode and mode=ro, a read-only
     * session on PostgreSQL and MariaDB) cannot plan, since the dry run writes; that is what it is told.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_aReadOnlyHandleUsedToPlanIsRefusedAsOneThatCannotWrite(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        String config = "llmsafe.config=" + java.net.URLEncoder.encode(g.config.toString(), StandardCharsets.UTF_8);
        List<String> urls = switch (engine) {
            case SQLITE -> List.of(DriverUrl.PREFIX + "sqlite:" + g.db.name() + "?open_mode=1&" + config,
                    DriverUrl.PREFIX + "sqlite:file:" + g.db.name() + "?mode=ro&" + config);
            case POSTGRES -> List.of(g.url("options=-c%20default_transaction_read_only%3Don"));
            case MYSQL -> List.of(g.url(mysqlReadOnlySession(g.db.announcedAsMysql55())));
        };
        Map<String, List<String>> before = g.checksum();
        for (String url : urls) {
            try (Connection c = DriverManager.getConnection(url, g.credentials()); Statement s = c.createStatement()) {
                RefusedException e = catchThrowableOfType(RefusedException.class,
                        () -> s.executeUpdate("UPDATE orders SET status = 'x' WHERE id = 1"));
                assertThat((Throwable) e).as(url).isNotNull();
                assertThat(e.code()).as(e.getMessage()).isEqualTo(Refusal.PLANNING_READ_ONLY);
                assertThat(e.getMessage()).contains("the planning connection cannot write")
                        .contains("Nothing was changed");
                assertThat(e.getSQLState()).isEqualTo("25006");
            }
        }
        assertThat(g.checksum()).isEqualTo(before);
    }

    /**
     * URL options that open a MySQL or MariaDB session read-only. Connector/J reads the session's read-only
     * state back from a server it takes for MySQL 5.6.5 or later (MySQL, MariaDB 11), and the pool's
     * setReadOnly(false) then ends it: readOnlyPropagatesToServer=false keeps it (measured on MySQL 8.0.31).
     * MySQL 8.0 removed tx_read_only; MariaDB 10.11 has only that name.
     */
    static String mysqlReadOnlySession(boolean announcedAsMysql55) {
        return announcedAsMysql55 ? "sessionVariables=tx_read_only=1"
                : "sessionVariables=transaction_read_only=1&readOnlyPropagatesToServer=false";
    }

    // ---- finding the configuration ----

    @Test
    void J8_theConfigurationIsFoundInTheDocumentedOrder(@TempDir Path dir) throws Exception {
        Path given = dir.resolve("given.json");
        Path property = dir.resolve("property.json");
        Path variable = dir.resolve("variable.json");
        Path resources = Files.createDirectories(dir.resolve("classpath"));
        Path resource = resources.resolve("llmsafe.json");
        for (Path p : new Path[] {given, property, variable, resource}) {
            Files.writeString(p, config("jdbc:sqlite:" + p.getFileName()));
        }
        try (URLClassLoader withResource = new URLClassLoader(new URL[] {resources.toUri().toURL()}, null);
                URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            ConfigDiscovery all = new ConfigDiscovery(k -> k.equals("llmsafe.config") ? property.toString() : null,
                    k -> k.equals("LLMSAFE_CONFIG") ? variable.toString() : null, withResource);
            assertThat(all.locate(given.toString()).path()).isEqualTo(given);
            assertThat(all.locate(null).path()).isEqualTo(property);
            ConfigDiscovery noProperty = new ConfigDiscovery(k -> null,
                    k -> k.equals("LLMSAFE_CONFIG") ? variable.toString() : null, withResource);
            assertThat(noProperty.locate(null).path()).isEqualTo(variable);
            ConfigDiscovery onlyResource = new ConfigDiscovery(k -> null, k -> null, withResource);
            ConfigDiscovery.Location found = onlyResource.locate(" ");
            assertThat(found.resource()).isEqualTo(resource.toUri().toURL());
            // A file's relative SQLite path is the file's; a resource's is the working directory's.
            assertThat(onlyResource.load(found).connection().url())
                    .isEqualTo("jdbc:sqlite:" + Path.of("llmsafe.json").toAbsolutePath());
            assertThat(all.load(all.locate(given.toString())).connection().url())
                    .isEqualTo("jdbc:sqlite:" + dir.resolve("given.json"));
            ConfigDiscovery none = new ConfigDiscovery(k -> null, k -> null, empty);
            assertThatThrownBy(() -> none.locate(null)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("llmsafe found no configuration").hasMessageContaining("llmsafe.config")
                    .hasMessageContaining("LLMSAFE_CONFIG").hasMessageContaining("class path");
        }
    }

    @Test
    void J8_theClassPathIsTheConnectingThreadsNotTheOneThatLoadedTheDriver(@TempDir Path dir) throws Exception {
        Path resources = Files.createDirectories(dir.resolve("app-classes"));
        Files.writeString(resources.resolve("llmsafe.json"), config("jdbc:sqlite:app.db"));
        // Made here, as DriverManager makes the driver's, before the application's class loader exists.
        ConfigDiscovery standard = ConfigDiscovery.standard();
        try (URLClassLoader application = new URLClassLoader(new URL[] {resources.toUri().toURL()}, null)) {
            AtomicReference<Object> seen = new AtomicReference<>();
            Thread request = new Thread(() -> {
                try {
                    seen.set(standard.locate(null).resource());
                } catch (SQLException e) {
                    seen.set(e);
                }
            });
            request.setContextClassLoader(application);
            request.start();
            request.join();
            assertThat(seen.get()).isEqualTo(resources.resolve("llmsafe.json").toUri().toURL());
        }
    }

    private static String config(String url) {
        return "{\"connection\": {\"url\": \"" + url + "\"}, \"policy\": {\"allow\": [\"orders\"]}}";
    }

    @Test
    void J8_withoutAConfigurationTheDriverRefusesToConnect() throws SQLException {
        Guarded g = guarded(Engine.SQLITE);
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            LlmSafeDriver d = new LlmSafeDriver(new Engines(PlanSinkFactory.STORE),
                    new ConfigDiscovery(k -> null, k -> null, empty));
            String url = DriverUrl.PREFIX + g.db.url().substring("jdbc:".length());
            assertThatThrownBy(() -> d.connect(url, new Properties())).isInstanceOf(SQLException.class)
                    .hasMessageContaining("llmsafe found no configuration");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void J8_aBrokenConfigurationNamesItsFileAndLine(@TempDir Path dir) throws Exception {
        Guarded g = guarded(Engine.SQLITE);
        Path bad = dir.resolve("llmsafe.json");
        Files.writeString(bad, "{\n  \"connection\": {\"url\": \"jdbc:sqlite:x.db\"},\n  \"policy\": {\"allow\": [\"orders\"],"
                + " \"maxUpdateRow\": 5}\n}");
        String url = DriverUrl.PREFIX + g.db.url().substring("jdbc:".length()) + "?llmsafe.config=" + bad;
        assertThatThrownBy(() -> DriverManager.getConnection(url)).isInstanceOf(SQLException.class)
                .hasMessageContaining(bad.toString() + ":3").hasMessageContaining("maxUpdateRows");
    }

    // ---- engines ----

    @ParameterizedTest
    @EnumSource(Engine.class)
    void J8_enginesAreSharedPerConfigurationUrlAndCredentialAndCloseWithTheirLastConnection(Engine engine)
            throws SQLException {
        Guarded g = guarded(engine);
        Guarded other = Guarded.of(g.db, POLICY);
        Engines engines = new Engines((config, pool, dialect) -> Guarded.SINK);
        LlmSafeDriver d = new LlmSafeDriver(engines, ConfigDiscovery.standard());
        Connection a = d.connect(g.url(), g.credentials());
        Connection b = d.connect(g.url(), g.credentials());
        assertThat(engines.open()).isEqualTo(1);
        try (Statement s = a.createStatement()) {
            // The first proposal opens the engine's dry-run pool.
            g.plannedUnchanged(() -> s.executeUpdate("UPDATE orders SET status = 'x' WHERE id = 1"));
        }
        Connection c = d.connect(other.url(), g.credentials());
        assertThat(engines.open()).isEqualTo(2);
        a.close();
        assertThat(engines.open()).isEqualTo(2);
        b.close();
        c.close();
        assertThat(engines.open()).isZero();
        // A connection that cannot be guarded releases its engine too.
        assertThatThrownBy(() -> d.connect(g.url("llmsafe.nope=1"), g.credentials())).isInstanceOf(SQLException.class);
        assertThat(engines.open()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"POSTGRES", "MYSQL"})
    void R3_readsRunOnTheConfiguredReadConnectionAsItsOwnRole(Engine engine) throws SQLException {
        Guarded g = guarded(engine);
        TestRole reader = engine == Engine.POSTGRES
                ? g.db.createRole("GRANT USAGE ON SCHEMA {db} TO {role}", "GRANT SELECT ON {db}.orders TO {role}")
                : g.db.createRole("GRANT SELECT ON {db}.orders TO {role}");
        Guarded withReader = Guarded.of(g.db, POLICY, b -> b.readConnection(ConnectionSettings.of(g.db.url(),
                reader.name(), reader.password())).schema(g.engine() == Engine.POSTGRES ? g.db.name() : "x"));
        try (Connection c = withReader.connect()) {
            String user = ReadTest.rows(c, engine == Engine.POSTGRES ? "SELECT current_user" : "SELECT CURRENT_USER()").get(0);
            assertThat(user).startsWith(reader.name());
            assertThat(ReadTest.rows(c, "SELECT status FROM orders WHERE id = 1")).containsExactly("packed");
            try (Statement s = c.createStatement()) {
                // Writes are still planned on the engine's own connection, with the application's credential.
                PlanPendingException p = withReader.plannedUnchanged(() -> s.executeUpdate(
                        "UPDATE orders SET status = 'x' WHERE id = 2"));
                assertThat(p.plan().statements()).hasSize(1);
            }
        }
    }
}
